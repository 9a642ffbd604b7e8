// Worker entry: exposes one EngineApi over Comlink. The only addition is transfer of series
// buffers: a SeriesBlock's Float64Arrays move to the main thread instead of being copied
// (the worker never reuses them).
import { expose, transfer } from 'comlink';
import { EngineApi } from './engine-api';
import type { SeriesBlock, SeriesRequest } from './engine-types';
import { blockBuffers } from './series-fetch';

class WorkerEngine extends EngineApi {
  override async fetchSeries(req: SeriesRequest): Promise<SeriesBlock> {
    const block = await super.fetchSeries(req);
    return transfer(block, blockBuffers(block));
  }
}

expose(new WorkerEngine());
