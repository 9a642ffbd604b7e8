// pmlogcheck's warnings about an archive's .meta and .index (its pass-0 record-type and
// index-entry refusals, pass 1 on the temporal index, pass 2 on descriptors) against
// ArchiveSet.warnings on every QA archive, good and corrupt, that both open: the same lines
// in the same order. pmlogcheck's checks of data volumes' framing are not among them (the
// core reads volumes lazily and reports damage when a read reaches it).
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, QA_BADARCHIVES, runTool } from '../../../test/oracle';
import { DirFileSet } from '../../node/dir-file-set';
import { openArchiveSet } from './open-archive-set';

/** Pass 0 on .meta and .index. */
const PASS0_LINE = /^\S+\.(meta|index)\[record \d+\]: unexpected (record type|EOF in index entry)/;
/** Pass 1: the temporal index. */
const PASS1_LINE = /^\S+(\.index\[entry \d+\]: |: file missing for log volume |: warning temporal index is missing)/;
/** Pass 2 on a pmDesc: "BASE.meta: NAME [PMID]: …". */
const PASS2_LINE = /^\S+\.meta: \S+ \[\d+\.\d+\.\d+\]: (bad |non-zero scale|domain of pmid)/;

function bases(dir: string): string[] {
  return [...new Set(readdirSync(dir).map((f) => /^(.+)\.meta(\.\w+)?$/.exec(f)?.[1]).filter((b): b is string => b !== undefined))].sort();
}

async function compare(dir: string, base: string): Promise<{ ours: string[]; theirs: string[] } | undefined> {
  let ours: string[];
  try {
    const set = await openArchiveSet(new DirFileSet(dir), base);
    ours = (await set.warnings()).map((w) => w.message);
    await set.close();
  } catch {
    // libpcp refuses it too (badarchives.conformance.test.ts checks that verdict).
    return undefined;
  }
  const run = await runTool('pmlogcheck', ['-v', `${dir}/${base}`]);
  const theirs = run.stderr
    .split('\n')
    .map((l) => (l.startsWith(`${dir}/`) ? l.slice(dir.length + 1) : l))
    .filter((l) => PASS0_LINE.test(l) || PASS1_LINE.test(l) || PASS2_LINE.test(l));
  // pmlogcheck stops after pass 0 when a data volume's framing is bad, which the core does
  // not look at when opening: compare only the passes pmlogcheck reached.
  const reached = (l: string): boolean => (!PASS1_LINE.test(l) || run.stderr.includes('start pass1')) && (!PASS2_LINE.test(l) || run.stderr.includes('start pass2'));
  return { ours: ours.filter(reached), theirs };
}

describe("pmlogcheck's warnings about .meta and .index", () => {
  it('every corrupt QA archive that opens: the same warnings', async () => {
    const warned = new Set<string>();
    for (const base of bases(QA_BADARCHIVES)) {
      const r = await compare(QA_BADARCHIVES, base);
      if (!r) continue;
      expect(r.ours, base).toEqual(r.theirs);
      if (r.theirs.length > 0) warned.add(base);
    }
    // Descriptors (badmeta-2 …), record types (badmeta-6, -7), a partial index entry
    // (badti-1) and bad index entries (badti-2, -3, -4) are all among them.
    for (const base of ['badmeta-2', 'badmeta-6', 'badmeta-7', 'badti-1', 'badti-2', 'badti-3', 'badti-4']) expect(warned, base).toContain(base);
  }, 300_000);

  it('QA archives: no warnings where pmlogcheck gives none, and a missing index named', async () => {
    for (const base of ['20180416.10.00', '20180102', 'omnibus_v3', 'sample-labels', 'bozo-disk', 'pcp-dstat', 'ok-noti-interp']) {
      const r = await compare(QA_ARCHIVES, base);
      expect(r, base).toBeDefined();
      expect(r?.ours, base).toEqual(r?.theirs);
    }
  }, 300_000);
});
