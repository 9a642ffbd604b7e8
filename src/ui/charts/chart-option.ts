// ChartData → the ECharts option of a chart's strip, for one chart style (line, area,
// stacked area, bar, stacked bar, utilization; pmchart §1d D6). The strip covers a time range
// wider than the visible window and carries no axis labels: plot-surface.ts draws the y axis
// and the vertical grid lines, and the tab's one time axis labels them (time-ticks.ts), as
// pmchart's unified axis does; its y range is the one y-scale.ts computed.
// Data goes in as interleaved Float64Arrays [x0, y0, x1, y1, …] (ECharts' typed-array
// source, no per-point objects). X values are timestamps shifted into the display zone and
// drawn as UTC, so axis labels show that zone's wall clock.
import type { ChartData, DisplaySeries } from './chart-series';
import type { ChartOption, SeriesOption } from './echarts';
import type { StripInput } from './strip-shapes';
import { shiftMs, type DisplayZone } from '../time/zone';
import { LIGHT_CHART, type ChartColors } from '../theme/theme';

/** The strip's margins: the plot area is the strip minus these (CSS px). */
export const STRIP_TOP = 10;
export const STRIP_BOTTOM = 4;
/** The fixed y axis gutter and right margin around the scrolling strip (CSS px). */
export const PLOT_LEFT = 64;
export const PLOT_RIGHT = 18;

/** A strip's placement input (strip-shapes.ts), with the whole data and the theme's colours. */
export interface OptionInput extends StripInput {
  readonly data: ChartData;
  /** Axis and outline colours of the theme (light when absent). */
  readonly colors?: ChartColors;
}

function interleave(times: Float64Array, values: Float64Array, zone: DisplayZone, r0: number, r1: number): Float64Array {
  // Only the rows inside the strip, plus one either side so lines reach its edges.
  let a = 0;
  while (a < times.length && (times[a] ?? NaN) < r0) a++;
  let b = times.length;
  while (b > a && (times[b - 1] ?? NaN) > r1) b--;
  a = Math.max(0, a - 1);
  b = Math.min(times.length, b + 1);
  const out = new Float64Array((b - a) * 2);
  for (let i = a; i < b; i++) {
    out[2 * (i - a)] = shiftMs(times[i] ?? NaN, zone);
    // ECharts treats NaN as missing: the line breaks there (pmchart D4 gaps).
    out[2 * (i - a) + 1] = values[i] ?? NaN;
  }
  return out;
}

function seriesOption(s: DisplaySeries, input: OptionInput, outline: string): SeriesOption {
  const { style, zone } = input;
  const data = interleave(s.times, s.drawn, zone, input.r0Ms, input.r1Ms);
  const long = data.length / 2 > 2000;
  const yAxisIndex = s.axis === 1 && input.y2 ? 1 : 0;
  const common = { id: s.key, name: s.label, color: s.color, dimensions: ['x', 'y'], encode: { x: 0, y: 1 }, data: data as unknown as number[], animation: false, silent: true, yAxisIndex };
  const stacked = style === 'stacked-area' || style === 'stacked-bar' || style === 'utilization';
  // Each axis stacks its own series: sums of different units mean nothing.
  const stack = stacked ? `total${yAxisIndex}` : undefined;
  if (style === 'bar' || style === 'stacked-bar') {
    return { ...common, type: 'bar', stack, barGap: '-100%', barCategoryGap: '10%', large: true };
  }
  const filled = style !== 'line';
  return {
    ...common,
    type: 'line',
    showSymbol: false,
    symbol: 'none',
    connectNulls: false,
    step: stacked || s.step ? 'end' : false,
    stack,
    lineStyle: { width: stacked ? 0.6 : 1.5, color: stacked ? outline : s.color },
    areaStyle: filled ? { color: s.color, opacity: stacked ? 0.9 : 0.35 } : undefined,
    // Largest-triangle sampling only where a series has more points than the strip has
    // pixels; stacked series are never sampled (their sums would no longer line up).
    sampling: long && !stacked ? 'lttb' : undefined,
  };
}

/** The strip's option for the current data (no animation, no tooltip, no y labels). */
export function buildOption(input: OptionInput): ChartOption {
  const { data, y, zone } = input;
  const c = input.colors ?? LIGHT_CHART;
  const shown = data.series.filter((s) => !s.hidden);
  return {
    animation: false,
    useUTC: true,
    grid: { left: 0, right: 0, top: STRIP_TOP, bottom: STRIP_BOTTOM, outerBoundsMode: 'none' },
    xAxis: {
      type: 'time',
      min: shiftMs(input.r0Ms, zone),
      max: shiftMs(input.r1Ms, zone),
      axisLabel: { show: false },
      axisTick: { show: false },
      axisLine: { show: false },
      // Vertical grid lines are DOM (plot-surface.ts), on the shared axis's ticks.
      splitLine: { show: false },
    },
    // Horizontal grid lines and labels are DOM (plot-surface.ts), aligned with these ranges.
    yAxis: [y, ...(input.y2 ? [input.y2] : [])].map((a) => ({
      type: 'value' as const,
      min: a.min,
      max: a.max,
      scale: false,
      axisLabel: { show: false },
      axisTick: { show: false },
      axisLine: { show: false },
      splitLine: { show: false },
    })),
    series: shown.map((s) => seriesOption(s, input, c.stackOutline)),
  };
}

