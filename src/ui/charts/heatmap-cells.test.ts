import { describe, expect, it } from 'vitest';
import { heatmapRange, heatmapRows } from './heatmap-cells';

const line = (times: number[], values: number[]) => ({ timesMs: Float64Array.from(times), values: Float64Array.from(values) });

describe('heatmap cells', () => {
  it('takes the largest sample of each cell when asked', () => {
    const rows = heatmapRows([{ host: 'a', lines: [line([0, 100, 250, 999], [1, 3, 10, 7])] }], 0, 1000, 4, 'max');
    expect(Array.from(rows[0]?.cells ?? [])).toEqual([3, 10, NaN, 7]);
  });

  it('averages samples per column and leaves columns without samples empty', () => {
    const rows = heatmapRows([{ host: 'a', lines: [line([0, 100, 250, 999], [1, 3, 10, 7])] }], 0, 1000, 4);
    expect(Array.from(rows[0].cells)).toEqual([2, 10, NaN, 7]);
  });

  it('folds every line of a host, skips gaps and samples outside the window', () => {
    const rows = heatmapRows([{ host: 'b', lines: [line([10, 2000], [4, 100]), line([20, 30], [NaN, 8])] }], 0, 1000, 1);
    expect(Array.from(rows[0].cells)).toEqual([6]);
  });

  it('ranges over all cells of all hosts, none when all are empty', () => {
    const rows = heatmapRows([{ host: 'a', lines: [line([0], [5])] }, { host: 'b', lines: [line([600], [-2])] }], 0, 1000, 2);
    expect(heatmapRange(rows)).toEqual([-2, 5]);
    expect(heatmapRange(heatmapRows([{ host: 'c', lines: [] }], 0, 1000, 3))).toBeUndefined();
  });
});
