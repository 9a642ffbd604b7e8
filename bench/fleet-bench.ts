// Fleet scale (issue 15 item 7): N hosts' archives written by PCP's own LOGIMPORT
// (bench/fleet-archives.py, python3-pcp's pmi: distinct hostnames, a Linux-like metric mix,
// 24 h at 60 s), loaded with `pmseries --load` into a throwaway redis + pmproxy
// (test/throwaway-pmproxy.ts), then timed: the load itself (pmseries; pmdash has no side),
// listing the hosts, and one 24-hour chart across every host through the fleet client (the
// one the app's worker and `pmdash fleet` use) — each against `pmseries` answering the same
// query from the same store in the same run (one query over all hosts: `{hostname=~…}`).
// The chart rows say the bytes pmproxy sent and the points per line (≤ 2 per pixel); they ask
// the app's density (one stored sample per 2 px, as the fleet tab does).
// PMDASH_BENCH_FLEET_HOSTS (default 100), PMDASH_BENCH_FLEET_HOURS (24) and
// PMDASH_BENCH_FLEET_INTERVAL (60 s) size it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FleetClient, type ChartResult, type FleetFetch } from '../src/pcp-core/fleet';
import { startThrowawayPmproxy, type ThrowawayPmproxy } from '../test/throwaway-pmproxy';
import type { MeasuredResult } from './harness';

const WIDTH_PX = 1000;
/** The app's density (its time bar's one sample per 2 px, state/time-slice.ts PX_PER_SAMPLE). */
const POINTS_PER_PX = 0.5;
const RUNS = 3;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function timed<T>(f: () => T): [T, number] {
  const t0 = process.hrtime.bigint();
  const v = f();
  return [v, Number(process.hrtime.bigint() - t0) / 1e6];
}

async function timedAsync<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = process.hrtime.bigint();
  const v = await f();
  return [v, Number(process.hrtime.bigint() - t0) / 1e6];
}

/** `pmseries ARGS` against the throwaway store; its wall time (the process, as a user runs it). */
function pmseries(px: ThrowawayPmproxy, args: readonly string[]): { ms: number; stdout: string } {
  const [run, ms] = timed(() => spawnSync('pmseries', ['-h', '127.0.0.1', '-p', String(px.storePort), ...args], { encoding: 'utf8', maxBuffer: 1 << 30 }));
  if (run.status !== 0) throw new Error(`pmseries ${args.join(' ')} exited ${run.status}: ${run.stderr.slice(0, 500)}`);
  return { ms, stdout: run.stdout };
}

/** A fetch that counts the body bytes pmproxy sends (read whole, then handed to the client). */
function countingFetch(): { fetch: FleetFetch; bytes: () => number } {
  let bytes = 0;
  return {
    bytes: () => bytes,
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      const buf = new Uint8Array(await res.arrayBuffer());
      bytes += buf.byteLength;
      const text = new TextDecoder().decode(buf);
      return { status: res.status, statusText: res.statusText, body: null, text: () => Promise.resolve(text) };
    },
  };
}

function pointsPerLine(r: ChartResult): { lines: number; max: number; mean: number; failed: number } {
  const counts = r.hosts.flatMap((h) => h.lines.map((l) => l.timesMs.length));
  return { lines: counts.length, max: Math.max(0, ...counts), mean: counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length), failed: r.hosts.filter((h) => h.error).length };
}

export async function runFleetBenchmarks(wanted: (name: string) => boolean): Promise<MeasuredResult[]> {
  const hosts = Number(process.env.PMDASH_BENCH_FLEET_HOSTS ?? 100);
  const hours = Number(process.env.PMDASH_BENCH_FLEET_HOURS ?? 24);
  const interval = Number(process.env.PMDASH_BENCH_FLEET_INTERVAL ?? 60);
  const names = {
    load: `fleet: load ${hosts} hosts × ${hours} h`,
    list: `fleet: list ${hosts} hosts`,
    instant: `fleet: ${hours} h chart × ${hosts} hosts, kernel.all.load`,
    counter: `fleet: ${hours} h chart × ${hosts} hosts, rate(kernel.all.cpu.user)`,
  };
  if (!Object.values(names).some(wanted)) return [];
  const dir = mkdtempSync(join(tmpdir(), 'pmdash-fleet-bench-'));
  const out: MeasuredResult[] = [];
  let px: ThrowawayPmproxy | undefined;
  try {
    process.stderr.write(`bench: fleet: writing ${hosts} archives (${hours} h at ${interval} s) with pmi…\n`);
    const [gen, genMs] = timed(() => spawnSync('/usr/bin/python3', ['bench/fleet-archives.py', dir, String(hosts), String(hours), String(interval)], { encoding: 'utf8', maxBuffer: 1 << 26 }));
    if (gen.status !== 0) throw new Error(`bench/fleet-archives.py exited ${gen.status}: ${gen.stderr.slice(0, 500)}`);
    const archives = gen.stdout.split('\n').filter((l) => l !== '');
    px = await startThrowawayPmproxy();
    const p = px;
    process.stderr.write(`bench: ${names.load}… (archives written in ${(genMs / 1000).toFixed(1)} s)\n`);
    // pmseries --load writes to the store itself (libpcp_web), one archive per process, as a user loads finished archives.
    const [, loadMs] = timed(() => {
      for (const a of archives) pmseries(p, ['--load', a]);
    });
    if (wanted(names.load)) out.push({ name: names.load, work: `pmseries --load of ${hosts} archives written by pmi (${hours} h at ${interval} s, 16 series each; writing them took ${(genMs / 1000).toFixed(1)} s); pmdash loads nothing (pmproxy's store)`, nativeMs: loadMs, pmdashMs: undefined, ratio: undefined });

    const finishSec = Math.floor(Date.now() / 3_600_000) * 3600;
    const startSec = finishSec - hours * 3600;
    const match = `{hostname=~"bench-host-.*"}`;

    if (wanted(names.list)) {
      process.stderr.write(`bench: ${names.list}…\n`);
      const ours: number[] = [];
      const native: number[] = [];
      let listed = 0;
      for (let i = 0; i < RUNS; i++) {
        // A fresh client each run: its series caches would make later runs cheaper than a page load.
        const [list, ms] = await timedAsync(() => new FleetClient({ baseUrl: p.url, fetch }).hosts());
        listed = list.length;
        ours.push(ms);
        native.push(pmseries(p, ['-v', 'hostname']).ms);
      }
      if (listed !== hosts) throw new Error(`the fleet client listed ${listed} hosts, not ${hosts}`);
      out.push({ name: names.list, work: `hostnames with their labels and source archives (fleet client hosts(), fresh caches) vs pmseries -v hostname (names only)`, nativeMs: median(native), pmdashMs: median(ours), ratio: median(ours) / median(native) });
    }

    const hostNames = archives.map((a) => a.split('/').pop() ?? a);
    // pmproxy subsamples plain queries to one stored sample per interval; the client's counter
    // rates are taken between the samples kept, so pmseries is asked the same raw samples.
    const step = (hours * 3600) / (POINTS_PER_PX * WIDTH_PX);
    for (const [name, metric, nativeExpr] of [
      [names.instant, 'kernel.all.load', `kernel.all.load${match}[start:${startSec},finish:${finishSec},interval:${step}]`],
      [names.counter, 'kernel.all.cpu.user', `kernel.all.cpu.user${match}[start:${startSec},finish:${finishSec},interval:${step}]`],
    ] as const) {
      if (!wanted(name)) continue;
      process.stderr.write(`bench: ${name}…\n`);
      const ours: number[] = [];
      const native: number[] = [];
      let stats = { lines: 0, max: 0, mean: 0, failed: 0 };
      let bytes = 0;
      let nativeLines = 0;
      for (let i = 0; i < RUNS; i++) {
        const counting = countingFetch();
        const client = new FleetClient({ baseUrl: p.url, fetch: counting.fetch });
        const [r, ms] = await timedAsync(() => client.chart({ metric, hosts: hostNames, startSec, finishSec, widthPx: WIDTH_PX, pointsPerPx: POINTS_PER_PX, aggregate: 'none' }));
        ours.push(ms);
        stats = pointsPerLine(r);
        bytes = counting.bytes();
        const n = pmseries(p, ['-t', nativeExpr]);
        native.push(n.ms);
        nativeLines = n.stdout.split('\n').filter((l) => /^\s+\[/.test(l)).length;
      }
      if (stats.failed > 0) throw new Error(`${name}: ${stats.failed} hosts failed`);
      out.push({
        name,
        work: `one ${WIDTH_PX} px chart at the app's ${POINTS_PER_PX} stored samples per px (pmproxy subsamples; counters' rates taken here between the samples kept), ${stats.lines} lines, fresh client caches (fleet client chart(): one /series/query per host, 6 at a time) vs pmseries -t '${nativeExpr.replace(/\[.*\]/, '[…,interval:…]')}' (${nativeLines} values); pmdash got ${(bytes / 1024).toFixed(0)} KiB from pmproxy, ≤ ${stats.max} points per line (mean ${stats.mean.toFixed(0)}; 2 per px = ${2 * WIDTH_PX}); goal < 2000 ms`,
        nativeMs: median(native),
        pmdashMs: median(ours),
        ratio: median(ours) / median(native),
      });
    }
  } finally {
    await px?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
