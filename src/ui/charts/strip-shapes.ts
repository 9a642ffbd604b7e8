// Where a live strip's series land in its pixels (live-strip.ts draws them): x by time over
// the strip's range, y by value over each axis's range below the grid's top margin, stacked
// series on the ones before them on the same axis (same-sign stacking, as ECharts stacks),
// missing values as NaN (they break lines and bands). Apart from the canvas so it is tested
// without one.
import type { ChartStyle } from '../state/model';
import { shiftMs, type DisplayZone } from '../time/zone';
import type { DisplaySeries } from './chart-series';
import type { YAxisScale } from './y-scale';

/** What placing a strip's series reads: the part of a chart's OptionInput (chart-option.ts) without the theme. */
export interface StripInput {
  readonly data: { readonly series: readonly DisplaySeries[] };
  readonly style: ChartStyle;
  readonly y: YAxisScale;
  /** The right axis, when the chart has plots of a second kind of units. */
  readonly y2?: YAxisScale;
  readonly zone: DisplayZone;
  /** The strip's range in epoch ms (wider than the visible window). */
  readonly r0Ms: number;
  readonly r1Ms: number;
}

/** One series as drawn: x pixels, top y pixels, bottom y pixels (its band's base), per row. */
export interface Shape {
  readonly s: DisplaySeries;
  readonly xs: Float64Array;
  readonly tops: Float64Array;
  readonly bases: Float64Array;
}

/** Pixel positions of every shown series, stacked per axis as ECharts stacks them. */
export function shapes(input: StripInput, width: number, plotH: number, top: number): Shape[] {
  const { style, zone } = input;
  const stacked = style === 'stacked-area' || style === 'stacked-bar' || style === 'utilization';
  const x0 = shiftMs(input.r0Ms, zone);
  const x1 = shiftMs(input.r1Ms, zone);
  const kx = width / (x1 - x0);
  // Per axis: the running positive and negative sums of the series stacked so far (same-sign
  // stacking, ECharts' default), keyed by row time.
  const sums = [new Map<number, { pos: number; neg: number }>(), new Map<number, { pos: number; neg: number }>()];
  const out: Shape[] = [];
  for (const s of input.data.series) {
    if (s.hidden) continue;
    const axis = s.axis === 1 && input.y2 ? 1 : 0;
    const y: YAxisScale = axis === 1 && input.y2 ? input.y2 : input.y;
    const py = (v: number): number => top + (1 - (v - y.min) / (y.max - y.min)) * plotH;
    // The area's origin: 0 when the axis shows it, else the nearer end of the axis.
    const origin = py(Math.min(y.max, Math.max(y.min, 0)));
    // Rows inside the strip, plus one either side so lines reach its edges.
    let a = 0;
    while (a < s.times.length && (s.times[a] ?? NaN) < input.r0Ms) a++;
    let b = s.times.length;
    while (b > a && (s.times[b - 1] ?? NaN) > input.r1Ms) b--;
    a = Math.max(0, a - 1);
    b = Math.min(s.times.length, b + 1);
    const n = Math.max(0, b - a);
    const xs = new Float64Array(n);
    const tops = new Float64Array(n);
    const bases = new Float64Array(n);
    const sum = sums[axis] ?? new Map<number, { pos: number; neg: number }>();
    for (let i = 0; i < n; i++) {
      const t = s.times[a + i] ?? NaN;
      const v = s.drawn[a + i] ?? NaN;
      xs[i] = (shiftMs(t, zone) - x0) * kx;
      if (!stacked) {
        tops[i] = Number.isFinite(v) ? py(v) : NaN;
        bases[i] = origin;
        continue;
      }
      let acc = sum.get(t);
      if (!acc) sum.set(t, (acc = { pos: 0, neg: 0 }));
      if (!Number.isFinite(v)) {
        tops[i] = NaN;
        bases[i] = NaN;
        continue;
      }
      const below = v >= 0 ? acc.pos : acc.neg;
      const first = acc.pos === 0 && acc.neg === 0;
      bases[i] = first ? origin : py(below);
      tops[i] = py(below + v);
      if (v >= 0) acc.pos += v;
      else acc.neg += v;
    }
    out.push({ s, xs, tops, bases });
  }
  return out;
}

/** Runs of consecutive rows with a value: [first, last] indexes. */
export function runs(tops: Float64Array): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= tops.length; i++) {
    const ok = i < tops.length && Number.isFinite(tops[i] ?? NaN);
    if (ok && start < 0) start = i;
    if (!ok && start >= 0) {
      out.push([start, i - 1]);
      start = -1;
    }
  }
  return out;
}
