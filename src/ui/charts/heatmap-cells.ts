// Heatmap cells (issue 14 item 5, and the fleet's hosts × time): each row's samples folded
// into equal time columns over a window, by a named aggregation — the mean or the largest
// sample in the cell — and the colour scale's range over all cells. A column with no sample
// is NaN (drawn empty), never zero: no sample is not a value. The caller bounds the columns
// by pixels (a cell is never narrower than the screen can show) and by the samples there are.

export type CellAggregation = 'avg' | 'max';

export interface HeatmapRow {
  /** The row's name: an instance (and host), or a fleet host. */
  readonly host: string;
  /** The aggregate of the samples whose time falls in each column; NaN where none fell. */
  readonly cells: Float64Array;
}

/** Folds every line of each row into `columns` equal bins of [startMs, finishMs] by `agg`. */
export function heatmapRows(
  rows: ReadonlyArray<{ readonly host: string; readonly lines: ReadonlyArray<{ readonly timesMs: Float64Array; readonly values: Float64Array }> }>,
  startMs: number,
  finishMs: number,
  columns: number,
  agg: CellAggregation = 'avg',
): HeatmapRow[] {
  const n = Math.max(1, Math.floor(columns));
  const span = finishMs - startMs;
  return rows.map((h) => {
    const acc = new Float64Array(n).fill(agg === 'max' ? -Infinity : 0);
    const count = new Uint32Array(n);
    for (const l of h.lines) {
      for (let i = 0; i < l.timesMs.length; i++) {
        const v = l.values[i] ?? NaN;
        const t = l.timesMs[i] ?? NaN;
        if (Number.isNaN(v) || !(span > 0) || t < startMs || t > finishMs) continue;
        const c = Math.min(n - 1, Math.floor(((t - startMs) / span) * n));
        acc[c] = agg === 'max' ? Math.max(acc[c] ?? -Infinity, v) : (acc[c] ?? 0) + v;
        count[c] = (count[c] ?? 0) + 1;
      }
    }
    const cells = new Float64Array(n);
    for (let c = 0; c < n; c++) {
      const k = count[c] ?? 0;
      cells[c] = k === 0 ? NaN : agg === 'max' ? (acc[c] ?? NaN) : (acc[c] ?? NaN) / k;
    }
    return { host: h.host, cells };
  });
}

/** [min, max] over all cells; undefined when every cell is empty. */
export function heatmapRange(rows: readonly HeatmapRow[]): [number, number] | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    for (const v of r.cells) {
      if (Number.isNaN(v)) continue;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  return lo <= hi ? [lo, hi] : undefined;
}

/** Light to dark blue (ColorBrewer "Blues" ends) at f in [0, 1]: the one heatmap scale. */
export function heatShade(f: number): string {
  const lo = [222, 235, 247];
  const hi = [8, 48, 107];
  const x = Math.min(1, Math.max(0, f));
  const c = lo.map((a, i) => Math.round(a + ((hi[i] ?? a) - a) * x));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}
