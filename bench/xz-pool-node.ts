// The engine worker's xz decoding pool (src/workers/xz-pool.ts) on Node's worker_threads, so
// the archive export benchmark runs EngineApi as the app runs it in the browser: whole .xz
// blocks decoded in pool workers by the same decoder (the core's LZMA2 decoder), ahead of the reads.
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { XzWorkerPool, xzPoolSize, type XzReply } from '../src/workers/xz-pool';

/** A pool of worker_threads running dist/node/xz-pool-node-worker.js (next to bench.js);
 *  close() it when done, or its workers keep the process alive until they idle out. */
export function nodeXzPool(warn: (text: string) => void): XzWorkerPool {
  const script = join(dirname(process.argv[1] ?? '.'), 'xz-pool-node-worker.js');
  return new XzWorkerPool({
    size: xzPoolSize(availableParallelism()),
    warn,
    spawn: (events) => {
      const worker = new Worker(script);
      worker.on('message', (reply: XzReply) => events.reply(reply));
      worker.on('error', (e) => events.fail(e.message));
      worker.on('exit', (code) => {
        if (code !== 0) events.fail(`the worker exited with status ${code}`);
      });
      return { post: (job) => worker.postMessage(job, [job.framed.buffer]), terminate: () => void worker.terminate() };
    },
  });
}
