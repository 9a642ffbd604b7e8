// The engine side of the archive export benchmark (archive-export-bench.ts), in a process of
// its own (dist/node/export-engine.js, forked with an IPC channel), as the app's engine runs in
// a worker of its own: its heap holds the engine and the open archive, not the benchmark's
// other modules (~30 MB more in the benchmark's process, which every full collection of an
// export marks again; the export's read buffers set off several). Each message is one run:
// open the dropped files (Blobs) through a fresh EngineApi, export the window, reply with the
// times; .xz blocks decode in the pool of worker_threads the app's engine has as workers.
import { openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { setXzStreamDecoder } from '../src/pcp-core/io/xz-decoder';
import { tarSize } from '../src/pcp-core/export/tar';
import { EngineApi, IDLE_RELEASE_MS } from '../src/workers/engine-api';
import { nodeXzPool } from './xz-pool-node';

/** One run asked of this process. */
export interface ExportJob {
  readonly dir: string;
  readonly base: string;
  readonly suffixes: readonly string[];
  readonly fromMs: number;
  readonly toMs: number;
}

/** What one run measured: open and export, the export alone, and the CPU of every thread. */
export interface ExportRun {
  readonly wholeMs: number;
  readonly exportMs: number;
  readonly cpuMs: number;
  readonly records: number;
  readonly bytes: number;
}

async function run(job: ExportJob): Promise<ExportRun> {
  // A fresh engine each run (no caches carried over), made before the clock starts: the app's
  // engine is made once, when its worker starts, not when a user opens or exports (making
  // one registers the standard derived metrics, ~30 ms no export waits for).
  const api = new EngineApi();
  // CPU of the whole process (every thread: the xz pool's workers, Node's Blob reads).
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const files = await Promise.all(job.suffixes.map(async (s) => ({ path: `${job.base}.${s}`, file: await openAsBlob(join(job.dir, `${job.base}.${s}`)) })));
  const src = await api.open({ kind: 'files', files });
  const t1 = performance.now();
  const out = await api.exportArchive(src.handle, job.fromMs, job.toMs);
  const t2 = performance.now();
  const cpu = process.cpuUsage(c0);
  await api.close(src.handle);
  // The engine releases memory once idle (EngineApi's idle release: a forced collection);
  // in the app that happens between a user's actions, here it would land in the next run.
  await new Promise((resolve) => setTimeout(resolve, IDLE_RELEASE_MS + 100));
  return { wholeMs: t2 - t0, exportMs: t2 - t1, cpuMs: (cpu.user + cpu.system) / 1000, records: out.records, bytes: tarSize(out.tarParts) };
}

const send = process.send?.bind(process);
if (!send) throw new Error('export-engine: run me forked, with an IPC channel (archive-export-bench.ts)');
const pool = nodeXzPool((text) => process.stderr.write(`bench: ${text}\n`));
setXzStreamDecoder(pool);
process.on('message', (job: ExportJob) => {
  run(job).then(
    (r) => send({ ok: true, run: r }),
    (e: unknown) => send({ ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
process.on('disconnect', () => {
  setXzStreamDecoder(undefined);
  pool.close();
});
