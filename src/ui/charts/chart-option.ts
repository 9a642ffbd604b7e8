// ChartData → ECharts option for one chart style (line, area, stacked area, bar, stacked bar,
// utilization; pmchart §1d D6). Data goes in as interleaved Float64Arrays [x0, y0, x1, y1, …]
// (ECharts' typed-array source, no per-point objects). X values are timestamps shifted into
// the display zone and drawn as UTC, so axis labels show that zone's wall clock.
import type { ChartStyle, YScale } from '../state/model';
import type { ChartData, DisplaySeries } from './chart-series';
import type { ChartOption, SeriesOption, TooltipParam } from './echarts';
import { formatValue } from './unit-scale';
import { formatClock, shiftMs, type DisplayZone } from '../time/zone';
import { LIGHT_CHART, type ChartColors } from '../theme/theme';

export interface OptionInput {
  readonly data: ChartData;
  readonly style: ChartStyle;
  readonly yScale: YScale;
  readonly zone: DisplayZone;
  /** Visible window in epoch ms. */
  readonly t0Ms: number;
  readonly t1Ms: number;
  /** Axis and outline colours of the theme (light when absent). */
  readonly colors?: ChartColors;
}

function interleave(times: Float64Array, values: Float64Array, zone: DisplayZone): Float64Array {
  const out = new Float64Array(times.length * 2);
  for (let i = 0; i < times.length; i++) {
    out[2 * i] = shiftMs(times[i] ?? NaN, zone);
    // ECharts treats NaN as missing: the line breaks there (pmchart D4 gaps).
    out[2 * i + 1] = values[i] ?? NaN;
  }
  return out;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Axis tick labels: hh:mm:ss, or "MM-DD hh:mm" for windows over 4 hours (pmchart). */
export function tickFormatter(spanMs: number): (v: number) => string {
  return (v) => {
    const d = new Date(v);
    const hm = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
    if (spanMs > 4 * 3600_000) return `${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${hm}`;
    return `${hm}:${pad2(d.getUTCSeconds())}`;
  };
}

function seriesOption(s: DisplaySeries, style: ChartStyle, zone: DisplayZone, outline = LIGHT_CHART.stackOutline): SeriesOption {
  const data = interleave(s.times, s.drawn, zone);
  const common = { id: s.key, name: s.label, color: s.color, dimensions: ['x', 'y'], encode: { x: 0, y: 1 }, data: data as unknown as number[], animation: false, silent: false };
  const stacked = style === 'stacked-area' || style === 'stacked-bar' || style === 'utilization';
  if (style === 'bar' || style === 'stacked-bar') {
    return { ...common, type: 'bar', stack: stacked ? 'total' : undefined, barGap: '-100%', barCategoryGap: '10%', large: true };
  }
  const filled = style !== 'line';
  return {
    ...common,
    type: 'line',
    showSymbol: false,
    symbol: 'none',
    connectNulls: false,
    step: stacked || s.step ? 'end' : false,
    stack: stacked ? 'total' : undefined,
    lineStyle: { width: stacked ? 0.6 : 1.5, color: stacked ? outline : s.color },
    areaStyle: filled ? { color: s.color, opacity: stacked ? 0.9 : 0.35 } : undefined,
    sampling: 'lttb',
  };
}

/** Full option for the current data. */
export function buildOption(input: OptionInput): ChartOption {
  const { data, style, yScale, zone } = input;
  const c = input.colors ?? LIGHT_CHART;
  const shown = data.series.filter((s) => !s.hidden);
  const fixed = style === 'utilization' ? { min: 0, max: 100 } : yScale.mode === 'fixed' ? { min: yScale.min, max: yScale.max } : undefined;
  const span = input.t1Ms - input.t0Ms;
  return {
    animation: false,
    useUTC: true,
    grid: { left: 64, right: 18, top: 10, bottom: 26 },
    xAxis: {
      type: 'time',
      min: shiftMs(input.t0Ms, zone),
      max: shiftMs(input.t1Ms, zone),
      axisLabel: { formatter: tickFormatter(span), hideOverlap: true, color: c.axisText },
      splitLine: { show: true, lineStyle: { color: c.splitLine } },
      axisPointer: { snap: false, label: { show: false } },
    },
    yAxis: {
      type: 'value',
      // Fixed scales are honoured exactly (pmchart ignores a view's scale clause, §1c).
      min: fixed?.min,
      max: fixed?.max,
      scale: false,
      name: data.scale.label,
      nameLocation: 'middle',
      nameGap: 48,
      nameTextStyle: { color: c.axisName },
      axisLabel: { color: c.axisText, formatter: (v: number) => formatValue(v) },
      splitLine: { lineStyle: { color: c.splitLine } },
    },
    tooltip: {
      trigger: 'axis',
      confine: true,
      transitionDuration: 0,
      axisPointer: { type: 'line', lineStyle: { color: c.pointer } },
      formatter: (params: unknown) => tooltipHtml(params as TooltipParam[], shown, data.scale.label, zone, style === 'utilization'),
    },
    series: shown.map((s) => seriesOption(s, style, zone, c.stackOutline)),
  };
}

function esc(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/** Tooltip: the series' own values at the hovered sample (never stacked sums or cursor Y). */
function tooltipHtml(params: TooltipParam[], shown: readonly DisplaySeries[], units: string, zone: DisplayZone, percent: boolean): string {
  const first = params[0];
  if (!first) return '';
  const s0 = shown[first.seriesIndex];
  const tMs = s0?.times[first.dataIndex];
  const head = tMs === undefined ? '' : formatClock(tMs, zone);
  const rows = params.map((p) => {
    const s = shown[p.seriesIndex];
    if (!s) return '';
    // Each series' own value (its share in a utilization chart), never the stacked sum.
    const v = (percent ? s.drawn : s.values)[p.dataIndex] ?? NaN;
    return `<tr><td><span style="display:inline-block;width:9px;height:9px;background:${s.color};margin-right:5px"></span>${esc(s.label)}</td><td style="text-align:right;padding-left:12px" data-series="${esc(s.label)}">${Number.isNaN(v) ? 'no value' : `${formatValue(v)}${percent ? '%' : ''}`}</td></tr>`;
  });
  return `<div data-testid="chart-tooltip"><div><b>${head}</b>${units ? ` <span style="color:#666">${esc(units)}</span>` : ''}</div><table>${rows.join('')}</table></div>`;
}
