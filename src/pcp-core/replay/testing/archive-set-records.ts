// Test support: reading an opened ArchiveSet's records through the replay cursor, as the
// archive commands do (a session per set, pmFetchArchive from the start).
import type { ArchiveSet } from '../../archive/archive-set';
import { replaySetOf } from '../../context/archive-replay-source';
import { PM_ERR_EOL, PmError } from '../../errors';
import type { PmId } from '../../types';
import { nextArchiveRecord, type ArchiveRecord } from '../archive-records';
import { ReplaySession } from '../replay-session';

/** A replay session over `set`, at its start in PM_MODE_FORW. */
export async function sessionOf(set: ArchiveSet): Promise<ReplaySession> {
  return new ReplaySession((await replaySetOf(set)).replay);
}

/**
 * Every record pmFetchArchive returns from the start, decoded, and the PmError that stopped
 * the reading (null at PM_ERR_EOL).
 */
export async function allRecords(set: ArchiveSet): Promise<{ records: ArchiveRecord[]; failure: PmError | null }> {
  const session = await sessionOf(set);
  const typeOf = (pmid: PmId): number | undefined => set.metadata.desc(pmid)?.type;
  const records: ArchiveRecord[] = [];
  for (;;) {
    try {
      records.push(await nextArchiveRecord(session, typeOf));
    } catch (e) {
      if (e instanceof PmError) return { records, failure: e.code === PM_ERR_EOL ? null : e };
      throw e;
    }
  }
}
