// Worker entry: exposes one EngineApi over Comlink. The only addition is transfer of buffers
// the worker never reuses: a SeriesBlock's Float64Arrays (archive windows and live frames
// alike) and a recorded archive's .tar move to the main thread instead of being copied.
import { expose, transfer } from 'comlink';
import { EngineApi } from './engine-api';
import type { LiveListener, RecordedArchive, SeriesBlock, SeriesRequest, SourceHandle } from './engine-types';
import type { LiveWatchSpec } from './live-watch';
import { blockBuffers } from './series-fetch';
import type { ExportedArchive } from './archive-export';

/** Each buffer under a .tar's parts once (a transfer list may not name one twice). */
function partBuffers(parts: readonly Uint8Array[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const p of parts) if (p.buffer instanceof ArrayBuffer) out.add(p.buffer);
  return [...out];
}

class WorkerEngine extends EngineApi {
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
