// `npm run bench`: runs every benchmark (or those whose name contains an argument) and prints
// pmdash's time as a ratio of the native PCP tool's, measured in this same run.
import { formatResults, runBenchmark, type Benchmark, type BenchResult, type MeasuredResult } from './harness';
import { runBrowserBenchmarks } from './browser-bench';
import { runLiveBenchmarks } from './live-bench';

const pmdash = (...args: string[]) => ({ cmd: process.execPath, args: ['bin/pmdash.js', ...args] });

const benchmarks: Benchmark[] = [
  {
    name: 'startup',
    work: 'start the CLI and print its version (pminfo --version)',
    native: { cmd: 'pminfo', args: ['--version'] },
    pmdash: pmdash('--version'),
    runs: 10,
  },
];

const filters = process.argv.slice(2);
const selected = benchmarks.filter((b) => filters.length === 0 || filters.some((f) => b.name.includes(f)));
const results: (BenchResult | MeasuredResult)[] = selected.map((b) => {
  process.stderr.write(`bench: ${b.name}…\n`);
  return runBenchmark(b);
});
// Live pmcd through the bridge vs libpcp direct (round trip, whole command, 20 clients).
results.push(...(await runLiveBenchmarks((name) => filters.length === 0 || filters.some((f) => name.includes(f)))));
// Chromium-driven UI benchmarks (drop → first chart, frame times while playing).
results.push(...(await runBrowserBenchmarks((name) => filters.length === 0 || filters.some((f) => name.includes(f)))));
process.stdout.write(formatResults(results) + '\n');
