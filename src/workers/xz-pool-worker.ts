// Entry of one worker of the engine's xz decoding pool (xz-pool.ts): warms the core's LZMA2
// decoder up, then decodes the framed blocks it is sent and transfers the bytes back.
import { replyBuffers, type XzJob } from './xz-pool';
import { answerXzJob, warmUpXzDecoder } from './xz-pool-job';

const scope = globalThis as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (e: MessageEvent<XzJob>) => {
  void answerXzJob(e.data, (reply) => scope.postMessage(reply, replyBuffers(reply)));
};

// Jobs sent meanwhile wait in the worker's queue.
warmUpXzDecoder();
