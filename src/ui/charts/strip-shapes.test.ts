// A live strip's geometry (strip-shapes.ts): where each series' points and band bases land in the strip's
// pixels, as ECharts placed them from the same option (grid margins, y ranges, stacking per
// axis, missing values breaking the line).
import { describe, expect, it } from 'vitest';
import type { ChartStyle } from '../state/model';
import type { DisplayZone } from '../time/zone';
import type { DisplaySeries } from './chart-series';
import { runs, shapes, type StripInput } from './strip-shapes';

/** The grid's top margin (chart-option.ts STRIP_TOP). */
const STRIP_TOP = 10;

const UTC: DisplayZone = { label: 'UTC', offsetMinutes: () => 0 };

function series(key: string, values: number[], axis: 0 | 1 = 0): DisplaySeries {
  const v = Float64Array.from(values);
  return { key, plotId: key, label: key, color: '#000', hidden: false, times: Float64Array.from(values.map((_, i) => i * 1000)), values: v, drawn: v, step: false, axis, units: '', offsetMs: 0 };
}

function input(style: ChartStyle, list: DisplaySeries[], y2?: { min: number; max: number }): StripInput {
  return {
    data: { series: list },
    style,
    y: { min: 0, max: 100, ticks: [0, 50, 100] },
    y2: y2 ? { ...y2, ticks: [] } : undefined,
    zone: UTC,
    r0Ms: 0,
    r1Ms: 4000,
  };
}

// 400 px wide strip over 4 s: 100 px per second; plot 100 px tall: 1 px per unit.
const W = 400;
const H = 100;
const py = (v: number): number => STRIP_TOP + (1 - v / 100) * H;

describe('live strip shapes', () => {
  it('places a line series by time and value, with its area down to zero', () => {
    const [s] = shapes(input('area', [series('a', [0, 50, 100])]), W, H, STRIP_TOP);
    expect(Array.from(s?.xs ?? [])).toEqual([0, 100, 200]);
    expect(Array.from(s?.tops ?? [])).toEqual([py(0), py(50), py(100)]);
    expect(Array.from(s?.bases ?? [])).toEqual([py(0), py(0), py(0)]);
  });

  it('stacks each series on the ones before it, a missing value counting as nothing below', () => {
    const [a, b] = shapes(input('stacked-area', [series('a', [10, NaN, 30]), series('b', [20, 20, 20])]), W, H, STRIP_TOP);
    expect(Array.from(a?.tops ?? [])).toEqual([py(10), NaN, py(30)]);
    expect(Array.from(b?.bases ?? [])).toEqual([py(10), py(0), py(30)]);
    expect(Array.from(b?.tops ?? [])).toEqual([py(30), py(20), py(50)]);
  });

  it('does not stack unstacked styles', () => {
    const [, b] = shapes(input('line', [series('a', [10, 10]), series('b', [20, 20])]), W, H, STRIP_TOP);
    expect(Array.from(b?.tops ?? [])).toEqual([py(20), py(20)]);
  });

  it('draws a right-axis series against the right range', () => {
    const [s] = shapes(input('line', [series('r', [5], 1)], { min: 0, max: 10 }), W, H, STRIP_TOP);
    expect(s?.tops[0]).toBe(STRIP_TOP + 0.5 * H);
  });

  it('keeps only the rows inside the strip and one either side', () => {
    const [s] = shapes({ ...input('line', [series('a', [1, 2, 3, 4, 5, 6, 7])]), r0Ms: 2500, r1Ms: 4500 }, W, H, STRIP_TOP);
    expect(Array.from(s?.xs ?? []).map((x) => Math.round(x))).toEqual([-100, 100, 300, 500]);
  });

  it('breaks runs at missing values', () => {
    expect(runs(Float64Array.from([1, 2, NaN, 3, NaN, NaN, 4, 5]))).toEqual([
      [0, 1],
      [3, 3],
      [6, 7],
    ]);
  });
});
