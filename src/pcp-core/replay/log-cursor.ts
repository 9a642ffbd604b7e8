// The read position of an archive context, modelled on libpcp's archive control (ac_*):
// current archive and volume, byte position in it, the position remembered between fetches,
// the "serial" flag, and the pending-<mark> state at a join between archives. Every record
// read (forwards or backwards) follows libpcp's rules (archive-format.md §7.3, §8): volume
// roll-over, end of volume with stray bytes, <mark> synthesis at archive joins (regenerated
// when the direction changes), PM_ERR_LOGOVERLAP, PM_ERR_LOGREC with the same resulting byte
// position as libpcp. Replay results depend on which records get read, so the model is exact
// where it changes results: positions are byte offsets, as libpcp's file positions are.
import { PM_ERR_EOL, PM_ERR_LOGFILE, PM_ERR_LOGOVERLAP, PM_ERR_LOGREC, PmError } from '../errors';
import type { Timestamp } from '../types';
import { archiveEndOfCurrent } from './log-end';
import { checkLogRecord, virtualMark, type LogRecord } from './log-record';
import { offsetMs, timestampSub } from './log-time';
import type { ReplayArchive, ReplaySet, ReplayVolume } from './replay-source';
import { ownsBytes, StreamVolumeBytes, VolumeBytes } from './volume-bytes';

export const MODE_FORW = 2;
export const MODE_BACK = 3;
export type Direction = typeof MODE_FORW | typeof MODE_BACK;

/** A read gives a record (possibly a <mark>) or a negative PCP error code. */
export type ReadOutcome = LogRecord | number;

/** A PM_ERR_LOGREC's place: volume (as named in fetch errors) and its file, the byte
 *  offset of the record, where the failing check looked, and what it found. */
export interface CorruptRecord {
  readonly volume: string;
  readonly file: string;
  readonly offset: number;
  readonly at: number;
  readonly detail: string;
}

/** Decoded records by position, so re-reading a neighbourhood costs no decoding. Bounded by
 *  the records' bytes, not their number: a record is a view that keeps its volume's block
 *  alive, and a count of 4096 held every record of a 330 MB archive (io/README.md budgets). */
const RECORD_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Where the record whose length word `head` was read at `headAt` starts: forwards the record
 * is [headAt, headAt+head); backwards `head` is the previous record's trailer, read just
 * before `offset`, and the record is [offset-head, offset). A length that cannot be a
 * record's, or a start before the file, is named so the caller positions as libpcp does.
 */
function recordSpan(direction: Direction, offset: number, headAt: number, head: number): number | 'bad-length' | 'before-start' {
  const rlen = head - 8;
  if (rlen < 0 || (direction === MODE_BACK && rlen > offset)) return 'bad-length';
  const start = direction === MODE_FORW ? headAt : offset - head;
  return start < 0 ? 'before-start' : start;
}

/** Records of one volume by start offset and by end offset (the two read directions). */
interface VolumeRecords {
  readonly byStart: Map<number, LogRecord>;
  readonly byEnd: Map<number, LogRecord>;
}

/**
 * A cursor whose reader keeps the records it reads (an archive export): volumes whose source
 * can read fresh bytes are read in spans of their own, past the caches (StreamVolumeBytes),
 * so the records are views no cache holds (ownsBytes), and such records are not remembered
 * (the reader may change them: changingBytes).
 */
export interface KeptReads {
  /** Where the reader stops in volume `vol` of archive `archive` (undefined: its end). */
  readonly passEnd?: (archive: number, vol: number) => number | undefined;
}

/** Volumes after the current one decompressed ahead (where that happens off this thread):
 *  two keep the other core busy while a pmlogger volume of 100 MB is read. */
const READ_AHEAD_VOLUMES = 2;

export class LogCursor {
  /** Index of the current archive (ac_cur_log). */
  cur = 0;
  /** Current volume (ac_curvol), -1 when none is open. */
  curVol = -1;
  /** Byte position in the current volume (the stdio file position). */
  pos = 0;
  /** Position remembered between fetches (ac_vol, ac_offset). */
  vol = -1;
  offset = 0;
  /** ac_serial: reading may continue from the remembered position. */
  serial = false;
  /** ac_mark_done: a <mark> was synthesised at a join while reading in this direction. */
  markDone = 0;
  /** lcp->endtime / lcp->physend: archive end cache, invalidated on archive change. */
  endTime: Timestamp = { sec: 0, nsec: 0 };
  physEnd = -1;
  /** ac_end: INTERP's cached end of the current archive, in seconds after `base`. */
  interpEnd = 0;
  /** Volumes whose label has been checked in the current archive (lcp->seen). */
  seen = new Set<number>();
  /** Start of the earliest archive: the time base of every relative time. */
  readonly base: Timestamp;

  /**
   * The last volume of archive `i` worth decompressing ahead, when a reader knows where it
   * stops (an extract's window: the volumes after it would be decoded for nothing, on the
   * cores the decoding of the one read needs); undefined: any.
   */
  readAheadLast: ((archive: number) => number | undefined) | undefined;

  /** Reading ahead waits for the first read: opening a context reads no data. */
  private readAheadDue = true;
  /** Keyed by archive · 2^20 + volume. */
  private readonly volumes = new Map<number, VolumeBytes>();
  /** Keyed by archive · 2^20 + volume. */
  private readonly records = new Map<number, VolumeRecords>();
  private recordBytes = 0;

  constructor(
    readonly set: ReplaySet,
    /** The records read are kept by the reader (see KeptReads). */
    private readonly kept?: KeptReads,
  ) {
    const first = set.archives[0];
    if (!first) throw new PmError(PM_ERR_LOGFILE, undefined, 'empty archive set');
    this.base = first.start;
    // pmNewContext leaves the first archive open at its lowest volume, after the label.
    this.openArchive(0, false);
    this.offset = this.pos;
    this.vol = this.curVol;
  }

  get archive(): ReplayArchive {
    return this.set.archives[this.cur];
  }

  get archiveCount(): number {
    return this.set.archives.length;
  }

  /**
   * The bytes of volume `vol` of archive `arch`, or undefined when it cannot be opened. Only
   * for a volume opened before (openVolume): the current one, or a remembered position's.
   */
  volumeBytes(arch: number, vol: number): VolumeBytes | undefined {
    const key = arch * 1048576 + vol;
    const v = this.volumes.get(key);
    if (v) return v;
    const a = this.set.archives[arch];
    const rv = a?.volume(vol);
    if (rv instanceof Promise) throw new Error(`${a.name}.${vol} used before it was opened`);
    return a && rv ? this.keepVolume(key, a, vol, rv) : undefined;
  }

  /** volumeBytes, opening the volume (its label checked) if that was not done yet. */
  async openVolume(arch: number, vol: number): Promise<VolumeBytes | undefined> {
    const v = this.volumes.get(arch * 1048576 + vol);
    if (v) return v;
    const a = this.set.archives[arch];
    const rv = await a?.volume(vol);
    return a && rv ? this.keepVolume(arch * 1048576 + vol, a, vol, rv) : undefined;
  }

  private keepVolume(key: number, a: ReplayArchive, vol: number, rv: ReplayVolume): VolumeBytes {
    let v = this.volumes.get(key);
    if (!v) {
      const name = `${a.name}.${vol}`;
      if (this.kept && typeof rv.readFresh === 'function') {
        const fresh = (offset: number, length: number): Promise<Uint8Array> => rv.readFresh?.(offset, length) ?? rv.read(offset, length);
        v = new StreamVolumeBytes(rv, name, rv.file ?? name, fresh, this.kept.passEnd?.(Math.floor(key / 1048576), vol));
      } else v = new VolumeBytes(rv, name, rv.file);
      this.volumes.set(key, v);
    }
    return v;
  }

  /**
   * After a followed archive grew (context/archive-replay-source.ts follow): volumes from
   * `fromVol` on of archive `arch` are read afresh (their sizes changed, or they are new), and
   * its end is found again. Decoded records stay: bytes once written do not change.
   */
  forgetVolumes(arch: number, fromVol: number): void {
    for (const key of [...this.volumes.keys()]) {
      if (Math.floor(key / 1048576) === arch && key % 1048576 >= fromVol) this.volumes.delete(key);
    }
    if (arch === this.cur) this.physEnd = -1;
  }

  /** __pmLogChangeVol to a volume opened before (see volumeBytes): a no-op (no seek) when
   *  already there. */
  changeVol(vol: number, readAhead = true): boolean {
    if (this.curVol === vol) return true;
    if (!this.volumeBytes(this.cur, vol)) return false;
    const forward = vol > this.curVol;
    this.seen.add(vol);
    this.curVol = vol;
    this.pos = this.archive.labelSize;
    if (forward && readAhead) this.readAhead(vol);
    return true;
  }

  /** __pmLogChangeVol to any volume, opening it first when needed. */
  async openVol(vol: number): Promise<boolean> {
    if (this.curVol !== vol && !(await this.openVolume(this.cur, vol))) return false;
    return this.changeVol(vol);
  }

  /**
   * Replay mostly runs forwards through volumes: where decompression happens off this thread,
   * volume `vol` (unless already done) and the next READ_AHEAD_VOLUMES are decompressed whole
   * now, while this thread reads. Failures surface when the bytes are read.
   */
  private readAhead(vol: number): void {
    const a = this.archive;
    const last = Math.min(vol + READ_AHEAD_VOLUMES, a.maxVol, this.readAheadLast?.(this.cur) ?? Infinity);
    for (let v = vol; v <= last; v++) {
      const rv = a.volume(v);
      // An open that fails is reported by the read that needs the volume.
      if (rv instanceof Promise) rv.then((r) => r?.readAhead?.(), () => undefined);
      else void rv?.readAhead?.();
    }
  }

  /** Opens archive `i` at its lowest volume (opened with the archive, so at once). Reading
   *  ahead starts with the first read there, not here: opening a context reads no data. */
  private openArchive(i: number, readAhead = true): void {
    this.cur = i;
    this.markDone = 0;
    this.physEnd = -1;
    this.seen = new Set();
    this.curVol = -1;
    const a = this.archive;
    if (!this.changeVol(a.minVol, readAhead)) {
      throw new PmError(PM_ERR_LOGFILE, undefined, `${a.name}: cannot open volume ${a.minVol}`);
    }
  }

  /** __pmLogChangeArchive. */
  changeArchive(i: number): void {
    if (i !== this.cur) this.openArchive(i);
  }

  /** Re-establishes the position remembered between fetches. */
  restorePosition(): number {
    if (!this.changeVol(this.vol)) return PM_ERR_LOGFILE;
    this.pos = this.offset;
    return 0;
  }

  /** Remembers the current position (ac_offset = ftell, ac_vol = ac_curvol). */
  rememberPosition(): void {
    this.offset = this.pos;
    this.vol = this.curVol;
  }

  /** __pmLogGenerateMark: end of the current archive + 1 ms, or its start − 1 ms. */
  async generateMark(direction: Direction): Promise<ReadOutcome> {
    if (direction === MODE_FORW) {
      const end = await archiveEndOfCurrent(this);
      if (typeof end === 'number') return end;
      // libpcp stamps the mark from its cached end time, not the value just returned.
      return virtualMark(offsetMs(this.endTime, 1), this.base);
    }
    return virtualMark(offsetMs(this.archive.start, -1), this.base);
  }

  /**
   * __pmLogRead with libpcp's rolling: at the end of a volume continue in the next existing
   * volume, at the end of an archive synthesise a <mark> once, then move to the neighbouring
   * archive. Errors leave the position where libpcp leaves it.
   */
  async read(direction: Direction): Promise<ReadOutcome> {
    if (this.readAheadDue) {
      this.readAheadDue = false;
      this.readAhead(this.curVol);
    }
    let offset = this.pos;
    if (direction === MODE_BACK) {
      for (;;) {
        if (offset > this.archive.labelSize) {
          this.pos = offset - 4;
          break;
        }
        let found = false;
        for (let v = this.curVol - 1; v >= this.archive.minVol; v--) {
          if (await this.openVol(v)) {
            offset = this.pos = (this.volumeBytes(this.cur, v) as VolumeBytes).size;
            found = true;
            break;
          }
        }
        if (found) continue;
        if (this.cur === 0) return PM_ERR_EOL;
        if (!this.markDone) {
          const mark = await this.generateMark(MODE_BACK);
          this.markDone = MODE_BACK;
          return mark;
        }
        const sts = await this.changeToPreviousArchive();
        if (sts < 0) return sts;
        offset = this.pos;
      }
    }
    for (;;) {
      const vb = this.volumeBytes(this.cur, this.curVol) as VolumeBytes;
      const head = await vb.word(this.pos);
      if (head !== undefined) return this.readAfterHeader(vb, direction, offset, head);
      // End of this volume (fewer than 4 bytes where a length word is due).
      this.pos = offset;
      let next = false;
      for (let v = this.curVol + 1; v <= this.archive.maxVol; v++) {
        if (await this.openVol(v)) {
          next = true;
          break;
        }
      }
      if (next) continue;
      if (this.cur >= this.archiveCount - 1) return PM_ERR_EOL;
      if (!this.markDone) {
        const mark = await this.generateMark(MODE_FORW);
        this.markDone = MODE_FORW;
        return mark;
      }
      const sts = this.changeToNextArchive();
      if (sts < 0) return sts;
      offset = this.pos;
    }
  }

  /**
   * Where the last PM_ERR_LOGREC was met (volume file and the record's byte offset), so the
   * error can name it: libpcp's code alone says nothing of where the damage is.
   */
  lastCorrupt: CorruptRecord | undefined;
  /** What the failing check of the current read found (set with each PM_ERR_LOGREC). */
  private why = '';
  /** Where that check looked (the record, or the trailer it could not use). */
  private whyAt = 0;

  private async readAfterHeader(vb: VolumeBytes, direction: Direction, offset: number, head: number): Promise<ReadOutcome> {
    const out = await this.readFramed(vb, direction, offset, head);
    if (out === PM_ERR_LOGREC) {
      this.lastCorrupt = { volume: vb.name, file: vb.file, offset: direction === MODE_FORW ? offset : Math.max(0, offset - head), at: this.whyAt, detail: this.why };
    }
    return out;
  }

  private fail(at: number, detail: string): number {
    this.whyAt = at;
    this.why = detail;
    return PM_ERR_LOGREC;
  }

  private async readFramed(vb: VolumeBytes, direction: Direction, offset: number, head: number): Promise<ReadOutcome> {
    this.markDone = 0;
    const headAt = this.pos;
    const span = recordSpan(direction, offset, headAt, head);
    if (span === 'bad-length') {
      this.pos = headAt + 4;
      return direction === MODE_FORW ? this.fail(headAt, `bad record length ${head}`) : this.fail(offset - 4, `bad record length ${head} in trailer`);
    }
    if (span === 'before-start') {
      this.pos = offset;
      return this.fail(offset - 4, `record of ${head} bytes would start before the file`);
    }
    const start = span;
    const cached = this.records.get(this.cur * 1048576 + this.curVol)?.byStart.get(start);
    if (cached && cached.buf.length === head) {
      this.pos = direction === MODE_FORW ? start + head : start;
      return cached;
    }
    const buf = await vb.bytes(start, head);
    if (buf.length < head) {
      // Body or trailer cut short: libpcp seeks back to where the read began.
      this.pos = offset;
      return this.fail(start, `unexpected end of file: record of ${head} bytes, ${vb.size - start} left`);
    }
    const rec = this.framedRecord(buf, head);
    if (rec === 'bad-trailer') {
      this.pos = direction === MODE_FORW ? start + head : start + 4;
      const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
      return this.fail(start, `length mismatch: header ${view.getInt32(0)} != trailer ${view.getInt32(head - 4)}`);
    }
    this.pos = direction === MODE_FORW ? start + head : start;
    if ('rejected' in rec) return this.fail(start, rec.rejected);
    this.remember(start, rec);
    return rec;
  }

  /** The record in `buf` (`head` bytes from its start), checked and decoded; a string says
   *  why libpcp's decoder rejects it. */
  private framedRecord(buf: Uint8Array, head: number): LogRecord | { readonly rejected: string } | 'bad-trailer' {
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    if (view.getInt32(0) !== view.getInt32(head - 4)) return 'bad-trailer';
    const rec = checkLogRecord(buf, this.archive.version, this.base, view);
    return typeof rec === 'string' ? { rejected: rec } : rec;
  }

  /** Drops the decoded records (a cache only: what the next reads return is unchanged). */
  forgetRecords(): void {
    this.records.clear();
    this.recordBytes = 0;
  }

  private remember(start: number, rec: LogRecord): void {
    // A reader that keeps its records may change the bytes it owns: not read from here again.
    if (this.kept && ownsBytes(rec.buf)) return;
    if (this.recordBytes >= RECORD_CACHE_BYTES) {
      this.records.clear();
      this.recordBytes = 0;
    }
    const key = this.cur * 1048576 + this.curVol;
    let v = this.records.get(key);
    if (!v) this.records.set(key, (v = { byStart: new Map(), byEnd: new Map() }));
    v.byStart.set(start, rec);
    v.byEnd.set(start + rec.buf.length, rec);
    this.recordBytes += rec.buf.length;
  }

  /**
   * The read `read(direction)` would do, answered without I/O when the record at the position
   * has been decoded before; undefined when the full read is needed (a volume or archive
   * boundary, a pending join mark, an unread record).
   */
  tryRead(direction: Direction): LogRecord | undefined {
    const key = this.cur * 1048576 + this.curVol;
    const v = this.records.get(key);
    if (direction === MODE_FORW) {
      const rec = v?.byStart.get(this.pos);
      if (!rec) return this.tryReadResident(key, direction);
      this.markDone = 0;
      this.pos += rec.buf.length;
      return rec;
    }
    if (this.pos <= this.archive.labelSize) return undefined;
    const rec = v?.byEnd.get(this.pos);
    if (!rec) return this.tryReadResident(key, direction);
    this.markDone = 0;
    this.pos -= rec.buf.length;
    return rec;
  }

  /**
   * An undecoded record whose bytes lie in a resident block: read and decoded as
   * readAfterHeader would, without a promise per read (a replay reads every record at least
   * once). Only the plain success case is taken here; anything else (bytes not resident, the
   * end of the volume, a malformed record) returns undefined with nothing changed, and the
   * full read then does it, errors and all.
   */
  private tryReadResident(key: number, direction: Direction): LogRecord | undefined {
    const vb = this.volumes.get(key);
    if (!vb) return undefined;
    const offset = this.pos;
    const head = vb.tryWord(direction === MODE_FORW ? offset : offset - 4);
    if (head === undefined) return undefined;
    const start = recordSpan(direction, offset, direction === MODE_FORW ? offset : offset - 4, head);
    if (typeof start !== 'number') return undefined;
    const buf = vb.tryBytes(start, head);
    const rec = buf && this.framedRecord(buf, head);
    if (typeof rec !== 'object' || 'rejected' in rec) return undefined;
    this.markDone = 0;
    this.pos = direction === MODE_FORW ? start + head : start;
    this.remember(start, rec);
    return rec;
  }

  /** tryRead through the interpolation read cache's rules (see cachedRead). */
  tryCachedRead(direction: Direction): LogRecord | undefined {
    if (this.markDone !== 0 && this.markDone !== direction) return undefined;
    return this.tryRead(direction);
  }

  /** LogChangeToNextArchive: start of the next archive; PM_ERR_LOGOVERLAP if they overlap. */
  changeToNextArchive(): number {
    if (this.cur >= this.archiveCount - 1) return PM_ERR_EOL;
    const prevEnd = this.endTime;
    this.changeArchive(this.cur + 1);
    this.offset = this.archive.labelSize;
    this.vol = this.curVol;
    return timestampSub(prevEnd, this.archive.start) > 0 ? PM_ERR_LOGOVERLAP : 0;
  }

  /** LogChangeToPreviousArchive: end of the previous archive's last readable volume. */
  async changeToPreviousArchive(): Promise<number> {
    if (this.cur === 0) return PM_ERR_EOL;
    const laterStart = this.archive.start;
    this.changeArchive(this.cur - 1);
    const end = await archiveEndOfCurrent(this);
    if (typeof end === 'number') return end;
    const a = this.archive;
    let v = a.maxVol;
    for (; v >= a.minVol; v--) if (await this.openVol(v)) break;
    if (v < a.minVol) return PM_ERR_LOGFILE;
    this.pos = (this.volumeBytes(this.cur, v) as VolumeBytes).size;
    this.rememberPosition();
    return timestampSub(this.endTime, laterStart) > 0 ? PM_ERR_LOGOVERLAP : 0;
  }

  /** A read through libpcp's interpolation read cache: a pending join <mark> is re-issued
   *  when the direction changes (cache_read in interp.c); otherwise a plain read. */
  async cachedRead(direction: Direction): Promise<ReadOutcome> {
    if (this.markDone !== 0 && this.markDone !== direction) {
      const pending = this.markDone as Direction;
      const mark = await this.generateMark(pending);
      this.markDone = 0;
      return mark;
    }
    return this.read(direction);
  }
}
