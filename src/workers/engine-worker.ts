// Worker entry: exposes one EngineApi over Comlink. The only addition is transfer of series
// buffers: a SeriesBlock's Float64Arrays move to the main thread instead of being copied
// (the worker never reuses them), for archive windows and live frames alike.
import { expose, transfer } from 'comlink';
import { EngineApi } from './engine-api';
import type { LiveListener, SeriesBlock, SeriesRequest, SourceHandle } from './engine-types';
import type { LiveWatchSpec } from './live-watch';
import { blockBuffers } from './series-fetch';

class WorkerEngine extends EngineApi {
  override async fetchSeries(req: SeriesRequest): Promise<SeriesBlock> {
    const block = await super.fetchSeries(req);
    return transfer(block, blockBuffers(block));
  }

  override watchLive(handle: SourceHandle, spec: LiveWatchSpec, listener: LiveListener): Promise<number> {
    return super.watchLive(handle, spec, (e) => listener(e.kind === 'frame' ? transfer(e, blockBuffers(e.block)) : e));
  }
}

expose(new WorkerEngine());
