// extractWindow against PCP 6.0.3 on real QA archives (V3, V2 converted to V3, multi-volume
// xz, bzip2, a multi-archive directory with its joins, event records, changing instance
// domains, labels, help text, marks):
//  - our reader reads back exactly the source's records in the window, and the same
//    descriptors, names, instances, labels and help text at every record time;
//  - pmlogcheck finds nothing wrong;
//  - pmdumplog -a (records, descriptors, instance domains, index times) and pmdumplog -e
//    (labels) print the same as for `pmlogextract -V 3 -S … -T …` of the same window, except
//    the label's PID (pmlogextract writes its own) and .meta offsets in the index (we write
//    a help text record only where it says more than the one-line text; docs/deviations.md).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runTool, scratchDir } from '../../../test/oracle';
import { DirFileSet } from '../../node/dir-file-set';
import { openArchiveSet, type ArchiveSet } from '../archive';
import { compareTimestamps, timestampFromNs, timestampToNs } from '../time/timestamp';
import { nextArchiveRecord, type ArchiveRecord } from '../replay/archive-records';
import { allRecords, sessionOf } from '../replay/testing/archive-set-records';
import { PM_ERR_EOL, PM_ERR_LOGOVERLAP, PmError } from '../errors';
import { PM_MODE_FORW } from '../context/context';
import { memoryFileSet } from '../io';
import { formatCtimeFraction, utcZone } from '../time';
import { PM_INDOM_NULL, type PmId, type Timestamp } from '../types';
import type { ArchiveImage } from './archive-writer';
import { extractWindow } from './extract-window';

interface Case {
  readonly name: string;
  /** Fractions of the archive's span for the window; [0, 1] is the whole archive. */
  readonly window: readonly [number, number];
}

const CASES: readonly Case[] = [
  { name: 'omnibus_v3', window: [0.2, 0.6] },
  { name: 'omnibus_v3', window: [0, 1] },
  { name: 'omnibus_v2', window: [0.25, 0.75] },
  { name: '20180416.10.00', window: [0.4, 0.43] },
  { name: '20130706', window: [0.1, 0.2] },
  { name: 'interpmark', window: [0.3, 0.9] },
  { name: 'multi', window: [0, 1] },
];

async function openQa(name: string): Promise<ArchiveSet> {
  return openArchiveSet(new DirFileSet(QA_ARCHIVES), name);
}

function windowOf(set: ArchiveSet, end: Timestamp, [a, b]: readonly [number, number]): { from: Timestamp; to: Timestamp } {
  const s = timestampToNs(set.start);
  const span = timestampToNs(end) - s;
  // Whole microseconds inside the archive (ends included exactly for [0, 1]).
  const at = (f: number): Timestamp => (f <= 0 ? set.start : f >= 1 ? end : timestampFromNs(((s + (span * BigInt(Math.round(f * 1e6))) / 1_000_000n) / 1000n) * 1000n));
  return { from: at(a), to: at(b) };
}

function writeImage(dir: string, base: string, img: ArchiveImage): string {
  writeFileSync(join(dir, `${base}.meta`), img.meta);
  writeFileSync(join(dir, `${base}.index`), img.index);
  writeFileSync(join(dir, `${base}.0`), img.volume);
  return join(dir, base);
}

/** The source's records in [from, to], read as extractWindow reads them. */
async function sourceRecords(set: ArchiveSet, from: Timestamp, to: Timestamp): Promise<ArchiveRecord[]> {
  const session = await sessionOf(set);
  await session.setMode(PM_MODE_FORW, from);
  const out: ArchiveRecord[] = [];
  for (;;) {
    let rec: ArchiveRecord;
    try {
      rec = await nextArchiveRecord(session, (p) => set.metadata.desc(p)?.type);
    } catch (e) {
      if (e instanceof PmError && e.code === PM_ERR_LOGOVERLAP) continue;
      if (e instanceof PmError && e.code === PM_ERR_EOL) break;
      throw e;
    }
    if (compareTimestamps(rec.timestamp, to) > 0) break;
    if (compareTimestamps(rec.timestamp, from) < 0) continue;
    const last = out[out.length - 1];
    if (last && compareTimestamps(rec.timestamp, last.timestamp) < 0) continue;
    out.push(rec);
  }
  return out;
}

/** What a record says, without where it was stored. */
function content(r: ArchiveRecord): unknown {
  return { t: r.timestamp, mark: r.mark, sets: r.sets.map((s) => ({ pmid: s.pmid, numval: s.numval, inst: Array.from(s.inst), values: s.values, vtypes: s.vtypes && Array.from(s.vtypes) })) };
}

function text(set: ArchiveSet, target: { pmid: PmId } | { indom: number }, kind: 'oneline' | 'help'): string {
  try {
    return set.metadata.text(target as { pmid: PmId }, kind);
  } catch (e) {
    return e instanceof PmError ? `error ${e.code}` : 'throw';
  }
}

/** pmdumplog output with the lines that legitimately differ taken out. */
async function dump(path: string, flag: string): Promise<string> {
  const run = await runTool('pmdumplog', ['-Z', 'UTC', flag, path]);
  expect(run.status, `pmdumplog ${flag} ${path}: ${run.stderr}`).toBe(0);
  return run.stdout
    .split('\n')
    .filter((l) => !l.startsWith('PID for pmlogger:') && !l.startsWith('Note: timezone'))
    // Index entries: time, volume and data offset; the .meta offset column is dropped.
    .map((l) => l.replace(/^(\d\d:\d\d:\d\d\.\d+\t\s+\d+)\s+\d+(\s+\d+)$/, '$1$2'))
    .join('\n')
    .split(path)
    .join('ARCHIVE');
}

describe('extractWindow on QA archives', () => {
  it.each(CASES.map((c) => [`${c.name} ${c.window.join('–')}`, c] as const))('%s', async (_label, c) => {
    const set = await openQa(c.name);
    const { from, to } = windowOf(set, await (await sessionOf(set)).archiveEnd(), c.window);
    const img = await extractWindow(set, { from, to });
    const dir = scratchDir('pmdash-extract-');
    const ours = writeImage(dir, 'ours', img);

    // 1. Our reader: the same records, and the same metadata at each of their times.
    const back = await openArchiveSet(memoryFileSet('x', [['x.meta', img.meta], ['x.index', img.index], ['x.0', img.volume]]), 'x');
    const expected = await sourceRecords(set, from, to);
    expect(expected.length).toBeGreaterThan(2);
    const { records: got, failure } = await allRecords(back);
    expect(failure).toBeNull();
    expect(got.map(content)).toEqual(expected.map(content));
    expect(back.label).toMatchObject({ version: 3, hostname: set.label.hostname, start: expected[0]?.timestamp });
    const pmids = new Set(expected.flatMap((r) => r.sets.map((s) => s.pmid)));
    for (const pmid of pmids) {
      const desc = set.metadata.desc(pmid);
      expect(back.metadata.desc(pmid)).toEqual(desc);
      expect(back.metadata.pmns.nameAll(pmid).sort()).toEqual(set.metadata.pmns.nameAll(pmid).sort());
      for (const kind of ['oneline', 'help'] as const) expect(text(back, { pmid }, kind)).toBe(text(set, { pmid }, kind));
      if (desc && desc.indom !== PM_INDOM_NULL) {
        for (const r of expected.filter((x) => x.sets.some((s) => s.pmid === pmid))) {
          expect(back.metadata.indomAt(desc.indom, r.timestamp), `${pmid} at ${r.timestamp.sec}`).toEqual(set.metadata.indomAt(desc.indom, r.timestamp));
        }
      }
    }
    // Label sets are written from a metric's first use on (as pmlogextract does): where ours
    // has a set, it is the source's; at the last record every key agrees.
    const lastT = expected[expected.length - 1]?.timestamp;
    for (const r of expected) {
      for (const k of back.metadata.labels.keys()) {
        const mine = back.metadata.labelSets(k.level, k.ident, r.timestamp);
        if (mine.length > 0 || r.timestamp === lastT) expect(mine).toEqual(set.metadata.labelSets(k.level, k.ident, r.timestamp));
      }
    }

    // 2. pmlogcheck: exit 0, and nothing it does not also say about the source (some QA
    //    archives carry odd descriptor units, which a faithful copy keeps).
    const complaints = (out: string): string[] => out.split('\n').filter((l) => l !== '').map((l) => l.replace(/^\S+?\.(meta|index|\d+)(\[[^\]]*\])?: /, ''));
    const check = await runTool('pmlogcheck', [ours]);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const ourComplaints = complaints(check.stdout + check.stderr);
    if (ourComplaints.length > 0) {
      const sourceComplaints = new Set<string>();
      for (const a of set.archives) {
        const run = await runTool('pmlogcheck', [join(QA_ARCHIVES, a.files.base)]);
        complaints(run.stdout + run.stderr).forEach((l) => sourceComplaints.add(l));
      }
      expect(ourComplaints.filter((l) => !sourceComplaints.has(l))).toEqual([]);
    }

    // 3. pmdumplog against pmlogextract's copy of the same window.
    const zone = utcZone();
    const spec = (t: Timestamp): string => `@${formatCtimeFraction(zone, t, 9)}`;
    const theirs = join(dir, 'theirs');
    // pmlogextract 6.0.3 reads -S and -T to the microsecond and then adds one second to the
    // window end ("to dodge truncation"): ask it for (to rounded up to a microsecond) − 1 s.
    // (Plus one microsecond: pmlogextract goes through a double on the way.)
    // pmlogextract 6.0.3 reads only one archive of a directory: name each one.
    const inputs = set.archives.map((a) => join(QA_ARCHIVES, a.files.base));
    const toUsec = timestampFromNs(((timestampToNs(to) + 999n) / 1000n) * 1000n + 1000n);
    // And with -T it stops at the first join of several archives: the whole span needs none.
    const window = [...(c.window[0] > 0 ? ['-S', spec(from)] : []), ...(c.window[1] < 1 ? ['-T', spec({ sec: toUsec.sec - 1, nsec: toUsec.nsec })] : [])];
    const extract = await runTool('pmlogextract', ['-Z', 'UTC', '-V', '3', ...window, ...inputs, theirs]);
    expect(extract.status, extract.stderr).toBe(0);
    for (const flag of ['-a', '-e']) expect((await dump(ours, flag)).split('ARCHIVE').join(''), flag).toBe((await dump(theirs, flag)).split('ARCHIVE').join(''));
    await Promise.all([set.close(), back.close()]);
  });

  it('refuses a window with no records', async () => {
    const set = await openQa('omnibus_v3');
    const before = { sec: set.start.sec - 100, nsec: 0 };
    await expect(extractWindow(set, { from: before, to: { sec: before.sec + 10, nsec: 0 } })).rejects.toThrow(/no records/);
  });
});
