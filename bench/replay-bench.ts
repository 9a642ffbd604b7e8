// The per-sample cost of INTERP replay, without process start-up (issue 17 item 8):
//   - `replay warm …`: pmdash's in-process loop (bench/replay-loop.ts: pmSetMode(PM_MODE_INTERP)
//     then pmFetch until PM_ERR_EOL, pass after pass) against the same loop in C against
//     libpcp (bench/libpcp-interp-loop.c, built here with gcc in a temporary directory), both
//     timed inside their process. Warm: the first passes are left out (pmdash's JIT warm-up,
//     both sides' page cache); the median of the other passes over both sides' interleaved runs,
//     per sample. Both loops must report the same samples and values, or the bench fails.
//   - `replay run …`: a whole `pmdash values` command against pmval (pmdumptext for several
//     metrics, as pmval takes one), each side's median full run minus its median 10-sample run,
//     per sample: start-up and metadata loading cancel out, JIT warm-up does not. The row also
//     splits the difference's CPU between pmdash's main thread and its other threads (V8's
//     compiler and collector), from 5 more runs of each kind with thread-cpu.ts preloaded.
// For one singular metric, one 5-instance metric and three metrics at once, on the plain
// 20180102 (11,652 one-second samples) and the xz 20180416.10.00 (10 s samples). Times are
// wall clock as in every row; the warm rows also say the CPU time of each loop (on a busy
// machine it moves far less). Then a CPU profile (node --cpu-prof) of pmdash's warm loop and
// of a whole `values` run: where the time that remains goes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { profileSummary } from './cpu-profile';
import type { MeasuredResult } from './harness';

const ARCHIVES = '/var/lib/pcp/testsuite/archives';
const NATIVE_SOURCE = join('bench', 'libpcp-interp-loop.c');
// Built by `npm run bench` (scripts/build-node.mjs), next to bench.js.
const PMDASH_LOOP = join('dist', 'node', 'replay-loop.js');
const UNIT = 'ns/sample';

interface Case {
  readonly what: string;
  readonly metrics: readonly string[];
}

interface ArchiveCases {
  readonly archive: string;
  /** The sampling interval, milliseconds. */
  readonly deltaMs: number;
  /** Passes per loop process, the first `warmup` of them left out. */
  readonly passes: number;
  readonly warmup: number;
  /** Interleaved runs per side (loop processes; whole commands for the run rows). */
  readonly rounds: number;
  readonly runs: number;
  readonly cases: readonly Case[];
}

const SUITES: readonly ArchiveCases[] = [
  {
    archive: '20180102',
    deltaMs: 1000,
    passes: 12,
    warmup: 4,
    rounds: 3,
    runs: 7,
    cases: [
      { what: 'singular', metrics: ['kernel.all.cpu.user'] },
      { what: '5-instance', metrics: ['disk.dev.read_bytes'] },
      { what: '3 metrics', metrics: ['kernel.all.cpu.user', 'kernel.all.cpu.sys', 'kernel.all.load'] },
    ],
  },
  {
    archive: '20180416.10.00',
    deltaMs: 10000,
    passes: 3,
    warmup: 1,
    rounds: 2,
    runs: 3,
    cases: [
      { what: 'singular', metrics: ['kernel.all.cpu.user'] },
      { what: '5-instance', metrics: ['network.interface.in.bytes'] },
      { what: '3 metrics', metrics: ['kernel.all.cpu.user', 'kernel.all.cpu.sys', 'kernel.all.load'] },
    ],
  },
];

/** What a loop prints (both the C loop and replay-loop.ts). */
interface LoopOutput {
  readonly samples: number;
  readonly values: number;
  readonly pass_ms: readonly number[];
  readonly pass_cpu_ms: readonly number[];
}

const ENV = { ...process.env, PCP_DERIVED_CONFIG: '' };

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}

/** gcc's build of the C loop in `dir`; a clear error when gcc or libpcp3-dev is missing. */
function buildNativeLoop(dir: string): string {
  const out = join(dir, 'libpcp-interp-loop');
  const run = spawnSync('gcc', ['-O2', '-Wall', '-o', out, NATIVE_SOURCE, '-lpcp'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    const why = run.error ? run.error.message : run.stderr.slice(0, 500);
    throw new Error(`bench: cannot build ${NATIVE_SOURCE} (gcc and libpcp3-dev are needed: npm run setup): ${why}`);
  }
  return out;
}

function runLoop(cmd: string, args: readonly string[]): LoopOutput {
  const run = spawnSync(cmd, args, { encoding: 'utf8', env: ENV, maxBuffer: 1 << 24 });
  if (run.error) throw new Error(`${cmd}: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${run.status}: ${run.stderr.slice(0, 500)}`);
  return JSON.parse(run.stdout) as LoopOutput;
}

interface WarmSide {
  readonly wall: number[];
  readonly cpu: number[];
}

/** Both loops, interleaved, over one case: medians per sample of the passes after warm-up. */
function warmRow(native: string, suite: ArchiveCases, c: Case, name: string): MeasuredResult {
  const path = join(ARCHIVES, suite.archive);
  const args = [path, String(suite.deltaMs), String(suite.passes), ...c.metrics];
  const sides: Record<'native' | 'pmdash', WarmSide> = { native: { wall: [], cpu: [] }, pmdash: { wall: [], cpu: [] } };
  let shape: { samples: number; values: number } | undefined;
  for (let r = 0; r < suite.rounds; r++) {
    for (const side of ['native', 'pmdash'] as const) {
      const out = side === 'native' ? runLoop(native, args) : runLoop(process.execPath, [PMDASH_LOOP, ...args]);
      if (shape && (out.samples !== shape.samples || out.values !== shape.values)) {
        throw new Error(`bench: ${name}: ${side} fetched ${out.samples} samples with ${out.values} values, the other loop ${shape.samples} with ${shape.values}`);
      }
      shape = { samples: out.samples, values: out.values };
      sides[side].wall.push(...out.pass_ms.slice(suite.warmup));
      sides[side].cpu.push(...out.pass_cpu_ms.slice(suite.warmup));
    }
  }
  const samples = shape?.samples ?? NaN;
  const per = (ms: readonly number[]): number => (median(ms) * 1e6) / samples;
  const nativeNs = per(sides.native.wall);
  const pmdashNs = per(sides.pmdash.wall);
  const nativeCpu = per(sides.native.cpu);
  const pmdashCpu = per(sides.pmdash.cpu);
  return {
    name,
    work:
      `${c.metrics.join(', ')} every ${suite.deltaMs / 1000} s over ${suite.archive} (${samples} samples, ${shape?.values ?? NaN} values per pass), ` +
      `warm in-process pmFetch loop vs libpcp's (C); CPU time per sample: libpcp ${nativeCpu.toFixed(0)} ns, pmdash ${pmdashCpu.toFixed(0)} ns (${(pmdashCpu / nativeCpu).toFixed(2)}x); load average ${loadavg()[0].toFixed(2)}`,
    nativeMs: nativeNs,
    pmdashMs: pmdashNs,
    ratio: pmdashNs / nativeNs,
    unit: UNIT,
  };
}

/** CPU time (user + system) of this process's waited-for children so far, in ms (Linux
 *  /proc/self/stat cutime + cstime: clock ticks, so only sums over many runs are meaningful). */
export function childCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces) in parentheses; cutime, cstime are 16, 17.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[13]) + Number(f[14])) * 1000) / CLOCK_TICKS;
}

/** sysconf(_SC_CLK_TCK): 100 on every Linux Node runs on. */
const CLOCK_TICKS = 100;

interface Timed {
  readonly wall: number;
  readonly cpu: number;
}

function timedRun(cmd: string, args: readonly string[]): Timed {
  const c0 = childCpuMs();
  const t0 = process.hrtime.bigint();
  const run = spawnSync(cmd, args, { env: ENV, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (run.error) throw new Error(`${cmd}: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${run.status}: ${run.stderr.toString().slice(0, 500)}`);
  return { wall, cpu: childCpuMs() - c0 };
}

/** Built next to bench.js: preloaded to split a run's CPU by thread (see thread-cpu.ts). */
const THREAD_CPU = pathToFileURL(resolve('dist', 'node', 'thread-cpu.js')).href;
/** Runs of each kind for the split (besides the timed runs: the preload is not timed). */
const SPLIT_RUNS = 5;

/** A `values` run's CPU by thread, ms: the main thread and all the others (thread-cpu.ts). */
function threadCpu(args: readonly string[]): { main: number; other: number } | undefined {
  const run = spawnSync(process.execPath, ['--import', THREAD_CPU, ...args], { env: ENV, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr.toString().slice(0, 500)}`);
  const m = /THREAD_CPU ([\d.]+) ([\d.]+)/.exec(run.stderr.toString());
  return m ? { main: Number(m[1]), other: Number(m[2]) } : undefined;
}

/**
 * Where a whole run's extra CPU goes (full run − 10-sample run, medians of SPLIT_RUNS each):
 * the main thread, and V8's other threads (TurboFan compiling the hot path in the background,
 * concurrent marking). Undefined where the kernel keeps no per-thread run times.
 */
function threadSplit(fullArgs: readonly string[], tenArgs: readonly string[]): { main: number; other: number } | undefined {
  const full: { main: number; other: number }[] = [];
  const ten: { main: number; other: number }[] = [];
  for (let r = 0; r < SPLIT_RUNS; r++) {
    const f = threadCpu(fullArgs);
    const t = threadCpu(tenArgs);
    if (!f || !t) return undefined;
    full.push(f);
    ten.push(t);
  }
  return {
    main: median(full.map((x) => x.main)) - median(ten.map((x) => x.main)),
    other: median(full.map((x) => x.other)) - median(ten.map((x) => x.other)),
  };
}

/** Whole commands by the difference of a full run and a 10-sample run, per sample. */
function runRow(native: string, suite: ArchiveCases, c: Case, name: string): MeasuredResult {
  const path = join(ARCHIVES, suite.archive);
  const step = ['-t', String(suite.deltaMs / 1000)];
  const tool = c.metrics.length === 1 ? 'pmval' : 'pmdumptext';
  const nativeArgs = (limit: readonly string[]): string[] => [...limit, ...step, '-a', path, ...c.metrics];
  const pmdashArgs = (limit: readonly string[]): string[] => ['bin/pmdash.js', 'values', ...limit, ...step, '-a', path, ...c.metrics];
  // The number of samples a full run takes: the loop's, one pass.
  const samples = runLoop(native, [path, String(suite.deltaMs), '1', ...c.metrics]).samples;
  const times = { nativeFull: [] as Timed[], native10: [] as Timed[], pmdashFull: [] as Timed[], pmdash10: [] as Timed[] };
  // One warm-up of each, then interleaved runs (machine load drifts alike for all four).
  timedRun(tool, nativeArgs([]));
  timedRun(process.execPath, pmdashArgs([]));
  for (let r = 0; r < suite.runs; r++) {
    times.nativeFull.push(timedRun(tool, nativeArgs([])));
    times.native10.push(timedRun(tool, nativeArgs(['-s', '10'])));
    times.pmdashFull.push(timedRun(process.execPath, pmdashArgs([])));
    times.pmdash10.push(timedRun(process.execPath, pmdashArgs(['-s', '10'])));
  }
  const wall = (ts: readonly Timed[]): number[] => ts.map((t) => t.wall);
  const per = (full: readonly Timed[], ten: readonly Timed[]): number => ((median(wall(full)) - median(wall(ten))) * 1e6) / (samples - 10);
  // CPU by the same difference, of sums (the kernel counts children's CPU in 10 ms ticks).
  const cpuPer = (full: readonly Timed[], ten: readonly Timed[]): number => ((sum(full) - sum(ten)) * 1e6) / full.length / (samples - 10);
  const sum = (ts: readonly Timed[]): number => ts.reduce((a, t) => a + t.cpu, 0);
  const nativeNs = per(times.nativeFull, times.native10);
  const pmdashNs = per(times.pmdashFull, times.pmdash10);
  const nativeCpu = cpuPer(times.nativeFull, times.native10);
  const pmdashCpu = cpuPer(times.pmdashFull, times.pmdash10);
  const split = threadSplit(pmdashArgs([]), pmdashArgs(['-s', '10']));
  const splitText = split
    ? `; CPU of the difference by thread: pmdash's main thread ${split.main.toFixed(1)} ms, its other threads (V8's background compiler and GC among them) ${split.other.toFixed(1)} ms, ${tool} ${((nativeCpu * (samples - 10)) / 1e6).toFixed(1)} ms`
    : '';
  return {
    name,
    work:
      `pmdash values vs ${tool} over ${suite.archive}, ${c.metrics.join(', ')} every ${suite.deltaMs / 1000} s: (full run − 10-sample run) / ${samples - 10} samples; ` +
      `full runs ${median(wall(times.pmdashFull)).toFixed(0)} ms vs ${median(wall(times.nativeFull)).toFixed(0)} ms; ` +
      `CPU time per sample: ${tool} ${nativeCpu.toFixed(0)} ns, pmdash ${pmdashCpu.toFixed(0)} ns (${(pmdashCpu / nativeCpu).toFixed(2)}x)${splitText}; load average ${loadavg()[0].toFixed(2)}`,
    nativeMs: nativeNs,
    pmdashMs: pmdashNs,
    ratio: pmdashNs / nativeNs,
    unit: UNIT,
  };
}

/** node --cpu-prof of `args` in `dir`: the top self-time lines of the profile written. */
function profileOf(dir: string, args: readonly string[], top: number): string[] {
  rmSync(dir, { recursive: true, force: true });
  const run = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...args], { env: ENV, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`node --cpu-prof ${args.join(' ')} exited ${run.status}: ${run.stderr.toString().slice(0, 500)}`);
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`node --cpu-prof ${args.join(' ')} wrote no profile`);
  return profileSummary(join(dir, file), top);
}

export interface ReplayBenchOutput {
  readonly results: MeasuredResult[];
  /** The profile section printed after the table. */
  readonly notes: string[];
}

export function runReplayBenchmarks(selected: (name: string) => boolean): ReplayBenchOutput {
  const rows = SUITES.flatMap((suite) =>
    suite.cases.flatMap((c) => [
      { kind: 'warm' as const, suite, c, name: `replay warm ${c.what} ${suite.archive}` },
      { kind: 'run' as const, suite, c, name: `replay run ${c.what} ${suite.archive}` },
    ]),
  ).filter((r) => selected(r.name));
  if (rows.length === 0) return { results: [], notes: [] };
  const dir = mkdtempSync(join(tmpdir(), 'pmdash-replay-bench-'));
  try {
    const native = buildNativeLoop(dir);
    const results = rows.map((r) => {
      process.stderr.write(`bench: ${r.name}…\n`);
      return r.kind === 'warm' ? warmRow(native, r.suite, r.c, r.name) : runRow(native, r.suite, r.c, r.name);
    });
    process.stderr.write('bench: replay profiles…\n');
    const plain = SUITES[0];
    const three = plain?.cases[2];
    const notes: string[] = [];
    if (plain && three) {
      const path = join(ARCHIVES, plain.archive);
      notes.push(
        '',
        `profile: pmdash's warm loop, ${three.metrics.join(', ')} over ${plain.archive}, ${plain.passes * 4} passes (node --cpu-prof, self time):`,
        ...profileOf(join(dir, 'warm'), [PMDASH_LOOP, path, String(plain.deltaMs), String(plain.passes * 4), ...three.metrics], 15),
        '',
        `profile: one whole \`pmdash values -t ${plain.deltaMs / 1000} -a ${plain.archive} ${three.metrics.join(' ')}\` (cold: start-up, JIT warm-up, output):`,
        ...profileOf(join(dir, 'run'), ['bin/pmdash.js', 'values', '-t', String(plain.deltaMs / 1000), '-a', path, ...three.metrics], 15),
      );
    }
    return { results, notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
