// Entry of one worker of the engine's xz decoding pool (xz-pool.ts): decodes the framed
// blocks it is sent with the core's WebAssembly decoder and transfers the bytes back.
import type { XzJob } from './xz-pool';
import { answerXzJob } from './xz-pool-job';

const scope = globalThis as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (e: MessageEvent<XzJob>) => {
  void answerXzJob(e.data).then((reply) => scope.postMessage(reply, 'bytes' in reply ? [reply.bytes.buffer] : []));
};
