// Every corrupt QA archive (/var/lib/pcp/testsuite/badarchives) gets libpcp's verdict, as
// python3-pcp's pmNewContext + pmFetchArchive loop gives it (test/oracle/archive-dump.py):
// refused at open with the same error, or the same records followed by the same error, or
// read to the end. `pmdash dump` then prints exactly those records and, for an error, one
// line naming the file and the reason in libpcp's wording, exit status 1 — within 2 seconds
// of CPU time (wall time on this shared machine says more about the other jobs than about
// us; a wall-clock guard still catches hangs), never a stack trace.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON, QA_BADARCHIVES } from '../../test/oracle';
import { compareDump, OracleDump, type DumpComparison } from './dump-oracle';
import { dumpCommand } from './dump';
import { pmErrStr } from '../pcp-core/errors';

const names = [
  ...new Set(
    readdirSync(QA_BADARCHIVES)
      .map((f) => /^(.+)\.(meta|index|\d+)(\.bad\.\d+)?$/.exec(f)?.[1])
      .filter((b): b is string => b !== undefined),
  ),
]
  .sort()
  .map((b) => join(QA_BADARCHIVES, b));

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no verdict within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

describe('corrupt archives get libpcp verdicts', () => {
  let oracle: OracleDump;
  beforeAll(() => {
    oracle = new OracleDump(PYTHON, join(import.meta.dirname, '../../test/oracle'));
    oracle.request(names);
  });
  afterAll(() => oracle.close());

  it('finds the 50 corrupt archives', () => {
    expect(names.length).toBeGreaterThanOrEqual(50);
  });

  for (const name of names) {
    it(name.slice(QA_BADARCHIVES.length + 1), async () => {
      const result: DumpComparison = await compareDump(name, oracle);
      expect(result.mismatch).toBeNull();
      const verdict = JSON.parse(result.last) as { kind: string; stage?: string; code?: number };

      let out = '';
      let err = '';
      const cpu = process.cpuUsage();
      const run = dumpCommand.run(['-a', name, '--json'], { stdout: (t) => (out += t), stderr: (t) => (err += t) });
      const status = await withTimeout(run, 60_000, name);
      const used = process.cpuUsage(cpu);
      expect((used.user + used.system) / 1000).toBeLessThan(2000);
      const records = out === '' ? 0 : out.split('\n').length - 1;
      expect(records).toBe(result.lines - 1);
      if (verdict.kind === 'end') {
        expect(status).toBe(0);
        expect(err).toBe('');
        return;
      }
      expect(status).toBe(1);
      const lines = err.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(pmErrStr(verdict.code as number));
      expect(lines[0]).toContain(name.slice(QA_BADARCHIVES.length + 1));
      expect(err).not.toMatch(/\n\s+at /);
    });
  }
});
