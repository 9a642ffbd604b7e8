// A pool worker's side of the engine's xz decoding pool (xz-pool.ts), apart from the pool so
// the engine worker registers the pool without loading the decoder: the Web Worker entry
// (xz-pool-worker.ts) and the export benchmark's worker_threads entry both answer with it.
import { decodeXzFramed, decodeXzFramedPieces, XzDataError } from '../pcp-core/io/xz-block';
import { XzFramedDecoder } from '../pcp-core/io/xz-framed';
import type { XzJob, XzReply } from './xz-pool';
import { xzWarmUpStream } from './xz-warm-up';

/** Decodes of the warm-up stream at a worker's start: enough for the JIT to optimize. */
const WARM_UP_DECODES = 6;

/**
 * Decodes a small built-in stream a few times (xz-warm-up.ts), so that the decoder is compiled
 * before the first job: a worker the pool starts ahead of need (XzWorkerPool.prestart) does
 * this while the page waits for a drop, and so does the engine worker, one decode at a time
 * (`decodes`, the `first`'s steps), for the labels it decodes itself. A failure here is the
 * first job's to report.
 */
export function warmUpXzDecoder(decodes = WARM_UP_DECODES, first = 0): void {
  const { framed, size } = xzWarmUpStream();
  try {
    for (let i = first; i < first + decodes; i++) {
      // In uneven steps, as pieces are decoded: every path the real decodes take gets its
      // type feedback here (an untaken one deoptimizes the decoder when first taken).
      const decoder = new XzFramedDecoder(framed, size);
      for (let at = 0; at < size; at = decoder.decoded) decoder.to(at + 65_537 + i);
      decoder.finish();
    }
  } catch (e) {
    console.warn(`pmdash: the xz decoder's warm-up failed (${e instanceof Error ? e.message : String(e)})`);
  }
}

/**
 * The buffer the last decode in pieces used, kept for the next (pieces are copies of it):
 * pmlogger's volumes are all about 100 MB, and a new buffer's pages each cost the kernel a
 * fault and a zeroing (a fifth of a volume's decode). Held until the worker ends.
 */
let spare: Uint8Array<ArrayBuffer> | undefined;

/**
 * A pool worker's side of a job: the block decoded by the core's LZMA2 decoder (xz-framed.ts) on the
 * worker's thread. Damaged data answers xz's words (the engine names the file and block);
 * anything else (no memory for the block) answers `unavailable`.
 * A job in pieces is answered piece by piece as they decode, then `done`.
 */
export async function answerXzJob(job: XzJob, answer: (reply: XzReply) => void): Promise<void> {
  try {
    if (job.pieces) {
      if (spare === undefined || spare.length < job.size) {
        spare = undefined; // the smaller one may go before the new one is allocated
        spare = new Uint8Array(job.size);
      }
      await decodeXzFramedPieces(job.framed, job.size, (piece, offset) => answer({ id: job.id, piece, offset }), spare);
      answer({ id: job.id, done: true });
    } else answer({ id: job.id, bytes: await decodeXzFramed(job.framed, job.size) });
  } catch (e) {
    answer({ id: job.id, error: e instanceof Error ? e.message : String(e), unavailable: !(e instanceof XzDataError) });
  }
}
