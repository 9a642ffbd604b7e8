// `npm run bench`: runs every benchmark (or those whose name contains an argument) and prints
// pmdash's time as a ratio of the native PCP tool's, measured in this same run.
import { formatResults, runBenchmark, type Benchmark, type BenchResult, type MeasuredResult } from './harness';
import { runBrowserBenchmarks } from './browser-bench';
import { runLiveBenchmarks } from './live-bench';
import { runBridgeMemoryBenchmark } from './bridge-memory-bench';
import { runLiveUiBenchmark } from './live-ui-bench';
import { runArchiveExportBenchmark } from './archive-export-bench';
import { runReplayBenchmarks } from './replay-bench';
import { runFleetBenchmarks } from './fleet-bench';
import { runXzDecodeBenchmarks } from './xz-decode-bench';

const pmdash = (...args: string[]) => ({ cmd: process.execPath, args: ['bin/pmdash.js', ...args] });

const benchmarks: Benchmark[] = [
  {
    name: 'startup',
    work: 'start the CLI and print its version (pminfo --version)',
    native: { cmd: 'pminfo', args: ['--version'] },
    pmdash: pmdash('--version'),
    runs: 10,
    nodeBaseline: true,
  },
  // Archive reading (src/pcp-core/archive): a full record dump of the largest QA archives,
  // and metadata listing, against the libpcp tools on the same files.
  ...[
    { id: '20180416.10.00', what: '4 xz volumes, 420 MB decompressed, 23 M values', runs: 1 },
    { id: 'pcp-pidstat-process-args', what: 'xz volume, 24 M values, mostly strings', runs: 1 },
    { id: '20180102', what: 'plain 7 MB volume', runs: 3 },
  ].flatMap(({ id, what, runs }): Benchmark[] => {
    const archive = `/var/lib/pcp/testsuite/archives/${id}`;
    return [
      { name: `dump ${id}`, work: `every record of ${id} (${what}) as text (pmdumplog -a)`, native: { cmd: 'pmdumplog', args: ['-a', archive] }, pmdash: pmdash('dump', '-a', archive), runs },
      { name: `dump --json ${id}`, work: `every record of ${id} as JSON lines (pmdumplog -a)`, native: { cmd: 'pmdumplog', args: ['-a', archive] }, pmdash: pmdash('dump', '--json', '-a', archive), runs },
    ];
  }),
  {
    name: 'metrics -d 20180416.10.00',
    work: 'open a 5.4 MB xz .meta and list 1017 descriptors (pminfo -d -a)',
    native: { cmd: 'pminfo', args: ['-d', '-a', '/var/lib/pcp/testsuite/archives/20180416.10.00'], env: { PCP_DERIVED_CONFIG: '' } },
    pmdash: pmdash('metrics', '-d', '-a', '/var/lib/pcp/testsuite/archives/20180416.10.00'),
    runs: 5,
  },
  // Interpolated replay (src/pcp-core/replay, `pmdash values`): the same metric over a whole
  // archive at the same step, pmval against pmdash values (both print a table). Rates of a
  // counter (the common case), every instance of a per-disk counter, and raw values.
  ...[
    { name: 'values rate 20180102', what: 'kernel.all.cpu.user as a utilisation every 1 s over 3.2 h of a plain 7 MB archive (11 652 samples)', archive: '20180102', args: ['-t', '1'], metric: 'kernel.all.cpu.user' },
    { name: 'values indom 20180102', what: 'disk.dev.read_bytes per disk as rates every 10 s over 3.2 h', archive: '20180102', args: ['-t', '10'], metric: 'disk.dev.read_bytes' },
    { name: 'values raw interpmark', what: 'disk.all.total raw every 0.35 s over 2 min with <mark>s', archive: 'interpmark', args: ['-r', '-t', '0.35'], metric: 'disk.all.total', small: true },
    { name: 'values rate ok-mv-bar', what: 'sampledso.milliseconds as a rate every 0.5 s over 5 s of 4 small volumes', archive: 'ok-mv-bar', args: ['-t', '0.5'], metric: 'sampledso.milliseconds', small: true },
    { name: 'values rate 20180416.10.00', what: 'disk.dev.read_bytes per disk as rates every 10 s over 4.5 h of 4 xz volumes (420 MB decompressed)', archive: '20180416.10.00', args: ['-t', '10'], metric: 'disk.dev.read_bytes' },
  ].map(({ name, what, archive, args, metric, small }): Benchmark => {
    const path = `/var/lib/pcp/testsuite/archives/${archive}`;
    // Small archives: start-up is most of the time, so Node's own start is timed beside them.
    return { name, work: `${what} (pmval)`, native: { cmd: 'pmval', args: [...args, '-a', path, metric], env: { PCP_DERIVED_CONFIG: '' } }, pmdash: pmdash('values', ...args, '-a', path, metric), runs: small ? 10 : 5, nodeBaseline: small };
  }),
  // Derived metrics (src/pcp-core/derived): the same interpolated replay of a whole archive,
  // the derived metric's operands (read and read_bytes of disk.dev) fetched plainly vs the
  // derived metric over them (bench/derived.conf). Both rows fetch the same values, so the
  // derived row's pmdash time over the plain row's (printed below the table) is the cost of
  // evaluating derived metrics. pmval takes one metric: plain's native side is pmdumptext.
  ...(['plain', 'derived'] as const).map((kind): Benchmark => {
    const archive = '/var/lib/pcp/testsuite/archives/20180416.10.00';
    const metric = kind === 'plain' ? ['disk.dev.read', 'disk.dev.read_bytes'] : ['bench.disk.avg_io'];
    const config = kind === 'plain' ? [] : ['bench/derived.conf'];
    return {
      name: `values ${kind} 20180416.10.00`,
      work:
        kind === 'plain'
          ? 'disk.dev.read and disk.dev.read_bytes raw every 10 s over 4.5 h of archive (pmdumptext -r)'
          : 'delta(read_bytes)/delta(read) ternary per disk every 10 s over 4.5 h (pmval --derived)',
      native:
        kind === 'plain'
          ? { cmd: 'pmdumptext', args: ['-r', '-t', '10', '-a', archive, ...metric], env: { PCP_DERIVED_CONFIG: '' } }
          : { cmd: 'pmval', args: [...config.map((c) => `--derived=${c}`), '-r', '-t', '10', '-a', archive, ...metric], env: { PCP_DERIVED_CONFIG: '' } },
      pmdash: { ...pmdash('values', ...config.flatMap((c) => ['-c', c]), '-r', '-t', '10', '-a', archive, ...metric), env: { PCP_DERIVED_CONFIG: '' } },
      runs: 1,
    };
  }),
  // Regular expressions (src/pcp-core/regex): issue 16's ReDoS patterns in matchinst over
  // filesys.full for the whole archive; both sides answer "no instance matches" every time.
  ...(['star', 'alt'] as const).map((kind): Benchmark => {
    const archive = '/var/lib/pcp/testsuite/archives/20180416.10.00';
    const metric = `bench.redos.${kind}`;
    return {
      name: `values matchinst redos ${kind}`,
      work: `matchinst(/${kind === 'star' ? '^(.*)*Q$' : '^(.|.)*Q$'}/, filesys.full) every 60 s over 4.5 h (pmval --derived)`,
      native: { cmd: 'pmval', args: ['--derived=bench/redos.conf', '-t', '60', '-a', archive, metric], env: { PCP_DERIVED_CONFIG: '' } },
      pmdash: { ...pmdash('values', '-c', 'bench/redos.conf', '-t', '60', '-a', archive, metric), env: { PCP_DERIVED_CONFIG: '' } },
      runs: 3,
    };
  }),
];

const filters = process.argv.slice(2);
const selected = benchmarks.filter((b) => filters.length === 0 || filters.some((f) => b.name.includes(f)));
const results: (BenchResult | MeasuredResult)[] = selected.map((b) => {
  process.stderr.write(`bench: ${b.name}…\n`);
  return runBenchmark(b);
});
// The app's archive export of one hour vs pmlogextract of the same window.
results.push(...(await runArchiveExportBenchmark((name) => filters.length === 0 || filters.some((f) => name.includes(f)))));
// INTERP replay per sample without start-up: warm loops vs libpcp's, whole runs by difference.
const replay = runReplayBenchmarks((name) => filters.length === 0 || filters.some((f) => name.includes(f)));
results.push(...replay.results);
// The core's xz decoder vs xz -dc (liblzma), MB/s of CPU per volume of the QA archive.
const xzDecode = runXzDecodeBenchmarks((name) => filters.length === 0 || filters.some((f) => name.includes(f)));
results.push(...xzDecode.results);
// Live pmcd through the bridge vs libpcp direct (round trip, whole command, 20 clients).
results.push(...(await runLiveBenchmarks((name) => filters.length === 0 || filters.some((f) => name.includes(f)))));
// Bridge memory with clients that never read.
results.push(...(await runBridgeMemoryBenchmark((name) => filters.length === 0 || filters.some((f) => name.includes(f)))));
// Chromium-driven UI benchmarks (drop → first chart, frame times while playing).
results.push(...(await runBrowserBenchmarks((name) => filters.length === 0 || filters.some((f) => name.includes(f)))));
// The live Overview's CPU in Chromium + the bridge vs pmchart + pmtime, over 60 s each.
results.push(...(await runLiveUiBenchmark((name) => filters.length === 0 || filters.some((f) => name.includes(f)))));
// Fleet scale: N hosts in a throwaway series store, listed and charted vs pmseries.
results.push(...(await runFleetBenchmarks((name) => filters.length === 0 || filters.some((f) => name.includes(f)))));
process.stdout.write(formatResults(results, [{ label: 'derived metric evaluation', numerator: 'values derived 20180416.10.00', denominator: 'values plain 20180416.10.00' }]) + '\n');
if (replay.notes.length > 0) process.stdout.write(replay.notes.join('\n') + '\n');
if (xzDecode.notes.length > 0) process.stdout.write(xzDecode.notes.join('\n') + '\n');
