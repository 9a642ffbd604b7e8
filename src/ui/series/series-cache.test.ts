// The cache's contract: padded windows, reuse while the visible range stays inside, newest
// wins while a request is in flight, stale answers dropped after the question changes.
import { describe, expect, it } from 'vitest';
import type { SeriesBlock } from '../../workers/engine-types';
import { fetchStep, paddedWindow } from './buffered-window';
import { SeriesCache, type SeriesWish } from './series-cache';

function block(t0Ms: number, t1Ms: number, stepMs: number): SeriesBlock {
  return { t0Ms, t1Ms, stepMs, timestamps: new Float64Array(0), plots: [], columns: [] };
}

const wish = (t0Ms: number, t1Ms: number, metric = 'm'): SeriesWish => ({
  handle: 1, plots: [{ metric, instances: { kind: 'all' } }], rate: true,
  visible: { t0Ms, t1Ms }, bounds: { startMs: 0, endMs: 100_000 }, anchorMs: 0, stepMs: 1000,
});

describe('SeriesCache', () => {
  it('pads, reuses, and keeps only the newest wish while busy', async () => {
    const asked: [number, number][] = [];
    const resolvers: (() => void)[] = [];
    const cache = new SeriesCache((req) => {
      asked.push([req.t0Ms, req.t1Ms]);
      return new Promise((res) => resolvers.push(() => res(block(req.t0Ms, req.t1Ms, req.stepMs))));
    });
    cache.want('c', 's', wish(20_000, 30_000));
    expect(asked).toEqual([[10_000, 40_000]]);
    cache.want('c', 's', wish(21_000, 31_000));
    cache.want('c', 's', wish(60_000, 70_000));
    expect(asked).toHaveLength(1);
    resolvers.shift()?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual([[10_000, 40_000], [50_000, 80_000]]);
    resolvers.shift()?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.get('c', 's').block?.t0Ms).toBe(50_000);
    cache.want('c', 's', wish(55_000, 65_000));
    expect(asked).toHaveLength(2);
  });

  it('drops an answer to a question that changed', async () => {
    let release: (() => void) | undefined;
    const cache = new SeriesCache((req) => new Promise((res) => (release = () => res(block(req.t0Ms, req.t1Ms, req.stepMs)))));
    cache.want('c', 's', wish(20_000, 30_000, 'a'));
    const first = release;
    cache.want('c', 's', wish(20_000, 30_000, 'b'));
    first?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.get('c', 's').block).toBeUndefined();
  });

  it('clamps to the bounds and samples wide windows coarser', () => {
    expect(paddedWindow({ t0Ms: -5000, t1Ms: 5000 }, { startMs: 0, endMs: 100_000 }, 0, 1000)).toEqual({ t0Ms: -1000, t1Ms: 15_000, stepMs: 1000 });
    expect(fetchStep(3_600_000, 1000, 1500)).toBe(3000);
    expect(fetchStep(600_000, 1000, 1500)).toBe(1000);
  });
});
