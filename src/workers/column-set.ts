// The columns of a series request and how fetch results fill them: one column per resolved
// plot instance, a pmid → instance → column map (one pmid may serve several plots), and the
// counter → rate rules, which are the core's pmval rules (pcp-core/rate.ts, the same code
// `pmdash values` runs): value difference over pmval's interval between the two results'
// timestamps, a time counter scaled into a utilisation, no value without a previous value or
// on a decrease unless PCP_COUNTER_WRAP. Units text is the core's pmUnitsStr. Used by archive
// windows (series-fetch.ts) and live frames (live-watch.ts) alike.
import { pmvalDelta, pmvalRate, pmvalTimeScale, rateUnits } from '../pcp-core/rate';
import { PM_SEM_COUNTER, PM_TYPE_FLOAT, type AtomValue, type Desc, type PmId, type Result, type Timestamp, type Units } from '../pcp-core/types';
import { formatUnits, isDimensionless } from '../pcp-core/units';
import { toDouble } from '../pcp-core/values';
import type { ColumnUnits, PlotInfo, SeriesColumn } from './engine-types';
import { isCounter, type ResolvedPlot } from './plot-resolve';

interface ColumnState {
  readonly rate: boolean;
  readonly type: number;
  /** pmvalTimeScale of the plot's descriptor. */
  readonly scale: number;
  prev: number | undefined;
}

/**
 * The units a chart shows for a plot: the descriptor's, or for a rate-converted counter
 * pmval's rate units — a time counter becomes a (dimensionless) time utilization.
 */
export function chartUnits(desc: Pick<Desc, 'sem' | 'units'>, rate: boolean): ColumnUnits {
  if (!(rate && desc.sem === PM_SEM_COUNTER)) return { units: desc.units, text: formatUnits(desc.units), utilization: false };
  const units: Units = rateUnits(desc.units);
  return { units, text: formatUnits(units), utilization: isDimensionless(units) };
}

const ZERO_UNITS = { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 };

function toNumber(v: AtomValue | undefined, type: number): number | undefined {
  return typeof v === 'number' || typeof v === 'bigint' ? toDouble(v, type) : undefined;
}

export class ColumnSet {
  readonly plots: PlotInfo[] = [];
  /** Column metadata in output order; `values` arrays are (re)allocated by allocate(). */
  private readonly meta: { plot: number; instId: number; instName: string }[] = [];
  private readonly states: ColumnState[] = [];
  private readonly byPmid = new Map<number, Map<number, number[]>>();
  private values: Float64Array[] = [];
  private prevTime: Timestamp | undefined;
  private readonly seen: Uint8Array;

  /** `counterWrap`: PCP_COUNTER_WRAP's rule (a decrease adds 2^32 or 2^64 once). */
  constructor(resolved: readonly ResolvedPlot[], rate: boolean, private readonly counterWrap = false) {
    resolved.forEach((p, plotIndex) => {
      if (!p.ok) {
        this.plots.push({ metric: p.metric, sem: 0, type: -1, units: { units: ZERO_UNITS, text: '', utilization: false }, error: p.error });
        return;
      }
      const isRate = rate && isCounter(p.desc);
      this.plots.push({ metric: p.metric, sem: p.desc.sem, type: p.desc.type, units: chartUnits(p.desc, rate), float32: !isRate && p.desc.type === PM_TYPE_FLOAT });
      const scale = pmvalTimeScale(p.desc);
      let insts = this.byPmid.get(p.pmid);
      if (!insts) this.byPmid.set(p.pmid, (insts = new Map<number, number[]>()));
      for (const c of p.columns) {
        const index = this.states.length;
        this.states.push({ rate: isRate, type: p.desc.type, scale, prev: undefined });
        this.meta.push({ plot: plotIndex, instId: c.instId, instName: c.instName });
        const list = insts.get(c.instId);
        if (list) list.push(index);
        else insts.set(c.instId, [index]);
      }
    });
    this.seen = new Uint8Array(this.states.length);
  }

  get pmids(): PmId[] {
    return [...this.byPmid.keys()] as PmId[];
  }

  get anyRate(): boolean {
    return this.states.some((s) => s.rate);
  }

  /** Fresh NaN-filled value arrays for `rows` rows (earlier arrays are left to their owner). */
  allocate(rows: number): void {
    this.values = this.states.map(() => new Float64Array(rows).fill(NaN));
  }

  /** The columns over the current value arrays. */
  columns(): SeriesColumn[] {
    return this.meta.map((m, i) => ({ ...m, values: this.values[i] ?? new Float64Array(0) }));
  }

  /** Forgets previous values: the next result starts rates afresh (reposition, reconnect). */
  restart(): void {
    for (const s of this.states) s.prev = undefined;
    this.prevTime = undefined;
  }

  /** Applies one fetch result; `row` < 0 only primes the rates. */
  apply(result: Result, row: number): void {
    const t = result.timestamp;
    const t0 = this.prevTime;
    const seen = this.seen;
    seen.fill(0);
    for (const set of result.sets) {
      const insts = this.byPmid.get(set.pmid);
      if (!insts || set.numval <= 0) continue;
      for (let v = 0; v < set.numval; v++) {
        const targets = insts.get(set.inst[v] ?? -2) ?? (set.inst.length === 0 ? insts.get(-1) : undefined);
        if (!targets) continue;
        for (const s of targets) {
          const st = this.states[s];
          const out = this.values[s];
          if (!st || !out) continue;
          const raw = toNumber(set.values[v], st.type);
          if (raw === undefined) continue;
          seen[s] = 1;
          if (!st.rate) {
            if (row >= 0) out[row] = raw;
            continue;
          }
          const prev = st.prev;
          st.prev = raw;
          if (row < 0 || prev === undefined || t0 === undefined) continue;
          const delta = pmvalDelta(st.scale, t0, t);
          // No time between two results: pmchart draws 0 (an axis holds no infinity).
          out[row] = delta === 0 ? 0 : pmvalRate(prev, raw, delta, st.type, this.counterWrap);
        }
      }
    }
    // A column with no value in this result loses its previous value: the next rate is unknown.
    this.states.forEach((st, s) => {
      if (st.rate && !seen[s]) st.prev = undefined;
    });
    this.prevTime = t;
  }
}
