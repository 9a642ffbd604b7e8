// The cache's contract: padded windows, reuse while the visible range stays inside, newest
// wins while a request is in flight, stale answers dropped after the question changes.
import { describe, expect, it } from 'vitest';
import type { SeriesBlock } from '../../workers/engine-types';
import { FIRST_ROWS, fetchStep, firstTail, paddedWindow } from './buffered-window';
import { SeriesCache, type SeriesWish } from './series-cache';

function block(t0Ms: number, t1Ms: number, stepMs: number): SeriesBlock {
  return { t0Ms, t1Ms, stepMs, timestamps: new Float64Array(0), plots: [], columns: [] };
}

const wish = (t0Ms: number, t1Ms: number, metric = 'm'): SeriesWish => ({
  handle: 1, plots: [{ metric, instances: { kind: 'all' } }], rate: true,
  visible: { t0Ms, t1Ms }, bounds: { startMs: 0, endMs: 100_000 }, anchorMs: 0, stepMs: 1000,
});

/** A cache whose fetches wait until released in turn (`release`), noting each request. */
function heldCache(): { cache: SeriesCache; asked: [number, number, string[]][]; release: () => void } {
  const asked: [number, number, string[]][] = [];
  const resolvers: (() => void)[] = [];
  const cache = new SeriesCache((req) => {
    asked.push([req.t0Ms, req.t1Ms, req.plots.map((p) => p.metric)]);
    return new Promise((res) => resolvers.push(() => res(block(req.t0Ms, req.t1Ms, req.stepMs))));
  });
  return { cache, asked, release: () => resolvers.shift()?.() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('SeriesCache', () => {
  it('pads, reuses, and keeps only the newest wish while busy', async () => {
    const { cache, asked, release } = heldCache();
    cache.want('c', 's', wish(20_000, 30_000));
    await tick();
    // The first request is the visible window only.
    expect(asked.map(([t0, t1]) => [t0, t1])).toEqual([[20_000, 30_000]]);
    cache.want('c', 's', wish(21_000, 31_000));
    cache.want('c', 's', wish(60_000, 70_000));
    expect(asked).toHaveLength(1);
    release();
    await tick();
    await tick();
    expect(asked.map(([t0, t1]) => [t0, t1])).toEqual([[20_000, 30_000], [55_000, 75_000]]);
    release();
    await tick();
    expect(cache.get('c', 's').block?.t0Ms).toBe(55_000);
    cache.want('c', 's', wish(57_000, 67_000));
    await tick();
    expect(asked).toHaveLength(2);
  });

  it('keeps the block it has when the chart moves back into it while a read for elsewhere runs (End, then Home)', async () => {
    const { cache, asked, release } = heldCache();
    cache.want('c', 's', wish(20_000, 30_000));
    await tick();
    release();
    await tick();
    // End: a read for 80–90 s starts; a step on queues behind it; Home comes back to 20–30 s.
    cache.want('c', 's', wish(80_000, 90_000));
    await tick();
    cache.want('c', 's', wish(85_000, 95_000));
    cache.want('c', 's', wish(20_000, 30_000));
    release();
    await tick();
    await tick();
    expect(cache.get('c', 's').block).toMatchObject({ t0Ms: 20_000, t1Ms: 30_000 });
    expect(cache.get('c', 's').loading).toBe(false);
    // Nothing more was asked: the stale step on was forgotten.
    expect(asked).toHaveLength(2);
  });

  it('sends the same tick\'s requests for one window as one fetch and splits the answer', async () => {
    const calls: string[][] = [];
    const cache = new SeriesCache((req) => {
      calls.push(req.plots.map((p) => p.metric));
      const n = 2;
      return Promise.resolve({
        t0Ms: req.t0Ms, t1Ms: req.t1Ms, stepMs: req.stepMs, timestamps: new Float64Array(n),
        plots: req.plots.map((p) => ({ metric: p.metric, sem: 3, type: 5, units: { units: { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 }, text: '', utilization: false } })),
        columns: req.plots.map((p, i) => ({ plot: i, instId: -1, instName: '', values: Float64Array.of(i, i) })),
      });
    });
    cache.want('a', 's', wish(20_000, 30_000, 'x'));
    cache.want('b', 's', wish(20_000, 30_000, 'y'));
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual([['x', 'y']]);
    expect(cache.get('b', 's').block?.plots.map((p) => p.metric)).toEqual(['y']);
    expect(cache.get('b', 's').block?.columns.map((c) => [c.plot, c.values[0]])).toEqual([[0, 1]]);
  });

  it('drops an answer to a question that changed', async () => {
    let release: (() => void) | undefined;
    const cache = new SeriesCache((req) => new Promise((res) => (release = () => res(block(req.t0Ms, req.t1Ms, req.stepMs)))));
    cache.want('c', 's', wish(20_000, 30_000, 'a'));
    await new Promise((r) => setTimeout(r, 0));
    const first = release;
    cache.want('c', 's', wish(20_000, 30_000, 'b'));
    first?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.get('c', 's').block).toBeUndefined();
  });

  it('reads a block again where a followed archive grew past the end it was read with', async () => {
    const asked: [number, number][] = [];
    const cache = new SeriesCache((req) => {
      asked.push([req.t0Ms, req.t1Ms]);
      return Promise.resolve(block(req.t0Ms, req.t1Ms, req.stepMs));
    });
    const at = (endMs: number): SeriesWish => ({ ...wish(20_000, 26_000), bounds: { startMs: 0, endMs } });
    cache.want('c', 's', at(25_500));
    await tick();
    expect(asked).toEqual([[20_000, 26_000]]);
    // The same end: the block answers.
    cache.want('c', 's', at(25_500));
    await tick();
    expect(asked).toHaveLength(1);
    // The end grew inside the block's last step: read again.
    cache.want('c', 's', at(26_000));
    await tick();
    expect(asked).toHaveLength(2);
    // Grown past the block (read after the end moved): the block answers again.
    cache.want('c', 's', at(26_000));
    await tick();
    expect(asked).toHaveLength(2);
  });

  it('clamps to the bounds and samples wide windows coarser', () => {
    expect(paddedWindow({ t0Ms: -5000, t1Ms: 5000 }, { startMs: 0, endMs: 100_000 }, 0, 1000)).toEqual({ t0Ms: -1000, t1Ms: 10_000, stepMs: 1000 });
    expect(fetchStep(3_600_000, 1000, 1500)).toBe(3000);
    expect(fetchStep(600_000, 1000, 1500)).toBe(1000);
  });

  it('trims the least recently wanted blocks to what they show once over its budget', async () => {
    // Blocks with one row per step over the window asked, one column.
    const rows = (req: { t0Ms: number; t1Ms: number; stepMs: number }): SeriesBlock => {
      const ts = Float64Array.from({ length: (req.t1Ms - req.t0Ms) / req.stepMs + 1 }, (_, i) => req.t0Ms + i * req.stepMs);
      return { t0Ms: req.t0Ms, t1Ms: req.t1Ms, stepMs: req.stepMs, timestamps: ts, plots: [], columns: [{ plot: 0, instId: -1, instName: '', values: ts.map((t) => t / 1000) }] };
    };
    // Room for 45 rows (16 bytes each: a timestamp and a value): two padded windows of 21, not three.
    const budget = 45 * 16;
    const cache = new SeriesCache((req) => Promise.resolve(rows(req)), budget);
    for (const chart of ['a', 'b']) {
      cache.want(chart, 's', wish(20_000, 30_000, chart));
      await tick();
      cache.want(chart, 's', wish(21_000, 31_000, chart)); // moved: the padded window comes
      await tick();
      await tick();
    }
    expect(cache.get('a', 's').block?.timestamps.length).toBe(21); // 16 000 … 36 000
    expect(cache.get('b', 's').block?.timestamps.length).toBe(21);
    cache.want('c', 's', wish(20_000, 30_000, 'c'));
    await tick();
    cache.want('c', 's', wish(21_000, 31_000, 'c'));
    await tick();
    await tick();
    // a, the least recently wanted, went first, then b: each keeps only its visible rows
    // (21 000 … 31 000) and their values; c, just answered, keeps its padding.
    const a = cache.get('a', 's').block;
    expect(a && [...a.timestamps]).toEqual(Array.from({ length: 11 }, (_, i) => 21_000 + i * 1000));
    expect(a && [...a.columns[0].values]).toEqual(Array.from({ length: 11 }, (_, i) => 21 + i));
    expect(cache.get('b', 's').block?.timestamps.length).toBe(11);
    expect(cache.get('c', 's').block?.timestamps.length).toBe(21);
    expect(cache.bytes).toBeLessThanOrEqual(budget);
    // What a shows is still covered: no new request when it stays put.
    const before = cache.bytes;
    cache.want('a', 's', wish(21_000, 31_000, 'a'));
    await tick();
    expect(cache.bytes).toBe(before);
  });

  // A long archive: 1 s samples over 1000 s.
  const longWish = (t0Ms: number, t1Ms: number, metric = 'm', stepMs = 1000): SeriesWish => ({ ...wish(t0Ms, t1Ms, metric), bounds: { startMs: 0, endMs: 1_000_000 }, stepMs });

  it('answers a chart\'s first long window with its last samples first, then the whole window', async () => {
    const { cache, asked, release } = heldCache();
    // 301 samples: more than twice FIRST_ROWS, for two charts of one tab.
    cache.want('a', 's', longWish(0, 300_000, 'x'));
    cache.want('b', 's', longWish(0, 300_000, 'y'));
    await tick();
    const tailT0 = 300_000 - (FIRST_ROWS - 1) * 1000;
    // One fetch for both charts per part, the end of the window asked first.
    expect(asked).toEqual([[tailT0, 300_000, ['x', 'y']], [0, 300_000, ['x', 'y']]]);
    release();
    await tick();
    expect(cache.get('a', 's').block?.t0Ms).toBe(tailT0);
    // Still loading: the whole window is on its way.
    expect(cache.get('a', 's').loading).toBe(true);
    release();
    await tick();
    expect(cache.get('b', 's').block?.t0Ms).toBe(0);
    expect(cache.get('b', 's').loading).toBe(false);
    // The window held now covers the visible one: nothing more is asked.
    cache.want('a', 's', longWish(0, 300_000, 'x'));
    await tick();
    expect(asked).toHaveLength(2);
  });

  it('asks a short first window whole, and a chart that has data its padded window in one request', async () => {
    const asked: [number, number][] = [];
    const cache = new SeriesCache((req) => {
      asked.push([req.t0Ms, req.t1Ms]);
      return Promise.resolve(block(req.t0Ms, req.t1Ms, req.stepMs));
    });
    cache.want('c', 's', longWish(100_000, 200_000));
    await tick();
    expect(asked).toEqual([[100_000, 200_000]]);
    // Long, at a coarser step, but the chart has its block: the padded window, in one request.
    cache.want('c', 's', longWish(100_000, 500_000, 'm', 2000));
    await tick();
    // (Clamped to a step before the start, as every window is.)
    expect(asked).toEqual([[100_000, 200_000], [-2000, 700_000]]);
    expect(firstTail({ t0Ms: 0, t1Ms: 2 * FIRST_ROWS * 1000, stepMs: 1000 })).toEqual({ t0Ms: (FIRST_ROWS + 1) * 1000, t1Ms: 2 * FIRST_ROWS * 1000, stepMs: 1000 });
    expect(firstTail({ t0Ms: 0, t1Ms: (2 * FIRST_ROWS - 1) * 1000, stepMs: 1000 })).toBeUndefined();
  });
});

describe('SeriesCache.waiting', () => {
  it('is true while a chart with data drawn waits for a new window, not yet asked or being read; false once answered or failed', async () => {
    const resolvers: ((ok: boolean) => void)[] = [];
    const cache = new SeriesCache((req) => new Promise((res, rej) => resolvers.push((ok) => (ok ? res(block(req.t0Ms, req.t1Ms, req.stepMs)) : rej(new Error('no'))))));
    const a = wish(20_000, 30_000);
    const b = wish(60_000, 70_000);
    // Nothing drawn yet: nothing to keep showing.
    expect(cache.waiting('c', 's', a)).toBe(false);
    cache.want('c', 's', a);
    await tick();
    expect(cache.waiting('c', 's', a)).toBe(false);
    resolvers.shift()?.(true);
    await tick();
    await tick();
    expect(cache.waiting('c', 's', a)).toBe(false);
    // A jump: waiting before the chart asks, and while it is read.
    expect(cache.waiting('c', 's', b)).toBe(true);
    cache.want('c', 's', b);
    await tick();
    expect(cache.waiting('c', 's', b)).toBe(true);
    resolvers.shift()?.(true);
    await tick();
    await tick();
    expect(cache.waiting('c', 's', b)).toBe(false);
    // A failed read does not keep the old window forever.
    const c = wish(80_000, 90_000);
    cache.want('c', 's', c);
    await tick();
    resolvers.shift()?.(false);
    await tick();
    await tick();
    expect(cache.waiting('c', 's', c)).toBe(false);
  });
});
