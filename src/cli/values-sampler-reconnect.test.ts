// `pmdash values -h` sampling across a reconnect: a fake pmcd drops the connection between two
// samples while its counter jumps; the LiveContext reconnects before the next sample, so no
// fetch fails, yet that sample has no rate — as with pmval, whose fetch would have failed
// (pdu-protocol.md §5.2, Result.epoch) — and the one after has an ordinary rate again.
import { describe, expect, it } from 'vitest';
import { reconnectingFake } from '../pcp-core/context/testing/reconnecting-fake';
import type { Desc, PmId } from '../pcp-core/types';
import { sampleBatches, type SampledMetric } from './values-sampler';

describe('values sampling across a reconnect', () => {
  it('gives no rate for the first sample on the new connection', async () => {
    const fake = reconnectingFake();
    const ctx = await fake.open();
    try {
      const ids = (await ctx.lookupNames(['sample.counter'])) as PmId[];
      const [desc] = (await ctx.lookupDescs(ids)) as Desc[];
      if (!desc) throw new Error('no descriptor');
      const metric: SampledMetric = { name: 'sample.counter', desc, rate: true, instName: () => '' };
      const rates: Array<number | bigint | string | null> = [];
      let k = 0;
      // Live, each batch is one sample: the restart happens between the 2nd and 3rd fetch.
      for await (const batch of sampleBatches(ctx, [metric], ids, { origin: { sec: 0, nsec: 0 }, deltaNs: 100_000_000n, samples: 4, archive: false, counterWrap: false })) {
        for (const s of batch) {
          rates.push(s.values[0]?.[0]?.[1] ?? null);
          if (k++ === 1) await fake.restart(ctx);
        }
      }
      expect(rates[0]).toBeNull();
      expect(rates[2]).toBeNull();
      // 100 per fetch over ~100 ms; never the restart's jump of a million.
      for (const k2 of [1, 3]) expect(Number(rates[k2])).toBeGreaterThan(0);
      for (const k2 of [1, 3]) expect(Number(rates[k2])).toBeLessThan(2000);
    } finally {
      await ctx.close();
    }
  });
});
