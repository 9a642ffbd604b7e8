// Rates across a reconnect, over a fake pmcd that drops every connection (as a pmcd restart
// does) while its counter jumps: the LiveContext's results carry the connection's epoch, and
// neither a fetchgroup nor a derived rate() pairs values from two connections — the first
// sample after the reconnect has no rate, as with pmval, whose fetch fails first
// (pdu-protocol.md §5.2). The CLI and worker sides are in src/cli/values-sampler-reconnect.test.ts
// and src/workers/live-watch-reconnect.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { DerivedContext } from '../derived/derived-context';
import { DerivedRegistry } from '../derived/registry';
import { PM_ERR_AGAIN } from '../errors';
import { FetchGroup } from '../fetchgroup/fetch-group';
import { PM_TYPE_DOUBLE, type PmId } from '../types';
import { reconnectingFake } from './testing/reconnecting-fake';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.close();
});

describe('rates across a reconnect', () => {
  it('results carry the epoch: 1, then 2 after pmcd dropped the connection', async () => {
    const fake = reconnectingFake();
    const ctx = await fake.open();
    opened.push(ctx);
    const [id] = (await ctx.lookupNames(['sample.counter'])) as PmId[];
    expect((await ctx.fetch([id])).epoch).toBe(1);
    expect(ctx.epoch).toBe(1);
    await fake.restart(ctx);
    expect((await ctx.fetch([id])).epoch).toBe(2);
    expect(ctx.epoch).toBe(2);
  });

  it('a fetchgroup rate starts afresh after a reconnect (PM_ERR_AGAIN, then rates)', async () => {
    const fake = reconnectingFake();
    const ctx = await fake.open();
    const fg = new FetchGroup(ctx);
    opened.push({ close: () => fg.destroy() });
    const item = await fg.extendItem('sample.counter', PM_TYPE_DOUBLE);
    const statuses: number[] = [];
    const values: number[] = [];
    const sample = async (): Promise<void> => {
      await fg.fetch();
      statuses.push(item.status);
      values.push(Number(item.value));
    };
    await sample();
    await new Promise((r) => setTimeout(r, 20));
    await sample();
    await fake.restart(ctx);
    await sample();
    await new Promise((r) => setTimeout(r, 20));
    await sample();
    expect(statuses).toEqual([PM_ERR_AGAIN, 0, PM_ERR_AGAIN, 0]);
    // 100 per fetch, over the time between fetches: never the jump of the restart.
    for (const k of [1, 3]) expect(values[k]).toBeLessThan(100 / 0.015);
  });

  it('a derived rate() starts afresh after a reconnect, as after pmReconnectContext', async () => {
    const fake = reconnectingFake();
    const inner = await fake.open();
    const registry = new DerivedRegistry();
    const r = registry.register('my.rate', 'rate(sample.counter)');
    expect(r.ok).toBe(true);
    const ctx = new DerivedContext(inner, { registry });
    opened.push(ctx);
    const [id] = (await ctx.lookupNames(['my.rate'])) as PmId[];
    const numvals: number[] = [];
    for (let k = 0; k < 4; k++) {
      if (k === 2) await fake.restart(inner);
      else if (k > 0) await new Promise((res) => setTimeout(res, 20));
      const res = await ctx.fetch([id]);
      numvals.push(res.sets[0]?.numval ?? -1);
      expect(res.epoch).toBe(k < 2 ? 1 : 2);
      if ((res.sets[0]?.numval ?? 0) > 0) expect(Number(res.sets[0]?.values[0])).toBeLessThan(100 / 0.015);
    }
    expect(numvals).toEqual([0, 1, 0, 1]);
  });
});

