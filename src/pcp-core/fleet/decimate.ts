// At most two stored samples per horizontal pixel: per pixel column, the lowest and the
// highest value, in time order (the first of equals). Peaks survive, nothing is invented:
// every kept point is one pmproxy returned. Used where pmproxy cannot subsample (see
// query-expr.ts), so a chart never draws more than about 2 points per pixel.
export interface Line {
  readonly timesMs: Float64Array;
  readonly values: Float64Array;
}

export function decimateLine(line: Line, t0Ms: number, t1Ms: number, widthPx: number): Line {
  const n = line.timesMs.length;
  const columns = Math.max(1, Math.floor(widthPx));
  if (n <= 2 * columns || !(t1Ms > t0Ms)) return line;
  const keep: number[] = [];
  const span = t1Ms - t0Ms;
  let i = 0;
  while (i < n) {
    const col = Math.min(columns - 1, Math.max(0, Math.floor(((line.timesMs[i] - t0Ms) / span) * columns)));
    let lo = i;
    let hi = i;
    let j = i + 1;
    for (; j < n; j++) {
      const c = Math.min(columns - 1, Math.max(0, Math.floor(((line.timesMs[j] - t0Ms) / span) * columns)));
      if (c !== col) break;
      const v = line.values[j];
      // NaN never wins a comparison: a column of gaps keeps its first point.
      if (v < line.values[lo] || Number.isNaN(line.values[lo])) lo = j;
      if (v > line.values[hi] || Number.isNaN(line.values[hi])) hi = j;
    }
    if (lo === hi) keep.push(lo);
    else keep.push(Math.min(lo, hi), Math.max(lo, hi));
    i = j;
  }
  return { timesMs: Float64Array.from(keep, (k) => line.timesMs[k]), values: Float64Array.from(keep, (k) => line.values[k]) };
}
