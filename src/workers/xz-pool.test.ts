// The engine's xz decoding pool (xz-pool.ts) over fake workers that answer when the test says:
// order (reads before decodes ahead, answers matched to their decodes), retries and giving up
// with the reason told, and the core's fallback to its own decoder when the pool gives up.
import { afterEach, describe, expect, it } from 'vitest';
import { setXzStreamDecoder, XzDecoderUnavailable } from '../pcp-core/io/xz-decoder';
import { XzSource } from '../pcp-core/io/xz-source';
import { MemorySource } from '../pcp-core/io/memory-source';
import { ByteCache } from '../pcp-core/io/byte-cache';
import type { ChunkBytes } from '../pcp-core/io/piece-bytes';
import { PmError } from '../pcp-core/errors';
import { answerXzJob } from './xz-pool-job';
import { XzWorkerPool, xzPoolSize, type XzJob, type XzPoolWorkerEvents, type XzReply } from './xz-pool';

/** A fake worker: records its jobs; the test answers them. */
class FakeWorker {
  readonly jobs: XzJob[] = [];
  terminated = false;
  constructor(readonly events: XzPoolWorkerEvents) {}
  post(job: XzJob): void {
    this.jobs.push(job);
  }
  terminate(): void {
    this.terminated = true;
  }
  /** Answers the last job with `size` bytes of its first input byte. */
  answer(): void {
    const job = this.jobs[this.jobs.length - 1];
    this.events.reply({ id: job.id, bytes: new Uint8Array(job.size).fill(job.framed[0]) });
  }
}

function fakePool(size: number, spawnFails = false): { pool: XzWorkerPool; workers: FakeWorker[]; warnings: string[] } {
  const workers: FakeWorker[] = [];
  const warnings: string[] = [];
  const pool = new XzWorkerPool({
    size,
    idleMs: 60_000,
    warn: (t) => warnings.push(t),
    spawn: (events) => {
      if (spawnFails) throw new Error('Worker is not defined');
      const w = new FakeWorker(events);
      workers.push(w);
      return w;
    },
  });
  return { pool, workers, warnings };
}

const input = (tag: number): Uint8Array => Uint8Array.of(tag, 1, 2, 3);
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
/** A decode's bytes in one buffer, to compare. */
const all = (bytes: ChunkBytes): Uint8Array => bytes.subarray(0, bytes.length);

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(() => new Error('resolved'), (e: unknown) => e);
}

describe('xz worker pool', () => {
  it('sizes itself per core, at least 2 and at most 8', () => {
    expect([undefined, 1, 2, 4, 64].map(xzPoolSize)).toEqual([2, 2, 2, 4, 8]);
  });

  it('starts workers as decodes queue up and matches answers to their decodes', async () => {
    const { pool, workers } = fakePool(2);
    expect(pool.workerCount).toBe(0);
    const a = pool.decode(input(10), 3);
    const b = pool.decode(input(20), 5);
    const c = pool.decode(input(30), 7);
    expect(workers).toHaveLength(2);
    expect(workers.map((w) => w.jobs.map((j) => j.framed[0]))).toEqual([[10], [20]]);
    // The second worker answers first: each decode still gets its own bytes.
    workers[1].answer();
    expect(await b).toEqual(new Uint8Array(5).fill(20));
    expect(workers[1].jobs.map((j) => j.framed[0])).toEqual([20, 30]);
    workers[0].answer();
    workers[1].answer();
    expect(await a).toEqual(new Uint8Array(3).fill(10));
    expect(await c).toEqual(new Uint8Array(7).fill(30));
  });

  it('gives a worker its own copy of the input, so the caller keeps its bytes', () => {
    const { pool, workers } = fakePool(1);
    const framed = input(7);
    void pool.decode(framed, 1);
    expect(workers[0].jobs[0].framed).toEqual(framed);
    expect(workers[0].jobs[0].framed.buffer).not.toBe(framed.buffer);
  });

  it('runs decodes a read waits for before decodes ahead', async () => {
    const { pool, workers } = fakePool(1);
    const first = pool.decode(input(1), 1, { ahead: true });
    void pool.decode(input(2), 1, { ahead: true });
    void pool.decode(input(3), 1, { ahead: true });
    void pool.decode(input(4), 1);
    workers[0].answer();
    await first;
    // The read's decode jumped the queue of decodes ahead; those keep their order.
    workers[0].answer();
    workers[0].answer();
    workers[0].answer();
    expect(workers[0].jobs.map((j) => j.framed[0])).toEqual([1, 4, 2, 3]);
  });

  it('leaves one worker for reads while decoding ahead', () => {
    const { pool, workers } = fakePool(2);
    void pool.decode(input(1), 1, { ahead: true });
    void pool.decode(input(2), 1, { ahead: true });
    expect(workers).toHaveLength(1);
    void pool.decode(input(3), 1);
    expect(workers.map((w) => w.jobs.map((j) => j.framed[0]))).toEqual([[1], [3]]);
    workers[0].answer();
    expect(workers[0].jobs.map((j) => j.framed[0])).toEqual([1, 2]);
  });

  it('runs a queued decode ahead that a read came to wait for as a read', () => {
    const { pool, workers } = fakePool(2);
    let wanted = false;
    void pool.decode(input(1), 4, { ahead: true });
    void pool.decode(input(2), 4, { ahead: true, wanted: () => wanted });
    void pool.decode(input(3), 4);
    expect(workers.map((w) => w.jobs.map((j) => j.framed[0]))).toEqual([[1], [3]]);
    wanted = true;
    workers[1].answer();
    // Decode 1 still runs ahead on the other worker: 2 went with the reads.
    expect(workers.map((w) => w.jobs.map((j) => j.framed[0]))).toEqual([[1], [3, 2]]);
  });

  it('rejects a damaged block with the worker\'s words, and carries on', async () => {
    const { pool, workers, warnings } = fakePool(1);
    const bad = pool.decode(input(1), 4);
    const good = pool.decode(input(2), 4);
    workers[0].events.reply({ id: workers[0].jobs[0].id, error: 'corrupt data', unavailable: false });
    const e = await rejection(bad);
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(XzDecoderUnavailable);
    expect((e as Error).message).toBe('corrupt data');
    workers[0].answer();
    expect(await good).toEqual(new Uint8Array(4).fill(2));
    expect(warnings).toEqual([]);
  });

  it('retries the decode of a worker that died on a new one', async () => {
    const { pool, workers, warnings } = fakePool(1);
    const p = pool.decode(input(5), 2);
    workers[0].events.fail('worker crashed');
    expect(workers[0].terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(workers[1].jobs.map((j) => j.framed[0])).toEqual([5]);
    workers[1].answer();
    expect(await p).toEqual(new Uint8Array(2).fill(5));
    expect(warnings).toEqual([]);
  });

  it('gives up after a second failure, naming it, and hands every decode back', async () => {
    const { pool, workers, warnings } = fakePool(2);
    const p = pool.decode(input(1), 2);
    const q = pool.decode(input(2), 2);
    const r = pool.decode(input(3), 2, { ahead: true });
    workers[0].events.fail('out of memory');
    workers[2].events.fail('out of memory');
    for (const x of [p, q, r]) {
      const e = await rejection(x);
      expect(e).toBeInstanceOf(XzDecoderUnavailable);
      expect((e as Error).message).toContain('out of memory');
    }
    expect(warnings).toEqual(["the xz decoding worker failed 2 times (out of memory); decoding .xz on the engine's thread instead"]);
    expect(workers.every((w) => w.terminated)).toBe(true);
    expect(await rejection(pool.decode(input(4), 2))).toBeInstanceOf(XzDecoderUnavailable);
  });

  it('gives up when no worker can start, naming why', async () => {
    const { pool, warnings } = fakePool(2, true);
    const e = await rejection(pool.decode(input(1), 2));
    expect(e).toBeInstanceOf(XzDecoderUnavailable);
    expect(warnings).toEqual(["cannot start an xz decoding worker (Worker is not defined); decoding .xz on the engine's thread instead"]);
  });

  it('gives up when a worker cannot decode here (not the data)', async () => {
    const { pool, workers, warnings } = fakePool(1);
    const p = pool.decode(input(1), 2);
    workers[0].events.reply({ id: workers[0].jobs[0].id, error: 'WebAssembly.Memory(): could not allocate memory', unavailable: true });
    expect(await rejection(p)).toBeInstanceOf(XzDecoderUnavailable);
    expect(warnings[0]).toContain('could not allocate memory');
  });

  it('treats an answer to another decode as a failed worker', async () => {
    const { pool, workers } = fakePool(1);
    const p = pool.decode(input(9), 2);
    workers[0].events.reply({ id: 999, bytes: new Uint8Array(2) });
    expect(workers[0].terminated).toBe(true);
    workers[1].answer();
    expect(await p).toEqual(new Uint8Array(2).fill(9));
  });

  it('keeps a decode in pieces as they came, telling its progress, and resolves with all of them', async () => {
    const { pool, workers } = fakePool(1);
    const told: Array<[number, number[]]> = [];
    const p = pool.decode(input(1), 6, { progress: (bytes, available) => told.push([available, [...bytes.subarray(0, available)]]) });
    const job = workers[0].jobs[0];
    expect(job.pieces).toBe(true);
    const first = Uint8Array.of(1, 2, 3, 4);
    const second = Uint8Array.of(5, 6);
    workers[0].events.reply({ id: job.id, piece: first, offset: 0 });
    workers[0].events.reply({ id: job.id, piece: second, offset: 4 });
    workers[0].events.reply({ id: job.id, done: true });
    const bytes = await p;
    expect(bytes.length).toBe(6);
    expect(all(bytes)).toEqual(Uint8Array.of(1, 2, 3, 4, 5, 6));
    expect(told).toEqual([
      [4, [1, 2, 3, 4]],
      [6, [1, 2, 3, 4, 5, 6]],
    ]);
    // Not joined into one buffer: a read within a piece is a view of that piece.
    expect(bytes.subarray(1, 3).buffer).toBe(first.buffer);
    expect(bytes.subarray(4, 6).buffer).toBe(second.buffer);
    expect(bytes.subarray(3, 5)).toEqual(Uint8Array.of(4, 5));
  });

  it('treats a decode in pieces that ends short as a failed worker', async () => {
    const { pool, workers } = fakePool(1);
    const p = pool.decode(input(1), 6, { progress: () => undefined });
    workers[0].events.reply({ id: workers[0].jobs[0].id, piece: Uint8Array.of(1, 2), offset: 0 });
    workers[0].events.reply({ id: workers[0].jobs[0].id, done: true });
    expect(workers[0].terminated).toBe(true);
    const job = workers[1].jobs[0];
    workers[1].events.reply({ id: job.id, piece: Uint8Array.of(1, 2, 3, 4, 5, 6), offset: 0 });
    workers[1].events.reply({ id: job.id, done: true });
    // The retry's first two bytes were there already: the rest is taken after them.
    expect(all(await p)).toEqual(Uint8Array.of(1, 2, 3, 4, 5, 6));
  });

  it('treats a piece that leaves a gap before it as a failed worker', async () => {
    const { pool, workers } = fakePool(1);
    const p = pool.decode(input(1), 6, { progress: () => undefined });
    workers[0].events.reply({ id: workers[0].jobs[0].id, piece: Uint8Array.of(1, 2), offset: 0 });
    workers[0].events.reply({ id: workers[0].jobs[0].id, piece: Uint8Array.of(5, 6), offset: 4 });
    expect(workers[0].terminated).toBe(true);
    const job = workers[1].jobs[0];
    workers[1].events.reply({ id: job.id, piece: Uint8Array.of(1, 2, 3), offset: 0 });
    workers[1].events.reply({ id: job.id, piece: Uint8Array.of(4, 5, 6), offset: 3 });
    workers[1].events.reply({ id: job.id, done: true });
    expect(all(await p)).toEqual(Uint8Array.of(1, 2, 3, 4, 5, 6));
  });

  it('decodes a block asked for again while it runs once, for both, a read promoting one ahead', async () => {
    const { pool, workers } = fakePool(2);
    void pool.decode(input(1), 4, { ahead: true });
    const early = pool.decode(input(2), 6, { ahead: true, hold: true });
    // Only one decode ahead runs on 2 workers: the held one waits.
    expect(workers.map((w) => w.jobs.map((j) => j.framed[0]))).toEqual([[1]]);
    const told: number[] = [];
    // The same bytes in another buffer, asked for by a read: it joins, and goes with the reads.
    const read = pool.decode(input(2), 6, { progress: (_b, n) => told.push(n) });
    expect(workers.map((w) => w.jobs.map((j) => j.framed[0]))).toEqual([[1], [2]]);
    const job = workers[1].jobs[0];
    expect(job.pieces).toBe(true);
    workers[1].events.reply({ id: job.id, piece: Uint8Array.of(1, 2, 3, 4), offset: 0 });
    // A third asker, after the first piece: told what has come so far.
    const late: number[] = [];
    const third = pool.decode(input(2), 6, { progress: (_b, n) => late.push(n) });
    await settle();
    workers[1].events.reply({ id: job.id, piece: Uint8Array.of(5, 6), offset: 4 });
    workers[1].events.reply({ id: job.id, done: true });
    const bytes = await read;
    expect(all(bytes)).toEqual(Uint8Array.of(1, 2, 3, 4, 5, 6));
    expect(await early).toBe(bytes);
    expect(await third).toBe(bytes);
    expect(told).toEqual([4, 6]);
    expect(late).toEqual([4, 6]);
    expect(workers.flatMap((w) => w.jobs)).toHaveLength(2);
  });

  it('holds a held decode nobody else asked for until the same is asked, once', async () => {
    const { pool, workers } = fakePool(1);
    const early = pool.decode(input(3), 2, { hold: true });
    workers[0].answer();
    const bytes = await early;
    // Asked again after it ended: the held bytes, no second decode; then no longer held.
    expect(await pool.decode(input(3), 2)).toBe(bytes);
    expect(workers[0].jobs).toHaveLength(1);
    const again = pool.decode(input(3), 2);
    expect(workers[0].jobs).toHaveLength(2);
    workers[0].answer();
    expect(await again).toEqual(bytes);
    // Without hold, nothing is kept.
    const plain = pool.decode(input(4), 2);
    workers[0].answer();
    await plain;
    void pool.decode(input(4), 2);
    expect(workers[0].jobs).toHaveLength(4);
  });

  it('rejects every asker of a shared decode that fails', async () => {
    const { pool, workers } = fakePool(1);
    const a = pool.decode(input(5), 4, { hold: true });
    const b = pool.decode(input(5), 4);
    workers[0].events.reply({ id: workers[0].jobs[0].id, error: 'corrupt data', unavailable: false });
    expect(((await rejection(a)) as Error).message).toBe('corrupt data');
    expect(((await rejection(b)) as Error).message).toBe('corrupt data');
    // A failure is not held: the next ask decodes again.
    void pool.decode(input(5), 4);
    expect(workers[0].jobs).toHaveLength(2);
  });

  it('hands back every decode and ends its workers when closed', async () => {
    const { pool, workers } = fakePool(1);
    const p = pool.decode(input(1), 1);
    const q = pool.decode(input(2), 1);
    pool.close();
    expect(await rejection(p)).toBeInstanceOf(XzDecoderUnavailable);
    expect(await rejection(q)).toBeInstanceOf(XzDecoderUnavailable);
    expect(workers[0].terminated).toBe(true);
    expect(pool.workerCount).toBe(0);
  });

  it('ends idle workers and starts them again when needed', async () => {
    const workers: FakeWorker[] = [];
    const pool = new XzWorkerPool({ size: 2, idleMs: 1, warn: () => undefined, spawn: (events) => workers[workers.push(new FakeWorker(events)) - 1] });
    const p = pool.decode(input(1), 1);
    workers[0].answer();
    await p;
    await new Promise((r) => setTimeout(r, 20));
    expect(workers[0].terminated).toBe(true);
    expect(pool.workerCount).toBe(0);
    void pool.decode(input(2), 1);
    expect(pool.workerCount).toBe(1);
  });

  it('prestarted workers take the first decodes and stay until a decode has come and gone', async () => {
    const workers: FakeWorker[] = [];
    const pool = new XzWorkerPool({ size: 2, idleMs: 1, warn: () => undefined, spawn: (events) => workers[workers.push(new FakeWorker(events)) - 1] });
    pool.prestart();
    pool.prestart();
    expect(pool.workerCount).toBe(2);
    await new Promise((r) => setTimeout(r, 20));
    expect(workers.map((w) => w.terminated)).toEqual([false, false]);
    const p = pool.decode(input(7), 2);
    expect(workers).toHaveLength(2);
    expect(workers[0].jobs.map((j) => j.framed[0])).toEqual([7]);
    workers[0].answer();
    expect(await p).toEqual(new Uint8Array(2).fill(7));
    await new Promise((r) => setTimeout(r, 20));
    expect(pool.workerCount).toBe(0);
  });

  it('ends prestarted workers no decode was asked of when told, and starts them again for the next decode', () => {
    const { pool, workers } = fakePool(2);
    pool.prestart();
    pool.endUnused();
    expect(workers.map((w) => w.terminated)).toEqual([true, true]);
    expect(pool.workerCount).toBe(0);
    void pool.decode(input(3), 1);
    expect(pool.workerCount).toBe(1);
    expect(workers[2].jobs.map((j) => j.framed[0])).toEqual([3]);
  });

  it('keeps its workers when told to end unused ones after a decode was asked', async () => {
    const { pool, workers } = fakePool(2);
    pool.prestart();
    const p = pool.decode(input(4), 1);
    pool.endUnused();
    expect(pool.workerCount).toBe(2);
    workers[0].answer();
    await p;
    pool.endUnused();
    expect(workers.map((w) => w.terminated)).toEqual([false, false]);
  });
});

/** 40 lines in 3 xz blocks, CRC64 (the fixture of pcp-core/io/xz-source.test.ts). */
const FIXTURE =
  '/Td6WFoAAATm1rRGAgAhARYAAAB0L+Wj4AH/AEpdADYaSh8IoCpN08iDjP9/QOMX4ur45qHgOylZ8ikHc9ITFfECFEmKqn4se6DUqBdBIgUEiB4V1M5/AZFlFvPyRDC+Lv9ZY3BXQUcAAAAAjJPwRgZzFrACACEBFgAAAHQv5aPgAf8ATF0AMJssQHQzUVGumH9K/3Pe7l7AUNEJgfKUvQQYZFVJ6qJQ87n1RXJacDCmu9KFm5TkOmmWIgVNj86CamRsWDg7lbW3XJST3nf1Oj1uAADwX2ka5pGlkAIAIQEWAAAAdC/lo+ABJwA8XQA0m4jOdIMdEDz6LqMBx6GveH3GC5MPZJFijV3zoWm6KOLzy7j67n0Tcy/khXKI0QxIZO0iGrGP+doUowAAkuTO9m1eYOcAA2aABGiABFioAgBhI1xkFBc7MAMAAAAABFla';
const compressed = Uint8Array.from(atob(FIXTURE), (c) => c.charCodeAt(0));
const text = Array.from({ length: 40 }, (_, i) => `line ${String(i).padStart(4, '0')} of a small test volume\n`).join('');
const whole = new TextEncoder().encode(text);

/** A pool whose "workers" answer with answerXzJob on this thread, a tick later. */
function inProcessPool(warnings: string[], spawn?: () => void): XzWorkerPool {
  return new XzWorkerPool({
    size: 2,
    warn: (t) => warnings.push(t),
    spawn: (events) => {
      spawn?.();
      return {
        post: (job: XzJob) => void answerXzJob(job, (reply: XzReply) => setTimeout(() => events.reply(reply), 0)),
        terminate: () => undefined,
      };
    },
  });
}

describe('the core with the pool registered', () => {
  afterEach(() => setXzStreamDecoder(undefined));

  it('reads the same bytes through the pool', async () => {
    const warnings: string[] = [];
    setXzStreamDecoder(inProcessPool(warnings));
    const src = await XzSource.open(new MemorySource('small.xz', compressed), new ByteCache(1 << 20));
    expect(await src.read(0, 2000)).toEqual(whole);
    expect(warnings).toEqual([]);
    await src.close();
  });

  it('tells the progress of a decode in pieces and gives the same bytes', async () => {
    const pool = inProcessPool([]);
    // The fixture's blocks are smaller than a piece: one piece each (many pieces: the fake below).
    const told: number[] = [];
    const src = await XzSource.open(new MemorySource('small.xz', compressed), new ByteCache(1 << 20));
    setXzStreamDecoder({ decode: (framed, size, options) => pool.decode(framed, size, { ...options, progress: (b, n) => (told.push(n), options?.progress?.(b, n)) }) });
    expect(await src.read(0, 2000)).toEqual(whole);
    // Each of the 3 blocks came as one piece.
    expect(told).toEqual([512, 512, 296]);
    await src.close();
  });

  it('decodes a block read ahead for a later reader (XzSource.prepareDecode) once, for the source that then reads it', async () => {
    const jobs: number[] = [];
    const pool = new XzWorkerPool({
      size: 2,
      warn: () => undefined,
      spawn: (events) => ({
        post: (job: XzJob) => {
          jobs.push(job.size);
          void answerXzJob(job, (reply: XzReply) => setTimeout(() => events.reply(reply), 0));
        },
        terminate: () => undefined,
      }),
    });
    const early = await XzSource.open(new MemorySource('small.xz', compressed), new ByteCache(1 << 20));
    // No off-thread decoder: nothing to ask.
    expect(await early.prepareDecode(1)).toBeUndefined();
    setXzStreamDecoder(pool);
    const ask = await early.prepareDecode(1);
    await early.close();
    ask?.(true);
    expect(jobs).toEqual([512]);
    // Another source over the same bytes (a drop's file opened again), reading block 1 whole.
    const src = await XzSource.open(new MemorySource('small.xz', compressed.slice()), new ByteCache(1 << 20));
    expect(await src.read(512, 512)).toEqual(whole.subarray(512, 1024));
    expect(jobs).toEqual([512]);
    await src.close();
    pool.close();
  });

  it('names the file and block of damaged data decoded in the pool', async () => {
    setXzStreamDecoder(inProcessPool([]));
    const flipped = compressed.slice();
    flipped[60] ^= 0x40;
    const src = await XzSource.open(new MemorySource('flipped.xz', flipped), new ByteCache(1 << 20));
    const e = await rejection(src.read(0, 600));
    expect(e).toBeInstanceOf(PmError);
    expect((e as PmError).describe()).toContain('flipped.xz (xz block at offset 12');
    await settle();
  });

  it('falls back to its own decoder when the pool gives up, and the warning says why', async () => {
    const warnings: string[] = [];
    setXzStreamDecoder(
      inProcessPool(warnings, () => {
        throw new Error('nested workers are not supported');
      }),
    );
    const src = await XzSource.open(new MemorySource('small.xz', compressed), new ByteCache(1 << 20));
    expect(await src.read(0, 2000)).toEqual(whole);
    expect(warnings).toEqual(["cannot start an xz decoding worker (nested workers are not supported); decoding .xz on the engine's thread instead"]);
    await src.close();
  });
});
