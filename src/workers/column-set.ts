// The columns of a series request and how fetch results fill them: one column per resolved
// plot instance, a pmid → instance → column map (one pmid may serve several plots), and the
// counter → rate rules of pmval/pmchart (docs/pmchart-reference.md §1d D1): the rate at a row
// is the change since the previous result divided by the two results' timestamp difference;
// no previous value, or a counter that went down, gives NaN. Used by archive windows
// (series-fetch.ts) and live frames (live-watch.ts) alike.
import type { AtomValue, PmId, Result } from '../pcp-core/types';
import type { PlotInfo, SeriesColumn } from './engine-types';
import { isCounter, type ResolvedPlot } from './plot-resolve';
import { formatUnits, rateConversion } from './units-text';
import { timestampToMs } from './series-time';

interface ColumnState {
  readonly rate: boolean;
  readonly factor: number;
  prev: number | bigint | undefined;
}

const ZERO_UNITS = { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 };

function toNumber(v: AtomValue | undefined): number | bigint | undefined {
  return typeof v === 'number' || typeof v === 'bigint' ? v : undefined;
}

export class ColumnSet {
  readonly plots: PlotInfo[] = [];
  /** Column metadata in output order; `values` arrays are (re)allocated by allocate(). */
  private readonly meta: { plot: number; instId: number; instName: string }[] = [];
  private readonly states: ColumnState[] = [];
  private readonly byPmid = new Map<number, Map<number, number[]>>();
  private values: Float64Array[] = [];
  private prevTimeMs = NaN;
  private readonly seen: Uint8Array;

  constructor(resolved: readonly ResolvedPlot[], rate: boolean) {
    resolved.forEach((p, plotIndex) => {
      if (!p.ok) {
        this.plots.push({ metric: p.metric, sem: 0, type: -1, units: { units: ZERO_UNITS, text: '', utilization: false }, error: p.error });
        return;
      }
      const isRate = rate && isCounter(p.desc);
      const conv = isRate ? rateConversion(p.desc.units) : undefined;
      const units = conv?.units ?? p.desc.units;
      this.plots.push({ metric: p.metric, sem: p.desc.sem, type: p.desc.type, units: { units, text: formatUnits(units), utilization: conv?.utilization ?? false } });
      let insts = this.byPmid.get(p.pmid);
      if (!insts) this.byPmid.set(p.pmid, (insts = new Map<number, number[]>()));
      for (const c of p.columns) {
        const index = this.states.length;
        this.states.push({ rate: isRate, factor: conv?.factor ?? 1, prev: undefined });
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
    this.prevTimeMs = NaN;
  }

  /** Applies one fetch result; `row` < 0 only primes the rates. */
  apply(result: Result, row: number): void {
    const tMs = timestampToMs(result.timestamp);
    const dtSec = (tMs - this.prevTimeMs) / 1000;
    const seen = this.seen;
    seen.fill(0);
    for (const set of result.sets) {
      const insts = this.byPmid.get(set.pmid);
      if (!insts || set.numval <= 0) continue;
      for (let v = 0; v < set.numval; v++) {
        const targets = insts.get(set.inst[v] ?? -2) ?? (set.inst.length === 0 ? insts.get(-1) : undefined);
        if (!targets) continue;
        const raw = toNumber(set.values[v]);
        if (raw === undefined) continue;
        for (const s of targets) {
          const st = this.states[s];
          const out = this.values[s];
          if (!st || !out) continue;
          seen[s] = 1;
          if (!st.rate) {
            if (row >= 0) out[row] = Number(raw);
            continue;
          }
          const prev = st.prev;
          st.prev = raw;
          if (row < 0 || prev === undefined) continue;
          const delta = typeof raw === 'bigint' && typeof prev === 'bigint' ? Number(raw - prev) : Number(raw) - Number(prev);
          // A counter going down is a wrap or reset: no value (pmchart, PCP_COUNTER_WRAP unset).
          if (delta < 0) continue;
          out[row] = dtSec === 0 ? 0 : (delta / dtSec) * st.factor;
        }
      }
    }
    // A column with no value in this result loses its previous value: the next rate is unknown.
    this.states.forEach((st, s) => {
      if (st.rate && !seen[s]) st.prev = undefined;
    });
    this.prevTimeMs = tMs;
  }
}
