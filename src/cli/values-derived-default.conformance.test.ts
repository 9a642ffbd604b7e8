// `pmdash values` and `pmdash metrics` without -c have PCP's default derived metrics, as
// pmval and pminfo do: $PCP_DERIVED_CONFIG unset reads $PCP_VAR_DIR/config/derived, empty
// reads nothing, a list of files and directories reads those. Values are compared with
// libpcp (values-interp.py, pmval's sampling) and the text of pminfo -d -T and -l with pminfo's.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PYTHON, QA_ARCHIVES, runTool } from '../../test/oracle';
import { compareJsonLines } from '../../test/json-lines';
import { STANDARD_DERIVED } from '../pcp-core/derived/standard';
import { main } from './main';

const ROOT = join(import.meta.dirname, '..', '..');
const A = `${QA_ARCHIVES}/20180416.10.00`;
const saved = process.env.PCP_DERIVED_CONFIG;

afterEach(() => {
  if (saved === undefined) delete process.env.PCP_DERIVED_CONFIG;
  else process.env.PCP_DERIVED_CONFIG = saved;
});

/** Runs pmdash in-process with PCP_DERIVED_CONFIG as given (undefined: unset). */
async function pmdash(config: string | undefined, argv: readonly string[]): Promise<{ status: number; out: string; err: string }> {
  if (config === undefined) delete process.env.PCP_DERIVED_CONFIG;
  else process.env.PCP_DERIVED_CONFIG = config;
  let out = '';
  let err = '';
  const status = await main(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { status, out, err };
}

/** libpcp's side: pmval's sampling in values-interp.py, with the same configuration. */
async function libpcp(config: string | undefined, metrics: readonly string[], interval: string, samples: number): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (config === undefined) delete env.PCP_DERIVED_CONFIG;
  else env.PCP_DERIVED_CONFIG = config;
  const req = { archive: A, metrics, start: null, finish: null, interval, samples, raw: false, instances: null };
  const run = await runTool('env', ['-i', ...Object.entries(env).map(([k, v]) => `${k}=${v ?? ''}`), PYTHON, join(ROOT, 'test', 'oracle', 'values-interp.py'), JSON.stringify(req)], { timeoutMs: 120_000 });
  if (run.status !== 0) throw new Error(`values-interp.py exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

/** The standard metrics 20180416.10.00 can compute (its disks, dm and md devices, CPUs, processes). */
const BOUND = STANDARD_DERIVED.map((s) => s.name).filter((n) => /^(kernel\.cpu\.util|disk\.(dev|dm|md)\.(await|r_await|w_await|avg_qlen|avg_rqsz|r_avg_rqsz|w_avg_rqsz|util)$)/.test(n));

describe('PCP default derived metrics in the CLI', () => {
  it('pmdash values -a 20180416.10.00 disk.dev.await equals libpcp (PCP_DERIVED_CONFIG unset)', async () => {
    const ours = await pmdash(undefined, ['values', '--json', '-a', A, '-t', '10sec', '-s', '40', 'disk.dev.await']);
    expect(ours.err).toBe('');
    expect(ours.status).toBe(0);
    expect(compareJsonLines(ours.out, await libpcp(undefined, ['disk.dev.await'], '10sec', 40))).toBe(41);
  });

  it('every standard metric the archive supports equals libpcp', async () => {
    expect(BOUND.length).toBeGreaterThan(25);
    for (let i = 0; i < BOUND.length; i += 8) {
      const metrics = BOUND.slice(i, i + 8);
      const ours = await pmdash(undefined, ['values', '--json', '-a', A, '-t', '37sec', '-s', '30', ...metrics]);
      expect(ours.status, ours.err).toBe(0);
      compareJsonLines(ours.out, await libpcp(undefined, metrics, '37sec', 30));
    }
  });

  it('PCP_DERIVED_CONFIG empty: no standard metrics, as pmval', async () => {
    const ours = await pmdash('', ['values', '-a', A, '-s', '1', 'disk.dev.await']);
    expect(ours.status).not.toBe(0);
    expect(ours.err).toContain('disk.dev.await: Unknown metric name');
    const theirs = await runTool('pmval', ['-a', A, '-s', '1', 'disk.dev.await'], { env: { PCP_DERIVED_CONFIG: '' } });
    expect(theirs.stderr).toContain('Unknown metric name');
  });

  it('PCP_DERIVED_CONFIG a list of a file and a missing path: that file only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pmdash-derived-'));
    const file = join(dir, 'mine.conf');
    writeFileSync(file, 'my.await = delta(disk.dev.total_rawactive) / delta(disk.dev.total)\nmy.await(oneline) = mine\n');
    const config = `${join(dir, 'missing')}:${file}`;
    const ours = await pmdash(config, ['values', '--json', '-a', A, '-t', '10sec', '-s', '12', 'my.await']);
    expect(ours.status, ours.err).toBe(0);
    compareJsonLines(ours.out, await libpcp(config, ['my.await'], '10sec', 12));
    const none = await pmdash(config, ['values', '-a', A, '-s', '1', 'disk.dev.await']);
    expect(none.err).toContain('Unknown metric name');
  });

  it('no PCP configuration on the machine: the shipped standard set, equal to libpcp', async () => {
    const varDir = mkdtempSync(join(tmpdir(), 'pmdash-vardir-'));
    const before = process.env.PCP_VAR_DIR;
    process.env.PCP_VAR_DIR = varDir;
    try {
      const metrics = ['disk.dev.await', 'disk.dev.avg_rqsz', 'disk.dev.util', 'kernel.cpu.util.user'];
      const ours = await pmdash(undefined, ['values', '--json', '-a', A, '-t', '30sec', '-s', '20', ...metrics]);
      expect(ours.status, ours.err).toBe(0);
      if (before === undefined) delete process.env.PCP_VAR_DIR;
      else process.env.PCP_VAR_DIR = before;
      compareJsonLines(ours.out, await libpcp(undefined, metrics, '30sec', 20));
    } finally {
      if (before === undefined) delete process.env.PCP_VAR_DIR;
      else process.env.PCP_VAR_DIR = before;
    }
  });

  it('pmdash metrics -d -T lists them as pminfo does', async () => {
    const args = ['-d', '-T', 'disk.dev', 'disk.dm', 'kernel.cpu.util', 'proc.hog', 'mssql'];
    const ours = await pmdash(undefined, ['metrics', '-a', A, ...args]);
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.PCP_DERIVED_CONFIG;
    const theirs = await runTool('env', ['-i', ...Object.entries(env).map(([k, v]) => `${k}=${v ?? ''}`), 'pminfo', '-a', A, ...args]);
    expect(ours.out).toBe(theirs.stdout);
    expect(ours.out).toContain('disk.dev.await\n    Data Type: double');
  });

  it('pmdash metrics -l labels them as pminfo does (instance lines with the indom\'s agent labels)', async () => {
    const ours = await pmdash(undefined, ['metrics', '-a', A, '-l']);
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.PCP_DERIVED_CONFIG;
    const theirs = await runTool('env', ['-i', ...Object.entries(env).map(([k, v]) => `${k}=${v ?? ''}`), 'pminfo', '-a', A, '-l']);
    expect(ours.err).toBe('');
    expect(ours.out).toBe(theirs.stdout);
    expect(ours.out).toMatch(/\ndisk\.dev\.await\n {4}labels \{"device_type"[^\n]*\n {4}inst \[0 or "sda"\] labels \{"agent":"linux",/);
  });
});
