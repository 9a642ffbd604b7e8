// Live pmcd benchmarks: the bridge (`pmdash serve`, its own process) in front of the local
// pmcd, against libpcp talking to pmcd directly, in the same run:
//   - fetch round trip: median of sequential fetches of a few metrics by a LiveContext
//     through the bridge (and over direct TCP), vs pmFetch through libpcp (python3-pcp loop);
//   - `pmdash values -h ws://bridge -s 1 --json` as a whole command vs `pminfo -f` direct;
//   - throughput with 20 concurrent clients (through the bridge, and over direct TCP) fetching
//     back to back for a few seconds,
//     vs 20 concurrent libpcp clients; reported as milliseconds per fetch (1000 / fetches·s⁻¹).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PYTHON } from '../test/oracle';
import type { LiveContext } from '../src/pcp-core/context/live-context';
import { bridgeUrl } from '../src/pcp-core/pdu/target-spec';
import type { PmId } from '../src/pcp-core/types';
import { openLiveContext } from '../src/node/open-live-context';
import { runBenchmark, type BenchResult, type MeasuredResult } from './harness';

const METRICS = ['kernel.all.load', 'kernel.all.cpu.user', 'hinv.ncpu', 'mem.util.free', 'kernel.uname.release'];
const LATENCY_FETCHES = 2000;
/** Fetches before timing, so the JIT has compiled the client's hot path. */
const WARMUP_FETCHES = 500;
const CLIENTS = 20;
const THROUGHPUT_SECONDS = 5;
// Relative to the repository root, where `npm run bench` runs (as bin/pmdash.js is).
const NATIVE_LOOP = join('bench', 'libpcp-fetch-loop.py');

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}

/** `pmdash serve` on a free port, its bridge allowing only the local pmcd. */
export async function startBridge(onLog?: (text: string) => void): Promise<{ origin: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['bin/pmdash.js', 'serve', '--port', '0', '--host', '127.0.0.1', '--max-connections', '100'], { stdio: ['ignore', 'pipe', onLog ? 'pipe' : 'ignore'] });
  if (onLog) proc.stderr?.on('data', (d: Buffer) => onLog(d.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`pmdash serve did not start: ${out}`)), 20_000);
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Open (http:\/\/[^/\s]+)\//.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.once('exit', (code) => reject(new Error(`pmdash serve exited ${code}: ${out}`)));
  });
  return { origin, proc };
}

interface NativeLoop {
  readonly fetches: number;
  readonly seconds: number;
  readonly latencies_ms?: number[];
}

function nativeLoop(mode: 'latency' | 'duration', amount: number): Promise<NativeLoop> {
  return new Promise((resolve, reject) => {
    const proc = spawn(PYTHON, [NATIVE_LOOP, 'localhost', mode, String(amount), ...METRICS], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as NativeLoop) : reject(new Error(`libpcp-fetch-loop.py exited ${code}: ${err}`))));
  });
}

async function prepared(spec: string): Promise<{ ctx: LiveContext; ids: PmId[] }> {
  const ctx = await openLiveContext(spec, { reconnectDelaysMs: [] });
  const ids = (await ctx.lookupNames(METRICS)) as PmId[];
  await ctx.lookupDescs(ids);
  for (let i = 0; i < WARMUP_FETCHES; i++) await ctx.fetch(ids);
  return { ctx, ids };
}

async function fetchLatencyMs(spec: string): Promise<number> {
  const { ctx, ids } = await prepared(spec);
  const times: number[] = [];
  try {
    for (let i = 0; i < LATENCY_FETCHES; i++) {
      const t0 = performance.now();
      await ctx.fetch(ids);
      times.push(performance.now() - t0);
    }
  } finally {
    await ctx.close();
  }
  return median(times);
}

/** Fetches per second by `CLIENTS` contexts fetching back to back for THROUGHPUT_SECONDS. */
async function throughput(spec: string): Promise<number> {
  const clients: Array<{ ctx: LiveContext; ids: PmId[] }> = [];
  for (let i = 0; i < CLIENTS; i++) clients.push(await prepared(spec));
  let count = 0;
  const t0 = performance.now();
  const end = t0 + THROUGHPUT_SECONDS * 1000;
  await Promise.all(
    clients.map(async ({ ctx, ids }) => {
      while (performance.now() < end) {
        await ctx.fetch(ids);
        count++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  for (const c of clients) await c.ctx.close();
  return count / seconds;
}

export async function runLiveBenchmarks(selected: (name: string) => boolean): Promise<Array<BenchResult | MeasuredResult>> {
  const names = ['live-fetch-rtt-bridge', 'live-fetch-rtt-tcp', 'live-values-bridge', `live-throughput-${CLIENTS}-bridge`, `live-throughput-${CLIENTS}-tcp`];
  if (!names.some(selected)) return [];
  const { origin, proc } = await startBridge();
  const url = bridgeUrl(origin);
  const results: Array<BenchResult | MeasuredResult> = [];
  try {
    const native = selected(names[0] ?? '') || selected(names[1] ?? '') ? median((await nativeLoop('latency', LATENCY_FETCHES)).latencies_ms ?? []) : NaN;
    if (selected(names[0] ?? '')) {
      process.stderr.write(`bench: ${names[0]}…\n`);
      const ours = await fetchLatencyMs(url);
      results.push({ name: names[0] ?? '', work: `median fetch round trip of ${METRICS.length} metrics through the bridge (LiveContext over WebSocket) vs libpcp pmFetch direct to pmcd`, nativeMs: native, pmdashMs: ours, ratio: ours / native });
    }
    if (selected(names[1] ?? '')) {
      process.stderr.write(`bench: ${names[1]}…\n`);
      const ours = await fetchLatencyMs('localhost:44321');
      results.push({ name: names[1] ?? '', work: `median fetch round trip of ${METRICS.length} metrics by LiveContext over direct TCP vs libpcp pmFetch`, nativeMs: native, pmdashMs: ours, ratio: ours / native });
    }
    if (selected(names[2] ?? '')) {
      process.stderr.write(`bench: ${names[2]}…\n`);
      results.push(
        runBenchmark({
          name: names[2] ?? '',
          work: `one sample of ${METRICS.length} metrics as a whole command: pmdash values -h ws://bridge -s 1 --json vs pminfo -f direct`,
          native: { cmd: 'pminfo', args: ['-h', 'localhost', '-f', ...METRICS] },
          pmdash: { cmd: process.execPath, args: ['bin/pmdash.js', 'values', '-h', url, '-s', '1', '--json', ...METRICS] },
          runs: 7,
        }),
      );
    }
    const wantThroughput = selected(names[3] ?? '') || selected(names[4] ?? '');
    const nativeRate = wantThroughput ? (await Promise.all(Array.from({ length: CLIENTS }, () => nativeLoop('duration', THROUGHPUT_SECONDS)))).reduce((s, l) => s + l.fetches / l.seconds, 0) : NaN;
    for (const [name, spec, via] of [
      [names[3] ?? '', url, 'through the bridge'],
      [names[4] ?? '', 'localhost:44321', 'over direct TCP'],
    ] as const) {
      if (!selected(name)) continue;
      process.stderr.write(`bench: ${name}…\n`);
      const ours = await throughput(spec);
      results.push({
        name,
        work: `${CLIENTS} concurrent clients fetching ${METRICS.length} metrics back to back for ${THROUGHPUT_SECONDS} s, ms per fetch overall: pmdash ${via} ${ours.toFixed(0)} fetches/s, libpcp direct ${nativeRate.toFixed(0)} fetches/s`,
        nativeMs: 1000 / nativeRate,
        pmdashMs: 1000 / ours,
        ratio: nativeRate / ours,
      });
    }
  } finally {
    proc.kill('SIGTERM');
  }
  return results;
}
