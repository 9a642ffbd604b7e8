// The fleet client's small parts: answer checks, timestamps, query texts, the limiter, the
// series cache and the per-pixel thinning.
import { describe, expect, it } from 'vitest';
import { decodeDescs, decodeIds, decodeValues, parseSeriesTimestamp } from './answers';
import { decimateLine } from './decimate';
import { Limiter } from './limiter';
import { chartExpr, checkMetricPattern, formatTimeSpec, quoteLabelValue } from './query-expr';
import { SeriesCache } from './series-cache';

const ID = 'a'.repeat(40);
const URL_ = 'http://p/series/query';

describe('answers', () => {
  it('reads pmproxy timestamps as milliseconds plus an unpadded microsecond count', () => {
    expect(parseSeriesTimestamp('1357328661336.63')).toEqual({ sec: 1357328661, nsec: 336_063_000 });
    expect(parseSeriesTimestamp('1357328661336.630')).toEqual({ sec: 1357328661, nsec: 336_630_000 });
    expect(parseSeriesTimestamp('1357328661336')).toEqual({ sec: 1357328661, nsec: 336_000_000 });
    expect(parseSeriesTimestamp('1357328661336.123456')).toEqual({ sec: 1357328661, nsec: 336_123_456 });
    expect(parseSeriesTimestamp('1e3')).toBeUndefined();
    expect(parseSeriesTimestamp('-1')).toBeUndefined();
  });

  it('refuses answers of the wrong shape, naming the URL and element', () => {
    expect(() => decodeIds({}, URL_)).toThrow(/expected a JSON array of series ids/);
    expect(() => decodeIds([ID, 'zz'], URL_)).toThrow('element 1 is not a series id');
    expect(() => decodeValues([{ series: ID, timestamp: 5, value: '1' }], URL_)).toThrow('element 0 has no timestamp of the form MS[.USEC]');
    expect(() => decodeValues([{ series: ID, timestamp: '5', value: 1 }], URL_)).toThrow('element 0 has no string "value"');
    expect(() => decodeDescs([null], URL_)).toThrow('element 0 is not a descriptor object');
    try {
      decodeIds(7, URL_);
    } catch (e) {
      expect((e as { context: string }).context).toBe(URL_);
    }
  });

  it('drops the empty instance id that functions answer with', () => {
    const [v] = decodeValues([{ series: ID, instance: '', timestamp: '1000.5', value: '3' }], URL_);
    expect(v).toEqual({ series: ID, time: { sec: 1, nsec: 5000 }, timestampMs: 1000.005, value: '3' });
  });
});

describe('query texts', () => {
  it('checks metric patterns and label values', () => {
    expect(checkMetricPattern('kernel.all.*')).toBe('kernel.all.*');
    expect(() => checkMetricPattern('kernel{hostname:"x"}')).toThrow(/bad metric name or pattern/);
    expect(() => checkMetricPattern('a b')).toThrow();
    expect(quoteLabelValue('web-1.example.org')).toBe('"web-1.example.org"');
    expect(() => quoteLabelValue('a"} || hostname:"b')).toThrow(/cannot be put in a pmseries query/);
    expect(() => quoteLabelValue('a\\')).toThrow();
  });

  it('gives functions no subsampled operands (pmproxy 6.0.3 dies of them)', () => {
    const w = { startSec: 1357328659.5, finishSec: 1357328668, intervalSec: 4 };
    expect(formatTimeSpec(w)).toBe('[start:1357328659.5,finish:1357328668,interval:4]');
    expect(chartExpr('a.b', 'h', w, false, 'none')).toBe('a.b{hostname:"h"}[start:1357328659.5,finish:1357328668,interval:4]');
    expect(chartExpr('a.b', 'h', w, true, 'none')).toBe('rate(a.b{hostname:"h"}[start:1357328659.5,finish:1357328668])');
    expect(chartExpr('a.b', 'h', w, false, 'sum')).toBe('sum_sample(a.b{hostname:"h"}[start:1357328659.5,finish:1357328668])');
    expect(chartExpr('a.b', 'h', w, true, { topk: 3 })).toBe('topk_sample(rate(a.b{hostname:"h"}[start:1357328659.5,finish:1357328668]),3)');
    expect(() => chartExpr('a.b', 'h', w, true, { topk: 0 })).toThrow(/bad top-N/);
  });
});

describe('Limiter', () => {
  it('holds at most N, in arrival order', async () => {
    const l = new Limiter(2);
    const order: number[] = [];
    const r1 = await l.acquire();
    const r2 = await l.acquire();
    const p3 = l.acquire().then((r) => (order.push(3), r));
    const p4 = l.acquire().then((r) => (order.push(4), r));
    expect(l.inFlight).toBe(2);
    r1();
    r1(); // a second release of the same place is a no-op
    (await p3)();
    r2();
    (await p4)();
    expect(order).toEqual([3, 4]);
    expect(l.inFlight).toBe(0);
  });

  it('listens to a signal once however many waiters share it, and drops them all when it aborts', async () => {
    const l = new Limiter(1);
    const held = await l.acquire();
    const c = new AbortController();
    let listeners = 0;
    const add = c.signal.addEventListener.bind(c.signal);
    c.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof c.signal.addEventListener;
    const waiters = Array.from({ length: 50 }, () => l.acquire(c.signal));
    expect(listeners).toBe(1);
    expect(l.watchedSignals).toBe(1);
    c.abort();
    const settled = await Promise.allSettled(waiters);
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    expect(l.watchedSignals).toBe(0);
    held();
    expect(l.inFlight).toBe(0);
  });

  it('stops listening once the last waiter on a signal is granted', async () => {
    const l = new Limiter(1);
    const held = await l.acquire();
    const c = new AbortController();
    const next = l.acquire(c.signal);
    expect(l.watchedSignals).toBe(1);
    held();
    (await next)();
    expect(l.watchedSignals).toBe(0);
    c.abort(); // late abort: nothing waits any more
    expect(l.inFlight).toBe(0);
  });
});

describe('SeriesCache', () => {
  it('keeps the most recently used entries up to its bound', () => {
    const c = new SeriesCache<number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1);
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    expect(c.size).toBe(2);
  });
});

describe('decimateLine', () => {
  it('keeps each pixel column’s lowest and highest sample, in time order', () => {
    const timesMs = Float64Array.from({ length: 100 }, (_, i) => i * 10);
    const values = Float64Array.from({ length: 100 }, (_, i) => Math.sin(i) * i);
    const out = decimateLine({ timesMs, values }, 0, 1000, 10);
    expect(out.timesMs.length).toBeLessThanOrEqual(20);
    for (let col = 0; col < 10; col++) {
      const inCol = Array.from(values.slice(col * 10, col * 10 + 10));
      const kept = Array.from(out.values).filter((_, k) => Math.floor(out.timesMs[k] / 100) === col);
      expect(kept.sort((a, b) => a - b)).toEqual([Math.min(...inCol), Math.max(...inCol)]);
    }
    expect([...out.timesMs]).toEqual([...out.timesMs].sort((a, b) => a - b));
  });

  it('leaves short lines alone', () => {
    const line = { timesMs: new Float64Array([1, 2, 3]), values: new Float64Array([1, 2, 3]) };
    expect(decimateLine(line, 0, 10, 2)).toBe(line);
  });
});
