// Writes one PCP archive, format V3, single volume (archive-format.md §1–§6): the caller
// hands over metadata and records in time order — descriptors with names and help text when
// a metric is first needed, instance domains and label sets as they change, then each record
// — and gets back the three files. The writer keeps pmlogger's file discipline, so PCP's
// tools read the result as their own: metadata for a record precedes it in .meta, instance
// domains are written full on first sight and as deltas when those are smaller, and the
// temporal index follows pmlogextract's rule (an entry for the first record, for every record
// that needed new instance-domain metadata, past every 100,000 bytes of data, and a closing
// one; §6.2). The
// label's start is the first record's time; all three labels share PID and hostname (§3.3).
import { PM_VAL_INSITU, type Desc, type InDom, type InstanceList, type PmId, type Timestamp } from '../types';
import { compareTimestamps } from '../time/timestamp';
import { ArchiveByteWriter, utf8Length } from './byte-writer';
import { encodeLabelV3, LABEL_SIZE_V3, type LabelFields } from './encode-label';
import { ArchiveWriteError, encodeDesc, encodeIndom, encodeIndomLists, encodeLabelSets, encodeText, type IndomEntry, type LabelSetToWrite } from './encode-meta';
import { encodeMarkV3, encodeRecordV3, type ValueSetToWrite } from './encode-record';

/** The files of a written archive, by suffix. */
export interface ArchiveImage {
  readonly meta: Uint8Array<ArrayBuffer>;
  readonly index: Uint8Array<ArrayBuffer>;
  /** Volume 0 (joined from volumeParts when first asked for). */
  readonly volume: Uint8Array<ArrayBuffer>;
  /** Volume 0 in the pieces it was written in (label first): a .tar takes them as they are. */
  readonly volumeParts: readonly Uint8Array<ArrayBuffer>[];
  readonly label: LabelFields;
  readonly records: number;
  /** Time of the last record (the label's start is the first). */
  readonly end: Timestamp;
}

/**
 * What recordRaw tells its caller as it copies a record: each value set's pmid in order (on
 * the walk that moves a V2 record's pointers, so a large record's value sets are visited
 * once), then the end, after the bytes are in and before the record's index entry is decided
 * (metadata written by then counts for this record, as if written before it).
 */
export interface RawRecordVisitor {
  pmid(pmid: PmId, i: number): void;
  end(): void;
}

/** pmlogger's index rule: a new entry once the volume has grown this much past the last one. */
const INDEX_EVERY_BYTES = 100_000;
/**
 * The volume is kept in chunks of about this size: a large export grows no buffer by doubling
 * (each doubling copies and zero-fills everything so far); one copy joins them at the end.
 */
const VOLUME_CHUNK = 4 * 1024 * 1024;
/**
 * The largest first chunk a size estimate gets: one allocation for an export of that size
 * (large allocations come zeroed from the system as they are touched, where 4 MiB chunks
 * reused from the heap are cleared first), and no larger, so no huge block must be found.
 */
const MAX_FIRST_CHUNK = 128 * 1024 * 1024;

export interface ArchiveWriterOptions {
  /** About how many bytes of records will be written (an extract knows from the index). */
  readonly volumeBytes?: number;
}

export class ArchiveWriter {
  private readonly meta = new ArchiveByteWriter(64 * 1024);
  /** The volume: finished chunks, then the chunk being written (records never straddle two). */
  private data: ArchiveByteWriter;
  /** The size at which the chunk being written is set aside between records. */
  private chunkLimit = VOLUME_CHUNK;
  private readonly dataChunks: Uint8Array<ArrayBuffer>[] = [];
  /** Bytes of the volume in dataChunks. */
  private dataBase = 0;
  /** Bytes of `data` already in dataChunks (as a view, before a record kept as given). */
  private spilled = 0;
  private readonly index = new ArchiveByteWriter(4096);
  private readonly types = new Map<PmId, number>();
  private readonly indoms = new Map<InDom, InstanceList>();
  private start: Timestamp | undefined;
  private last: Timestamp | undefined;
  /** pmlogextract's old_log_offset: the last record's start, or the volume end after an entry. */
  private logOffset = LABEL_SIZE_V3;
  /** pmlogextract's old_meta_offset: the .meta size when the last index entry was made. */
  private metaOffset = LABEL_SIZE_V3;
  /** The volume size past which the next record gets an index entry. */
  private flushAt = INDEX_EVERY_BYTES;
  private indomSinceLastRecord = false;
  private count = 0;

  constructor(
    private readonly fields: Omit<LabelFields, 'start'>,
    options: ArchiveWriterOptions = {},
  ) {
    // With an estimate, the first chunk is sized for it (and the room a record may need past it).
    const estimate = Math.min(Math.max(0, options.volumeBytes ?? 0), MAX_FIRST_CHUNK);
    this.data = new ArchiveByteWriter(estimate > VOLUME_CHUNK ? LABEL_SIZE_V3 + estimate + 64 * 1024 : 256 * 1024);
    if (estimate > VOLUME_CHUNK) this.chunkLimit = this.data.capacity - 64 * 1024 + 1;
    // The labels go in at the end, when the start time is known; their space is kept now.
    for (const w of [this.meta, this.data, this.index]) w.fill(0, LABEL_SIZE_V3);
  }

  /** TYPE_DESC with every name of the metric; a pmid is described once. */
  desc(desc: Desc, names: readonly string[]): void {
    if (this.types.has(desc.pmid)) return;
    this.types.set(desc.pmid, desc.type);
    encodeDesc(this.meta, desc, names);
  }

  hasDesc(pmid: PmId): boolean {
    return this.types.has(pmid);
  }

  /** TYPE_TEXT: `type` is the PM_TEXT_* bits, `ident` a pmid or indom. */
  text(type: number, ident: number, text: string): void {
    encodeText(this.meta, type, ident, text);
  }

  /**
   * The instances of `indom` from `stamp` on: a full record first, a delta when smaller. An
   * unchanged set is skipped unless `repeat` (a copy keeps every observation its source has).
   */
  indom(stamp: Timestamp, indom: InDom, set: InstanceList, repeat = false): void {
    const prev = this.indoms.get(indom);
    // A first write too (against no instances: a full record), so its names are encoded in
    // place (an export's first record writes every domain it uses, thousands of names).
    if ((!prev || increasing(prev.instances)) && increasing(set.instances)) {
      this.indomSorted(stamp, indom, prev ?? NO_INSTANCES, set, repeat);
      return;
    }
    const full: IndomEntry[] = Array.from(set.instances, (inst, i) => ({ inst, name: set.names[i] ?? '' }));
    let delta = prev ? deltaEntries(prev, set) : undefined;
    if (delta !== undefined && delta.length === 0) {
      if (!repeat) return;
      delta = undefined;
    }
    if (full.length === 0 && (!delta || delta.length === 0)) return; // libpcp drops empty records
    if (delta !== undefined && encodedSize(delta) < encodedSize(full)) encodeIndom(this.meta, true, stamp, indom, delta);
    else encodeIndom(this.meta, false, stamp, indom, full);
    this.indoms.set(indom, set);
    this.indomSinceLastRecord = true;
  }

  /**
   * indom() for two lists in increasing instance order (what an archive's history holds):
   * the delta is a merge of the two, sizes are counted and names encoded in place, with no
   * entry objects (an export writes hundreds of observations of hundreds of instances).
   */
  private indomSorted(stamp: Timestamp, indom: InDom, prev: InstanceList, set: InstanceList, repeat: boolean): void {
    const ids = set.instances;
    const names = set.names;
    const n = ids.length;
    const nameBytes = new Int32Array(n);
    let fullSize = 0;
    let allNamed = names.length === n;
    for (let k = 0; k < n; k++) {
      const name = names[k];
      if (typeof name !== 'string') allNamed = false;
      nameBytes[k] = utf8Length(name ?? '');
      fullSize += 9 + nameBytes[k];
    }
    // The delta: each entry the next set's index k, or -(i + 1) for prev's entry i deleted.
    const pIds = prev.instances;
    const pNames = prev.names;
    const delta: number[] = [];
    let deltaSize = 0;
    let renamed = false;
    for (let i = 0, k = 0; i < pIds.length || k < n; ) {
      if (k >= n || (i < pIds.length && pIds[i] < ids[k])) {
        delta.push(-(i + 1));
        deltaSize += 8;
        i++;
      } else if (i >= pIds.length || ids[k] < pIds[i]) {
        delta.push(k);
        deltaSize += 9 + nameBytes[k];
        k++;
      } else {
        // A delta cannot rename: a changed name is written full.
        if ((pNames[i] ?? '') !== (names[k] ?? '')) {
          renamed = true;
          break;
        }
        i++;
        k++;
      }
    }
    if (!renamed && delta.length === 0 && !repeat) return;
    if (!renamed && delta.length > 0 && deltaSize < fullSize) {
      const dIds = new Int32Array(delta.length);
      const dNames: (string | null)[] = new Array<string | null>(delta.length);
      const dBytes = new Int32Array(delta.length);
      delta.forEach((d, j) => {
        if (d < 0) {
          dIds[j] = pIds[-d - 1];
          dNames[j] = null;
        } else {
          dIds[j] = ids[d];
          dNames[j] = names[d] ?? '';
          dBytes[j] = nameBytes[d];
        }
      });
      encodeIndomLists(this.meta, true, stamp, indom, dIds, dNames, dBytes);
    } else {
      if (n === 0 && delta.length === 0) return; // libpcp drops empty records
      encodeIndomLists(this.meta, false, stamp, indom, ids, allNamed ? names : Array.from(ids, (_, k) => names[k] ?? ''), nameBytes);
    }
    this.indoms.set(indom, set);
    this.indomSinceLastRecord = true;
  }

  /** One TYPE_LABEL record: every label set of one (level, ident) from `stamp` on. */
  labels(stamp: Timestamp, type: number, ident: number, sets: readonly LabelSetToWrite[]): void {
    encodeLabelSets(this.meta, stamp, type, ident, sets);
  }

  private checkOrder(timestamp: Timestamp): void {
    if (this.last && compareTimestamps(timestamp, this.last) < 0) {
      throw new ArchiveWriteError(`records must be in time order: ${timestamp.sec}.${timestamp.nsec} comes after ${this.last.sec}.${this.last.nsec}`);
    }
    this.start ??= timestamp;
    this.last = timestamp;
    this.count++;
  }

  /**
   * After each record, pmlogextract's index rule: an entry (this record's time, .meta offset
   * at the previous entry, the record's start) when the record is the first, needed new
   * instance-domain metadata, or took the volume past the next 100,000-byte mark.
   */
  private indexAfter(timestamp: Timestamp, recordStart: number): void {
    const needed = this.indomSinceLastRecord || recordStart === LABEL_SIZE_V3 || this.volumeLength > this.flushAt;
    this.indomSinceLastRecord = false;
    if (!needed) {
      this.logOffset = recordStart;
      return;
    }
    this.indexEntry(timestamp, this.metaOffset, recordStart);
    this.logOffset = this.volumeLength;
    this.metaOffset = this.meta.length;
    this.flushAt = this.volumeLength + INDEX_EVERY_BYTES;
  }

  /** A data record; every pmid with values must have been described (desc) before. */
  record(timestamp: Timestamp, sets: readonly ValueSetToWrite[]): void {
    this.checkOrder(timestamp);
    const at = this.volumeLength;
    encodeRecordV3(this.data, timestamp, sets, (pmid) => this.types.get(pmid));
    this.indexAfter(timestamp, at);
    this.rollVolume();
  }

  /** Bytes of the volume so far. */
  private get volumeLength(): number {
    return this.dataBase + this.data.length - this.spilled;
  }

  /** `part` next in the volume as it is (no copy): what `data` holds so far goes before it. */
  private keep(part: Uint8Array<ArrayBuffer>): void {
    if (this.data.length > this.spilled) {
      this.dataChunks.push(this.data.current().subarray(this.spilled));
      this.dataBase += this.data.length - this.spilled;
      this.spilled = this.data.length;
    }
    if (part.length === 0) return;
    this.dataChunks.push(part);
    this.dataBase += part.length;
  }

  /** Between records: a full chunk is set aside and a new one begun. */
  private rollVolume(): void {
    if (this.data.length >= this.chunkLimit) this.newChunk(VOLUME_CHUNK + 64 * 1024);
  }

  /** Before a record of known size: a chunk it would overflow (and double) is set aside first. */
  private roomFor(bytes: number): void {
    if (this.data.length > LABEL_SIZE_V3 && this.data.length + bytes > this.data.capacity) this.newChunk(Math.max(VOLUME_CHUNK + 64 * 1024, bytes));
  }

  private newChunk(capacity: number): void {
    const chunk = this.spilled > 0 ? this.data.current().subarray(this.spilled) : this.data.take();
    if (chunk.length > 0) this.dataChunks.push(chunk);
    this.dataBase += chunk.length;
    this.data = new ArchiveByteWriter(capacity);
    this.spilled = 0;
    this.chunkLimit = VOLUME_CHUNK;
  }

  /**
   * A data record copied as stored (`raw`: length word to trailer, as a volume of format
   * `version` holds it), as pmlogextract copies records: V3 bytes go in unchanged; a V2
   * record gets the V3 header (its timestamp widened to 12 bytes), which moves everything
   * after it 4 bytes on, so each value block pointer grows by one word (§5.1, §5.3). Every
   * pmid in it with values must have been described before, or by `visit` (see RawRecordVisitor).
   * `kept`: `raw` is the caller's to give away (bytes no cache or other reader holds): the
   * volume keeps a view of it instead of a copy, and a V2 record's pointers and trailer are
   * changed in place (its new header alone is written here).
   */
  recordRaw(timestamp: Timestamp, raw: Uint8Array, version: number, visit?: RawRecordVisitor, kept = false): void {
    this.checkOrder(timestamp);
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    // A view of a plain ArrayBuffer (what a Blob joins); a shared one is copied.
    const own = kept && raw.buffer instanceof ArrayBuffer ? new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength) : undefined;
    if (version >= 3) {
      if (own) this.keep(own);
      else {
        this.roomFor(raw.length);
        this.data.bytes(raw);
      }
      const at = this.volumeLength - raw.length;
      if (visit) {
        const numpmid = view.getInt32(16);
        for (let i = 0, p = 20; i < numpmid; i++) {
          visit.pmid(view.getUint32(p) as PmId, i);
          const numval = view.getInt32(p + 4);
          p += numval > 0 ? 12 + 8 * numval : 8;
        }
      }
      visit?.end();
      this.indexAfter(timestamp, at);
      this.rollVolume();
      return;
    }
    const len = view.getUint32(0);
    const numpmid = view.getInt32(12);
    this.roomFor(own ? 16 : len + 4);
    const at = this.volumeLength;
    this.data.u32(len + 4);
    this.data.stampV3(timestamp);
    // The pointers are patched where the copy is: in `raw` itself when kept, else in `data`
    // (where raw's byte x lands at local + 4 + x).
    const local = this.data.length - 16;
    if (own) view.setUint32(len - 4, len + 4);
    else {
      this.data.bytes(raw.subarray(12, len - 4));
      this.data.u32(len + 4);
    }
    const out = own ? view : undefined;
    // Value sets follow numpmid; each is pmid, numval, then (numval > 0) valfmt and pairs.
    let p = 16;
    for (let i = 0; i < numpmid; i++) {
      visit?.pmid(view.getUint32(p) as PmId, i);
      const numval = view.getInt32(p + 4);
      if (numval <= 0) {
        p += 8;
        continue;
      }
      if (view.getInt32(p + 8) !== PM_VAL_INSITU) {
        for (let j = 0; j < numval; j++) {
          const slot = p + 12 + 8 * j + 4;
          if (out) out.setUint32(slot, out.getUint32(slot) + 1);
          else this.data.patchU32(local + slot + 4, view.getUint32(slot) + 1);
        }
      }
      p += 12 + 8 * numval;
    }
    if (own) this.keep(own.subarray(12));
    visit?.end();
    this.indexAfter(timestamp, at);
    this.rollVolume();
  }

  /**
   * A <mark>: a gap in the data. A mark copied from the source is a record like any other; a
   * mark the writer's caller makes (a join between archives) is written as pmlogextract
   * writes its own, outside the index bookkeeping.
   */
  mark(timestamp: Timestamp, joining = false): void {
    this.checkOrder(timestamp);
    const at = this.volumeLength;
    encodeMarkV3(this.data, timestamp);
    if (!joining) this.indexAfter(timestamp, at);
    this.rollVolume();
  }

  private indexEntry(t: Timestamp, metaOffset: number, dataOffset: number): void {
    this.index.stampV3(t);
    this.index.i32(0);
    this.index.u64(BigInt(metaOffset));
    this.index.u64(BigInt(dataOffset));
  }

  get recordCount(): number {
    return this.count;
  }

  /** Bytes written so far, all three files (labels included). */
  get bytes(): number {
    return this.meta.length + this.volumeLength + this.index.length;
  }

  /** The finished files. Throws when nothing was written (an archive needs a record and a descriptor). */
  finish(): ArchiveImage {
    if (!this.start || !this.last) throw new ArchiveWriteError('no records to write: an archive needs at least one record');
    if (this.types.size === 0) throw new ArchiveWriteError('no metric descriptors to write: an archive needs at least one');
    // The closing entry: the last time, the whole .meta, and pmlogextract's last data offset.
    this.indexEntry(this.last, this.meta.length, this.logOffset);
    const label: LabelFields = { ...this.fields, start: this.start };
    const labelFor = (vol: number): Uint8Array => {
      const lw = new ArchiveByteWriter(LABEL_SIZE_V3);
      encodeLabelV3(lw, label, vol);
      return lw.current();
    };
    this.meta.patchBytes(0, labelFor(-1));
    this.index.patchBytes(0, labelFor(-2));
    // A first chunk sized by an estimate far above what came is not handed on whole.
    const spare = this.data.capacity > 2 * VOLUME_CHUNK && this.data.length < this.data.capacity / 2;
    const tail = this.data.current().subarray(this.spilled);
    const parts = [...this.dataChunks, spare ? tail.slice() : tail];
    parts[0]?.set(labelFor(0), 0);
    const size = this.volumeLength;
    let joined: Uint8Array<ArrayBuffer> | undefined;
    const volume = (): Uint8Array<ArrayBuffer> => {
      if (joined) return joined;
      joined = new Uint8Array(size);
      let at = 0;
      for (const c of parts) {
        joined.set(c, at);
        at += c.length;
      }
      return joined;
    };
    return {
      meta: this.meta.finish(),
      index: this.index.finish(),
      get volume() {
        return volume();
      },
      volumeParts: parts,
      label,
      records: this.count,
      end: this.last,
    };
  }
}

/** A delta from `prev` to `next`: deletions and additions; undefined when a name changed (deltas cannot rename). */
function deltaEntries(prev: InstanceList, next: InstanceList): IndomEntry[] | undefined {
  const before = new Map<number, string>();
  prev.instances.forEach((inst, i) => before.set(inst, prev.names[i] ?? ''));
  const after = new Map<number, string>();
  next.instances.forEach((inst, i) => after.set(inst, next.names[i] ?? ''));
  const out: IndomEntry[] = [];
  for (const [inst, name] of after) {
    const old = before.get(inst);
    if (old === undefined) out.push({ inst, name });
    else if (old !== name) return undefined;
  }
  for (const inst of before.keys()) if (!after.has(inst)) out.push({ inst, name: null });
  return out.sort((a, b) => a.inst - b.inst);
}

const NO_INSTANCES: InstanceList = { instances: new Int32Array(0), names: [] };

/** Whether instance ids are strictly increasing (no duplicates): a merge can compare them. */
function increasing(ids: Int32Array): boolean {
  for (let i = 1; i < ids.length; i++) if (ids[i] <= ids[i - 1]) return false;
  return true;
}

/** Bytes of an instance-domain record body with these entries (ids, offsets, names). */
function encodedSize(entries: readonly IndomEntry[]): number {
  let n = 0;
  for (const e of entries) n += 8 + (e.name === null ? 0 : utf8Length(e.name) + 1);
  return n;
}
