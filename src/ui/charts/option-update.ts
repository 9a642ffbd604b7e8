// What a render of a strip hands ECharts when only the data moved. A live tick changes the
// series' rows and the axes' ranges but nothing else of the option: such a render is told
// by its shape (the option without data and ranges) and sends only those parts.
import type { ChartOption } from './echarts';

/**
 * An option with its data and axis ranges left out. Two renders with the same shape differ
 * only in those, and the second can go to ECharts as `dataUpdate` alone (a live tick).
 */
export function optionShape(o: ChartOption): string {
  return JSON.stringify(o, (k, v: unknown) => (k === 'data' || k === 'min' || k === 'max' ? undefined : v));
}

/**
 * The part of `o` a render of the same shape must hand over: the axes' ranges and each
 * series' data, matched by id. ECharts merges it into what it holds, so the styles, grid and
 * axes of the previous render are neither rebuilt nor compared again.
 */
export function dataUpdate(o: ChartOption): ChartOption {
  const axes = <T extends { min?: unknown; max?: unknown }>(a: T | T[] | undefined): { min?: unknown; max?: unknown }[] => (a === undefined ? [] : Array.isArray(a) ? a : [a]).map((x) => ({ min: x.min, max: x.max }));
  const series = o.series === undefined ? [] : Array.isArray(o.series) ? o.series : [o.series];
  return {
    xAxis: axes(o.xAxis),
    yAxis: axes(o.yAxis),
    series: series.map((s) => ({ id: s.id, type: s.type, data: s.data })),
  } as ChartOption;
}
