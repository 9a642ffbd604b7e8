// Entry of one worker of the engine's xz decoding pool (xz-pool.ts): decodes the framed
// blocks it is sent with the core's WebAssembly decoder and transfers the bytes back.
import { replyBuffers, type XzJob } from './xz-pool';
import { answerXzJob } from './xz-pool-job';

const scope = globalThis as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (e: MessageEvent<XzJob>) => {
  void answerXzJob(e.data, (reply) => scope.postMessage(reply, replyBuffers(reply)));
};
