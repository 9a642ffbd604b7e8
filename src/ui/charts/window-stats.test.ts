import { describe, expect, it } from 'vitest';
import { topKeys, windowStats } from './window-stats';

const f = (xs: number[]): Float64Array => Float64Array.from(xs);

describe('windowStats', () => {
  it('takes min, max, mean and last of the rows in the window, skipping missing values', () => {
    const s = windowStats(f([0, 10, 20, 30, 40]), f([5, NaN, 1, 9, 7]), 5, 35, false, 10);
    expect(s).toEqual({ min: 1, max: 9, avg: 5, last: 9, count: 2 });
  });

  it('weights rates by the time since the previous row', () => {
    // 10 s of 1, then a 30 s gap whose rate is 5: the average over 40 s is (10 + 150) / 40.
    const s = windowStats(f([0, 10, 40]), f([NaN, 1, 5]), 0, 40, true, 10);
    expect(s.avg).toBeCloseTo(160 / 40, 12);
    expect(windowStats(f([0, 10, 40]), f([NaN, 1, 5]), 0, 40, false, 10).avg).toBe(3);
  });

  it('says nothing for a window without values', () => {
    expect(windowStats(f([0, 10]), f([1, 2]), 20, 30, false, 10).count).toBe(0);
    expect(windowStats(f([0, 10]), f([1, 2]), 20, 30, false, 10).avg).toBeNaN();
  });
});

describe('topKeys', () => {
  it('keeps the n largest per group, NaN last', () => {
    const items = [
      { key: 'a', group: 'p1', v: 3 },
      { key: 'b', group: 'p1', v: NaN },
      { key: 'c', group: 'p1', v: 7 },
      { key: 'd', group: 'p1', v: 5 },
      { key: 'e', group: 'p2', v: 1 },
    ];
    expect([...topKeys(items, (i) => i.v, 2)].sort()).toEqual(['c', 'd', 'e']);
    expect([...topKeys(items, (i) => i.v, 4)].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
