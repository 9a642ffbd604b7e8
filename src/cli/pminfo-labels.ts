// What `pminfo -l -a ARCHIVE` prints for each metric, reproduced from how pminfo 6.0.3 and
// libpcp arrive at it (the answers depend on much more than the label records):
// - for an archive pminfo takes one metric at a time: it rewinds to the archive's start and
//   fetches that metric, and the label and instance lookups for it happen at the time of the
//   record the fetch lands on (the first holding the metric); when the fetch fails it prints
//   "NAME: pmFetch: ERROR" instead (a metric with a descriptor but no values: end of archive);
//   a derived metric (-c) lands on the first record holding any operand, or with none on the
//   first record;
// - instance names printed raw inside quotes (not JSON-escaped), "DISAPPEARED" when the
//   instance is not in the indom at that time;
// - an archive lookup returns the newest label record at or before that time and matches the
//   identifier exactly, so pmGetClusterLabels(pmid) only finds a cluster record stored under
//   that very pmid (pmlogger files them under item 0);
// - pminfo caches the last answer of each level by identifier (domain, indom, domain+cluster,
//   pmid; the indom's instances and instance labels), so a run of metrics sharing a key keeps
//   the first answer, though later metrics land at other times — and the cluster labels of
//   the run's first pmid apply to the whole run.
import type { ArchiveSet } from '../pcp-core/archive/archive-set';
import type { StoredLabelSet } from '../pcp-core/archive/meta-records';
import type { LogRecord } from '../pcp-core/replay/log-record';
import { archiveRecords } from './archive-cli';
import { compareTimestamps } from '../pcp-core/time/timestamp';
import { ArchiveContext } from '../pcp-core/context/archive-context';
import { PM_LABEL_CLUSTER, PM_LABEL_CONTEXT, PM_LABEL_DOMAIN, PM_LABEL_INDOM, PM_LABEL_INSTANCES, PM_LABEL_ITEM, type LabelSet } from '../pcp-core/context/context';
import { DerivedContext } from '../pcp-core/derived/derived-context';
import { DerivedRegistry, isDerivedPmid } from '../pcp-core/derived/registry';
import { isPmError } from '../pcp-core/errors';
import { indomDomain, PM_ID_NULL, PM_INDOM_NULL, pmidCluster, pmidDomain, type Desc, type InDom, type InstanceList, type PmId, type Timestamp } from '../pcp-core/types';

export interface InstanceLabels {
  readonly inst: number;
  readonly name: string;
  readonly labels: string;
}

/** The label output of one name: a fetch error, or the merged sets (null: none to print). */
export type NameLabels = { readonly fetchError: number } | { readonly metric: string | null; readonly instances: readonly InstanceLabels[] };

/** pmMergeLabelSets without a filter: later sets override earlier names; sorted by name. */
export function mergeLabels(sets: ReadonlyArray<LabelSet | undefined>): string | null {
  const merged = new Map<string, string>();
  for (const s of sets) for (const l of s?.labels ?? []) merged.set(l.name, l.value);
  if (merged.size === 0) return null;
  const names = [...merged.keys()].sort();
  return `{${names.map((n) => `${JSON.stringify(n)}:${merged.get(n) as string}`).join(',')}}`;
}

/** One cached lookup of pminfo's: re-asked only when the key changes. */
class Cached<K, V> {
  private key: K;
  private value: V | undefined;
  private primed = false;

  constructor(initialKey: K) {
    this.key = initialKey;
  }

  get(key: K, same: (a: K, b: K) => boolean, ask: () => V): V {
    if (!this.primed || !same(key, this.key)) {
      this.value = ask();
      this.key = key;
      this.primed = true;
    }
    return this.value as V;
  }
}

const eq = <T>(a: T, b: T): boolean => a === b;

/** pminfo's lookups over one archive, in its order, with its caches. */
class PminfoLabelState {
  private contextSet: LabelSet | undefined | null = null;
  private readonly domain = new Cached<number, StoredLabelSet | undefined>(-1);
  private readonly indom = new Cached<number, StoredLabelSet | undefined>(PM_INDOM_NULL);
  private readonly cluster = new Cached<number, StoredLabelSet | undefined>(PM_ID_NULL);
  private readonly item = new Cached<number, StoredLabelSet | undefined>(PM_ID_NULL);
  private readonly instNames = new Cached<number, InstanceList | undefined>(PM_INDOM_NULL);
  private readonly instLabels = new Cached<number, readonly StoredLabelSet[]>(PM_INDOM_NULL);

  constructor(private readonly set: ArchiveSet) {}

  private first(level: number, ident: number, t: Timestamp): StoredLabelSet | undefined {
    return this.set.metadata.labelSets(level, ident, t)[0];
  }

  /** Looked up once, at the first use; with none in force, just the archive's hostname. */
  private context(t: Timestamp): LabelSet | undefined {
    if (this.contextSet === null) {
      const sets = this.set.metadata.labelSets(PM_LABEL_CONTEXT, 0, t);
      this.contextSet = sets.length > 0 ? sets[0] : { inst: -1, json: '', labels: [{ name: 'hostname', value: JSON.stringify(this.set.label.hostname), flags: PM_LABEL_CONTEXT }] };
    }
    return this.contextSet;
  }

  /** context, domain, [indom,] cluster, item: the order pminfo asks (and caches) them in. */
  private levels(d: Desc, t: Timestamp, withIndom: boolean): Array<LabelSet | undefined> {
    const sameCluster = (a: number, b: number): boolean => pmidDomain(a as PmId) === pmidDomain(b as PmId) && pmidCluster(a as PmId) === pmidCluster(b as PmId);
    const out: Array<LabelSet | undefined> = [this.context(t), this.domain.get(pmidDomain(d.pmid), eq, () => this.first(PM_LABEL_DOMAIN, pmidDomain(d.pmid), t))];
    if (withIndom) out.push(this.indom.get(d.indom, eq, () => this.first(PM_LABEL_INDOM, d.indom, t)));
    // Asked with the full pmid: a cluster record (filed under item 0) is found only for item 0.
    out.push(this.cluster.get(d.pmid, sameCluster, () => this.first(PM_LABEL_CLUSTER, d.pmid, t)));
    out.push(this.item.get(d.pmid, eq, () => this.first(PM_LABEL_ITEM, d.pmid, t)));
    return out;
  }

  private names(indom: InDom, t: Timestamp): InstanceList | undefined {
    return this.instNames.get(indom, eq, () => this.set.metadata.indomAt(indom, t));
  }

  labels(d: Desc, t: Timestamp): NameLabels {
    const base = this.levels(d, t, d.indom !== PM_INDOM_NULL);
    const metric = mergeLabels(base);
    if (d.indom === PM_INDOM_NULL) return { metric, instances: [] };
    // pminfo's instance lines take the domain labels of the indom's domain, not the pmid's:
    // for a derived metric (domain 511) over an agent's indom that adds e.g. {"agent":"linux"}.
    const dom = indomDomain(d.indom);
    const instBase = [base[0], this.domain.get(dom, eq, () => this.first(PM_LABEL_DOMAIN, dom, t)), ...base.slice(2)];
    const list = this.names(d.indom, t);
    const sets = this.instLabels.get(d.indom, eq, () => this.set.metadata.labelSets(PM_LABEL_INSTANCES, d.indom, t));
    const nameOf = (inst: number): string => {
      const i = list ? list.instances.indexOf(inst) : -1;
      return i >= 0 ? (list?.names[i] as string) : 'DISAPPEARED';
    };
    const instances: InstanceLabels[] = [];
    const add = (inst: number, own: LabelSet | undefined): void => {
      const labels = mergeLabels([...instBase, own]);
      if (labels !== null) instances.push({ inst, name: nameOf(inst), labels });
    };
    // With instance label sets, one line per set; else one per instance in force.
    if (sets.length > 0) for (const s of sets) add(s.inst, s);
    else for (const inst of list?.instances ?? []) add(inst, undefined);
    return { metric, instances };
  }
}

/** Where a pmFetch of one metric from the archive's start lands: per pmid, the first record. */
interface FirstRecords {
  readonly byPmid: ReadonlyMap<number, Timestamp>;
  /** The first record that is not a mark (where a fetch of only derived metrics lands). */
  readonly firstAny: Timestamp | undefined;
  /** What a fetch of a metric in no record fails with (PM_ERR_EOL, or the damage met). */
  readonly endError: number;
}

/**
 * One pass over the records as pmFetch reads them from the start (the pmFetchArchive order),
 * instead of one pass per metric as pminfo makes.
 */
async function firstRecords(set: ArchiveSet): Promise<FirstRecords> {
  const byPmid = new Map<number, Timestamp>();
  let firstAny: Timestamp | undefined;
  const records = await archiveRecords(set);
  for (;;) {
    let rec: LogRecord;
    try {
      rec = await records.fetchArchiveRecord();
    } catch (e) {
      if (!isPmError(e)) throw e;
      return { byPmid, firstAny, endError: e.code };
    }
    if (rec.numpmid === 0) continue;
    firstAny ??= rec.timestamp;
    for (let i = 0; i < rec.numpmid; i++) {
      const pmid = rec.view.getUint32(rec.vsetOffsets[i]);
      if (!byPmid.has(pmid)) byPmid.set(pmid, rec.timestamp);
    }
  }
}

/**
 * The label output of every name pminfo -l would list under `prefixes`, in its order. Names
 * only pminfo lists (its anonymous derived metrics, when `derived` is not given) are marked
 * `hidden`: their lookups still move pminfo's caches, and callers skip them.
 */
export async function pminfoLabels(
  set: ArchiveSet,
  prefixes: readonly string[],
  derived: DerivedContext | undefined,
  listed: readonly string[] | undefined,
): Promise<Array<{ readonly name: string; readonly hidden: boolean; readonly out: NameLabels | undefined }>> {
  // Without -c, a context with just libpcp's anonymous metrics gives pminfo's name list.
  const ctx: DerivedContext = derived ?? new DerivedContext(await ArchiveContext.fromSet(set), { registry: new DerivedRegistry() });
  const names: string[] = listed ? [...listed] : [];
  if (!listed) {
    for (const prefix of prefixes) {
      try {
        names.push(...(await ctx.traverse(prefix)));
      } catch (e) {
        // The caller reports a prefix that is not there.
        if (!isPmError(e)) throw e;
      }
    }
  }
  const first = await firstRecords(set);
  const state = new PminfoLabelState(set);
  const out: Array<{ name: string; hidden: boolean; out: NameLabels | undefined }> = [];
  const ids = await ctx.lookupNames(names);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const id = ids[i];
    const hidden = derived === undefined && id >= 0 && isDerivedPmid(id as PmId);
    if (id < 0) {
      out.push({ name, hidden, out: undefined });
      continue;
    }
    // pminfo fetches each metric alone from the archive's start; its lookups use that time.
    let t: Timestamp | number = first.endError;
    const operands = await ctx.operandsOf(id as PmId);
    if (operands === undefined) t = first.byPmid.get(id) ?? first.endError;
    else if (operands.length === 0) t = first.firstAny ?? first.endError;
    else {
      // A derived metric lands on the first record holding any of its operands.
      for (const op of operands) {
        const at = first.byPmid.get(op);
        if (at && (typeof t === 'number' || compareTimestamps(at, t) < 0)) t = at;
      }
    }
    if (typeof t === 'number') {
      out.push({ name, hidden, out: { fetchError: t } });
      continue;
    }
    const [d] = await ctx.lookupDescs([id as PmId]);
    out.push({ name, hidden, out: typeof d === 'number' || d === undefined ? undefined : state.labels(d, t) });
  }
  return out;
}
