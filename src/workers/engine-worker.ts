// Worker entry: exposes one EngineApi over Comlink. Additions: transfer of buffers the worker
// never reuses (a SeriesBlock's Float64Arrays, archive windows and live frames alike, and a
// recorded archive's .tar move to the main thread instead of being copied), and the pool of
// nested workers that decodes .xz blocks off this thread (xz-pool.ts), whose giving up is
// told in the warnings of the source being opened (and on the console).
import { expose, transfer } from 'comlink';
import { setXzStreamDecoder } from '../pcp-core/io/xz-decoder';
import { EngineApi } from './engine-api';
import type { EngineError, LiveListener, ProgressFn, RecordedArchive, SeriesBlock, SeriesRequest, SourceHandle, SourceSpec, SourceSummary } from './engine-types';
import type { LiveWatchSpec } from './live-watch';
import { blockBuffers } from './series-fetch';
import type { ExportedArchive } from './archive-export';

/** Each buffer under a .tar's parts once (a transfer list may not name one twice). */
function partBuffers(parts: readonly Uint8Array[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const p of parts) if (p.buffer instanceof ArrayBuffer) out.add(p.buffer);
  return [...out];
}

import { webXzWorker, xzPoolSize, XzWorkerPool } from './xz-pool';

/** What the xz pool said since the last open, for that open's warnings. */
const poolWarnings: EngineError[] = [];

const xzPool = new XzWorkerPool({
  size: xzPoolSize(navigator.hardwareConcurrency),
  spawn: webXzWorker(() => new Worker(new URL('./xz-pool-worker.ts', import.meta.url), { type: 'module', name: 'pmdash xz decoder' })),
  warn: (text) => {
    console.warn(`pmdash: ${text}`);
    poolWarnings.push({ code: 'ENOTSUP', message: text, context: 'xz decoding workers' });
  },
});
setXzStreamDecoder(xzPool);
// The page starts this worker in idle time, before any drop (ui/main.tsx): the pool's workers
// start and warm their decoder up then too, not on the way to the first chart of an .xz archive.
setTimeout(() => xzPool.prestart(), 0);

/**
 * This thread decodes the first 64 KiB of each .xz file it opens itself (labels, with the same
 * LZMA2 decoder): run cold, each of the first few took tens of ms of an open. It is warmed up
 * too, one small decode per task, so a drop's messages go in between.
 */
async function warmUpEngineDecoder(): Promise<void> {
  const { warmUpXzDecoder } = await import('./xz-pool-job');
  for (let i = 0; i < ENGINE_WARM_UP_DECODES; i++) {
    warmUpXzDecoder(1, i);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
const ENGINE_WARM_UP_DECODES = 6;
setTimeout(() => {
  warmUpEngineDecoder().catch((e: unknown) => console.warn(`pmdash: the xz decoder could not load for its warm-up (${e instanceof Error ? e.message : String(e)})`));
}, 0);

class WorkerEngine extends EngineApi {
  // Sources are open and idle: a pool no decode used (uncompressed archives) ends here.
  protected override releaseIdleExtras(): void {
    xzPool.endUnused();
  }

  override async open(spec: SourceSpec, progress?: ProgressFn): Promise<SourceSummary> {
    const summary = await super.open(spec, progress);
    const told = poolWarnings.splice(0);
    return told.length > 0 ? { ...summary, warnings: [...summary.warnings, ...told] } : summary;
  }

  override async fetchSeries(req: SeriesRequest): Promise<SeriesBlock> {
    const block = await super.fetchSeries(req);
    return transfer(block, blockBuffers(block));
  }

  override async stopRecording(id: number, view?: string): Promise<RecordedArchive> {
    const out = await super.stopRecording(id, view);
    return transfer(out, partBuffers(out.tarParts));
  }

  override async exportArchive(handle: SourceHandle, t0Ms: number, t1Ms: number): Promise<ExportedArchive> {
    const out = await super.exportArchive(handle, t0Ms, t1Ms);
    return transfer(out, partBuffers(out.tarParts));
  }

  override watchLive(handle: SourceHandle, spec: LiveWatchSpec, listener: LiveListener): Promise<number> {
    return super.watchLive(handle, spec, (e) => listener(e.kind === 'frame' ? transfer(e, blockBuffers(e.block)) : e));
  }
}

expose(new WorkerEngine());
