// One worker_threads worker of the benchmark's xz pool (xz-pool-node.ts): the Web Worker
// entry's job (src/workers/xz-pool-worker.ts) over Node's message port.
import { parentPort } from 'node:worker_threads';
import { replyBuffers, type XzJob } from '../src/workers/xz-pool';
import { answerXzJob } from '../src/workers/xz-pool-job';

const port = parentPort;
if (!port) throw new Error('xz-pool-node-worker: not started as a worker thread');
port.on('message', (job: XzJob) => {
  void answerXzJob(job, (reply) => port.postMessage(reply, replyBuffers(reply)));
});
