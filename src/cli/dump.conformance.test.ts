// Every QA archive, read record by record: `pmdash dump --json` (in-process, same formatter)
// equals libpcp's pmFetchArchive loop as test/oracle/archive-dump.py prints it — records,
// times to the nanosecond, marks, pmids, numval, instances and values — including the error
// that ends a damaged archive. Then `pmdash metrics -d` equals `pminfo -d -a` for each.
// Archives are found by their .meta files; the multi-archive directories are read as
// directories, and a few comma lists exercise sorting and stitching.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON, QA_ARCHIVES, runTool } from '../../test/oracle';
import { compareDump, OracleDump } from './dump-oracle';
import { metricsCommand } from './metrics';

const META = /^(.*)\.meta(\.(xz|lzma|bz2|bz|gz|Z|z))?$/;

function archivesIn(dir: string): string[] {
  return readdirSync(dir)
    .map((f) => META.exec(f)?.[1])
    .filter((b): b is string => b !== undefined)
    .sort()
    .map((b) => join(dir, b));
}

const singles = archivesIn(QA_ARCHIVES);
const directories = readdirSync(QA_ARCHIVES)
  .map((f) => join(QA_ARCHIVES, f))
  .filter((p) => statSync(p).isDirectory() && archivesIn(p).length > 0)
  .sort();
const q = (b: string): string => join(QA_ARCHIVES, b);
const lists = [
  [q('multi/20150508.11.57'), q('multi/20150508.11.44')].join(','),
  [q('omnibus_v2'), q('omnibus_v3')].join(','),
  [q('arch_a'), q('arch_b')].join(','),
  [q('tzchange-10-a'), q('tzchange-10-b')].join(','),
  [q('section-d'), q('section-c'), q('section-b'), q('section-a')].join(','),
  [q('mirage-1'), q('mirage-2'), q('mirage-3')].join(','),
];
// The archives scripts/record-fixtures.sh recorded with pmlogger -V 2 and -V 3 (hotproc
// following a workload whose processes come and go).
const recorded = archivesIn(join(import.meta.dirname, '../../test/fixtures/recorded'));
const names = [...singles, ...directories, ...lists, ...recorded];

describe('pmdash dump --json equals libpcp pmFetchArchive', () => {
  let oracle: OracleDump;
  beforeAll(() => {
    oracle = new OracleDump(PYTHON, join(import.meta.dirname, '../../test/oracle'));
    oracle.request(names);
  });
  afterAll(() => oracle.close());

  it('finds every QA archive and the recorded fixtures', () => {
    expect(singles.length).toBeGreaterThanOrEqual(190);
    expect(recorded.map((r) => r.slice(r.lastIndexOf('/') + 1))).toEqual(['hotproc-v2', 'hotproc-v3']);
    expect(directories.map((d) => d.slice(QA_ARCHIVES.length + 1))).toEqual(expect.arrayContaining(['multi', 'multi-xz', 'multi-corrupted']));
  });

  // Sequential, in the order requested from the oracle.
  const label = (name: string): string => (name.startsWith(QA_ARCHIVES) ? name.slice(QA_ARCHIVES.length + 1).replace(new RegExp(`${QA_ARCHIVES}/`, 'g'), '') : `recorded/${name.slice(name.lastIndexOf('/') + 1)}`);
  for (const name of names) {
    it(label(name), { timeout: 900_000 }, async () => {
      const result = await compareDump(name, oracle);
      expect(result.mismatch).toBeNull();
      expect(result.lines).toBeGreaterThan(0);
    });
  }
});

/** pminfo -d output without libpcp's two anonymous derived metrics (event.flags, event.missed). */
function withoutAnonDerived(text: string): string {
  return text.replace(/\nevent\.(flags|missed)\n {4}Data Type: 32-bit unsigned int {2}InDom: PM_INDOM_NULL 0xffffffff\n {4}Semantics: discrete {2}Units: none\n/g, '');
}

// Both sides without the system's derived configuration (pmdash reads it as libpcp does;
// derived-standard.conformance.test.ts compares the two with it).
process.env.PCP_DERIVED_CONFIG = '';

describe('pmdash metrics -d equals pminfo -d -a', () => {
  for (const name of [...singles, ...directories, ...recorded]) {
    it(name.slice(name.lastIndexOf('/') + 1), async () => {
      // No derived metrics from the system's configuration: only the archive's own metrics.
      const pminfo = await runTool('pminfo', ['-d', '-a', name], { env: { PCP_DERIVED_CONFIG: '' } });
      let out = '';
      let err = '';
      const status = await metricsCommand.run(['-a', name, '-d'], { stdout: (t) => (out += t), stderr: (t) => (err += t) });
      if (pminfo.status !== 0) {
        // libpcp refuses the archive (a damaged member of a directory): so do we.
        expect(pminfo.stderr).toContain('Cannot open archive');
        expect(status).not.toBe(0);
        expect(err).toContain('Cannot open archive');
        return;
      }
      expect(status).toBe(0);
      expect(out).toBe(withoutAnonDerived(pminfo.stdout));
    });
  }
});
