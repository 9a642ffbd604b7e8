// A live tick changes only a strip's data and ranges: such a render hands ECharts just those
// (dataUpdate), and anything else (style, series, colours) counts as a new shape.
import { describe, expect, it } from 'vitest';
import type { ChartOption } from './echarts';
import { dataUpdate, optionShape } from './option-update';

/** A strip option as chart-option.ts builds it: two line series, one y axis. */
function option(data: number[], x: [number, number], yMax: number, patch: { color?: string; type?: 'line' | 'bar'; series?: number } = {}): ChartOption {
  const series = ['a', 'b'].slice(0, patch.series ?? 2).map((id, i) => ({
    id,
    name: id,
    type: patch.type ?? 'line',
    color: patch.color ?? '#336699',
    dimensions: ['x', 'y'],
    encode: { x: 0, y: 1 },
    data: Float64Array.from(data.map((v, j) => (j % 2 === 1 ? v * (i + 1) : v))) as unknown as number[],
    animation: false,
    silent: true,
  }));
  return {
    animation: false,
    grid: { left: 0, right: 0, top: 10, bottom: 4 },
    xAxis: { type: 'time', min: x[0], max: x[1], axisLabel: { show: false } },
    yAxis: [{ type: 'value', min: 0, max: yMax, axisLabel: { show: false } }],
    series,
  };
}

describe('strip option updates', () => {
  it('a tick (new rows, moved range and y scale) keeps the shape and hands over only ranges and data', () => {
    const before = option([1000, 1, 2000, 2, 3000, 3], [0, 3500], 10);
    const after = option([2000, 2, 3000, 3, 4000, 4], [1000, 4500], 20);
    expect(optionShape(after)).toBe(optionShape(before));
    const update = dataUpdate(after);
    expect(update.xAxis).toEqual([{ min: 1000, max: 4500 }]);
    expect(update.yAxis).toEqual([{ min: 0, max: 20 }]);
    const s = update.series as { id: string; type: string; data: Float64Array }[];
    expect(s.map((x) => [x.id, x.type, Object.keys(x).sort()])).toEqual([
      ['a', 'line', ['data', 'id', 'type']],
      ['b', 'line', ['data', 'id', 'type']],
    ]);
    expect([...(s[1]?.data ?? [])]).toEqual([2000, 4, 3000, 6, 4000, 8]);
  });

  it('another series type, series set or colour is a new shape', () => {
    const base = optionShape(option([1000, 1], [0, 3500], 10));
    expect(optionShape(option([1000, 1], [0, 3500], 10, { type: 'bar' }))).not.toBe(base);
    expect(optionShape(option([1000, 1], [0, 3500], 10, { series: 1 }))).not.toBe(base);
    expect(optionShape(option([1000, 1], [0, 3500], 10, { color: '#aa0000' }))).not.toBe(base);
  });
});
