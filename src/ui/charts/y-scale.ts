// The value axis of a chart, computed here rather than inside ECharts: the plot canvas
// scrolls sideways while playing (plot-surface.ts) but the y axis must stay put, so its
// labels and grid lines are DOM drawn from these ticks and the canvas is told the same
// min/max. Autoscale follows pmchart (§1d D7: the range always includes 0) with "nice"
// steps of 1, 2, 3 or 5 × 10^k, about five intervals; a fixed scale is honoured exactly
// (its ends are always ticks, §1c: pmchart 6.0.3 ignores a view's scale clause).
import type { ChartStyle, YScale } from '../state/model';
import type { DisplaySeries } from './chart-series';

export interface YAxisScale {
  readonly min: number;
  readonly max: number;
  /** Tick values from min to max, each labelled and given a grid line. */
  readonly ticks: readonly number[];
}

/** Target number of intervals on a ~130 px axis (ECharts' default splitNumber). */
const SPLITS = 5;

/** 1, 2, 3 or 5 × 10^k nearest above `x / SPLITS` (ECharts' nice step with rounding). */
export function niceStep(span: number, splits = SPLITS): number {
  const raw = span / splits;
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const exp = Math.floor(Math.log10(raw));
  const base = 10 ** exp;
  const f = raw / base;
  const nf = f < 1.5 ? 1 : f < 2.5 ? 2 : f < 4 ? 3 : f < 7 ? 5 : 10;
  return nf * base;
}

/** Removes binary noise from k × step (0.30000000000000004 → 0.3). */
function clean(v: number, step: number): number {
  const digits = Math.max(0, Math.min(15, -Math.floor(Math.log10(step)) + 2));
  return Number(v.toFixed(digits));
}

/** Ticks at multiples of a nice step between `lo` and `hi`; the ends are ticks too. */
function ticksBetween(lo: number, hi: number, step: number): number[] {
  const out: number[] = [lo];
  const first = Math.ceil(lo / step - 1e-9);
  for (let k = first; ; k++) {
    const v = clean(k * step, step);
    if (v >= hi - step * 1e-6) break;
    if (v > lo + step * 1e-6) out.push(v);
    if (out.length > 50) break;
  }
  out.push(hi);
  return out;
}

/** Autoscaled range over [lo, hi] data: includes 0, ends on the step. */
export function autoScale(lo: number, hi: number): YAxisScale {
  let a = Math.min(0, Number.isFinite(lo) ? lo : 0);
  let b = Math.max(0, Number.isFinite(hi) ? hi : 0);
  // No data, or only zeros: a unit range (pmchart's empty and all-zero charts differ; a
  // plain 0..1 reads better than −0.6..0.6 and shows that nothing is there).
  if (a === b) b = a + 1;
  const step = niceStep(b - a);
  a = clean(Math.floor(a / step + 1e-9) * step, step);
  b = clean(Math.ceil(b / step - 1e-9) * step, step);
  return { min: a, max: b, ticks: ticksBetween(a, b, step) };
}

/** Exactly [min, max] with nice ticks inside. */
export function fixedScale(min: number, max: number): YAxisScale {
  return { min, max, ticks: ticksBetween(min, max, niceStep(max - min)) };
}

/**
 * The data extent a chart draws: each series' own values, or, for stacked styles, the
 * running sums per row (positive and negative parts stack apart, as ECharts stacks them).
 */
export function drawnExtent(series: readonly DisplaySeries[], style: ChartStyle): { lo: number; hi: number } {
  const shown = series.filter((s) => !s.hidden);
  let lo = Infinity;
  let hi = -Infinity;
  const stacked = style === 'stacked-area' || style === 'stacked-bar' || style === 'utilization';
  if (!stacked) {
    for (const s of shown) {
      for (const v of s.drawn) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
    return { lo, hi };
  }
  const rows = shown.reduce((n, s) => Math.max(n, s.drawn.length), 0);
  for (let r = 0; r < rows; r++) {
    let pos = 0;
    let neg = 0;
    for (const s of shown) {
      const v = s.drawn[r] ?? NaN;
      if (v > 0) pos += v;
      else if (v < 0) neg += v;
    }
    if (pos > hi) hi = pos;
    if (neg < lo) lo = neg;
  }
  return { lo, hi };
}

/**
 * The left axis of a chart: utilization 0–100, a fixed scale as set, otherwise autoscaled
 * over the left axis's series.
 */
export function yAxisScale(series: readonly DisplaySeries[], style: ChartStyle, yScale: YScale): YAxisScale {
  if (style === 'utilization') return fixedScale(0, 100);
  if (yScale.mode === 'fixed') return fixedScale(yScale.min, yScale.max);
  const { lo, hi } = drawnExtent(series.filter((s) => s.axis === 0), style);
  return autoScale(lo, hi);
}

/**
 * The right axis (plots of a second kind of units), always autoscaled — a fixed scale is
 * the left axis's — with the left axis's number of intervals, so both share the grid lines.
 */
export function rightAxisScale(series: readonly DisplaySeries[], style: ChartStyle, left: YAxisScale): YAxisScale | undefined {
  const own = series.filter((s) => s.axis === 1);
  if (own.length === 0 || style === 'utilization') return undefined;
  const { lo, hi } = drawnExtent(own, style);
  const intervals = left.ticks.length - 1;
  const leftEven = intervals > 0 && left.ticks.every((t, i) => Math.abs(t - (left.min + ((left.max - left.min) * i) / intervals)) <= (left.max - left.min) * 1e-9);
  if (!leftEven) return autoScale(lo, hi);
  // The left axis's grid: the same number of equal intervals, each a nice step of our own,
  // and zero on the same grid line when the left axis has one.
  const a = Math.min(0, Number.isFinite(lo) ? lo : 0);
  const b = Math.max(0, Number.isFinite(hi) ? hi : 0);
  const zeroAt = left.ticks.findIndex((t) => t === 0);
  const below = zeroAt > 0 ? zeroAt : 0;
  const above = intervals - below;
  let step = niceStep(Math.max(above > 0 ? b / above : 0, below > 0 ? -a / below : 0, (b - a) / intervals) * SPLITS);
  if (!(step > 0)) step = 1;
  // niceStep rounds to the nearest; take the next nice step while the data does not fit.
  for (let k = 0; k < 4 && (step * above < b - 1e-9 * step || step * below < -a - 1e-9 * step); k++) step = niceStep(step * 1.5 * SPLITS);
  if (step * above < b || step * below < -a) return autoScale(lo, hi);
  const min = clean(-below * step, step);
  const max = clean(above * step, step);
  const ticks = Array.from({ length: intervals + 1 }, (_, i) => clean(min + i * step, step));
  return { min, max, ticks };
}
