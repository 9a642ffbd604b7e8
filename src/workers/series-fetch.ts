// Fills a SeriesBlock for an archive window: interpolated fetches (PM_MODE_INTERP, exactly
// libpcp's values) at the grid t0, t0+Δ, … ≤ t1, with counters rate-converted as pmval and
// pmchart do (column-set.ts); `counterWrap` is PCP_COUNTER_WRAP. One extra fetch before t0 gives the first row its rate. The
// output is columnar (one Float64Array per column) so the UI receives it by transfer.
import { PM_MODE_INTERP, type Context } from '../pcp-core/context/context';
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
 */
export async function fetchSeries(ctx: Context, req: SeriesRequest, endMs = Infinity, define?: ExpressionDefiner, counterWrap = false): Promise<SeriesBlock> {
  const rows = gridRows(req.t0Ms, req.t1Ms, req.stepMs);
  const timestamps = new Float64Array(rows);
  for (let r = 0; r < rows; r++) timestamps[r] = req.t0Ms + r * req.stepMs;
  const set = new ColumnSet(await resolvePlots(ctx, req.plots, define), req.rate, counterWrap);
  set.allocate(rows);
  const pmids = set.pmids;
  const done = (): SeriesBlock => ({ t0Ms: req.t0Ms, t1Ms: req.t1Ms, stepMs: req.stepMs, timestamps, plots: set.plots, columns: set.columns() });
  if (rows === 0 || pmids.length === 0) return done();

  const prime = set.anyRate ? 1 : 0;
  ctx.setMode(PM_MODE_INTERP, msToTimestamp(req.t0Ms - prime * req.stepMs), BigInt(Math.round(req.stepMs * 1e6)));
  for (let k = 0; k < rows + prime; k++) {
    let result;
    try {
      result = await ctx.fetch(pmids);
    } catch (e) {
      if (!(isPmError(e) && e.code === PM_ERR_EOL)) throw e;
      // Past the end nothing more will come; before the start the next grid point may.
      if (req.t0Ms + (k - prime) * req.stepMs > endMs) break;
      continue;
    }
    set.apply(result, k - prime);
  }
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
