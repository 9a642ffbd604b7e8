// Everything the .meta files of an archive set say (archive-format.md §4, §8): descriptors,
// the PMNS, instance domains over time, label sets over time and help text, merged across
// archives with libpcp's rules (__pmLogAddDesc and friends): a pmid seen again must keep its
// type, semantics, indom and units (PM_ERR_LOGCHANGE*), the first pmid keeps a name, later
// help text replaces earlier. Filled by meta-loader.ts, queried by everything above.
import {
  PM_ERR_LOGCHANGEINDOM,
  PM_ERR_LOGCHANGESEM,
  PM_ERR_LOGCHANGETYPE,
  PM_ERR_LOGCHANGEUNITS,
  PM_ERR_NOTHOST,
  PM_ERR_TEXT,
  PmError,
} from '../errors';
import { Pmns } from '../pmns';
import type { Desc, InDom, InstanceList, PmId, Timestamp } from '../types';
import type { TextKind } from '../types';
import { IndomHistory, type IndomObservation, type InstanceLifetime } from './indom-history';
import { LabelHistory } from './label-history';
import {
  PM_TEXT_HELP,
  PM_TEXT_INDOM,
  PM_TEXT_ONELINE,
  PM_TEXT_PMID,
  type IndomRecord,
  type LabelRecord,
  type StoredLabelSet,
  type TextRecord,
} from './meta-records';

function sameUnits(a: Desc, b: Desc): boolean {
  const u = a.units;
  const v = b.units;
  return (
    u.dimSpace === v.dimSpace &&
    u.dimTime === v.dimTime &&
    u.dimCount === v.dimCount &&
    u.scaleSpace === v.scaleSpace &&
    u.scaleTime === v.scaleTime &&
    u.scaleCount === v.scaleCount
  );
}

export class ArchiveMetadata {
  readonly pmns = new Pmns();
  private readonly descMap = new Map<PmId, Desc>();
  private readonly indoms = new Map<InDom, IndomHistory>();
  readonly labels = new LabelHistory();
  /** Help text by libpcp's key: text type (bits as stored) and ident. */
  private readonly texts = new Map<number, Map<number, string>>();
  /** TYPE_DESC records loaded (libpcp requires at least one per archive). */
  descRecords = 0;

  /**
   * __pmLogAddDesc: a new pmid is recorded; a known one must match exactly. Throws the
   * LOGCHANGE error of the first field that differs, in libpcp's order.
   */
  addDesc(desc: Desc): void {
    const old = this.descMap.get(desc.pmid);
    if (!old) {
      this.descMap.set(desc.pmid, desc);
      return;
    }
    if (desc.type !== old.type) throw new PmError(PM_ERR_LOGCHANGETYPE);
    if (desc.sem !== old.sem) throw new PmError(PM_ERR_LOGCHANGESEM);
    if (desc.indom !== old.indom) throw new PmError(PM_ERR_LOGCHANGEINDOM);
    if (!sameUnits(desc, old)) throw new PmError(PM_ERR_LOGCHANGEUNITS);
  }

  addName(name: string, id: PmId): void {
    this.pmns.add(name, id);
  }

  addIndom(rec: IndomRecord): void {
    if (rec.numinst <= 0) return;
    let h = this.indoms.get(rec.indom);
    if (!h) this.indoms.set(rec.indom, (h = new IndomHistory()));
    h.add(rec);
  }

  addLabels(rec: LabelRecord): void {
    this.labels.add(rec);
  }

  addText(rec: TextRecord): void {
    let m = this.texts.get(rec.type);
    if (!m) this.texts.set(rec.type, (m = new Map<number, string>()));
    m.set(rec.ident >>> 0, rec.text);
  }

  /** Called after each archive's .meta has been loaded. */
  finishArchive(): void {
    this.labels.pruneDuplicates();
  }

  // ----- queries -----

  /** pmLookupDesc: the descriptor of a pmid, or undefined (PM_ERR_PMID_LOG). */
  desc(id: PmId): Desc | undefined {
    return this.descMap.get(id);
  }

  /** Every descriptor, in the order first seen. */
  descs(): IterableIterator<Desc> {
    return this.descMap.values();
  }

  get descCount(): number {
    return this.descMap.size;
  }

  /** Instance domains with at least one observation. */
  indomIds(): IterableIterator<InDom> {
    return this.indoms.keys();
  }

  get indomCount(): number {
    return this.indoms.size;
  }

  /**
   * The instances of `indom` in force at `t` (latest observation ≤ t); with no `t`, the
   * latest observation. Undefined when there is none (PM_ERR_INDOM_LOG).
   */
  indomAt(indom: InDom, t?: Timestamp): InstanceList | undefined {
    const h = this.indoms.get(indom);
    if (!h) return undefined;
    return t === undefined ? h.latest() : h.at(t);
  }

  /** pmGetInDomArchive: every instance ever listed (undefined: PM_ERR_INDOM_LOG). */
  indomUnion(indom: InDom): InstanceList | undefined {
    return this.indoms.get(indom)?.union();
  }

  /** Every observation of `indom` in time order, deltas rebuilt. */
  indomObservations(indom: InDom): readonly IndomObservation[] {
    return this.indoms.get(indom)?.observations() ?? [];
  }

  /** Birth and death times per instance (INTERP calipers, §7.4.4). */
  instanceLifetimes(indom: InDom): Map<number, InstanceLifetime> {
    return this.indoms.get(indom)?.lifetimes() ?? new Map<number, InstanceLifetime>();
  }

  /** Largest instance count of any observation of `indom` (libpcp's ≥ 16 "big indom" test). */
  indomMaxInstances(indom: InDom): number {
    return this.indoms.get(indom)?.maxInstances() ?? 0;
  }

  /** One text entry: the text, or libpcp's error (PM_ERR_NOTHOST: no text of that type). */
  private lookupText(type: number, ident: number): string | number {
    const m = this.texts.get(type);
    if (!m) return PM_ERR_NOTHOST;
    return m.get(ident >>> 0) ?? PM_ERR_TEXT;
  }

  /**
   * pmLookupText / pmLookupInDomText. Help text that is missing or empty falls back to the
   * one-line text, as libpcp does. Throws PM_ERR_TEXT when there is none, or PM_ERR_NOTHOST
   * when the archive has no text of that kind at all (libpcp's "back-compat" code).
   */
  text(target: { readonly pmid: PmId } | { readonly indom: InDom }, kind: TextKind): string {
    const base = 'pmid' in target ? PM_TEXT_PMID : PM_TEXT_INDOM;
    const ident = 'pmid' in target ? target.pmid : target.indom;
    let found = this.lookupText(base | (kind === 'oneline' ? PM_TEXT_ONELINE : PM_TEXT_HELP), ident);
    if (kind === 'help' && (typeof found === 'number' || found === '')) found = this.lookupText(base | PM_TEXT_ONELINE, ident);
    if (typeof found === 'number') throw new PmError(found);
    return found;
  }

  /** Number of help text entries. */
  get textCount(): number {
    let n = 0;
    for (const m of this.texts.values()) n += m.size;
    return n;
  }

  /**
   * The label sets of one level (PM_LABEL_*) and identifier in force at `t` (newest record
   * at or before t; the newest of all when `t` is undefined).
   */
  labelSets(level: number, ident: number, t?: Timestamp): readonly StoredLabelSet[] {
    return this.labels.at(level, ident, t);
  }

  /** When the label sets of (level, ident) change next after `t` (undefined: never). */
  labelChangeAfter(level: number, ident: number, t: Timestamp): Timestamp | undefined {
    return this.labels.changeAfter(level, ident, t);
  }
}
