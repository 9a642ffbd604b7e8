// The chart adapter: a chart's spec plus the SeriesBlocks of its sources become display
// series — label, colour, units scale and the typed arrays ECharts draws — in one memoizable
// step per chart (docs/design.md "Series data"). Utilization charts are normalised here
// (pmchart §1d D5 with its defects fixed: a row where any visible series is missing is a
// gap, never a zero band, and hidden series leave the sum so the rest still add to 100%).
import type { SeriesBlock } from '../../workers/engine-types';
import type { ChartSpec, PlotSpec, SourceEntry } from '../state/model';
import { seriesKey } from '../state/model';
import { cycleColor } from './palette';
import { axisScale, type AxisScale } from './unit-scale';
import { assignAxes, refusalText, type AxisIndex } from './unit-groups';

export interface DisplaySeries {
  readonly key: string;
  readonly plotId: string;
  readonly label: string;
  readonly color: string;
  readonly hidden: boolean;
  /** Epoch ms per row (shared with the block). */
  readonly times: Float64Array;
  /** The series' own values in display units (after the axis scale), NaN = missing. */
  readonly values: Float64Array;
  /** What is drawn: equal to values, or percentages for utilization charts. */
  readonly drawn: Float64Array;
  /** Instantaneous/discrete metrics draw as steps in line charts (pmchart D6). */
  readonly step: boolean;
  /** The y axis it is drawn against (unit-groups.ts): 0 left, 1 right. */
  readonly axis: AxisIndex;
  /** Its axis's units label ('' when dimensionless). */
  readonly units: string;
  /** The source's time shift: `times` are its own times + this (0 when not shifted). */
  readonly offsetMs: number;
}

/** Per source of a chart: the name that tells its series apart, and its time shift. */
export interface SourceFacts {
  /** Set when the chart draws from several sources: host, or archive name when hosts repeat. */
  readonly tag?: string;
  readonly offsetMs?: number;
}

export interface ChartData {
  readonly series: readonly DisplaySeries[];
  /** The left axis's scale. */
  readonly scale: AxisScale;
  /** The right axis's, when the chart has plots of a second kind of units. */
  readonly right?: AxisScale;
  /** Per-plot problems to show under the chart (missing optional plots excluded). */
  readonly problems: readonly { readonly plotId: string; readonly text: string }[];
}

/** Expands pmchart legend wildcards: %i short instance, %I instance, %h/%H host, %m/%M metric. */
export function expandLegend(template: string, metric: string, inst: string, host: string): string {
  const short = inst.split(' ')[0] ?? inst;
  const m2 = metric.split('.').slice(-2).join('.');
  return template.replace(/%([iIhHmM%])/g, (_, c: string) => ({ i: short, I: inst, h: host.split('.')[0] ?? host, H: host, m: m2, M: metric, '%': '%' })[c] ?? '');
}

function defaultLabel(plot: PlotSpec, inst: string): string {
  return inst ? `${plot.metric}[${inst}]` : plot.metric;
}

function taggedLabel(tag: string | undefined, label: string): string {
  return tag ? `${tag}: ${label}` : label;
}

/**
 * What tells a chart's sources apart: with plots from more than one source, each source's
 * short host name (pmchart's %h), or its archive name where two share a host; plus shifts.
 */
export function sourceFacts(chart: ChartSpec, sources: readonly SourceEntry[]): Map<string, SourceFacts> {
  const ids = [...new Set(chart.plots.map((p) => p.sourceId))];
  const entries = ids.map((id) => sources.find((s) => s.id === id));
  const host = (s: SourceEntry | undefined): string => (s?.summary?.hostname ?? '').split('.')[0] ?? '';
  const hostCount = new Map<string, number>();
  for (const s of entries) hostCount.set(host(s), (hostCount.get(host(s)) ?? 0) + 1);
  const out = new Map<string, SourceFacts>();
  ids.forEach((id, i) => {
    const s = entries[i];
    const h = host(s);
    const tag = ids.length < 2 ? undefined : h !== '' && hostCount.get(h) === 1 ? h : (s?.summary?.name ?? s?.label ?? id);
    out.set(id, { ...(tag !== undefined && { tag }), ...(s?.offsetMs ? { offsetMs: s.offsetMs } : {}) });
  });
  return out;
}

/** Builds the display series of a chart from its sources' blocks. */
export function chartData(chart: ChartSpec, blocks: ReadonlyMap<string, SeriesBlock>, hosts: ReadonlyMap<string, string>, facts: ReadonlyMap<string, SourceFacts> = new Map()): ChartData {
  const raw: { key: string; plot: PlotSpec; inst: string; times: Float64Array; values: Float64Array; sem: number; axis: AxisIndex }[] = [];
  const problems: { plotId: string; text: string }[] = [];
  const infos = chart.plots.map((plot) => blocks.get(plot.sourceId)?.plots[chartPlotIndex(chart, plot)]);
  // Utilization charts draw shares in percent on one axis whatever the units.
  const { axes, groups } = assignAxes(infos.map((info) => (info && !info.error ? info.units : undefined)));
  for (const [p, plot] of chart.plots.entries()) {
    const block = blocks.get(plot.sourceId);
    if (!block) continue;
    const plotIndex = chartPlotIndex(chart, plot);
    const info = infos[p];
    if (info?.error) {
      if (!(plot.optional && info.error.code === 'PM_ERR_NAME')) problems.push({ plotId: plot.id, text: `${plot.metric}: ${info.error.message}` });
      continue;
    }
    const axis = chart.style === 'utilization' ? 0 : axes[p];
    if (axis === undefined) {
      // A third kind of units (a view or link can carry one): said, never drawn on a wrong scale.
      if (info) problems.push({ plotId: plot.id, text: refusalText(plot.metric, info.units, groups).replace(' not added:', ' not drawn:') });
      continue;
    }
    for (const col of block.columns) {
      if (col.plot !== plotIndex) continue;
      raw.push({ key: seriesKey(plot.id, col.instName), plot, inst: col.instName, times: block.timestamps, values: col.values, sem: info?.sem ?? 0, axis });
    }
  }
  const scaleOf = (axis: AxisIndex): AxisScale => {
    const g = groups[axis];
    if (!g) return { factor: 1, label: '' };
    let maxAbs = 0;
    for (const r of raw) if (r.axis === axis) for (const v of r.values) if (Math.abs(v) > maxAbs) maxAbs = Math.abs(v);
    return axisScale(g.units, maxAbs, g.utilization);
  };
  const scale = chart.style === 'utilization' ? { factor: 1, label: '% utilization' } : scaleOf(0);
  const right = chart.style !== 'utilization' && groups.length > 1 ? scaleOf(1) : undefined;

  const colors = seriesColors(raw.map((r) => ({ ...r.plot, inst: r.inst })));
  const series: DisplaySeries[] = raw.map((r, i) => {
    const s = r.axis === 1 && right ? right : scale;
    const values = s.factor === 1 ? r.values : r.values.map((v) => v / s.factor);
    return {
      key: r.key,
      plotId: r.plot.id,
      label: r.plot.legend ? expandLegend(r.plot.legend, r.plot.metric, r.inst, hosts.get(r.plot.sourceId) ?? '') : taggedLabel(facts.get(r.plot.sourceId)?.tag, defaultLabel(r.plot, r.inst)),
      color: colors[i] ?? cycleColor(i),
      hidden: chart.hidden.includes(r.key),
      times: r.times,
      values,
      drawn: values,
      step: r.sem !== 1,
      offsetMs: facts.get(r.plot.sourceId)?.offsetMs ?? 0,
      axis: r.axis,
      units: s.label,
    };
  });
  if (chart.style === 'utilization') return { series: utilization(series), scale, problems };
  return { series, scale, right, problems };
}

/**
 * The colour of each series (one per plot instance, in chart order), as pmchart hands them
 * out: a plot without a colour takes the next colour of the chart's scheme (#-cycle) for each
 * of its instances. Every instance can be given its own colour (pmchart's Plots tab, where
 * each instance is a plot); a plot's colour is its first instance's, unless that has its own;
 * the other instances take the next scheme colours not used in the chart, so every instance
 * of a multi-instance plot is told apart (a pmchart view's one colour paints them all alike).
 */
export function seriesColors(plots: readonly (Pick<PlotSpec, 'id' | 'color' | 'instanceColors'> & { readonly inst?: string })[]): string[] {
  const own = (p: Pick<PlotSpec, 'instanceColors'> & { readonly inst?: string }): string | undefined => (p.inst !== undefined ? p.instanceColors?.[p.inst] : undefined);
  const fixed = new Set(plots.flatMap((p) => [p.color, own(p)].flatMap((c) => (c ? [c.toLowerCase()] : []))));
  const used = new Set<string>();
  let next = 0;
  const fresh = (): string => {
    // Skip colours other plots fixed, while the scheme has others to give.
    for (let tries = 0; tries < 10; tries++) {
      const c = cycleColor(next++);
      if (!fixed.has(c.toLowerCase()) && !used.has(c)) return c;
    }
    return cycleColor(next++);
  };
  const seen = new Set<string>();
  return plots.map((p) => {
    const first = !seen.has(p.id);
    seen.add(p.id);
    // Every series takes its scheme slot, coloured or not (pmchart's addItem does too), so a
    // colour the user gives one series never moves the others'.
    const scheme = fresh();
    const c = own(p) ?? (p.color && first ? p.color : scheme);
    used.add(c);
    return c;
  });
}

/** Index of a plot among the plots of its own source (the order fetchSeries got them). */
export function chartPlotIndex(chart: ChartSpec, plot: PlotSpec): number {
  return chart.plots.filter((p) => p.sourceId === plot.sourceId).indexOf(plot);
}

function utilization(series: DisplaySeries[]): DisplaySeries[] {
  const visible = series.filter((s) => !s.hidden);
  const rows = visible[0]?.values.length ?? 0;
  const sums = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (const s of visible) {
      const v = s.values[r] ?? NaN;
      if (Number.isNaN(v)) {
        sum = NaN;
        break;
      }
      sum += v;
    }
    sums[r] = sum;
  }
  return series.map((s) => {
    if (s.hidden) return s;
    const drawn = new Float64Array(rows);
    for (let r = 0; r < rows; r++) {
      const sum = sums[r] ?? NaN;
      drawn[r] = Number.isNaN(sum) ? NaN : sum === 0 ? 0 : (100 * (s.values[r] ?? NaN)) / sum;
    }
    return { ...s, drawn };
  });
}

/** Index of the sample nearest a time (the earlier one on a tie); -1 when there are none. */
export function nearestIndex(times: Float64Array, ms: number): number {
  const n = times.length;
  if (n === 0) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] ?? Infinity) < ms) lo = mid + 1;
    else hi = mid;
  }
  // lo is the first sample at or after ms; the one before may be nearer.
  return lo > 0 && Math.abs((times[lo - 1] ?? Infinity) - ms) <= Math.abs((times[lo] ?? Infinity) - ms) ? lo - 1 : lo;
}

/**
 * The value of a series at the sample nearest a time (as the tooltip snaps); NaN when the
 * nearest sample is more than half a step away (outside the data) or has no value.
 */
export function valueAt(s: Pick<DisplaySeries, 'times' | 'values'>, ms: number): number {
  const t = s.times;
  const i = nearestIndex(t, ms);
  if (i < 0) return NaN;
  const n = t.length;
  const step = n > 1 ? (t[1] ?? 0) - (t[0] ?? 0) : Infinity;
  if (Math.abs((t[i] ?? Infinity) - ms) > step * 0.51) return NaN;
  return s.values[i] ?? NaN;
}

/** Whether a series has any value in [t0, t1]. */
export function hasValueIn(s: Pick<DisplaySeries, 'times' | 'values'>, t0: number, t1: number): boolean {
  const t = s.times;
  let i = nearestIndex(t, t0);
  if (i < 0) return false;
  if ((t[i] ?? Infinity) < t0) i++;
  for (; i < t.length && (t[i] ?? Infinity) <= t1; i++) if (!Number.isNaN(s.values[i] ?? NaN)) return true;
  return false;
}
