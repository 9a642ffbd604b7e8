// The end of one archive: the timestamp of its last complete, valid record, found as
// libpcp 6.0.3's __pmGetArchiveEnd_ctx finds it (archive-format.md §7.1, §9.1). From the
// highest volume down: read backwards from the physical end; if that fails, start from the
// last index entry at or before the physical end (stepping back one record, because entries
// may point at a record's end) and read forwards until a record fails. The answer is cached
// against the size of the last volume. PM_ERR_LOGREC when no valid record can be found.
import { DecodeError, PM_ERR_LOGREC } from '../errors';
import type { Timestamp } from '../types';
import type { Archive } from './archive';
import { checkRecord, type RecordContext } from './volume-record';
import type { VolumeReader } from './volume-reader';

/** Reads the record ending at `end` (checked as a fetch would), or null if it fails. */
async function stampBefore(reader: VolumeReader, end: number, ctx: RecordContext): Promise<{ stamp: Timestamp; offset: number } | null> {
  try {
    const frame = await reader.frameBefore(end);
    if (!frame) return null;
    return { stamp: checkRecord(frame.view, frame.start, frame.offset, ctx).timestamp, offset: frame.offset };
  } catch (e) {
    if (e instanceof DecodeError) return null;
    throw e;
  }
}

async function stampAt(reader: VolumeReader, offset: number, ctx: RecordContext): Promise<{ stamp: Timestamp; next: number } | null> {
  try {
    const frame = await reader.frameAt(offset);
    if (!frame) return null;
    return { stamp: checkRecord(frame.view, frame.start, frame.offset, ctx).timestamp, next: frame.offset + frame.length };
  } catch (e) {
    if (e instanceof DecodeError) return null;
    throw e;
  }
}

/** pmGetArchiveEnd for one archive. `ctxOf(vol)` gives the decode context of a volume. */
export async function findArchiveEnd(archive: Archive, ctxOf: (vol: number) => RecordContext): Promise<Timestamp> {
  const labelSize = archive.format.labelSize;
  const index = archive.index;
  for (let vi = archive.volumeNumbers.length - 1; vi >= 0; vi--) {
    const vol = archive.volumeNumbers[vi];
    const reader = await archive.volume(vol);
    if (!reader) continue;
    const physend = reader.size;
    if (vol === archive.maxVol && archive.endCache && archive.endCache.physend === physend) return archive.endCache.end;
    if (physend <= labelSize) continue;
    const ctx = ctxOf(vol);
    const remember = (end: Timestamp): Timestamp => {
      if (vol === archive.maxVol) archive.endCache = { physend, end };
      return end;
    };
    // Backwards from the physical end.
    const last = await stampBefore(reader, physend, ctx);
    if (last) return remember(last.stamp);
    // Else from the last index entry of this volume at or before the physical end.
    let logend = -1;
    for (let i = index.length - 1; i >= 0; i--) {
      if (index.vol[i] !== vol) continue;
      if ((index.offData[i]) <= physend) {
        logend = index.offData[i];
        break;
      }
    }
    if (logend < 0) continue;
    let pos = logend;
    let found: Timestamp | null = null;
    if (logend > labelSize) {
      const back = await stampBefore(reader, logend, ctx);
      // Damaged even there: libpcp gives up on the whole archive.
      if (!back) break;
      pos = back.offset;
    }
    for (;;) {
      if (physend - pos < 4) break;
      const rec = await stampAt(reader, pos, ctx);
      if (!rec || rec.next > physend) break;
      found = rec.stamp;
      pos = rec.next;
    }
    if (found) return remember(found);
  }
  throw new DecodeError(PM_ERR_LOGREC, archive.name, 0, '', 'cannot locate the end of the archive');
}
