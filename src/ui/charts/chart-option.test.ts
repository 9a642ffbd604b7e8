// A live tick changes only a strip's data and ranges: such a render hands ECharts just those
// (dataUpdate), and anything else (style, series, colours) counts as a new shape.
import { describe, expect, it, vi } from 'vitest';
// The theme module marks the page's theme when it loads: a bare element stands in for the page.
vi.hoisted(() => {
  (globalThis as { document?: unknown }).document ??= { documentElement: { dataset: {} } };
});
import { UTC_ZONE } from '../time/zone';
import type { ChartData, DisplaySeries } from './chart-series';
import { buildOption, dataUpdate, optionShape, type OptionInput } from './chart-option';

function series(key: string, times: number[], values: number[]): DisplaySeries {
  const v = Float64Array.from(values);
  return { key, plotId: key, label: key, color: '#336699', hidden: false, times: Float64Array.from(times), values: v, drawn: v, step: false, axis: 0, units: '', offsetMs: 0 };
}

function input(data: ChartData, r0Ms: number, r1Ms: number, max: number): OptionInput {
  return { data, style: 'line', y: { min: 0, max, ticks: [0, max] }, zone: UTC_ZONE, r0Ms, r1Ms };
}

const data = (values: number[], times = [1000, 2000, 3000]): ChartData => ({ series: [series('a', times, values), series('b', times, values.map((x) => x * 2))], scale: { factor: 1, label: '' }, problems: [] });

describe('strip option updates', () => {
  it('a tick (new rows, moved range and y scale) keeps the shape and hands over only ranges and data', () => {
    const before = buildOption(input(data([1, 2, 3]), 0, 3500, 10));
    const after = buildOption(input(data([2, 3, 4], [2000, 3000, 4000]), 1000, 4500, 20));
    expect(optionShape(after)).toBe(optionShape(before));
    const update = dataUpdate(after);
    expect(update.xAxis).toEqual([{ min: 1000, max: 4500 }]);
    expect(update.yAxis).toEqual([{ min: 0, max: 20 }]);
    const s = update.series as { id: string; type: string; data: Float64Array }[];
    expect(s.map((x) => [x.id, x.type, Object.keys(x).sort()])).toEqual([
      ['a', 'line', ['data', 'id', 'type']],
      ['b', 'line', ['data', 'id', 'type']],
    ]);
    // Rows inside the range plus one either side, as [x, y] pairs.
    expect([...(s[1]?.data ?? [])]).toEqual([2000, 4, 3000, 6, 4000, 8]);
  });

  it('another style, series set or colour is a new shape', () => {
    const base = optionShape(buildOption(input(data([1, 2, 3]), 0, 3500, 10)));
    expect(optionShape(buildOption({ ...input(data([1, 2, 3]), 0, 3500, 10), style: 'stacked-area' }))).not.toBe(base);
    const one = data([1, 2, 3]);
    expect(optionShape(buildOption(input({ ...one, series: one.series.slice(0, 1) }, 0, 3500, 10)))).not.toBe(base);
    expect(optionShape(buildOption(input({ ...one, series: one.series.map((x) => ({ ...x, color: '#aa0000' })) }, 0, 3500, 10)))).not.toBe(base);
  });
});
