// Fills a SeriesBlock from any Context: interpolated fetches (PM_MODE_INTERP, exactly libpcp's
// values) at the grid t0, t0+Δ, … ≤ t1, then rate conversion of counters with pmval/pmchart
// semantics (docs/pmchart-reference.md §1d D1–D3): the rate at a grid point is the change
// since the previous grid point divided by the difference of the two results' timestamps;
// no previous value or a counter that went down gives NaN. One extra fetch before t0 gives
// the first row its rate. The output is columnar (one Float64Array per column) so the UI
// receives it by transfer, never as per-value objects.
import { PM_MODE_INTERP, type Context } from '../pcp-core/context/context';
import { PM_ERR_EOL, isPmError } from '../pcp-core/errors';
import type { AtomValue, PmId, Timestamp } from '../pcp-core/types';
import type { PlotInfo, SeriesBlock, SeriesColumn, SeriesRequest } from './engine-types';
import { isCounter, resolvePlots, type ResolvedPlot } from './plot-resolve';
import { formatUnits, rateConversion } from './units-text';

/** Largest number of rows one request may ask for: bounds memory and worker time. */
export const MAX_ROWS = 100_000;

export function msToTimestamp(ms: number): Timestamp {
  const sec = Math.floor(ms / 1000);
  const nsec = Math.round((ms - sec * 1000) * 1e6);
  // Rounding may carry a whole second.
  return nsec >= 1e9 ? { sec: sec + 1, nsec: nsec - 1e9 } : { sec, nsec };
}

/** Timestamps are exact in the core; here they become epoch ms (sub-µs precision kept). */
export function timestampToMs(t: Timestamp): number {
  return t.sec * 1000 + t.nsec / 1e6;
}

/** The grid of a request: row count and the first row's time. */
export function gridRows(t0Ms: number, t1Ms: number, stepMs: number): number {
  if (!(stepMs > 0) || !Number.isFinite(t0Ms) || !Number.isFinite(t1Ms) || t1Ms < t0Ms) return 0;
  return Math.min(MAX_ROWS, Math.floor((t1Ms - t0Ms) / stepMs + 1e-9) + 1);
}

function toNumber(v: AtomValue | undefined): number | bigint | undefined {
  return typeof v === 'number' || typeof v === 'bigint' ? v : undefined;
}

interface ColumnState {
  readonly plot: number;
  readonly rate: boolean;
  readonly factor: number;
  readonly values: Float64Array;
  prev: number | bigint | undefined;
}

/** Interpolated series for the request's plots; the Context is left in INTERP mode. */
export async function fetchSeries(ctx: Context, req: SeriesRequest): Promise<SeriesBlock> {
  const rows = gridRows(req.t0Ms, req.t1Ms, req.stepMs);
  const timestamps = new Float64Array(rows);
  for (let r = 0; r < rows; r++) timestamps[r] = req.t0Ms + r * req.stepMs;

  const resolved = await resolvePlots(ctx, req.plots);
  const plots: PlotInfo[] = [];
  const columns: SeriesColumn[] = [];
  const states: ColumnState[] = [];
  /** pmid → (instId → column state index); one pmid may serve several plots. */
  const byPmid = new Map<number, Map<number, number[]>>();

  resolved.forEach((p: ResolvedPlot, plotIndex) => {
    if (!p.ok) {
      plots.push({ metric: p.metric, sem: 0, type: -1, units: { units: zeroUnits, text: '', utilization: false }, error: p.error });
      return;
    }
    const rate = req.rate && isCounter(p.desc);
    const conv = rate ? rateConversion(p.desc.units) : undefined;
    const units = conv?.units ?? p.desc.units;
    plots.push({
      metric: p.metric,
      sem: p.desc.sem,
      type: p.desc.type,
      units: { units, text: formatUnits(units), utilization: conv?.utilization ?? false },
    });
    let insts = byPmid.get(p.pmid);
    if (!insts) byPmid.set(p.pmid, (insts = new Map<number, number[]>()));
    for (const c of p.columns) {
      const values = new Float64Array(rows).fill(NaN);
      const index = states.length;
      states.push({ plot: plotIndex, rate, factor: conv?.factor ?? 1, values, prev: undefined });
      columns.push({ plot: plotIndex, instId: c.instId, instName: c.instName, values });
      const list = insts.get(c.instId);
      if (list) list.push(index);
      else insts.set(c.instId, [index]);
    }
  });

  const pmids = [...byPmid.keys()] as PmId[];
  if (rows === 0 || pmids.length === 0) return { t0Ms: req.t0Ms, t1Ms: req.t1Ms, stepMs: req.stepMs, timestamps, plots, columns };

  const anyRate = states.some((s) => s.rate);
  const firstMs = anyRate ? req.t0Ms - req.stepMs : req.t0Ms;
  const total = anyRate ? rows + 1 : rows;
  ctx.setMode(PM_MODE_INTERP, msToTimestamp(firstMs), BigInt(Math.round(req.stepMs * 1e6)));
  let prevTimeMs = NaN;
  const seen = new Uint8Array(states.length);
  for (let k = 0; k < total; k++) {
    let result;
    try {
      result = await ctx.fetch(pmids);
    } catch (e) {
      // Past either end of the archive: the remaining rows stay missing.
      if (isPmError(e) && e.code === PM_ERR_EOL) break;
      throw e;
    }
    const row = anyRate ? k - 1 : k;
    const tMs = timestampToMs(result.timestamp);
    const dtSec = (tMs - prevTimeMs) / 1000;
    seen.fill(0);
    for (const set of result.sets) {
      const insts = byPmid.get(set.pmid);
      if (!insts || set.numval <= 0) continue;
      for (let v = 0; v < set.numval; v++) {
        const targets = insts.get(set.inst[v] ?? -2) ?? (set.inst.length === 0 ? insts.get(-1) : undefined);
        if (!targets) continue;
        const raw = toNumber(set.values[v]);
        if (raw === undefined) continue;
        for (const s of targets) {
          const st = states[s];
          if (!st) continue;
          seen[s] = 1;
          if (!st.rate) {
            if (row >= 0) st.values[row] = Number(raw);
            continue;
          }
          const prev = st.prev;
          st.prev = raw;
          if (row < 0 || prev === undefined) continue;
          const delta = typeof raw === 'bigint' && typeof prev === 'bigint' ? Number(raw - prev) : Number(raw) - Number(prev);
          // A counter going down is a wrap or reset: no value (pmchart, PCP_COUNTER_WRAP unset).
          if (delta < 0) continue;
          st.values[row] = dtSec === 0 ? 0 : (delta / dtSec) * st.factor;
        }
      }
    }
    // A column with no value this row loses its previous value: the next rate is unknown.
    for (let s = 0; s < states.length; s++) {
      const st = states[s];
      if (st && st.rate && !seen[s]) st.prev = undefined;
    }
    prevTimeMs = tMs;
  }
  return { t0Ms: req.t0Ms, t1Ms: req.t1Ms, stepMs: req.stepMs, timestamps, plots, columns };
}

const zeroUnits = { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 };

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
