// pmlogcheck's warnings about metric descriptors (its pass 2) against ArchiveSet.warnings on
// every QA archive, good and corrupt, that both open: the same lines in the same order.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, QA_BADARCHIVES, runTool } from '../../../test/oracle';
import { DirFileSet } from '../../node/dir-file-set';
import { openArchiveSet } from './open-archive-set';

/** pmlogcheck's pass-2 lines about a pmDesc: "BASE.meta: NAME [PMID]: …". */
const DESC_LINE = /^\S+\.meta: \S+ \[\d+\.\d+\.\d+\]: (bad |non-zero scale|domain of pmid)/;

function bases(dir: string): string[] {
  return [...new Set(readdirSync(dir).map((f) => /^(.+)\.meta(\.\w+)?$/.exec(f)?.[1]).filter((b): b is string => b !== undefined))].sort();
}

async function compare(dir: string, base: string): Promise<{ ours: string[]; theirs: string[] } | undefined> {
  let ours: string[];
  try {
    const set = await openArchiveSet(new DirFileSet(dir), base);
    ours = set.warnings().map((w) => w.message);
    await set.close();
  } catch {
    // libpcp refuses it too (badarchives.conformance.test.ts checks that verdict).
    return undefined;
  }
  const run = await runTool('pmlogcheck', ['-v', `${dir}/${base}`]);
  // pmlogcheck stops before pass 2 when an earlier pass finds the archive unreadable.
  if (!run.stderr.includes('start pass2')) return undefined;
  const theirs = run.stderr
    .split('\n')
    .map((l) => (l.startsWith(`${dir}/`) ? l.slice(dir.length + 1) : l))
    .filter((l) => DESC_LINE.test(l));
  return { ours, theirs };
}

describe("pmlogcheck's descriptor warnings", () => {
  it('every corrupt QA archive that opens: the same warnings', async () => {
    let warned = 0;
    for (const base of bases(QA_BADARCHIVES)) {
      const r = await compare(QA_BADARCHIVES, base);
      if (!r) continue;
      expect(r.ours, base).toEqual(r.theirs);
      if (r.theirs.length > 0) warned++;
    }
    // badmeta-2, archive-20141125-000009, bozo-vm-disk, old611 at least.
    expect(warned).toBeGreaterThanOrEqual(4);
  }, 300_000);

  it('good QA archives: no warnings where pmlogcheck gives none', async () => {
    for (const base of ['20180416.10.00', '20180102', 'omnibus_v3', 'sample-labels', 'bozo-disk', 'pcp-dstat']) {
      const r = await compare(QA_ARCHIVES, base);
      expect(r, base).toBeDefined();
      expect(r?.ours, base).toEqual(r?.theirs);
    }
  }, 300_000);
});
