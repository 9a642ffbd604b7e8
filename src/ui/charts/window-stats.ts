// Statistics of a series over the visible window, for the legend table and the top-N filter
// (issue 14 item 4): min, max, last and the average — time-weighted for rates (a counter's
// rate at t_i is the average over (t_{i-1}, t_i], so each value counts for the time since
// the previous sample; equal weights on a regular grid, but gaps and uneven live ticks
// count right), a plain mean for instantaneous and discrete values. Missing values (NaN)
// are skipped. No allocation: the legend recomputes this as the window moves.

export interface WindowStats {
  readonly min: number;
  readonly max: number;
  readonly avg: number;
  /** The last value in the window (NaN when none). */
  readonly last: number;
  /** Values that counted. */
  readonly count: number;
}

export const NO_STATS: WindowStats = { min: NaN, max: NaN, avg: NaN, last: NaN, count: 0 };

/**
 * Stats of `values` at `times` within [t0Ms, t1Ms]. `timeWeighted`: rates, weighted by the
 * time since the previous row (the first row by the grid's step, `stepMs`).
 */
export function windowStats(times: Float64Array, values: Float64Array, t0Ms: number, t1Ms: number, timeWeighted: boolean, stepMs: number): WindowStats {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let weights = 0;
  let last = NaN;
  let count = 0;
  // Rows are in time order: find the window's first row by bisection.
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] ?? Infinity) < t0Ms) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < times.length; i++) {
    const t = times[i] ?? NaN;
    if (t > t1Ms) break;
    const v = values[i] ?? NaN;
    if (Number.isNaN(v)) continue;
    const w = timeWeighted ? (i > 0 ? t - (times[i - 1] ?? t - stepMs) : stepMs) : 1;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v * w;
    weights += w;
    last = v;
    count++;
  }
  if (count === 0) return NO_STATS;
  return { min, max, avg: weights > 0 ? sum / weights : NaN, last, count };
}

export type StatKey = 'value' | 'min' | 'max' | 'avg' | 'last';

/** What the stats of a chart's series read: enough of DisplaySeries. */
interface StatSeries {
  readonly key: string;
  readonly plotId: string;
  readonly times: Float64Array;
  readonly values: Float64Array;
  readonly drawn: Float64Array;
  /** Instantaneous or discrete (plain mean); false for rates (time-weighted). */
  readonly step: boolean;
}

export const EMPTY_STATS: ReadonlyMap<string, WindowStats> = new Map();

/** Each series' stats over [t0Ms, t1Ms], of what the legend shows (shares for utilization). */
export function seriesStats(series: readonly StatSeries[], t0Ms: number, t1Ms: number, percent: boolean): Map<string, WindowStats> {
  const out = new Map<string, WindowStats>();
  for (const s of series) {
    const n = s.times.length;
    const step = n > 1 ? ((s.times[n - 1] ?? 0) - (s.times[0] ?? 0)) / (n - 1) : 0;
    out.set(s.key, windowStats(s.times, percent ? s.drawn : s.values, t0Ms, t1Ms, !s.step, step));
  }
  return out;
}

/** The series each plot's top-N filter keeps (a plot's instances ranked by avg or max). */
export function topSeriesKeys(series: readonly StatSeries[], stats: ReadonlyMap<string, WindowStats>, top: { readonly n: number; readonly by: 'avg' | 'max' }): Set<string> {
  return topKeys(series.map((s) => ({ key: s.key, group: s.plotId })), (it) => stats.get(it.key)?.[top.by] ?? NaN, top.n);
}

/**
 * The keys of the `n` series with the largest `by` statistic within each group (a plot's
 * instances), the others left out; NaN statistics rank last. Groups with n or fewer keep all.
 */
export function topKeys<T extends { readonly key: string; readonly group: string }>(items: readonly T[], stat: (item: T) => number, n: number): Set<string> {
  const byGroup = new Map<string, T[]>();
  for (const it of items) {
    const list = byGroup.get(it.group);
    if (list) list.push(it);
    else byGroup.set(it.group, [it]);
  }
  const keep = new Set<string>();
  for (const list of byGroup.values()) {
    const ranked = list.map((it) => ({ it, v: stat(it) })).sort((a, b) => (Number.isNaN(b.v) ? -1 : Number.isNaN(a.v) ? 1 : b.v - a.v));
    for (const { it } of ranked.slice(0, n)) keep.add(it.key);
  }
  return keep;
}
