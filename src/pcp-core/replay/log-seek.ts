// Positioning a context at a time with the temporal index, as libpcp's __pmLogSetTime does
// (archive-format.md §6.3): pick the archive, then the index entry nearest the time (the
// earlier one when the later one lies past a truncated last volume), skipping missing volumes.
// Whether reading may then continue "serially" from there, or must first be fine-tuned by the
// caller, is recorded in the cursor's `serial` flag exactly as libpcp sets ac_serial.
import { PM_ERR_LOGFILE } from '../errors';
import type { Timestamp } from '../types';
import { MODE_BACK, MODE_FORW, type Direction, type LogCursor } from './log-cursor';
import type { TemporalIndexEntries } from './replay-source';
import { secondsBetween, timestampSub } from './log-time';

function entrySub(cursor: LogCursor, j: number, origin: Timestamp): number {
  const ix = cursor.archive.index;
  return secondsBetween(ix.sec[j], ix.nsec[j], origin.sec, origin.nsec);
}

/** VolSkip: the first usable index entry from j in the given direction, or -1. */
async function volSkip(cursor: LogCursor, direction: Direction, j: number): Promise<number> {
  const a = cursor.archive;
  const ix = a.index;
  let vol = ix.vol[j];
  while (a.minVol <= vol && vol <= a.maxVol) {
    if (await cursor.openVol(vol)) return j;
    if (direction === MODE_FORW) {
      for (j++; j < ix.length; j++) if (ix.vol[j] !== vol) break;
      if (j === ix.length) return -1;
    } else {
      for (j--; j >= 0; j--) if (ix.vol[j] !== vol) break;
      if (j < 0) return -1;
    }
    vol = ix.vol[j];
  }
  return -1;
}

/** Size libpcp uses to detect index entries past the end of a truncated last volume. */
async function lastVolumeSize(cursor: LogCursor): Promise<number> {
  const a = cursor.archive;
  // libpcp stats its *current* volume when the last one has been opened before (a quirk we
  // keep: it decides which index entry is used).
  if (cursor.seen.has(a.maxVol)) return cursor.volumeBytes(cursor.cur, cursor.curVol)?.size ?? 0;
  const vb = await cursor.openVolume(cursor.cur, a.maxVol);
  if (!vb) return 0;
  cursor.seen.add(a.maxVol);
  return vb.size;
}

interface OrderedIndex {
  /** Entries in the last volume, in index order (their offsets never decrease). */
  readonly maxVolEntries: Int32Array;
}

const ordered = new WeakMap<TemporalIndexEntries, OrderedIndex | null>();

/** Whether the index's times never decrease and the last volume's offsets never decrease
 *  (what pmlogger writes); null when not, and setTime scans from the first entry. */
function orderedIndex(ix: TemporalIndexEntries, maxVol: number): OrderedIndex | null {
  let o = ordered.get(ix);
  if (o === undefined) {
    o = { maxVolEntries: new Int32Array(0) };
    const m: number[] = [];
    for (let e = 0; e < ix.length; e++) {
      if (e > 0 && (ix.sec[e] < ix.sec[e - 1] || (ix.sec[e] === ix.sec[e - 1] && ix.nsec[e] < ix.nsec[e - 1]))) {
        o = null;
        break;
      }
      if (ix.vol[e] === maxVol) {
        const prev = m[m.length - 1];
        if (prev !== undefined && ix.offData[e] < ix.offData[prev]) {
          o = null;
          break;
        }
        m.push(e);
      }
    }
    if (o) o = { maxVolEntries: Int32Array.from(m) };
    ordered.set(ix, o);
  }
  return o;
}

/** The first entry whose time is not before `origin` (ix.length when none); the index must
 *  be ordered in time (as pmlogger writes it). */
export function firstNotBefore(ix: TemporalIndexEntries, origin: Timestamp): number {
  let lo = 0;
  let hi = ix.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ix.sec[mid] < origin.sec || (ix.sec[mid] === origin.sec && ix.nsec[mid] < origin.nsec)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first position in `entries` whose offset exceeds `size` (entries.length when none). */
function firstBeyond(ix: TemporalIndexEntries, entries: Int32Array, size: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ix.offData[entries[mid] ?? 0] > size) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * __pmLogSetTime: positions the cursor for reading from `origin` in `direction`. Returns 0
 * or a negative code. Leaves the position remembered (ac_offset/ac_vol).
 */
export async function setTime(cursor: LogCursor, origin: Timestamp, direction: Direction): Promise<number> {
  const n = cursor.archiveCount;
  let i = 0;
  for (; i < n; i++) if (timestampSub(cursor.set.archives[i].start, origin) >= 0) break;
  if (direction === MODE_FORW) {
    if (i > 0) i--;
  } else if (i >= n) {
    i--;
  }
  cursor.changeArchive(i);
  const a = cursor.archive;
  const ix = a.index;
  if (ix.length > 0) {
    let j = -1;
    let toobig = false;
    let match = false;
    let maxVolSize = -1;
    let e = 0;
    // The scan below stops at the first entry not before `origin` or past a truncated last
    // volume; in an ordered index it can start where those can first occur (a re-seek per
    // sample over a large index would otherwise cost a pass over the index per fetch).
    const fast = orderedIndex(ix, a.maxVol);
    if (fast) {
      const lo = firstNotBefore(ix, origin);
      const m = fast.maxVolEntries;
      if (m.length > 0 && (m[0] ?? lo) < lo) {
        maxVolSize = await lastVolumeSize(cursor);
        const k = firstBeyond(ix, m, maxVolSize);
        e = k < m.length && (m[k] ?? lo) < lo ? (m[k] ?? lo) : lo;
      } else {
        e = lo;
      }
    }
    for (; e < ix.length; e++) {
      const vol = ix.vol[e];
      if (vol < a.minVol) continue;
      if (vol === a.maxVol) {
        if (maxVolSize < 0) maxVolSize = await lastVolumeSize(cursor);
        if ((ix.offData[e]) > maxVolSize) {
          j = e;
          toobig = true;
          break;
        }
      }
      const tHi = entrySub(cursor, e, origin);
      if (tHi > 0) {
        j = e;
        break;
      }
      if (tHi === 0) {
        j = e;
        match = true;
        break;
      }
    }
    if (e === ix.length) j = ix.length;
    cursor.serial = true;
    if (match) {
      j = await volSkip(cursor, direction, j);
      if (j < 0) return PM_ERR_LOGFILE;
      cursor.pos = ix.offData[j];
      if (direction === MODE_BACK) cursor.serial = false;
    } else if (j < 1) {
      j = await volSkip(cursor, MODE_FORW, 0);
      if (j < 0) return PM_ERR_LOGFILE;
      cursor.pos = ix.offData[j];
    } else if (j === ix.length) {
      j = await volSkip(cursor, MODE_BACK, ix.length - 1);
      if (j < 0) return PM_ERR_LOGFILE;
      cursor.pos = ix.offData[j];
      if (direction === MODE_BACK) cursor.serial = false;
    } else {
      // Between entries j-1 and j: take the nearer (the earlier if j is past the file end).
      const tHi = entrySub(cursor, j, origin);
      const tLo = -entrySub(cursor, j - 1, origin);
      if (tHi <= tLo && !toobig) {
        j = await volSkip(cursor, direction, j);
        if (j < 0) return PM_ERR_LOGFILE;
        cursor.pos = ix.offData[j];
        if (direction === MODE_FORW) cursor.serial = false;
      } else {
        j = await volSkip(cursor, direction, j - 1);
        if (j < 0) return PM_ERR_LOGFILE;
        cursor.pos = ix.offData[j];
        if (direction === MODE_BACK) cursor.serial = false;
      }
      if (cursor.serial && direction === MODE_FORW) {
        // The entry may point at the end of its record: back up over one record.
        if (!cursor.tryRead(MODE_BACK)) await cursor.read(MODE_BACK);
      }
    }
  } else if (direction === MODE_FORW) {
    let v = a.minVol;
    for (; v <= a.maxVol; v++) if (await cursor.openVol(v)) break;
    if (v > a.maxVol) return PM_ERR_LOGFILE;
    cursor.pos = a.labelSize;
  } else {
    let v = a.maxVol;
    for (; v >= a.minVol; v--) if (await cursor.openVol(v)) break;
    if (v < a.minVol) return PM_ERR_LOGFILE;
    cursor.pos = cursor.volumeBytes(cursor.cur, v)?.size ?? 0;
  }
  cursor.rememberPosition();
  return 0;
}

export { MODE_BACK, MODE_FORW };
