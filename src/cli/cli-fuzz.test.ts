// Fuzzing the command line's error path: damaged archives (the recorded fixtures and the demo
// archive, plain and .xz, with flips, cuts, damaged length words and value-block offsets,
// missing files) written to a temp dir and given to `dump`, `info`, `metrics` and `values`.
// Each run ends with status 0, or status 1 and exactly one line on stderr that names the
// command and the archive — never a stack trace, never a JavaScript error name, never a hang.
// A few inputs also run in a child process, for the real exit status and stderr.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzTimeoutMs } from '../../test/fuzz-budget';
import { bundleCli } from '../../test/cli-child';
import { buildArchive } from '../pcp-core/archive/testing/archive-builder';
import { demoSpec } from '../pcp-core/archive/testing/demo-archive';
import { pointerWords } from '../pcp-core/archive/testing/pointer-words';
import { main } from './main';

const RECORDED = join(import.meta.dirname, '../../test/fixtures/recorded');
const dir = mkdtempSync(join(tmpdir(), 'pmdash-cli-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** mulberry32, as the other fuzzers. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Files = Map<string, Uint8Array>;

function recorded(base: string): Files {
  const vol = spawnSync('xz', ['-dc', join(RECORDED, `${base}.0.xz`)], { maxBuffer: 1 << 28 }).stdout;
  return new Map([
    ['meta', new Uint8Array(readFileSync(join(RECORDED, `${base}.meta`)))],
    ['index', new Uint8Array(readFileSync(join(RECORDED, `${base}.index`)))],
    ['0', new Uint8Array(vol)],
  ]);
}

const bases: Array<{ name: string; files: Files; metric: string }> = [
  { name: 'hotproc-v2', files: recorded('hotproc-v2'), metric: 'hotproc.psinfo.utime' },
  { name: 'hotproc-v3', files: recorded('hotproc-v3'), metric: 'hotproc.psinfo.utime' },
  { name: 'demo-v2', files: buildArchive(demoSpec(2)), metric: 'demo.ctr' },
  { name: 'demo-v3', files: buildArchive(demoSpec(3)), metric: 'demo.pi' },
];

function mutate(files: Files, r: () => number): string[] {
  const keys = [...files.keys()];
  const what: string[] = [];
  for (let m = 0; m < 1 + Math.floor(r() * 2); m++) {
    const key = keys[Math.floor(r() * keys.length)];
    const bytes = files.get(key);
    if (!bytes) continue;
    const k = r();
    if (k < 0.35 && bytes.length > 0) {
      const at = Math.floor(r() * bytes.length);
      bytes[at] ^= 1 << Math.floor(r() * 8);
      what.push(`flip ${key}@${at}`);
    } else if (k < 0.55) {
      const len = Math.floor(r() * bytes.length);
      files.set(key, bytes.slice(0, len));
      what.push(`cut ${key} to ${len}`);
    } else if (k < 0.75 && bytes.length >= 4) {
      const at = Math.floor((r() * bytes.length) / 4) * 4;
      new DataView(bytes.buffer, bytes.byteOffset).setInt32(Math.min(at, bytes.length - 4), [0, -1, 8, 0x7fffffff, 132, 808][Math.floor(r() * 6)]);
      what.push(`word ${key}@${at}`);
    } else if (k < 0.92 && key === '0') {
      const ps = pointerWords(bytes);
      if (ps.length === 0) continue;
      const p = ps[Math.floor(r() * ps.length)];
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      view.setInt32(p.wordAt, view.getInt32(ps[Math.floor(r() * ps.length)].wordAt));
      what.push(`pointer 0@${p.wordAt}`);
    } else if (key !== 'meta') {
      files.delete(key);
      what.push(`delete ${key}`);
    }
  }
  return what;
}

/** Writes `files` as archive `name` in the temp dir (volume 0 as .xz every third time). */
function write(name: string, files: Files, xz: boolean): string {
  const base = join(dir, name);
  for (const [suffix, bytes] of files) {
    if (suffix === '0' && xz) writeFileSync(`${base}.0.xz`, spawnSync('xz', ['-c', '-1'], { input: bytes, maxBuffer: 1 << 28 }).stdout);
    else writeFileSync(`${base}.${suffix}`, bytes);
  }
  return base;
}

function commands(base: string, metric: string): string[][] {
  return [
    ['dump', '-a', base],
    ['info', '-a', base],
    ['metrics', '-a', base, '-d'],
    // A damaged label can move the start decades back: pmval too would then print a sample
    // per second of the gap, so the count is bounded.
    ['values', '-a', base, '-s', '20', metric],
  ];
}

/** What must hold for every run; returns a complaint or undefined. */
function complaint(argv: readonly string[], base: string, status: number | null, err: string, out: string): string | undefined {
  if (/\n\s+at |\b(TypeError|RangeError|ReferenceError|SyntaxError|Error):/.test(err)) return `stack trace or JavaScript error: ${err}`;
  if (status === 0) return err === '' ? undefined : `status 0 with stderr: ${err}`;
  if (status !== 1) return `status ${status}`;
  // `info` prints what it could learn and its problems as Warning lines, then exits 1.
  if (argv[0] === 'info' && err === '') return /^Warning: {10}\S/m.test(out) && !/\n\s+at /.test(out) ? undefined : `info: status 1 without a warning: ${out}`;
  const lines = err.split('\n').filter((l) => l !== '');
  // A metric the damaged metadata no longer names is a usage error: that line and the usage.
  if (lines.length === 2 && lines[1].startsWith(`Usage: pmdash ${argv[0]} `) && lines[0].includes(argv[argv.length - 1])) return undefined;
  if (lines.length !== 1) return `${lines.length} lines on stderr: ${err}`;
  if (!lines[0].startsWith(`pmdash ${argv[0]}: `) && !lines[0].startsWith('pmdash: ')) return `not a pmdash ${argv[0]} line: ${err}`;
  // The metric may be missing from damaged metadata: a usage error names the metric instead.
  if (!lines[0].includes(base.slice(dir.length + 1)) && !lines[0].includes(argv[argv.length - 1])) return `does not name the archive: ${err}`;
  return undefined;
}

describe('CLI error-path fuzzing', () => {
  it('every command on damaged archives: status 0, or 1 and one line naming the archive', { timeout: fuzzTimeoutMs(500) }, async () => {
    const budget = fuzzBudget('cli', 100);
    const r = rng(0xc11);
    let done = 0;
    let failed = 0;
    for (; budget.more(done); done++) {
      const b = bases[done % bases.length];
      const files: Files = new Map([...b.files].map(([k, v]) => [k, v.slice()]));
      const what = mutate(files, r);
      const name = `in${done}`;
      const base = write(name, files, done % 3 === 2);
      for (const argv of commands(base, b.metric)) {
        let out = '';
        let err = '';
        const status = await main(argv, { stdout: (t) => void (argv[0] === 'info' && (out += t)), stderr: (t) => void (err += t) });
        const bad = complaint(argv, base, status, err, out);
        if (bad) throw new Error(`input ${done} (${b.name}: ${what.join(', ')}), pmdash ${argv.join(' ')}: ${bad}`);
        if (status !== 0) failed++;
      }
      for (const s of ['meta', 'index', '0', '0.xz']) rmSync(`${base}.${s}`, { force: true });
    }
    budget.report(done, `${failed} command runs failed cleanly`);
    expect(failed).toBeGreaterThan(0);
  });

  // Found by this fuzzer: a record the replay refuses ended `values` with libpcp's text alone
  // ("Corrupted record in a PCP archive log"), naming neither the archive nor anything else.
  // The replay names the volume and the record's byte offset too (src/pcp-core/replay).
  it('values names the archive, volume and offset when a record is corrupt, after printing the samples taken', async () => {
    const files: Files = new Map([...bases[1].files].map(([k, v]) => [k, v.slice()]));
    const vol = files.get('0') as Uint8Array;
    files.set('0', vol.slice(0, vol.length - 100));
    const base = write('cut-values', files, false);
    let out = '';
    let err = '';
    const status = await main(['values', '-a', base, '--json', 'hotproc.psinfo.utime'], { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
    expect(status).toBe(1);
    const offset = Number(/\.0 at offset (\d+):/.exec(err)?.[1]);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(vol.length);
    expect(err).toBe(`pmdash values: ${base}.0 at offset ${offset}: Corrupted record in a PCP archive log\n`);
    expect(out.split('\n').filter((l) => l.startsWith('{"kind":"sample"')).length).toBeGreaterThan(0);
  });

  // Found by this fuzzer too: the archive end (pmGetArchiveEnd, before any sample) failing.
  it('values names the archive when its end cannot be located', async () => {
    const files: Files = new Map([...bases[1].files].map(([k, v]) => [k, v.slice()]));
    files.delete('index');
    files.set('0', (files.get('0') as Uint8Array).slice(0, 16021));
    const base = write('cut-end', files, false);
    let err = '';
    const status = await main(['values', '-a', base, 'hotproc.psinfo.utime'], { stdout: () => undefined, stderr: (t) => void (err += t) });
    expect(status).toBe(1);
    // The damage is named by volume and byte offset (where the cut record starts).
    expect(err).toBe(`pmdash values: ${base}.0 at offset 16021: Corrupted record in a PCP archive log\n`);
  });

  it('in a child process: the real exit status and stderr', { timeout: 300_000 }, async () => {
    const cli = await bundleCli();
    try {
      const r = rng(0xc12);
      for (let i = 0; i < 3; i++) {
        const b = bases[i % bases.length];
        const files: Files = new Map([...b.files].map(([k, v]) => [k, v.slice()]));
        const what = mutate(files, r);
        const base = write(`child${i}`, files, i % 2 === 1);
        for (const argv of commands(base, b.metric)) {
          const run = await cli.run(argv);
          const bad = complaint(argv, base, run.status, run.stderr, run.stdout);
          if (bad) throw new Error(`child ${i} (${b.name}: ${what.join(', ')}), pmdash ${argv.join(' ')}: ${bad}`);
        }
      }
    } finally {
      cli.dispose();
    }
  });
});
