// pmcd restarted in the middle of a session (/etc/init.d/pmcd restart): a LiveContext over
// TCP and one through the bridge both see the connection drop, reconnect with back-off, and
// carry on — names and descriptors from their caches, the instance profile re-sent. The
// `restart` vitest project runs this file alone, and it always leaves pmcd running.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePmcd, runTool } from '../test/oracle';
import type { ConnectionEvent, LiveContext } from '../src/pcp-core/context/live-context';
import { bridgeUrl } from '../src/pcp-core/pdu/target-spec';
import type { Desc, PmId } from '../src/pcp-core/types';
import { openLiveContext } from '../src/node/open-live-context';
import { serveWithBridge } from './serve';

function when(ctx: LiveContext, state: ConnectionEvent['state']): Promise<ConnectionEvent> {
  return new Promise((resolve) => {
    const off = ctx.on('connection', (e) => {
      if (e.state === state) {
        off();
        resolve(e);
      }
    });
  });
}

describe('pmcd restarted mid-session', () => {
  afterAll(ensurePmcd, 120_000);

  it('reconnects over TCP and through the bridge and carries on', async () => {
    await ensurePmcd();
    const root = mkdtempSync(join(tmpdir(), 'pmdash-restart-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    const { server } = await serveWithBridge({ port: 0, host: '127.0.0.1', root, log: () => undefined });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const delays = { reconnectDelaysMs: [500, 1000, 2000] };
    const contexts = [await openLiveContext('localhost:44321', delays), await openLiveContext(bridgeUrl(`http://127.0.0.1:${port}`), delays)];
    try {
      for (const ctx of contexts) {
        const ids = (await ctx.lookupNames(['kernel.all.load', 'hinv.ncpu', 'pmcd.pid'])) as PmId[];
        const [load] = (await ctx.lookupDescs(ids)) as Desc[];
        ctx.changeProfile({ op: 'add', indom: load?.indom ?? null, instances: [15] });
        const r = await ctx.fetch(ids);
        expect([...(r.sets[0]?.inst ?? [])]).toEqual([15]);
      }
      const pidBefore = (await contexts[0]?.fetch((await contexts[0].lookupNames(['pmcd.pid'])) as PmId[]))?.sets[0]?.values[0];
      const reconnecting = contexts.map((c) => when(c, 'reconnecting'));
      const connected = contexts.map((c) => when(c, 'connected'));
      const restart = await runTool('/etc/init.d/pmcd', ['restart'], { timeoutMs: 120_000 });
      expect(restart.status, restart.stderr).toBe(0);
      await Promise.all(reconnecting);
      await Promise.all(connected);
      for (const ctx of contexts) {
        const ids = (await ctx.lookupNames(['kernel.all.load', 'hinv.ncpu', 'pmcd.pid'])) as PmId[];
        const r = await ctx.fetch(ids);
        // The profile went to the new pmcd before this fetch: still only instance 15.
        expect([...(r.sets[0]?.inst ?? [])]).toEqual([15]);
        expect(r.sets[1]?.values[0]).toBeGreaterThan(0);
        expect(r.sets[2]?.values[0]).not.toBe(pidBefore);
      }
    } finally {
      for (const c of contexts) await c.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      rmSync(root, { recursive: true, force: true });
    }
  });
});
