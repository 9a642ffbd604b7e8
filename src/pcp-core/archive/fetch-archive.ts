// pmFetchArchive in PM_MODE_FORW from the start (archive-format.md §7.2): every record as
// stored, marks included, in the order libpcp returns them. libpcp positions once at the
// origin (the earliest label start), then reads forwards and skips any record older than the
// last one returned (its origin moves to each returned record's time), so records whose
// timestamps go backwards are not returned. This is what `pmdash dump` prints and what the
// conformance tests compare with python3-pcp's pmFetchArchive loop.
import { PM_ERR_EOL, PmError } from '../errors';
import { PM_MODE_FORW } from '../context/context';
import type { Timestamp } from '../types';
import type { ArchiveSet } from './archive-set';
import type { RawRecord, RecordCursor, RecordStamp } from './record-cursor';
import { timestampSub } from './timestamps';
import type { ArchiveRecord } from './volume-record';

export class ArchiveFetcher {
  private readonly cursor: RecordCursor;
  private origin: Timestamp;
  private positioned = false;

  constructor(set: ArchiveSet) {
    this.cursor = set.cursor();
    this.origin = set.start;
  }

  /** The next record; throws PmError (PM_ERR_EOL after the last one, or what failed). */
  async next(): Promise<ArchiveRecord> {
    return (await this.advance(true)) as ArchiveRecord;
  }

  /** As `next`, without decoding values: the checked record's bytes (see RawRecord). */
  nextRaw(): Promise<RawRecord> {
    return this.advance(false) as Promise<RawRecord>;
  }

  /** As `next`, without decoding values (counting, skimming). */
  nextStamp(): Promise<RecordStamp> {
    return this.advance(false);
  }

  private async advance(values: boolean): Promise<ArchiveRecord | RawRecord> {
    if (!this.positioned) {
      await this.cursor.seek(this.origin, PM_MODE_FORW);
      this.positioned = true;
    }
    for (;;) {
      const rec = values ? await this.cursor.read(PM_MODE_FORW) : await this.cursor.readRaw(PM_MODE_FORW);
      if (timestampSub(rec.timestamp, this.origin) < 0) continue;
      this.origin = rec.timestamp;
      return rec;
    }
  }

  /**
   * Calls `each` for every record until the end. Resolves with null at PM_ERR_EOL, or with
   * the PmError that stopped the reading (after every record before it was delivered).
   */
  async forEach(each: (rec: ArchiveRecord) => void | Promise<void>): Promise<PmError | null> {
    for (;;) {
      let rec: ArchiveRecord;
      try {
        rec = await this.next();
      } catch (e) {
        if (e instanceof PmError) return e.code === PM_ERR_EOL ? null : e;
        throw e;
      }
      await each(rec);
    }
  }
}
