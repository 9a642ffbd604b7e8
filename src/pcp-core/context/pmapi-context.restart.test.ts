// pmcd restarted under a live host read through pmproxy's /pmapi (issue 15 item 5): the
// PmapiContext (through a throwaway pmproxy, test/throwaway-pmproxy.ts) reports the lost
// connection while pmproxy cannot reach pmcd, then carries on with a new pmproxy context
// and epoch — values of the new pmcd, the instance profile still applied here. The
// `restart` vitest project runs *.restart.test.ts files alone; this one always leaves pmcd
// running. (The e2e twin, e2e/fleet-live.spec.ts, stops and starts its own pmproxy instead.)
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePmcd, runTool } from '../../../test/oracle';
import { startThrowawayPmproxy } from '../../../test/throwaway-pmproxy';
import { FleetTransport } from '../fleet/transport';
import type { Desc, PmId, Result } from '../types';
import { PmapiContext } from './pmapi-context';

describe('pmcd restarted under a /pmapi live host', () => {
  afterAll(ensurePmcd, 120_000);

  it('reports the connection lost and carries on with the new pmcd', async () => {
    await ensurePmcd();
    const px = await startThrowawayPmproxy();
    try {
      const ctx = await PmapiContext.open(new FleetTransport({ baseUrl: px.url, fetch, timeoutMs: 10_000 }), { hostspec: 'localhost' });
      const states: string[] = [];
      ctx.on('connection', (e) => states.push(e.state));
      const ids = (await ctx.lookupNames(['kernel.all.load', 'hinv.ncpu', 'pmcd.pid'])) as PmId[];
      const [load] = (await ctx.lookupDescs(ids)) as Desc[];
      ctx.changeProfile({ op: 'add', indom: load?.indom ?? null, instances: [15] });
      const before = await ctx.fetch(ids);
      expect([...(before.sets[0]?.inst ?? [])]).toEqual([15]);
      const restart = await runTool('/etc/init.d/pmcd', ['restart'], { timeoutMs: 120_000 });
      expect(restart.status, restart.stderr).toBe(0);
      // The live feed fetches once per interval: so does this loop, until values come again
      // from the new pmcd (pmcd.pid changes).
      let after: Result | undefined;
      const failures: string[] = [];
      for (let i = 0; i < 60 && after === undefined; i++) {
        try {
          const r = await ctx.fetch(ids);
          if (r.sets[2]?.numval === 1 && r.sets[2].values[0] !== before.sets[2]?.values[0]) after = r;
        } catch (e) {
          // pmproxy cannot reach pmcd yet: the context reports it (states), the next fetch retries.
          failures.push(e instanceof Error ? e.message : String(e));
        }
        if (after === undefined) await new Promise((r) => setTimeout(r, 1000));
      }
      expect(after, `no fetch from the new pmcd; connection states ${states.join(', ')}; failures ${failures.slice(-3).join(' | ')}`).toBeDefined();
      expect([...(after?.sets[0]?.inst ?? [])]).toEqual([15]);
      expect(after?.sets[1]?.values[0]).toBeGreaterThan(0);
      expect(ctx.connectionState).toBe('connected');
      await ctx.close();
    } finally {
      await px.stop();
    }
  }, 240_000);
});
