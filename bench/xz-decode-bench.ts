// `xz decode …` rows: the speed of the core's own xz decoder (xz-block.ts → xz-framed.ts →
// lzma2-decoder.ts, CRC64 included: what a pool worker runs) on each volume of the QA archive
// 20180416.10.00 as shipped, against `xz -dc FILE > /dev/null` (liblzma) on the same file.
// Both sides in CPU time, the median of several runs: pmdash's in its own process
// (xz-decode-loop.ts, built as dist/node/xz-decode-loop.js) after the pool's warm-up, its
// first pass left out (the JIT), xz's as whole commands (children's CPU from /proc/self/stat:
// start-up included, ~1 ms). The row's text gives MB/s of decoded bytes both ways, pmdash's
// first (cold) pass and the load average. Then a CPU profile (node --cpu-prof) of pmdash's
// loop on volume 0: where the time that remains goes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { profileSummary } from './cpu-profile';
import type { MeasuredResult } from './harness';

const ARCHIVES = '/var/lib/pcp/testsuite/archives';
const ARCHIVE = '20180416.10.00';
const VOLUMES = ['0', '1', '2', '3', 'meta'];
// Built by `npm run bench` (scripts/build-node.mjs), next to bench.js.
const LOOP = join('dist', 'node', 'xz-decode-loop.js');
/** Passes of pmdash's loop (the first left out) and runs of xz, per volume. */
const PASSES = 6;
const XZ_RUNS = 5;

interface LoopOutput {
  readonly bytes: number;
  readonly pass_ms: readonly number[];
  readonly pass_cpu_ms: readonly number[];
  readonly pass_sys_ms: readonly number[];
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** CPU of this process's waited-for children so far, ms (/proc/self/stat cutime + cstime). */
function childCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[13]) + Number(f[14])) * 1000) / 100;
}

function runLoop(file: string, passes: number, nodeArgs: readonly string[] = []): LoopOutput {
  const r = spawnSync(process.execPath, [...nodeArgs, LOOP, file, String(passes), 'warm'], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`xz-decode-loop ${file}: ${r.stderr || `status ${r.status}`}`);
  return JSON.parse(r.stdout) as LoopOutput;
}

/** CPU ms of each `xz -dc FILE > /dev/null` run. */
function runXz(file: string, runs: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = childCpuMs();
    const r = spawnSync('sh', ['-c', 'exec xz -dc "$1" > /dev/null', 'sh', file]);
    if (r.status !== 0) throw new Error(`xz -dc ${file}: status ${r.status}`);
    out.push(childCpuMs() - c0);
  }
  return out;
}

const mbps = (bytes: number, ms: number): string => `${(bytes / 1e3 / ms).toFixed(0)} MB/s`;

/** The rows whose name `wanted` accepts, and a profile summary when any ran. */
export function runXzDecodeBenchmarks(wanted: (name: string) => boolean): { results: MeasuredResult[]; notes: string[] } {
  const results: MeasuredResult[] = [];
  for (const volume of VOLUMES) {
    const name = `xz decode ${ARCHIVE}.${volume}`;
    if (!wanted(name)) continue;
    process.stderr.write(`bench: ${name}…\n`);
    const file = join(ARCHIVES, `${ARCHIVE}.${volume}.xz`);
    const load = loadavg()[0];
    const loop = runLoop(file, PASSES);
    const xzMs = median(runXz(file, XZ_RUNS));
    const pmdashMs = median(loop.pass_cpu_ms.slice(1));
    const cold = loop.pass_cpu_ms[0];
    results.push({
      name,
      work: `CPU to decode ${(loop.bytes / 1e6).toFixed(1)} MB (core decoder, CRC64 checked; median of ${PASSES - 1} warm passes) vs xz -dc (median of ${XZ_RUNS}): pmdash ${mbps(loop.bytes, pmdashMs)}, xz ${mbps(loop.bytes, xzMs)}; pmdash's first pass ${cold.toFixed(0)} ms (${mbps(loop.bytes, cold)}); pmdash's system time ${median(loop.pass_sys_ms.slice(1)).toFixed(0)} ms (fresh pages of the output); wall ${median(loop.pass_ms.slice(1)).toFixed(0)} ms; load ${load.toFixed(2)}`,
      nativeMs: xzMs,
      pmdashMs,
      ratio: pmdashMs / xzMs,
    });
  }
  const notes: string[] = [];
  if (results.length > 0) {
    const dir = mkdtempSync(join(tmpdir(), 'pmdash-xz-prof-'));
    try {
      runLoop(join(ARCHIVES, `${ARCHIVE}.0.xz`), 3, ['--cpu-prof', '--cpu-prof-dir', dir]);
      const prof = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      if (prof) notes.push('', `profile of xz decode ${ARCHIVE}.0 (3 passes, top self time):`, ...profileSummary(join(dir, prof), 12));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { results, notes };
}
