// "Export the visible window as an archive": copies the records of an open archive set whose
// timestamps lie in [from, to] into a new V3 archive, with the metadata in force for them —
// what pmlogextract -S from -T to does (pmlogextract(1)). Records are copied as stored (every
// metric and instance, error codes, <mark>s, and the marks libpcp synthesises between the
// archives of a set, written as real marks); V2 sources become V3. A metric's descriptor,
// names and help text are written before the first record that holds it; an instance domain
// is written at the time of its first use with the instances then in force, and again at
// each later change the source records inside the window; label sets likewise (context labels
// from the first record, metric, domain, cluster, indom and instance labels from the metric's
// first use), re-written when the set in force changes. The label keeps the source's host,
// zones and PID; its start is the first record copied. Help text: the reader answers lookups
// only (help falls back to the one-line text), so a help record is written where it differs
// from the one-line text (docs/deviations.md "Exporting an archive window"). Data path:
// ArchiveSet (archive/) → ArchiveWriter → three byte arrays the UI downloads and PCP's own
// tools read.
import { PM_ERR_EOL, PM_ERR_LOGOVERLAP, PmError } from '../errors';
import { PM_LABEL_CLUSTER, PM_LABEL_CONTEXT, PM_LABEL_DOMAIN, PM_LABEL_INDOM, PM_LABEL_INSTANCES, PM_LABEL_ITEM, PM_MODE_FORW } from '../context/context';
import { PM_INDOM_NULL, pmidDomain, pmid as makePmid, pmidCluster, type InDom, type PmId, type Timestamp } from '../types';
import type { ArchiveSet } from '../archive/archive-set';
import type { TemporalIndex } from '../archive/temporal-index';
import { PM_TEXT_HELP, PM_TEXT_INDOM, PM_TEXT_ONELINE, PM_TEXT_PMID, type StoredLabelSet } from '../archive/meta-records';
import { compareTimestamps } from '../time/timestamp';
import { replaySetOf } from '../context/archive-replay-source';
import type { ArchiveRecord } from '../replay/archive-records';
import type { LogRecord } from '../replay/log-record';
import { decodeValueSets } from '../archive/data-record';
import { ReplaySession } from '../replay/replay-session';
import { changingBytes, ownsBytes } from '../replay/volume-bytes';
import { ArchiveWriter, type ArchiveImage } from './archive-writer';
import { ArchiveWriteError } from './encode-meta';

export interface ExtractOptions {
  /** First and last timestamps to copy (inclusive, as pmlogextract -S and -T). */
  readonly from: Timestamp;
  readonly to: Timestamp;
  /** Copy only these metrics (pmlogextract -c); records left empty are dropped. Default: all. */
  readonly pmids?: ReadonlySet<PmId>;
}

/** A label key (level, ident) as one number: a map key with no string built per look-up. */
function labelKeyId(level: number, ident: number): number {
  return level * 0x100000000 + (ident >>> 0);
}

/** Distinct pmid lists remembered (a pmlogger configuration logs a few groups). */
const PMID_LISTS = 8;

/** A label key of the source's metadata, and the sets last written for it. */
interface LabelKey {
  readonly level: number;
  readonly ident: number;
  written: readonly StoredLabelSet[] | undefined;
}

class Extractor {
  private writer: ArchiveWriter | undefined;
  /** Per instance domain in use: how many of the source's observations are already covered. */
  private readonly indomNext = new Map<InDom, number>();
  private readonly allLabelKeys: { level: number; ident: number }[];
  private readonly labelKeys = new Map<number, LabelKey>();
  /** Position of each of the source's label keys (labelKeyId) in allLabelKeys. */
  private keyOrder: Map<number, number> | undefined;
  private last: Timestamp | undefined;
  /**
   * The earliest time at which an instance domain or label set followed changes next
   * (undefined: none does): records before it need no look at every followed key, which a
   * record at a time cost more than copying it (hundreds of domains and keys, 732 records).
   */
  private due: Timestamp | undefined;
  /** The pmid lists of recent records, every pmid described (one per length: the compare key). */
  private pmidLists: Uint32Array[] = [];
  /** The pmids of the record being copied (kept only when its list is new). */
  private scratch = new Uint32Array(0);

  constructor(
    private readonly set: ArchiveSet,
    private readonly options: ExtractOptions,
  ) {
    this.allLabelKeys = set.metadata.labels.keys();
  }

  private get meta() {
    return this.set.metadata;
  }

  async run(): Promise<ArchiveImage> {
    // pmFetchArchive from `from`: records older than the last one read are skipped there.
    const replay = await replaySetOf(this.set);
    // All metrics: records are copied as stored (no decoding); a subset needs them decoded.
    const raw = this.options.pmids === undefined;
    // Copied as stored, the records are kept as read (views, no copy) where the volume's
    // source reads fresh bytes (files), read forwards in spans of their own to the window's end.
    const kept = raw ? { passEnd: (i: number, vol: number) => passEndBy(this.set.archives[i]?.index, vol, this.options.to) } : undefined;
    const session = new ReplaySession(replay.replay, { kept });
    // Volumes past the window's end are not decompressed ahead (pmlogextract never opens them).
    session.cursor.readAheadLast = (i) => lastVolumeBy(this.set.archives[i]?.index, this.options.to);
    // The window is one forward pass: its bytes are read ahead at full depth from its first
    // record on (not 1 MiB at a time until a chunk's worth is read), and not past its end
    // (volumes read in spans of their own read ahead themselves).
    replay.prefetchPass(this.options.from, this.options.to, kept !== undefined);
    await session.setMode(PM_MODE_FORW, this.options.from);
    const typeOf = (pmid: PmId): number | undefined => this.meta.desc(pmid)?.type;
    let volume = -1;
    for (;;) {
      let rec: LogRecord;
      try {
        rec = await session.fetchArchiveRecord();
      } catch (e) {
        if (e instanceof PmError && e.code === PM_ERR_EOL) break;
        // Moving into an overlapping archive: libpcp reports it and reads on there.
        if (e instanceof PmError && e.code === PM_ERR_LOGOVERLAP) continue;
        throw e;
      }
      const t = rec.timestamp;
      if (compareTimestamps(t, this.options.from) < 0) continue;
      if (compareTimestamps(t, this.options.to) > 0) break;
      // Timestamps that go backwards are skipped, as pmFetchArchive skips them.
      if (this.last && compareTimestamps(t, this.last) < 0) continue;
      const archive = session.cursor.cur;
      // Into the next volume (or archive): the pass goes on there, read ahead from this record.
      const vol = archive * 1048576 + session.cursor.curVol;
      if (volume >= 0 && vol !== volume) replay.prefetchPass(t, this.options.to, kept !== undefined);
      volume = vol;
      if (raw && rec.numpmid > 0) this.copyRaw(rec, archive);
      else this.copy({ timestamp: t, sets: decodeValueSets(rec.buf, rec.view, rec, typeOf), mark: rec.numpmid === 0, synthetic: rec.virtual, archive });
    }
    if (!this.writer) throw new ArchiveWriteError('there are no records in the chosen time window');
    return this.writer.finish();
  }

  private copy(rec: ArchiveRecord): void {
    const t = rec.timestamp;
    const sets = this.options.pmids ? rec.sets.filter((s) => this.options.pmids?.has(s.pmid)) : rec.sets;
    if (!rec.mark && sets.length === 0) return;
    const w = (this.writer ??= this.start(rec.timestamp, rec.archive));
    this.last = t;
    if (rec.mark) {
      w.mark(t, rec.synthetic);
      return;
    }
    for (const s of sets) this.describe(w, s.pmid, t);
    this.followChanges(w, t);
    w.record(t, sets);
  }

  /** A record with values, copied as stored: its metrics described as the copy meets them. */
  private copyRaw(rec: LogRecord, archive: number): void {
    const t = rec.timestamp;
    // Bytes read fresh for this copy (ownsBytes) go into the volume as they are (a V2
    // record changed in place, which its reader is told of).
    const kept = ownsBytes(rec.buf);
    const version = (this.set.archives[archive]?.label ?? this.set.label).version;
    if (kept && version < 3) changingBytes(rec.buf);
    const w = (this.writer ??= this.start(rec.timestamp, archive, kept));
    this.last = t;
    // A record listing the pmids of one already seen (pmlogger logs each group alike) needs
    // no look-up: a compare of words instead of one per value set (hundreds a record).
    const n = rec.numpmid;
    const seen = this.pmidLists.find((l) => l.length === n);
    let same = seen !== undefined;
    if (this.scratch.length < n) this.scratch = new Uint32Array(n);
    const list = this.scratch;
    // Metrics are described as the copy meets them, then what changed by t is followed: all
    // in .meta before the record's index entry is decided, as if written before the record.
    w.recordRaw(t, rec.buf, version, {
      pmid: (pmid, i) => {
        list[i] = pmid;
        if (same && seen?.[i] === pmid) return;
        same = false;
        if (!w.hasDesc(pmid)) this.describe(w, pmid, t);
      },
      end: () => {
        if (!same) this.pmidLists = [list.slice(0, n), ...this.pmidLists.filter((l) => l.length !== n)].slice(0, PMID_LISTS);
        this.followChanges(w, t);
      },
    }, kept);
  }

  /** The writer, labelled from the archive that holds the first record; context labels. */
  private start(timestamp: Timestamp, archive: number, kept = false): ArchiveWriter {
    const label = (this.set.archives[archive] ?? this.set.archives[0])?.label ?? this.set.label;
    // Records copied as stored come to about what the window spans in the source (unless
    // they are kept as read: then the volume's own bytes are only headers and V2 value sets).
    const volumeBytes = this.options.pmids === undefined && !kept ? windowBytes(this.set, this.options.from, this.options.to) : undefined;
    const w = new ArchiveWriter({ pid: label.pid, hostname: label.hostname, timezone: label.timezone, zoneinfo: label.zoneinfo }, { volumeBytes });
    this.useLabels(w, timestamp, (k) => k.level === PM_LABEL_CONTEXT);
    return w;
  }

  /** Descriptor, names, help text, labels and instance domain of a metric on first use. */
  private describe(w: ArchiveWriter, pmid: PmId, t: Timestamp): void {
    if (w.hasDesc(pmid)) return;
    const desc = this.meta.desc(pmid);
    if (!desc) return; // the source has no descriptor either; values are copied as stored
    w.desc(desc, this.meta.pmns.nameAll(pmid));
    this.helpText(w, { pmid }, PM_TEXT_PMID, pmid);
    const cluster = makePmid(pmidDomain(pmid), pmidCluster(pmid), 0);
    const keys: [number, number][] = [[PM_LABEL_DOMAIN, pmidDomain(pmid)], [PM_LABEL_CLUSTER, cluster], [PM_LABEL_ITEM, pmid]];
    if (desc.indom !== PM_INDOM_NULL) keys.push([PM_LABEL_INDOM, desc.indom], [PM_LABEL_INSTANCES, desc.indom]);
    this.useLabelKeys(w, t, keys);
    if (desc.indom !== PM_INDOM_NULL && !this.indomNext.has(desc.indom)) {
      this.helpText(w, { indom: desc.indom }, PM_TEXT_INDOM, desc.indom);
      const obs = this.meta.indomObservations(desc.indom);
      let next = 0;
      while (next < obs.length && compareTimestamps((obs[next] ?? { stamp: t }).stamp, t) <= 0) next++;
      this.indomNext.set(desc.indom, next);
      this.dueBy(obs[next]?.stamp);
      const current = this.meta.indomAt(desc.indom, t);
      if (current) w.indom(t, desc.indom, current);
    }
  }

  /** Writes the one-line and help text of a metric or instance domain, when the source has them. */
  private helpText(w: ArchiveWriter, target: { readonly pmid: PmId } | { readonly indom: InDom }, kind: number, ident: number): void {
    const lookup = (k: 'oneline' | 'help'): string | undefined => {
      try {
        return this.meta.text(target, k);
      } catch (e) {
        if (e instanceof PmError) return undefined;
        throw e;
      }
    };
    const oneline = lookup('oneline');
    const help = lookup('help');
    if (oneline !== undefined) w.text(kind | PM_TEXT_ONELINE, ident, oneline);
    // A help lookup falls back to the one-line text; only a different text is a help record.
    if (help !== undefined && help !== oneline) w.text(kind | PM_TEXT_HELP, ident, help);
  }

  /**
   * useLabels for the keys (level, ident) given, by lookup: a metric's first use asks for its
   * five keys, where a scan of every key the source has (thousands) for each of hundreds of
   * metrics cost more than copying the records. Written in the source's key order, as the scan.
   */
  private useLabelKeys(w: ArchiveWriter, t: Timestamp, keys: readonly (readonly [number, number])[]): void {
    const order = (this.keyOrder ??= new Map(this.allLabelKeys.map((k, i) => [labelKeyId(k.level, k.ident), i])));
    const found: number[] = [];
    for (const [level, ident] of keys) {
      const i = order.get(labelKeyId(level, ident));
      if (i !== undefined && !this.labelKeys.has(labelKeyId(level, ident)) && !found.includes(i)) found.push(i);
    }
    found.sort((a, b) => a - b);
    for (const i of found) {
      const k = this.allLabelKeys[i];
      if (!k) continue;
      const key: LabelKey = { ...k, written: undefined };
      this.labelKeys.set(labelKeyId(k.level, k.ident), key);
      this.writeLabels(w, key, t);
    }
  }

  /** Starts following the label keys `pick` selects, writing the sets in force at `t`. */
  private useLabels(w: ArchiveWriter, t: Timestamp, pick: (k: { level: number; ident: number }) => boolean): void {
    for (const k of this.allLabelKeys) {
      const id = labelKeyId(k.level, k.ident);
      if (this.labelKeys.has(id) || !pick(k)) continue;
      const key: LabelKey = { ...k, written: undefined };
      this.labelKeys.set(id, key);
      this.writeLabels(w, key, t);
    }
  }

  private writeLabels(w: ArchiveWriter, key: LabelKey, t: Timestamp): void {
    this.dueBy(this.meta.labelChangeAfter(key.level, key.ident, t));
    const sets = this.meta.labelSets(key.level, key.ident, t);
    if (sets === key.written) return;
    key.written = sets;
    if (sets.length > 0) w.labels(t, key.level, key.ident, sets);
  }

  /** `due` no later than `stamp`. */
  private dueBy(stamp: Timestamp | undefined): void {
    if (stamp && (!this.due || compareTimestamps(stamp, this.due) < 0)) this.due = stamp;
  }

  /** Instance-domain observations and label changes the source records up to `t`. */
  private followChanges(w: ArchiveWriter, t: Timestamp): void {
    if (!this.due || compareTimestamps(t, this.due) < 0) return;
    // Something changes by t: every followed key is looked at, and `due` found again.
    this.due = undefined;
    for (const [indom, next] of this.indomNext) {
      const obs = this.meta.indomObservations(indom);
      let i = next;
      for (; i < obs.length; i++) {
        const o = obs[i];
        if (!o || compareTimestamps(o.stamp, t) > 0) break;
        w.indom(o.stamp, indom, o.set, true);
      }
      this.indomNext.set(indom, i);
      this.dueBy(obs[i]?.stamp);
    }
    for (const key of this.labelKeys.values()) this.writeLabels(w, key, t);
  }
}

/**
 * About how many bytes of records the source holds in [from, to], from the temporal indexes:
 * between the entries either side of the window, volume by volume (a volume's tail after its
 * last entry is not known, so the estimate may fall short), plus V2's 4 bytes more per
 * record of V3 (1%). Undefined when an archive the window touches has no index.
 */
export function windowBytes(set: ArchiveSet, from: Timestamp, to: Timestamp): number | undefined {
  let total = 0;
  for (const a of set.archives) {
    const ix = a.index;
    const n = ix.length;
    if (n === 0) {
      if (compareTimestamps(a.start, to) <= 0) return undefined;
      continue;
    }
    // The last entry at or before `from` and the first at or after `to` (clamped to the index).
    let lo = 0;
    while (lo + 1 < n && compareTimestamps(ix.stamp(lo + 1), from) <= 0) lo++;
    let hi = lo;
    while (hi + 1 < n && compareTimestamps(ix.stamp(hi), to) < 0) hi++;
    for (let e = lo; e < hi; e++) total += ix.vol[e + 1] === ix.vol[e] ? Math.max(0, ix.offData[e + 1] - ix.offData[e]) : ix.offData[e + 1];
  }
  return set.label.version < 3 ? Math.ceil(total * 1.01) : total;
}

/**
 * The last volume that can hold records up to `to`, by the temporal index: that of the first
 * entry after `to` (volumes follow time; an entry starts each volume). Undefined: no index,
 * or the window runs past its last entry.
 */
export function lastVolumeBy(ix: TemporalIndex | undefined, to: Timestamp): number | undefined {
  if (!ix) return undefined;
  for (let e = 0; e < ix.length; e++) if (compareTimestamps(ix.stamp(e), to) > 0) return ix.vol[e];
  return undefined;
}

/**
 * Where a forward pass to `to` ends in volume `vol`, by the temporal index: the offset of its
 * first entry after `to` (the record there is the first past the window). Undefined: no index,
 * or no such entry in that volume.
 */
export function passEndBy(ix: TemporalIndex | undefined, vol: number, to: Timestamp): number | undefined {
  if (!ix) return undefined;
  for (let e = 0; e < ix.length; e++) if (ix.vol[e] === vol && compareTimestamps(ix.stamp(e), to) > 0) return ix.offData[e];
  return undefined;
}

/** A new V3 archive of the records of `set` in [from, to]; throws ArchiveWriteError when there are none. */
export function extractWindow(set: ArchiveSet, options: ExtractOptions): Promise<ArchiveImage> {
  return new Extractor(set, options).run();
}
