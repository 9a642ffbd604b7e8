// The value axis drawn in the DOM beside the sliding strip: pmchart's autoscale (0 always in
// range), nice steps, fixed scales honoured exactly, stacked extents as ECharts stacks them.
import { describe, expect, it } from 'vitest';
import type { DisplaySeries } from './chart-series';
import { autoScale, drawnExtent, fixedScale, niceStep, rightAxisScale, yAxisScale } from './y-scale';

function series(values: number[], hidden = false, axis: 0 | 1 = 0): DisplaySeries {
  const v = Float64Array.from(values);
  return { key: String(values), plotId: 'p', label: 'l', color: '#000', hidden, times: Float64Array.from(values, (_, i) => i * 1000), values: v, drawn: v, step: false, axis, units: '', offsetMs: 0 };
}

describe('niceStep', () => {
  it('picks 1, 2, 3 or 5 × 10^k for about five intervals', () => {
    expect(niceStep(100)).toBe(20);
    expect(niceStep(6)).toBe(1);
    expect(niceStep(0.6)).toBeCloseTo(0.1, 12);
    expect(niceStep(15)).toBe(3);
    expect(niceStep(30)).toBe(5);
    expect(niceStep(4000)).toBe(1000);
  });

  it('falls back to 1 for empty or non-finite spans', () => {
    expect(niceStep(0)).toBe(1);
    expect(niceStep(NaN)).toBe(1);
    expect(niceStep(Infinity)).toBe(1);
  });
});

describe('autoScale', () => {
  it('always includes 0 and ends on the step', () => {
    expect(autoScale(3, 97)).toEqual({ min: 0, max: 100, ticks: [0, 20, 40, 60, 80, 100] });
    expect(autoScale(-12, -3).max).toBe(0);
    expect(autoScale(-12, -3).min).toBeLessThanOrEqual(-12);
  });

  it('gives a unit range when there is nothing or only zeros', () => {
    expect(autoScale(Infinity, -Infinity)).toEqual({ min: 0, max: 1, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] });
    expect(autoScale(0, 0).max).toBe(1);
  });

  it('keeps tick values free of binary noise', () => {
    const { ticks } = autoScale(0, 0.7);
    for (const t of ticks) expect(String(t).length).toBeLessThan(6);
  });
});

describe('fixedScale', () => {
  it('keeps the ends exactly, nice ticks inside', () => {
    expect(fixedScale(0, 7)).toEqual({ min: 0, max: 7, ticks: [0, 1, 2, 3, 4, 5, 6, 7] });
    const s = fixedScale(-3, 17);
    expect(s.ticks[0]).toBe(-3);
    expect(s.ticks[s.ticks.length - 1]).toBe(17);
    expect(s.ticks.slice(1, -1).every((t) => t % 5 === 0)).toBe(true);
  });
});

describe('drawnExtent', () => {
  it('takes each visible series on its own for unstacked styles, ignoring NaN', () => {
    expect(drawnExtent([series([1, NaN, 5]), series([-2, 3]), series([100], true)], 'line')).toEqual({ lo: -2, hi: 5 });
  });

  it('sums rows for stacked styles, positive and negative parts apart', () => {
    expect(drawnExtent([series([1, 2, -1]), series([3, NaN, -4])], 'stacked-area')).toEqual({ lo: -5, hi: 4 });
  });
});

describe('yAxisScale', () => {
  it('is 0–100 for utilization and the set range for a fixed scale', () => {
    expect(yAxisScale([series([1e9])], 'utilization', { mode: 'auto' })).toMatchObject({ min: 0, max: 100 });
    expect(yAxisScale([series([1e9])], 'line', { mode: 'fixed', min: 2, max: 8 })).toMatchObject({ min: 2, max: 8 });
    expect(yAxisScale([series([7, 42])], 'line', { mode: 'auto' })).toMatchObject({ min: 0, max: 50 });
  });
});

describe('rightAxisScale', () => {
  it('is absent without right-axis series, and scales only the right axis\'s series', () => {
    const left = yAxisScale([series([7, 42]), series([5000], false, 1)], 'line', { mode: 'auto' });
    expect(left).toMatchObject({ min: 0, max: 50 });
    expect(rightAxisScale([series([7, 42])], 'line', left)).toBeUndefined();
    const right = rightAxisScale([series([7, 42]), series([4400], false, 1)], 'line', left);
    if (!right) throw new Error('no right axis');
    // The left axis's grid: as many intervals, each a nice step, covering the data.
    expect(right.ticks).toHaveLength(left.ticks.length);
    expect(right.min).toBe(0);
    expect(right.max).toBeGreaterThanOrEqual(4400);
    expect(right.max).toBeLessThan(4400 * 2.5);
    const step = (right.ticks[1] ?? 0) - (right.ticks[0] ?? 0);
    expect([1, 2, 3, 5, 10]).toContain(step / 10 ** Math.floor(Math.log10(step)));
  });

  it('puts zero on the same grid line when both axes have negatives', () => {
    const left = yAxisScale([series([-10, 30])], 'line', { mode: 'auto' });
    const right = rightAxisScale([series([-10, 30]), series([-1, 900], false, 1)], 'line', left);
    if (!right) throw new Error('no right axis');
    expect(right.ticks.indexOf(0)).toBe(left.ticks.indexOf(0));
    expect(right.min).toBeLessThanOrEqual(-1);
    expect(right.max).toBeGreaterThanOrEqual(900);
  });
});
