// "Export the visible window as an archive" (issue 14 item 6): one hour of 20180416.10.00
// (4 xz volumes; the hour is ~72 MB of records) through the engine as the app runs it —
// EngineApi.open over the dropped files (Blobs), then exportArchive (extractWindow and the
// .tar) — against `pmlogextract -V 3 -S … -T …` writing the same window (V3, as ours). Both
// sides open the archive and write the hour; the engine runs in a process of its own
// (export-engine.ts: as the app's engine in its worker, with none of this harness's modules
// in its heap), long-lived as the worker is, after one warm-up run, and idle between a
// user's exports (each run waits for the engine's idle release, a forced collection, before
// the next); pmlogextract as its own process, its output written back to disk (sync) before
// our run, outside both clocks. Medians, sides interleaved; the row's text also gives the export alone (the
// archive already open, as in the app). As in the app's engine worker, whole .xz blocks
// decode in a pool of workers (here worker_threads, xz-pool-node.ts) running the WebAssembly
// decoder, ahead of the reads. A second row does the same on the archive decompressed at
// bench time: the copy without xz; its text also gives the floor under our side, reading as
// many bytes from the Blobs as the export reads (Node's Blob reads cost several times a
// FileHandle's, and the app reads dropped files as Blobs too).
import { execFileSync, fork, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ExportJob, ExportRun } from './export-engine';
import type { MeasuredResult } from './harness';
import { childCpuMs } from './replay-bench';
import { STREAM_DEPTH, STREAM_SPAN_BYTES } from '../src/pcp-core/replay/volume-bytes';

export const ARCHIVE_EXPORT_BENCH = 'export archive hour 20180416.10.00';
export const ARCHIVE_EXPORT_PLAIN_BENCH = 'export archive hour 20180416.10.00 plain';
const QA = '/var/lib/pcp/testsuite/archives';
const BASE = '20180416.10.00';
const SUFFIXES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'];
/** 10:30–11:30 in the archive's zone (EDT, UTC-4): the busiest hour of the archive. */
const FROM_MS = Date.UTC(2018, 3, 16, 14, 30);
const TO_MS = FROM_MS + 3600_000;
const RUNS = 3;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
}

/** The engine's side of a row: a process of its own (export-engine.ts), asked for one run at a time. */
class ExportEngine {
  private readonly child: ChildProcess;
  private failed: Error | undefined;

  constructor() {
    this.child = fork(join(dirname(process.argv[1] ?? '.'), 'export-engine.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('exit', (code) => {
      if (code !== 0) this.failed = new Error(`export-engine exited with status ${code}`);
    });
  }

  run(dir: string, suffixes: readonly string[]): Promise<ExportRun> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`export-engine exited with status ${code} during a run`));
      this.child.once('exit', onExit);
      this.child.once('message', (reply: { ok: true; run: ExportRun } | { ok: false; error: string }) => {
        this.child.off('exit', onExit);
        if (reply.ok) resolve(reply.run);
        else reject(new Error(`export-engine: ${reply.error}`));
      });
      const job: ExportJob = { dir, base: BASE, suffixes, fromMs: FROM_MS, toMs: TO_MS };
      this.child.send(job);
    });
  }

  close(): void {
    this.child.disconnect();
  }
}

/**
 * The floor under our side: reading `bytes` of the data volumes (in order, from their start)
 * from Blobs as the export reads them, spans of STREAM_SPAN_BYTES with STREAM_DEPTH in flight,
 * and nothing else. The export reads about the bytes it copies.
 */
async function blobReadMs(dir: string, suffixes: readonly string[], bytes: number): Promise<number> {
  const volumes = await Promise.all(suffixes.filter((s) => /^\d/.test(s)).map((s) => openAsBlob(join(dir, `${BASE}.${s}`))));
  const spans: [Blob, number][] = [];
  for (let left = bytes, v = 0; left > 0 && v < volumes.length; v++) {
    const blob = volumes[v];
    for (let at = 0; at < blob.size && left > 0; at += STREAM_SPAN_BYTES, left -= STREAM_SPAN_BYTES) spans.push([blob, at]);
  }
  const t0 = performance.now();
  let next = 0;
  const reader = async (): Promise<void> => {
    while (next < spans.length) {
      const [blob, at] = spans[next++];
      await blob.slice(at, at + STREAM_SPAN_BYTES).arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: STREAM_DEPTH }, reader));
  return performance.now() - t0;
}

function native(from: string, dir: string, k: number): { wallMs: number; cpuMs: number } {
  const c0 = childCpuMs();
  const t0 = performance.now();
  const run = spawnSync('pmlogextract', ['-V', '3', '-z', '-S', '@2018-04-16 10:30:00', '-T', '@2018-04-16 11:30:00', join(from, BASE), join(dir, `x${k}`)], { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t0;
  if (run.status !== 0) throw new Error(`pmlogextract exited ${run.status}: ${run.stderr.toString().slice(0, 500)}`);
  const cpuMs = childCpuMs() - c0;
  // pmlogextract leaves ~75 MB of dirty pages, which the kernel's flusher threads write back
  // in the next seconds, on the cores our run that follows needs (50 ms or more of its wall
  // time in runs alternated without this): written back now, outside both clocks.
  spawnSync('sync', { stdio: 'ignore' });
  return { wallMs: ms, cpuMs };
}

/** One row: the archive in `from` (its files `suffixes`) on both sides. */
async function row(name: string, what: string, from: string, suffixes: readonly string[], parent: string): Promise<MeasuredResult> {
  process.stderr.write(`bench: ${name}…\n`);
  // pmlogextract will not overwrite: each row writes its copies into a folder of its own.
  const dir = mkdtempSync(join(parent, 'row-'));
  native(from, dir, 0);
  const engine = new ExportEngine();
  try {
    return await measure(name, what, from, suffixes, dir, engine);
  } finally {
    engine.close();
  }
}

async function measure(name: string, what: string, from: string, suffixes: readonly string[], dir: string, engine: ExportEngine): Promise<MeasuredResult> {
  const warm = await engine.run(from, suffixes);
  const n: number[] = [];
  const whole: number[] = [];
  const exp: number[] = [];
  let nativeCpu = 0;
  let oursCpu = 0;
  const floor: number[] = [];
  for (let k = 1; k <= RUNS; k++) {
    const nr = native(from, dir, k);
    n.push(nr.wallMs);
    nativeCpu += nr.cpuMs;
    const r = await engine.run(from, suffixes);
    whole.push(r.wholeMs);
    exp.push(r.exportMs);
    oursCpu += r.cpuMs;
    // Plain volumes only: an .xz row reads compressed bytes, far fewer than it copies.
    if (!suffixes.some((x) => x.endsWith('.xz'))) floor.push(await blobReadMs(from, suffixes, r.bytes));
  }
  const nativeMs = median(n);
  const pmdashMs = median(whole);
  return {
    name,
    work: `open 20180416.10.00 (${what}) and write 10:30–11:30 EDT as a V3 archive (${warm.records} records, ${(warm.bytes / 1e6).toFixed(1)} MB .tar) through EngineApi (pmlogextract -V 3 -S -T); the export alone, archive open: ${median(exp).toFixed(0)} ms; ${floor.length > 0 ? `reading as many bytes of the volumes from the Blobs alone (${STREAM_DEPTH} × ${STREAM_SPAN_BYTES / 1048576} MiB reads in flight, as the export reads): ${median(floor).toFixed(0)} ms; ` : ''}CPU per run (user + system, mean of ${RUNS}; ours every thread of the engine's process, pmlogextract's from /proc/self/stat in 10 ms ticks): pmdash ${(oursCpu / RUNS).toFixed(0)} ms, pmlogextract ${(nativeCpu / RUNS).toFixed(0)} ms; load average ${loadavg()[0]?.toFixed(2) ?? '?'}`,
    nativeMs,
    pmdashMs,
    ratio: pmdashMs / nativeMs,
  };
}

export async function runArchiveExportBenchmark(selected: (name: string) => boolean): Promise<MeasuredResult[]> {
  const out: MeasuredResult[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'pmdash-bench-export-'));
  try {
    if (selected(ARCHIVE_EXPORT_BENCH)) out.push(await row(ARCHIVE_EXPORT_BENCH, '4 xz volumes, as shipped', QA, SUFFIXES, dir));
    if (selected(ARCHIVE_EXPORT_PLAIN_BENCH)) {
      // The same archive decompressed (xz -dc, made now): the copy itself, without xz.
      const plain = mkdtempSync(join(tmpdir(), 'pmdash-bench-plain-'));
      try {
        const suffixes = SUFFIXES.map((s) => s.replace(/\.xz$/, ''));
        for (const s of SUFFIXES) writeFileSync(join(plain, `${BASE}.${s.replace(/\.xz$/, '')}`), s.endsWith('.xz') ? execFileSync('xz', ['-dc', join(QA, `${BASE}.${s}`)], { maxBuffer: 1 << 30 }) : readFileSync(join(QA, `${BASE}.${s}`)));
        out.push(await row(ARCHIVE_EXPORT_PLAIN_BENCH, 'decompressed, 4 plain volumes', plain, suffixes, dir));
      } finally {
        rmSync(plain, { recursive: true, force: true });
      }
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
