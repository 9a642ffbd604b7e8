// `pmdash metrics -l` equals `pminfo -l -a` on every QA archive (single archives found by
// their .meta files, and the multi-archive directories), and `pmdash metrics -T` equals
// `pminfo -T -a` on archives that carry help text. pminfo runs without the system's derived
// metrics (PCP_DERIVED_CONFIG empty); libpcp's two anonymous derived metrics (event.flags,
// event.missed), which pmdash lists only with -c, are cut from its output. Both outputs are
// compared as UTF-8 text, so instance names that are not UTF-8 (procpid-encode2) read as
// U+FFFD on both sides.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runTool, type ToolRun } from '../../test/oracle';
import { metricsCommand } from './metrics';

const META = /^(.*)\.meta(\.(xz|lzma|bz2|bz|gz|Z|z))?$/;

function archivesIn(dir: string): string[] {
  return [...new Set(readdirSync(dir).map((f) => META.exec(f)?.[1]).filter((b): b is string => b !== undefined))].sort().map((b) => join(dir, b));
}

const singles = archivesIn(QA_ARCHIVES);
const directories = readdirSync(QA_ARCHIVES)
  .map((f) => join(QA_ARCHIVES, f))
  .filter((p) => statSync(p).isDirectory() && archivesIn(p).length > 0)
  .sort();
const names = [...singles, ...directories];

/** Archives with help text in their metadata. */
const withHelp = ['20180127.08.40', 'pcp-free-tera', 'pcp-dstat', 'zero_disk_activity', 'daily_report', 'pcp-zeroconf'].map((b) => join(QA_ARCHIVES, b));

/** pminfo runs, two at a time, started on first use (the in-process side runs meanwhile). */
const queue: Array<() => void> = [];
let running = 0;
const runs = new Map<string, Promise<ToolRun>>();
function pminfo(args: readonly string[]): Promise<ToolRun> {
  const key = args.join('\0');
  let p = runs.get(key);
  if (p) return p;
  p = new Promise<ToolRun>((resolve, reject) => {
    const start = (): void => {
      running++;
      runTool('pminfo', args, { env: { PCP_DERIVED_CONFIG: '' } })
        .then(resolve, reject)
        .finally(() => {
          running--;
          queue.shift()?.();
        });
    };
    if (running < 2) start();
    else queue.push(start);
  });
  runs.set(key, p);
  return p;
}

/** pminfo's output without the anonymous derived metrics (their -l or -T entry). */
function withoutAnonDerived(text: string): string {
  return text.replace(/\nevent\.(flags|missed)\n(?: {4}labels [^\n]*\n|Help:\n(?:[^\n]+\n)*|Full Help: Error: [^\n]*\n)/g, '');
}

async function compare(name: string, flag: '-l' | '-T'): Promise<string> {
  const theirs = pminfo([flag, '-a', name]);
  let out = '';
  let err = '';
  const status = await metricsCommand.run(['-a', name, flag], { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  const run = await theirs;
  if (run.status !== 0) {
    // libpcp refuses the archive (a damaged member of a directory): so do we.
    expect(run.stderr).toContain('Cannot open archive');
    expect(status).not.toBe(0);
    expect(err).toContain('Cannot open archive');
    return out;
  }
  expect(err).toBe('');
  expect(status).toBe(0);
  expect(out).toBe(withoutAnonDerived(run.stdout));
  return out;
}

// Both sides without the system's derived configuration (pmdash reads it as libpcp does;
// derived-standard.conformance.test.ts compares the two with it).
process.env.PCP_DERIVED_CONFIG = '';

describe('pmdash metrics -l equals pminfo -l -a', () => {
  // Queue every pminfo run now, in test order, so the next ones run while a test compares.
  for (const name of names) pminfo(['-l', '-a', name]).catch(() => undefined);

  it('finds every QA archive', () => {
    expect(singles.length).toBeGreaterThanOrEqual(190);
    expect(directories.map((d) => d.slice(QA_ARCHIVES.length + 1))).toEqual(expect.arrayContaining(['multi', 'multi-xz', 'multi-corrupted']));
  });

  for (const name of names) {
    it(name.slice(QA_ARCHIVES.length + 1), { timeout: 120_000 }, async () => {
      await compare(name, '-l');
    });
  }
});

describe('pmdash metrics -T equals pminfo -T -a', () => {
  for (const name of withHelp) {
    it(name.slice(QA_ARCHIVES.length + 1), { timeout: 120_000 }, async () => {
      const out = await compare(name, '-T');
      expect(out).toContain('\nHelp:\n');
    });
  }
});
