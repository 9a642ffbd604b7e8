// Benchmark harness: every benchmark times pmdash against the native PCP tool doing the same
// work, in the same run, and reports the ratio. Wall-clock medians over repeated runs of
// whole commands (as hyperfine would), after one warm-up each.
import { spawnSync } from 'node:child_process';

export interface CommandSpec {
  readonly cmd: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

export interface Benchmark {
  readonly name: string;
  /** What both sides do, in a few words. */
  readonly work: string;
  readonly native: CommandSpec;
  readonly pmdash: CommandSpec;
  /** Timed runs per side (default 5). */
  readonly runs?: number;
  /**
   * Also time Node's own start (`node -e 0`, interleaved with both sides): pmdash's time above
   * it is what pmdash itself spends (module loading included), the part no Node program avoids
   * left out. For the rows where start-up dominates (small archives, --version).
   */
  readonly nodeBaseline?: boolean;
}

export interface BenchResult {
  readonly name: string;
  readonly work: string;
  readonly nativeMs: number;
  readonly pmdashMs: number;
  /** pmdash time / native time: below 1 means pmdash is faster. */
  readonly ratio: number;
  /** `node -e 0`, when the benchmark asks for it. */
  readonly nodeMs?: number;
}

function timeOnce(spec: CommandSpec): number {
  const t0 = process.hrtime.bigint();
  const run = spawnSync(spec.cmd, spec.args, { env: { ...process.env, ...spec.env }, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (run.error) throw new Error(`${spec.cmd}: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`${spec.cmd} ${spec.args.join(' ')} exited ${run.status}: ${run.stderr.toString().slice(0, 500)}`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid]) : ((s[mid - 1]) + (s[mid])) / 2;
}

/** Node starting and doing nothing: the floor under every pmdash command. */
const NODE_START: CommandSpec = { cmd: process.execPath, args: ['-e', '0'] };

export function runBenchmark(b: Benchmark): BenchResult {
  const runs = b.runs ?? 5;
  timeOnce(b.native);
  timeOnce(b.pmdash);
  if (b.nodeBaseline) timeOnce(NODE_START);
  const native: number[] = [];
  const ours: number[] = [];
  const node: number[] = [];
  // Interleave the sides so drift in machine load affects all alike.
  for (let i = 0; i < runs; i++) {
    native.push(timeOnce(b.native));
    ours.push(timeOnce(b.pmdash));
    if (b.nodeBaseline) node.push(timeOnce(NODE_START));
  }
  const nativeMs = median(native);
  const pmdashMs = median(ours);
  const nodeMs = b.nodeBaseline ? median(node) : undefined;
  return { name: b.name, work: b.work, nativeMs, pmdashMs, ratio: pmdashMs / nativeMs, ...(nodeMs === undefined ? {} : { nodeMs }) };
}

/** The start-up lines: each row timed with Node's own start, whole and with that start taken off. */
function startupLines(results: readonly (BenchResult | MeasuredResult)[]): string[] {
  const timed = results.filter((r): r is BenchResult => 'nodeMs' in r && r.nodeMs !== undefined);
  if (timed.length === 0) return [];
  return [
    '',
    'start-up (pmdash − node -e 0 = what pmdash itself spends, against the native tool):',
    ...timed.map((r) => {
      const node = r.nodeMs ?? 0;
      const above = r.pmdashMs - node;
      return `  ${r.name}: pmdash ${r.pmdashMs.toFixed(1)} ms = node -e 0 ${node.toFixed(1)} ms + ${above.toFixed(1)} ms; native ${r.nativeMs.toFixed(1)} ms; whole ${r.ratio.toFixed(2)}x, without Node's start ${(above / r.nativeMs).toFixed(2)}x`;
    }),
  ];
}

/**
 * A benchmark measured inside the browser (bench/browser-bench.ts): the native side is absent
 * where PCP has no equivalent tool (or it is not installed), and then so is the ratio.
 */
export interface MeasuredResult {
  readonly name: string;
  readonly work: string;
  readonly nativeMs: number | undefined;
  /** Absent where pmdash has no side (e.g. loading the series store is pmseries's work). */
  readonly pmdashMs: number | undefined;
  readonly ratio: number | undefined;
  /** What nativeMs and pmdashMs measure when not milliseconds (a memory row's 'MB'). */
  readonly unit?: string;
}

/** Two rows of the same run whose pmdash times are compared (e.g. derived vs plain metrics). */
export interface PmdashComparison {
  readonly label: string;
  /** Row names: the ratio printed is numerator's pmdash time / denominator's. */
  readonly numerator: string;
  readonly denominator: string;
}

export function formatResults(results: readonly (BenchResult | MeasuredResult)[], comparisons: readonly PmdashComparison[] = []): string {
  const header = ['benchmark', 'native ms', 'pmdash ms', 'pmdash/native'];
  const value = (r: BenchResult | MeasuredResult, v: number): string => `${v.toFixed(1)}${'unit' in r && r.unit !== undefined ? ` ${r.unit}` : ''}`;
  const rows = results.map((r) => [r.name, r.nativeMs === undefined ? 'n/a' : value(r, r.nativeMs), r.pmdashMs === undefined ? 'n/a' : value(r, r.pmdashMs), r.ratio === undefined ? 'n/a' : `${r.ratio.toFixed(2)}x`]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i]).length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  // A comparison is printed only when both its rows ran (a name filter may leave one out).
  const compared = comparisons.flatMap((c) => {
    const num = results.find((r) => r.name === c.numerator);
    const den = results.find((r) => r.name === c.denominator);
    if (num?.pmdashMs === undefined || den?.pmdashMs === undefined) return [];
    return [`${c.label}: pmdash ${c.numerator} / ${c.denominator} = ${num.pmdashMs.toFixed(1)} / ${den.pmdashMs.toFixed(1)} ms = ${(num.pmdashMs / den.pmdashMs).toFixed(2)}x`];
  });
  return [line(header), ...rows.map(line), ...(compared.length > 0 ? ['', ...compared] : []), ...startupLines(results), '', ...results.map((r) => `${r.name}: ${r.work}`)].join('\n');
}
