// The end of an archive as libpcp finds it (pmGetArchiveEnd; archive-format.md §7.1, §9.1):
// the last complete, valid record of the highest volume that has one, found by reading
// backwards from the physical end, or else by scanning forwards from the last index entry
// inside the file. The result is cached per archive against the volume's size; INTERP's end
// rule and the <mark> stamped after an archive both use this cache.
import { PM_ERR_EOL, PM_ERR_LOGREC } from '../errors';
import type { Timestamp } from '../types';
import type { CorruptRecord, LogCursor } from './log-cursor';
import { decodeLogRecord, type LogRecord } from './log-record';
import type { VolumeBytes } from './volume-bytes';

/** A read on a private file position that never rolls over to other volumes or archives. */
async function peekRead(cursor: LogCursor, vb: VolumeBytes, pos: number, forward: boolean): Promise<LogRecord | number> {
  const a = cursor.archive;
  let start: number;
  let head: number | undefined;
  if (forward) {
    head = await vb.word(pos);
    if (head === undefined) return PM_ERR_EOL;
    start = pos;
  } else {
    if (pos <= a.labelSize) return PM_ERR_EOL;
    head = await vb.word(pos - 4);
    if (head === undefined) return PM_ERR_EOL;
    start = pos - head;
  }
  // A length word was read: like any libpcp read this clears the pending-<mark> state.
  cursor.markDone = 0;
  if (head < 8 || start < 0 || (!forward && head - 8 > pos)) return PM_ERR_LOGREC;
  const buf = await vb.bytes(start, head);
  if (buf.length < head) return PM_ERR_LOGREC;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (view.getInt32(0) !== view.getInt32(head - 4)) return PM_ERR_LOGREC;
  return decodeLogRecord(buf, a.version, cursor.base) ?? PM_ERR_LOGREC;
}

/**
 * __pmGetArchiveEnd for the cursor's current archive: its end timestamp, or a negative code.
 * Updates the cursor's end cache (endTime, physEnd) only when the end lies in the highest
 * volume, as libpcp does.
 */
export async function archiveEndOfCurrent(cursor: LogCursor): Promise<Timestamp | number> {
  const a = cursor.archive;
  let found: LogRecord | undefined;
  let foundVol = -1;
  let physEnd = 0;
  // Where the damage that hides the end was met, so PM_ERR_LOGREC can name it.
  let damage: CorruptRecord | undefined;
  const at = (vb: VolumeBytes, offset: number, detail: string): CorruptRecord => ({ volume: vb.name, file: vb.file, offset, at: offset, detail });
  for (let vol = a.maxVol; vol >= a.minVol; vol--) {
    const vb = await cursor.openVolume(cursor.cur, vol);
    if (!vb) continue;
    cursor.seen.add(vol);
    const size = vb.size;
    if (vol === a.maxVol && size === cursor.physEnd) return cursor.endTime;
    if (size <= a.labelSize) continue;
    physEnd = size;
    const last = await peekRead(cursor, vb, size, false);
    if (typeof last !== 'number') {
      found = last;
      foundVol = vol;
      break;
    }
    if (last === PM_ERR_LOGREC) damage ??= at(vb, size, 'no whole record ends at the end of the volume');
    // A damaged or growing end: scan forwards from the last index entry inside the file.
    let logEnd = a.labelSize;
    let i = a.index.length - 1;
    for (; i >= 0; i--) {
      if (a.index.vol[i] !== vol) continue;
      const off = a.index.offData[i];
      if (off <= physEnd) {
        logEnd = off;
        break;
      }
    }
    if (i < 0) continue;
    let pos = logEnd;
    if (logEnd > a.labelSize) {
      // The entry may point at the end of a record: step back over it first.
      const prev = await peekRead(cursor, vb, logEnd, false);
      if (typeof prev === 'number') return corrupt(cursor, at(vb, logEnd, 'no whole record ends at the last index entry'));
      pos = logEnd - prev.buf.length;
    }
    for (;;) {
      const head = await vb.word(pos);
      if (head === undefined) break;
      if (pos + head > physEnd) {
        damage = at(vb, pos, `a record of ${head} bytes runs past the end of the volume (${physEnd} bytes)`);
        break;
      }
      const rec = await peekRead(cursor, vb, pos, true);
      if (typeof rec === 'number') {
        if (rec === PM_ERR_LOGREC) damage = at(vb, pos, 'the record there is not well formed');
        break;
      }
      found = rec;
      foundVol = vol;
      pos += head;
    }
    if (found) break;
  }
  if (!found) return corrupt(cursor, damage);
  if (foundVol === a.maxVol) {
    cursor.endTime = found.timestamp;
    cursor.physEnd = physEnd;
  }
  return found.timestamp;
}

/** PM_ERR_LOGREC, remembering on the cursor where the damage is (when known). */
function corrupt(cursor: LogCursor, at: CorruptRecord | undefined): number {
  if (at) cursor.lastCorrupt = at;
  return PM_ERR_LOGREC;
}

/**
 * pmGetArchiveEnd for the whole context: the end of the last archive. Switching archives to
 * find it and back again has libpcp's side effects: the position is re-established at the
 * remembered place and a pending join <mark> is forgotten.
 */
export async function archiveEndOfSet(cursor: LogCursor): Promise<Timestamp | number> {
  const last = cursor.archiveCount - 1;
  if (cursor.cur === last) return archiveEndOfCurrent(cursor);
  const saveArch = cursor.cur;
  const saveVol = cursor.vol;
  const saveOffset = cursor.offset;
  cursor.changeArchive(last);
  const end = await archiveEndOfCurrent(cursor);
  if (typeof end === 'number') return end;
  cursor.changeArchive(saveArch);
  if (!cursor.changeVol(saveVol)) return PM_ERR_LOGREC;
  cursor.pos = saveOffset;
  return end;
}
