// A small in-memory Context for unit tests of the derived layer: metrics with descriptors,
// instance domains, and a list of records replayed forward like an archive in FORW mode
// (each fetch returns the next record; a metric absent from it has no values).
import type { Context, ContextSource, LabelSet, PmnsChild, ProfileChange, ReplayMode, TextKind } from '../../src/pcp-core/context/context';
import { PM_ERR_EOL, PM_ERR_INDOM_LOG, PM_ERR_NAME, PM_ERR_PMID, PM_ERR_TEXT, PmError } from '../../src/pcp-core/errors';
import { PM_VAL_DPTR, PM_VAL_INSITU, PM_TYPE_32, PM_TYPE_U32, emptyValueSet } from '../../src/pcp-core/types';
import type { AtomValue, Desc, InDom, InstanceList, PmId, Result, Timestamp, ValueSet } from '../../src/pcp-core/types';

export interface MemoryMetric {
  readonly name: string;
  readonly desc: Desc;
}

export interface MemoryRecord {
  readonly timestamp: Timestamp;
  /** pmid → [instance, value] pairs (instance −1 for singular), or an error code. */
  readonly values: ReadonlyMap<number, ReadonlyArray<readonly [number, AtomValue]> | number>;
}

export class MemoryContext implements Context {
  readonly source: ContextSource;
  private next = 0;
  readonly fetched: PmId[][] = [];

  constructor(
    readonly metrics: readonly MemoryMetric[],
    readonly indoms: ReadonlyMap<number, ReadonlyArray<{ readonly at: Timestamp; readonly list: InstanceList }>>,
    readonly records: readonly MemoryRecord[],
    kind: 'archive' | 'live' = 'archive',
  ) {
    this.source =
      kind === 'archive'
        ? { kind, names: ['memory'], hostname: 'memory', timezone: 'UTC', zoneinfo: '', start: records[0]?.timestamp ?? { sec: 0, nsec: 0 } }
        : { kind, target: 'memory', hostname: 'memory', timezone: 'UTC', zoneinfo: '' };
  }

  lookupNames(names: readonly string[]): Promise<Array<PmId | number>> {
    return Promise.resolve(names.map((n) => this.metrics.find((m) => m.name === n)?.desc.pmid ?? PM_ERR_NAME));
  }
  nameAll(id: PmId): Promise<string[]> {
    const m = this.metrics.find((x) => x.desc.pmid === id);
    return m ? Promise.resolve([m.name]) : Promise.reject(new PmError(PM_ERR_PMID));
  }
  children(name: string): Promise<PmnsChild[]> {
    const out: PmnsChild[] = [];
    for (const m of this.metrics) {
      if (name !== '' && !m.name.startsWith(`${name}.`)) continue;
      const rest = name === '' ? m.name : m.name.slice(name.length + 1);
      const part = rest.split('.')[0];
      if (!out.some((c) => c.name === part)) out.push({ name: part, leaf: !rest.includes('.') });
    }
    if (out.length === 0 && !this.metrics.some((m) => m.name === name)) return Promise.reject(new PmError(PM_ERR_NAME));
    return Promise.resolve(out);
  }
  traverse(name: string): Promise<string[]> {
    const out = this.metrics.map((m) => m.name).filter((n) => name === '' || n === name || n.startsWith(`${name}.`));
    return out.length > 0 ? Promise.resolve(out) : Promise.reject(new PmError(PM_ERR_NAME));
  }
  lookupDescs(ids: readonly PmId[]): Promise<Array<Desc | number>> {
    return Promise.resolve(ids.map((id) => this.metrics.find((m) => m.desc.pmid === id)?.desc ?? PM_ERR_PMID));
  }
  getInDom(id: InDom, at?: Timestamp): Promise<InstanceList> {
    const history = this.indoms.get(id) ?? [];
    const when = at ?? { sec: Number.MAX_SAFE_INTEGER, nsec: 0 };
    const found = [...history].reverse().find((h) => h.at.sec < when.sec || (h.at.sec === when.sec && h.at.nsec <= when.nsec));
    return found ? Promise.resolve(found.list) : Promise.reject(new PmError(PM_ERR_INDOM_LOG));
  }
  lookupText(_target: { readonly pmid: PmId } | { readonly indom: InDom }, _kind: TextKind): Promise<string> {
    return Promise.reject(new PmError(PM_ERR_TEXT));
  }
  lookupLabels(_level: number, _ident: number): Promise<LabelSet[]> {
    return Promise.resolve([]);
  }
  setMode(_mode: ReplayMode, _origin?: Timestamp, _deltaNs?: bigint): void {
    this.next = 0;
  }
  changeProfile(_change: ProfileChange): void {}
  fetch(ids: readonly PmId[]): Promise<Result> {
    this.fetched.push([...ids]);
    const rec = this.records[this.next++];
    if (rec === undefined) return Promise.reject(new PmError(PM_ERR_EOL));
    const sets: ValueSet[] = ids.map((id) => {
      const m = this.metrics.find((x) => x.desc.pmid === id);
      if (m === undefined) return emptyValueSet(id, PM_ERR_PMID);
      const v = rec.values.get(id);
      if (v === undefined) return emptyValueSet(id);
      if (typeof v === 'number') return emptyValueSet(id, v);
      return {
        pmid: id,
        numval: v.length,
        valfmt: m.desc.type === PM_TYPE_32 || m.desc.type === PM_TYPE_U32 ? PM_VAL_INSITU : PM_VAL_DPTR,
        inst: Int32Array.from(v.map(([i]) => i)),
        values: v.map(([, x]) => x),
      };
    });
    return Promise.resolve({ timestamp: rec.timestamp, sets });
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}
