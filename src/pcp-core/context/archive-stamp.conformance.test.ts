// ArchiveContext.fetchArchiveStamp (the logging-interval probe of an opening archive) against
// libpcp's pmFetchArchive through python3-pcp (test/oracle/replay-fetch.py): the same
// timestamps record by record, and the same error code where libpcp's read fails (damaged
// and truncated archives), so probing without decoding values changes no open's outcome.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DirFileSet } from '../../node/dir-file-set';
import { QA_ARCHIVES, QA_BADARCHIVES } from '../../../test/oracle';
import { libpcpTranscript, type FetchRecord } from '../../../test/replay-compare';
import { isPmError } from '../errors';
import { openArchiveContext } from './archive-context';

const ARCHIVES: { name: string; path: string; records: number }[] = [
  { name: 'interpmark', path: `${QA_ARCHIVES}/interpmark`, records: 60 },
  { name: 'ok-mv-interp (3 volumes)', path: `${QA_ARCHIVES}/ok-mv-interp`, records: 60 },
  { name: 'multi-xz (directory)', path: `${QA_ARCHIVES}/multi-xz`, records: 50 },
  { name: 'ok-truncbin (truncated volume)', path: `${QA_BADARCHIVES}/ok-truncbin`, records: 440 },
  { name: 'badlen-1 (damaged first record)', path: `${QA_BADARCHIVES}/badlen-1`, records: 5 },
  { name: 'badlog-3 (time goes backwards)', path: `${QA_BADARCHIVES}/badlog-3`, records: 20 },
];

/** pmdash's stamps for `count` reads from the start: the time, or the error code. */
async function stamps(path: string, count: number): Promise<FetchRecord[]> {
  const dir = path.slice(0, path.lastIndexOf('/'));
  const ctx = await openArchiveContext(new DirFileSet(dir), path.slice(dir.length + 1));
  try {
    const out: FetchRecord[] = [];
    for (let i = 0; i < count; i++) {
      try {
        const t = await ctx.fetchArchiveStamp();
        out.push({ sec: t.sec, nsec: t.nsec });
      } catch (e) {
        if (!isPmError(e)) throw e;
        out.push({ error: e.code });
      }
    }
    return out;
  } finally {
    await ctx.close();
  }
}

describe('fetchArchiveStamp reads the records pmFetchArchive reads', () => {
  for (const a of ARCHIVES) {
    it(`${a.name}: ${a.records} reads from the start`, async () => {
      // The script needs a metric to look up; any of the archive's will do (pminfo's first).
      const metric = spawnSync('pminfo', ['-a', a.path], { encoding: 'utf8' }).stdout.split('\n')[0] ?? '';
      const libpcp = await libpcpTranscript(a.path, [metric], [{ fetchArchive: a.records }]);
      const want = (libpcp.out[0] as FetchRecord[]).map((r) => (r.error !== undefined ? { error: r.error } : { sec: r.sec, nsec: r.nsec }));
      expect(await stamps(a.path, a.records)).toEqual(want);
    });
  }
});
