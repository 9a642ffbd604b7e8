// `pmdash values -U`: pmval's non-interpolated replay. pmval -U reads the archive with
// pmFetchArchive, record by record from the origin, skipping records that lack its metric;
// a <mark> record ("Archive logging suspended") breaks the run, so no rate spans it.
// RecordContext gives the sampler that replay behind the ordinary Context interface: its
// fetch returns the next record holding any of the requested metrics, its value sets in
// the order asked for, and a <mark> starts a new epoch (sameEpoch: no rate across it).
// pmFetchArchive ignores the instance profile; pmval -U -i prints only the instances named,
// so the profile's explicit instance lists (values -i) are applied here.
import type { ArchiveContext } from '../pcp-core/context/archive-context';
import { PM_MODE_FORW, type Context, type ProfileChange, type ReplayMode, type TextKind } from '../pcp-core/context/context';
import type { InDom, PmId, Result, Timestamp, ValueSet } from '../pcp-core/types';
import { emptyValueSet } from '../pcp-core/types';

export class RecordContext implements Context {
  private epoch = 1;
  /** Per indom, the instances an explicit profile admits (absent: all). */
  private readonly admitted = new Map<InDom, ReadonlySet<number>>();
  private readonly indomOf = new Map<PmId, InDom | null>();

  constructor(private readonly inner: ArchiveContext) {}

  get source(): Context['source'] {
    return this.inner.source;
  }

  lookupNames(names: readonly string[]): Promise<Array<PmId | number>> {
    return this.inner.lookupNames(names);
  }
  nameAll(id: PmId): Promise<string[]> {
    return this.inner.nameAll(id);
  }
  children(name: string): ReturnType<Context['children']> {
    return this.inner.children(name);
  }
  traverse(name: string): Promise<string[]> {
    return this.inner.traverse(name);
  }
  lookupDescs(ids: readonly PmId[]): ReturnType<Context['lookupDescs']> {
    return this.inner.lookupDescs(ids);
  }
  getInDom(id: InDom, at?: Timestamp): ReturnType<Context['getInDom']> {
    return this.inner.getInDom(id, at);
  }
  lookupText(target: { readonly pmid: PmId } | { readonly indom: InDom }, kind: TextKind): Promise<string> {
    return this.inner.lookupText(target, kind);
  }
  lookupLabels(level: number, ident: number): ReturnType<Context['lookupLabels']> {
    return this.inner.lookupLabels(level, ident);
  }
  changeProfile(change: ProfileChange): void {
    this.inner.changeProfile(change);
    if (change.indom === null) this.admitted.clear();
    else if (change.op === 'add' && change.instances) this.admitted.set(change.indom, new Set([...(this.admitted.get(change.indom) ?? []), ...change.instances]));
    else if (change.op === 'delete' && !change.instances) this.admitted.set(change.indom, new Set());
    else if (change.op === 'add') this.admitted.delete(change.indom);
  }

  /** A set restricted to the admitted instances of its metric's indom. */
  private async restrict(set: ValueSet): Promise<ValueSet> {
    if (set.numval <= 0 || this.admitted.size === 0) return set;
    let indom = this.indomOf.get(set.pmid);
    if (indom === undefined) {
      const [d] = await this.inner.lookupDescs([set.pmid]);
      indom = typeof d === 'object' ? d.indom : null;
      this.indomOf.set(set.pmid, indom);
    }
    const keep = indom === null ? undefined : this.admitted.get(indom);
    if (!keep) return set;
    const idx = Array.from(set.inst.keys()).filter((k) => keep.has(set.inst[k]));
    return { ...set, numval: idx.length, inst: Int32Array.from(idx, (k) => set.inst[k]), values: idx.map((k) => set.values[k]) };
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  /** Any mode becomes PM_MODE_FORW from the origin: records, not interpolated samples. */
  setMode(_mode: ReplayMode, origin?: Timestamp): void {
    this.inner.setMode(PM_MODE_FORW, origin);
  }

  /** The next record holding any of `ids` (PM_ERR_EOL at the end, as pmFetchArchive). */
  async fetch(ids: readonly PmId[]): Promise<Result> {
    for (;;) {
      const r = await this.inner.fetchArchive();
      if (r.sets.length === 0) {
        this.epoch++;
        continue;
      }
      const byPmid = new Map<PmId, ValueSet>();
      for (const set of r.sets) if (!byPmid.has(set.pmid)) byPmid.set(set.pmid, set);
      if (!ids.some((id) => byPmid.has(id))) continue;
      const sets: ValueSet[] = [];
      for (const id of ids) {
        const set = byPmid.get(id);
        sets.push(set ? await this.restrict(set) : emptyValueSet(id));
      }
      return { timestamp: r.timestamp, sets, epoch: this.epoch };
    }
  }
}
