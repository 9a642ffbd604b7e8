// Fills a SeriesBlock for an archive window: interpolated fetches (PM_MODE_INTERP, exactly
// libpcp's values) at the grid t0, t0+Δ, … ≤ t1, with counters rate-converted as pmval and
// pmchart do (column-set.ts); `counterWrap` is PCP_COUNTER_WRAP. One extra fetch before t0 gives the first row its rate, and a
// derived metric's delta()/rate() its own previous sample (libpcp keeps that state across
// pmSetMode, so without it the row would take the last window's, fetched at any time). Large
// steps are fetched stepped, a fresh position per row (pcp-core/context/interp-grid.ts). The
// output is columnar (one Float64Array per column) so the UI receives it by transfer.
import type { Context } from '../pcp-core/context/context';
import { fetchInterpGrid, interpReplayFor } from '../pcp-core/context/interp-grid';
import { isAnyDerivedPmid } from '../pcp-core/derived/registry';
import { PM_ERR_EOL, isPmError } from '../pcp-core/errors';
import { ColumnSet } from './column-set';
import type { SeriesBlock, SeriesRequest } from './engine-types';
import { resolvePlots, type ExpressionDefiner } from './plot-resolve';
import { msToTimestamp } from './series-time';

export { msToTimestamp, timestampToMs } from './series-time';

/** Largest number of rows one request may ask for: bounds memory and worker time. */
export const MAX_ROWS = 100_000;

/** Rows of the grid t0, t0+step, … ≤ t1 (0 for nonsense). */
export function gridRows(t0Ms: number, t1Ms: number, stepMs: number): number {
  if (!(stepMs > 0) || !Number.isFinite(t0Ms) || !Number.isFinite(t1Ms) || t1Ms < t0Ms) return 0;
  return Math.min(MAX_ROWS, Math.floor((t1Ms - t0Ms) / stepMs + 1e-9) + 1);
}

/**
 * Interpolated series for the request's plots; the Context is left in INTERP mode. `endMs`
 * (pmGetArchiveEnd) lets the loop stop at the first PM_ERR_EOL past the end; before the
 * start libpcp also answers PM_ERR_EOL but moves on, so those rows are just missing.
 * `loggingIntervalMs` (the archive's usual gap between records, 0 if unknown) decides, by the
 * core's rule (interp-grid.ts), whether each row is fetched from a fresh position found
 * through the temporal index (stepped, as pmtime drives pmchart) or by replaying on from the
 * previous row. Rates are always taken between consecutive fetched rows.
 */
export async function fetchSeries(ctx: Context, req: SeriesRequest, endMs = Infinity, define?: ExpressionDefiner, loggingIntervalMs = 0, counterWrap = false): Promise<SeriesBlock> {
  const rows = gridRows(req.t0Ms, req.t1Ms, req.stepMs);
  const timestamps = new Float64Array(rows);
  for (let r = 0; r < rows; r++) timestamps[r] = req.t0Ms + r * req.stepMs;
  const set = new ColumnSet(await resolvePlots(ctx, req.plots, define), req.rate, counterWrap);
  set.allocate(rows);
  const pmids = set.pmids;
  const deltaNs = BigInt(Math.round(req.stepMs * 1e6));
  const replay = interpReplayFor(deltaNs, BigInt(Math.round(loggingIntervalMs * 1e6)));
  const done = (): SeriesBlock => ({ t0Ms: req.t0Ms, t1Ms: req.t1Ms, stepMs: req.stepMs, timestamps, plots: set.plots, columns: set.columns(), replay });
  if (rows === 0 || pmids.length === 0) return done();

  const prime = set.anyRate || pmids.some(isAnyDerivedPmid) ? 1 : 0;
  const grid = { origin: msToTimestamp(req.t0Ms - prime * req.stepMs), deltaNs, count: rows + prime };
  await fetchInterpGrid(ctx, pmids, grid, replay, (k, out) => {
    if (!isPmError(out)) {
      set.apply(out, k - prime);
      return true;
    }
    if (out.code !== PM_ERR_EOL) throw out;
    // Past the end nothing more will come; before the start the next grid point may.
    return req.t0Ms + (k - prime) * req.stepMs <= endMs;
  });
  return done();
}

/** The buffers a block owns, for Comlink.transfer. */
export function blockBuffers(block: SeriesBlock): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const add = (a: Float64Array): void => {
    if (a.buffer instanceof ArrayBuffer) out.add(a.buffer);
  };
  add(block.timestamps);
  for (const c of block.columns) add(c.values);
  return [...out];
}
