// Bins for the fleet heatmap (hosts × time): each host's stored samples averaged into equal
// time columns over the tab's window, and the colour scale's range over all cells. A column
// with no sample is NaN (drawn empty), never zero: no sample is not a value.

export interface HeatmapRow {
  readonly host: string;
  /** Mean of the samples whose time falls in each column; NaN where none fell. */
  readonly cells: Float64Array;
}

/** Averages every line of each host into `columns` equal bins of [startMs, finishMs). */
export function heatmapRows(
  hosts: ReadonlyArray<{ readonly host: string; readonly lines: ReadonlyArray<{ readonly timesMs: Float64Array; readonly values: Float64Array }> }>,
  startMs: number,
  finishMs: number,
  columns: number,
): HeatmapRow[] {
  const n = Math.max(1, Math.floor(columns));
  const span = finishMs - startMs;
  return hosts.map((h) => {
    const sum = new Float64Array(n);
    const count = new Uint32Array(n);
    for (const l of h.lines) {
      for (let i = 0; i < l.timesMs.length; i++) {
        const v = l.values[i];
        const t = l.timesMs[i];
        if (Number.isNaN(v) || !(span > 0) || t < startMs || t > finishMs) continue;
        const c = Math.min(n - 1, Math.floor(((t - startMs) / span) * n));
        sum[c] += v;
        count[c]++;
      }
    }
    const cells = new Float64Array(n);
    for (let c = 0; c < n; c++) cells[c] = count[c] > 0 ? sum[c] / count[c] : NaN;
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
