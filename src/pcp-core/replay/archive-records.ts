// Records as stored, decoded: what pmFetchArchive returns, with each value block's stored
// vtype, the <mark>s libpcp synthesises between archives flagged, and the archive of the set
// each record came from. For copying records (archive-writer/extract-window.ts) and tests;
// dump formats straight from the record bytes (ReplaySession.fetchArchiveRecord) instead.
import { decodeValueSets, type ArchiveValueSet } from '../archive/data-record';
import type { PmId, Result } from '../types';
import type { ReplaySession } from './replay-session';

export interface ArchiveRecord extends Result {
  readonly sets: readonly ArchiveValueSet[];
  /** numpmid = 0: a <mark> (a gap in the recording). */
  readonly mark: boolean;
  /** A mark libpcp synthesises between the archives of a set; never on disk. */
  readonly synthetic: boolean;
  /** Position of its archive in the set (sorted by start time). */
  readonly archive: number;
}

/** The session's next pmFetchArchive record, values decoded by `typeOf`'s types. */
export async function nextArchiveRecord(session: ReplaySession, typeOf: (pmid: PmId) => number | undefined): Promise<ArchiveRecord> {
  const rec = await session.fetchArchiveRecord();
  return {
    timestamp: rec.timestamp,
    sets: decodeValueSets(rec.buf, rec.view, rec, typeOf),
    mark: rec.numpmid === 0,
    synthetic: rec.virtual,
    archive: session.cursor.cur,
  };
}
