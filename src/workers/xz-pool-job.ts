// A pool worker's side of the engine's xz decoding pool (xz-pool.ts), apart from the pool so
// the engine worker registers the pool without loading the decoder: the Web Worker entry
// (xz-pool-worker.ts) and the export benchmark's worker_threads entry both answer with it.
import { decodeXzFramed, XzDataError } from '../pcp-core/io/xz-block';
import type { XzJob, XzReply } from './xz-pool';

/**
 * A pool worker's side of a job: the block decoded by the core's WebAssembly decoder on the
 * worker's thread. Damaged data answers xz's words (the engine names the file and block);
 * anything else (the decoder cannot load, WebAssembly gets no memory) answers `unavailable`.
 */
export async function answerXzJob(job: XzJob): Promise<XzReply> {
  try {
    return { id: job.id, bytes: await decodeXzFramed(job.framed, job.size) };
  } catch (e) {
    return { id: job.id, error: e instanceof Error ? e.message : String(e), unavailable: !(e instanceof XzDataError) };
  }
}
