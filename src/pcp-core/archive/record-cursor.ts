// A read position in an archive set and libpcp 6.0.3's record reading from it
// (__pmLogRead_ctx, __pmLogSetTime, the fine tuning of __pmLogFetch; archive-format.md §6.3,
// §7.2, §7.3, §8). Reads go forwards or backwards record by record across volumes (skipping
// missing or unreadable ones) and across archives, with the synthesised <mark> at each join
// (end + 1 ms forwards, start − 1 ms backwards) and PM_ERR_LOGOVERLAP when the next archive
// starts before the previous one ended. Positioning at a time uses the temporal index with
// libpcp's choices, so even damaged indexes give libpcp's answers. Replay builds on this.
import { PM_ERR_EOL, PM_ERR_LOGFILE, PM_ERR_LOGOVERLAP, PmError } from '../errors';
import { PM_MODE_BACK, PM_MODE_FORW } from '../context/context';
import type { Timestamp } from '../types';
import type { Archive } from './archive';
import type { ArchiveSet } from './archive-set';
import { markAfter, markBefore, timestampSub } from './timestamps';
import { checkRecord, decodeValues, syntheticMark, type ArchiveRecord, type RecordContext } from './volume-record';
import type { RecordFrame, VolumeReader } from './volume-reader';

/** Reading direction, with pmSetMode's codes. */
export type ReadMode = typeof PM_MODE_FORW | typeof PM_MODE_BACK;

/** Where the next read starts: archive (index in the sorted list), volume, byte offset. */
export interface CursorPosition {
  readonly archive: number;
  readonly vol: number;
  readonly offset: number;
}

/** A record's time and kind without its values (cheap reads while positioning). */
export interface RecordStamp {
  readonly timestamp: Timestamp;
  readonly mark: boolean;
  readonly synthetic: boolean;
}

/**
 * A record that passed libpcp's checks, values not decoded: its bytes (valid only until the
 * next read from the same cursor) and how to decode them. `frame` is null for a synthesised
 * mark. For consumers that format straight from bytes (dump) or decode selectively.
 */
export interface RawRecord extends RecordStamp {
  readonly frame: RecordFrame | null;
  readonly ctx: RecordContext | null;
  readonly numpmid: number;
}

function rawMark(timestamp: Timestamp): RawRecord {
  return { timestamp, numpmid: 0, mark: true, synthetic: true, frame: null, ctx: null };
}

export class RecordCursor {
  private arch = 0;
  private vol: number;
  private offset: number;
  /** libpcp's ac_mark_done: the direction a join mark was last synthesised in, or 0. */
  private markDone = 0;
  /**
   * libpcp's ac_serial: false until a positioning by time has been done; `seek` consults it
   * (a position from the index may need fine tuning by reading in the other direction).
   */
  serial = false;

  constructor(private readonly set: ArchiveSet) {
    const first = set.archives[0];
    this.vol = first.minVol;
    this.offset = first.format.labelSize;
  }

  position(): CursorPosition {
    return { archive: this.arch, vol: this.vol, offset: this.offset };
  }

  /** Returns to a position taken from `position()` (the join-mark state is reset). */
  restore(pos: CursorPosition): void {
    this.arch = pos.archive;
    this.vol = pos.vol;
    this.offset = pos.offset;
    this.markDone = 0;
  }

  private get archive(): Archive {
    return this.set.archives[this.arch];
  }

  /**
   * Reads the next record in `mode`'s direction, values decoded. Throws PmError: PM_ERR_EOL
   * past either end, PM_ERR_LOGREC for a damaged record (the position is left before it),
   * PM_ERR_LOGOVERLAP when moving into an archive that overlaps (the position has moved into
   * it, so reading on continues there).
   */
  async read(mode: ReadMode): Promise<ArchiveRecord> {
    const raw = await this.readRaw(mode);
    if (!raw.frame || !raw.ctx) return syntheticMark(raw.timestamp, this.arch);
    const f = raw.frame;
    return decodeValues(f.bytes, f.view, f.start, f.offset, raw.ctx, raw);
  }

  /** As `read`, but only checks the record and returns its time (no values decoded). */
  readStamp(mode: ReadMode): Promise<RecordStamp> {
    return this.readRaw(mode);
  }

  /** As `read`, but the record's values stay undecoded bytes (see RawRecord). */
  async readRaw(mode: ReadMode): Promise<RawRecord> {
    let reader: VolumeReader | null = await this.archive.volume(this.vol);
    let frame: RecordFrame | null;
    if (mode === PM_MODE_BACK) {
      for (;;) {
        if (reader && this.offset > this.archive.format.labelSize) break;
        // Before the start of this volume: the previous readable one, from its end.
        let moved = false;
        for (let v = this.vol - 1; v >= this.archive.minVol; v--) {
          const r = await this.archive.volume(v);
          if (r) {
            this.vol = v;
            this.offset = r.size;
            reader = r;
            moved = true;
            break;
          }
        }
        if (moved) continue;
        if (this.arch === 0) throw new PmError(PM_ERR_EOL);
        if (this.markDone === 0) {
          this.markDone = PM_MODE_BACK;
          return rawMark(markBefore(this.archive.start));
        }
        reader = await this.changeToPreviousArchive();
      }
      this.markDone = 0;
      frame = await (reader).frameBefore(this.offset);
    } else {
      for (;;) {
        if (reader) {
          if (reader.size - this.offset >= 4) this.markDone = 0;
          frame = await reader.frameAt(this.offset);
          if (frame) break;
        }
        // End of this volume: the next readable one, after its label.
        let moved = false;
        for (let v = this.vol + 1; v <= this.archive.maxVol; v++) {
          const r = await this.archive.volume(v);
          if (r) {
            this.vol = v;
            this.offset = this.archive.format.labelSize;
            reader = r;
            moved = true;
            break;
          }
        }
        if (moved) continue;
        if (this.arch === this.set.archives.length - 1) throw new PmError(PM_ERR_EOL);
        if (this.markDone === 0) {
          this.markDone = PM_MODE_FORW;
          return rawMark(markAfter(await this.set.archiveEnd(this.arch)));
        }
        reader = await this.changeToNextArchive();
      }
    }
    const f = frame as RecordFrame;
    const ctx = this.set.recordContext(this.arch, this.vol);
    const shape = checkRecord(f.view, f.start, f.offset, ctx);
    this.offset = mode === PM_MODE_BACK ? f.offset : f.offset + f.length;
    return { timestamp: shape.timestamp, numpmid: shape.numpmid, mark: shape.numpmid === 0, synthetic: false, frame: f, ctx };
  }

  /** Switches to archive `arch`, positioned after the label of its lowest volume. */
  private async changeArchive(arch: number): Promise<VolumeReader | null> {
    if (arch !== this.arch) this.markDone = 0;
    this.arch = arch;
    this.vol = this.archive.minVol;
    this.offset = this.archive.format.labelSize;
    return this.archive.volume(this.vol);
  }

  /** LogChangeToNextArchive: after the mark, into the next archive, checking for overlap. */
  private async changeToNextArchive(): Promise<VolumeReader | null> {
    const prevEnd = await this.set.archiveEnd(this.arch);
    const reader = await this.changeArchive(this.arch + 1);
    if (timestampSub(prevEnd, this.archive.start) > 0) throw new PmError(PM_ERR_LOGOVERLAP, undefined, this.archive.name);
    return reader;
  }

  /** LogChangeToPreviousArchive: to the end of the previous archive, checking for overlap. */
  private async changeToPreviousArchive(): Promise<VolumeReader | null> {
    const laterStart = this.archive.start;
    await this.changeArchive(this.arch - 1);
    const end = await this.set.archiveEnd(this.arch);
    let reader: VolumeReader | null = null;
    for (let i = this.archive.volumeNumbers.length - 1; i >= 0 && !reader; i--) {
      const v = this.archive.volumeNumbers[i];
      reader = await this.archive.volume(v);
      if (reader) {
        this.vol = v;
        this.offset = reader.size;
      }
    }
    if (!reader) throw new PmError(PM_ERR_LOGFILE, undefined, this.archive.name);
    if (timestampSub(end, laterStart) > 0) throw new PmError(PM_ERR_LOGOVERLAP, undefined, this.archive.name);
    return reader;
  }

  /**
   * __pmLogSetTime: coarse positioning for a read in `mode` at time `origin` — the archive,
   * then the temporal index entry libpcp would pick (or a volume end without an index).
   * Sets `serial` false when the caller must fine-tune (see `seek`).
   */
  async setTime(origin: Timestamp, mode: ReadMode): Promise<void> {
    const archives = this.set.archives;
    let i = 0;
    for (; i < archives.length; i++) if (timestampSub((archives[i]).start, origin) >= 0) break;
    if (mode === PM_MODE_FORW) {
      if (i > 0) i--;
    } else if (i >= archives.length) {
      i--;
    }
    await this.changeArchive(i);
    const a = this.archive;
    const ti = a.index;
    const numti = ti.length;
    if (numti === 0) {
      // No index: the start of the first readable volume, or the end of the last one.
      this.serial = false;
      const vols = mode === PM_MODE_FORW ? a.volumeNumbers : [...a.volumeNumbers].reverse();
      for (const v of vols) {
        const r = await a.volume(v);
        if (r) {
          this.vol = v;
          this.offset = mode === PM_MODE_FORW ? a.format.labelSize : r.size;
          return;
        }
      }
      throw new PmError(PM_ERR_LOGFILE, undefined, a.name);
    }
    let j = -1;
    let toobig = false;
    let match = false;
    let lastVolSize = -1;
    let k = 0;
    for (; k < numti; k++) {
      const tivol = ti.vol[k];
      if (tivol < a.minVol) continue;
      if (tivol === a.maxVol) {
        // An entry past the end of the last volume: the archive was cut short.
        if (lastVolSize < 0) lastVolSize = (await a.volume(a.maxVol))?.size ?? 0;
        if ((ti.offData[k]) > lastVolSize) {
          j = k;
          toobig = true;
          break;
        }
      }
      const tHi = timestampSub(ti.stamp(k), origin);
      if (tHi > 0) {
        j = k;
        break;
      }
      if (tHi === 0) {
        j = k;
        match = true;
        break;
      }
    }
    if (k === numti) j = numti;
    this.serial = true;
    const go = async (m: ReadMode, entry: number): Promise<void> => {
      const e = await this.volSkip(m, entry);
      if (e < 0) throw new PmError(PM_ERR_LOGFILE, undefined, a.name);
      this.offset = ti.offData[e];
    };
    if (match) {
      await go(mode, j);
      if (mode === PM_MODE_BACK) this.serial = false;
    } else if (j < 1) {
      await go(PM_MODE_FORW, 0);
    } else if (j === numti) {
      await go(PM_MODE_BACK, numti - 1);
      if (mode === PM_MODE_BACK) this.serial = false;
    } else {
      const tHi = timestampSub(ti.stamp(j), origin);
      const tLo = timestampSub(origin, ti.stamp(j - 1));
      if (tHi <= tLo && !toobig) {
        await go(mode, j);
        if (mode === PM_MODE_FORW) this.serial = false;
      } else {
        await go(mode, j - 1);
        if (mode === PM_MODE_BACK) this.serial = false;
      }
      if (this.serial && mode === PM_MODE_FORW) {
        // The entry may point at the end of a record: back up one (errors ignored).
        try {
          await this.readStamp(PM_MODE_BACK);
        } catch (e) {
          if (!(e instanceof PmError)) throw e;
        }
      }
    }
  }

  /** VolSkip: from index entry `j`, the first entry (in `mode`'s direction) whose volume opens. */
  private async volSkip(mode: ReadMode, j: number): Promise<number> {
    const a = this.archive;
    const ti = a.index;
    let vol = ti.vol[j];
    while (a.minVol <= vol && vol <= a.maxVol) {
      if (await a.volume(vol)) {
        this.vol = vol;
        return j;
      }
      if (mode === PM_MODE_FORW) {
        for (j++; j < ti.length; j++) if (ti.vol[j] !== vol) break;
        if (j === ti.length) return -1;
      } else {
        for (j--; j >= 0; j--) if (ti.vol[j] !== vol) break;
        if (j < 0) return -1;
      }
      vol = ti.vol[j];
    }
    return -1;
  }

  /**
   * Positions for reading in `mode` from `origin`, as pmFetch does before its first read:
   * setTime, then (unless the index position is already exact) read in the other direction
   * until the records cross `origin`. Afterwards a read in `mode` returns the first record
   * at or after (FORW) / at or before (BACK) `origin`, or ones the caller must skip as too
   * early / too late when the archive's timestamps are out of order.
   */
  async seek(origin: Timestamp, mode: ReadMode): Promise<void> {
    await this.setTime(origin, mode);
    if (!this.serial) {
      // Each read leaves the position at the far side of the record it read, so when the
      // records cross `origin` the next read in `mode` starts with that record again.
      const opposite: ReadMode = mode === PM_MODE_FORW ? PM_MODE_BACK : PM_MODE_FORW;
      for (;;) {
        let rec: RecordStamp;
        try {
          rec = await this.readStamp(opposite);
        } catch (e) {
          if (e instanceof PmError) break;
          throw e;
        }
        const tdiff = timestampSub(rec.timestamp, origin);
        if (tdiff === 0 || (mode === PM_MODE_FORW ? tdiff < 0 : tdiff > 0)) break;
      }
    }
    this.serial = true;
  }
}
