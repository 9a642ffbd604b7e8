// The browser's off-thread decoder of whole .xz blocks (pcp-core's XzStreamDecoder hook,
// io/xz-decoder.ts): a small pool of dedicated workers started from the engine worker, each
// running the core's LZMA2 decoder (xz-pool-worker.ts). A 100 MB pmlogger volume takes
// the engine's thread about a second to decode; in the pool it decodes on another core while
// the engine reads the volume before it, and the independent decodes of an open (the first
// volume, the .meta, the last volume for the archive's end) run side by side.
//
// The platform is injected (`spawn`): Web Workers in the browser, worker_threads in the
// export benchmark, fakes in the tests. Decodes a read waits for go before decodes ahead.
// A worker that dies has its decode retried once on a new one; a pool that cannot decode at
// all (no worker starts, a second failure, no memory for a block in the worker) says why
// through `warn` and rejects with XzDecoderUnavailable, so the core decodes on the engine's
// thread from then on, as it did before the pool.
import { XzDecoderUnavailable, type XzDecodeOptions, type XzStreamDecoder } from '../pcp-core/io/xz-decoder';
import { PieceBytes, type ChunkBytes } from '../pcp-core/io/piece-bytes';

/** One decode sent to a pool worker: a framed one-block stream and its decoded size;
 *  `pieces`: answer in pieces as they decode, then `done`. */
export interface XzJob {
  readonly id: number;
  readonly framed: Uint8Array<ArrayBuffer>;
  readonly size: number;
  readonly pieces: boolean;
}

/** A pool worker's answers: the decoded bytes (whole, or pieces then done), or why not
 *  (`unavailable`: not the data's fault). */
export type XzReply =
  | { readonly id: number; readonly bytes: Uint8Array<ArrayBuffer> }
  | { readonly id: number; readonly piece: Uint8Array<ArrayBuffer>; readonly offset: number }
  | { readonly id: number; readonly done: true }
  | { readonly id: number; readonly error: string; readonly unavailable: boolean };

/** The buffers a reply may transfer. */
export function replyBuffers(reply: XzReply): ArrayBuffer[] {
  return 'bytes' in reply ? [reply.bytes.buffer] : 'piece' in reply ? [reply.piece.buffer] : [];
}

/** One worker as the pool drives it. `post` may transfer the job's buffer. */
export interface XzPoolWorker {
  post(job: XzJob): void;
  terminate(): void;
}

/** What a worker tells the pool: an answer, or that it failed (died, could not load). */
export interface XzPoolWorkerEvents {
  reply(reply: XzReply): void;
  fail(reason: string): void;
}

/** Starts one worker; throws when none can start here (no nested workers, a CSP refusal). */
export type SpawnXzWorker = (events: XzPoolWorkerEvents) => XzPoolWorker;

export interface XzPoolOptions {
  /** Workers at most (started as decodes queue up, not before). */
  readonly size: number;
  readonly spawn: SpawnXzWorker;
  /** Told once, in words, why the pool gave up (and decoding went back to the engine's thread). */
  readonly warn: (text: string) => void;
  /** Idle workers end after this long (their memory goes with them); default 30 s. */
  readonly idleMs?: number;
}

/** Workers for `cores` (navigator.hardwareConcurrency): one per core, at least 2, at most 8. */
export function xzPoolSize(cores: number | undefined): number {
  return Math.min(8, Math.max(2, Math.floor(cores ?? 0)));
}

/** One caller of a decode: several ask for the same block (see XzWorkerPool.decode). */
interface Asker {
  readonly progress: ((bytes: ChunkBytes, available: number) => void) | undefined;
  /** Asked as a decode ahead, and a read does not wait for it yet. */
  readonly ahead: boolean;
  readonly wanted: () => boolean;
  readonly resolve: (bytes: ChunkBytes) => void;
  readonly reject: (e: Error) => void;
}

interface Task {
  readonly id: number;
  readonly framed: Uint8Array;
  readonly size: number;
  /** Queued as a decode ahead (a retry keeps it, though it then queues with the reads). */
  readonly ahead: boolean;
  /** Whoever asked for this block's decode: the first, then those asking for the same bytes while it runs. */
  readonly askers: Asker[];
  /** Asked with `hold`: the bytes stay for the next identical decode if none came meanwhile. */
  readonly hold: boolean;
  tries: number;
  /** A decode in pieces: the pieces as they came (not joined: PieceBytes), where each starts,
   *  and how many bytes are there. */
  readonly pieces: Uint8Array[];
  readonly starts: number[];
  available: number;
}

/** A decode in pieces' bytes so far: its one piece itself, or a view of its pieces. */
function soFar(task: Task): ChunkBytes {
  return task.pieces.length === 1 && task.pieces[0].length === task.available ? task.pieces[0] : new PieceBytes(task.pieces, task.starts, task.available);
}

/** A decode a read now waits for (any of its askers). */
function wanted(task: Task): boolean {
  return task.askers.some((a) => !a.ahead || a.wanted());
}

/** A held decode's bytes, for the identical decode asked next (XzDecodeOptions.hold). */
interface Held {
  readonly framed: Uint8Array;
  readonly size: number;
  readonly bytes: ChunkBytes;
  readonly timer: ReturnType<typeof setTimeout>;
}

/** How long held bytes wait for their reader: a drop's classification, then its open, asks within a second. */
const HOLD_MS = 10_000;

/** Whether two framed streams are the same bytes (a block asked for again decodes to the same bytes). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface Slot {
  worker: XzPoolWorker | undefined;
  task: Task | undefined;
}

/** A worker's decode fails this often (it dies each time) before the pool gives up. */
const TRIES = 2;

export class XzWorkerPool implements XzStreamDecoder {
  /** Decodes a read waits for, then decodes ahead; each in the order asked. */
  private readonly demand: Task[] = [];
  private readonly ahead: Task[] = [];
  private readonly slots: Slot[] = [];
  private readonly held: Held[] = [];
  private size: number;
  private nextId = 1;
  private broken: string | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** A decode was asked of the pool since it last had no workers (endUnused keeps those). */
  private asked = false;

  constructor(private readonly options: XzPoolOptions) {
    this.size = Math.max(1, options.size);
  }

  /**
   * Starts the pool's workers before any decode (each warms its decoder up as it starts:
   * xz-pool-job.ts), so a first .xz archive does not wait for that. They stay until the first
   * decode has come and gone (then the idle rule applies).
   */
  prestart(): void {
    while (this.broken === undefined && this.slots.length < this.size) if (!this.start()) break;
  }

  /**
   * Ends the workers prestart started when no decode has been asked of them: the engine calls
   * this once idle, so a page that opened only uncompressed archives does not keep them (each
   * its own V8 heap and thread, ~10 MB of the renderer). The next decode starts workers again,
   * each warming its decoder up on the way.
   */
  endUnused(): void {
    if (this.asked || this.slots.some((s) => s.task !== undefined)) return;
    for (const s of this.slots.splice(0)) s.worker?.terminate();
  }

  /** Workers running now (for tests and diagnostics). */
  get workerCount(): number {
    return this.slots.length;
  }

  /**
   * Decodes one framed block. A block whose decode is asked for again while it runs (the same
   * bytes: a dropped archive's first blocks, started as the drop is classified and asked for
   * again by the open) is decoded once, for both; so is one asked right after a decode asked
   * with `hold` ended.
   */
  decode(framed: Uint8Array, size: number, options?: XzDecodeOptions): Promise<ChunkBytes> {
    if (this.broken !== undefined) return Promise.reject(new XzDecoderUnavailable(this.broken));
    this.asked = true;
    return new Promise((resolve, reject) => {
      const asker: Asker = { progress: options?.progress, ahead: options?.ahead === true, wanted: options?.wanted ?? (() => false), resolve, reject };
      const heldAt = this.held.findIndex((h) => h.size === size && sameBytes(h.framed, framed));
      if (heldAt >= 0) {
        const [h] = this.held.splice(heldAt, 1);
        clearTimeout(h.timer);
        resolve(h.bytes);
        return;
      }
      const running = this.tasks().find((t) => t.size === size && sameBytes(t.framed, framed));
      if (running) {
        running.askers.push(asker);
        // What has come so far, after the caller has its promise (it checks progress against it).
        const available = running.available;
        if (available > 0 && asker.progress) {
          const sofar = soFar(running);
          queueMicrotask(() => asker.progress?.(sofar, available));
        }
        this.pump();
        return;
      }
      const task: Task = { id: this.nextId++, framed, size, ahead: asker.ahead, askers: [asker], hold: options?.hold === true, tries: 0, pieces: [], starts: [], available: 0 };
      (asker.ahead ? this.ahead : this.demand).push(task);
      this.pump();
    });
  }

  /** Every decode queued or running. */
  private tasks(): Task[] {
    return [...this.slots.flatMap((s) => (s.task ? [s.task] : [])), ...this.demand, ...this.ahead];
  }

  /** Hands queued decodes to free workers, starting workers up to the pool's size. */
  private pump(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    while (this.broken === undefined) {
      // Decodes ahead leave one worker (one core) free for reads and for the engine: at open,
      // the first volume decoding ahead while the .meta and the last volume (the archive's
      // end) decode for reads. One a read came to wait for while it ran still counts: the
      // engine reads its first bytes as they come, and a second decode ahead beside it took
      // the engine's core on 2 cores (no faster first chart).
      // A queued decode ahead that a read now waits for goes with the reads.
      const promoted = this.ahead.findIndex((t) => wanted(t));
      if (promoted >= 0) this.demand.push(...this.ahead.splice(promoted, 1));
      const aheadRunning = this.slots.filter((s) => s.task?.ahead === true).length;
      const queue = this.demand.length > 0 ? this.demand : aheadRunning < Math.max(1, this.size - 1) ? this.ahead : [];
      if (queue.length === 0) break;
      const slot = this.slots.find((s) => s.task === undefined) ?? this.start();
      if (!slot?.worker) break;
      const task = queue.shift() as Task;
      slot.task = task;
      task.tries++;
      // The worker gets a copy: the caller keeps its bytes, to decode them itself should the
      // pool give up (XzDecoderUnavailable), and a retry needs them again.
      // Pieces when someone is told the progress: the first records are then read before the
      // rest of the block is decoded, for one more copy of the bytes in the worker (none on
      // this thread: the pieces are kept as they came, PieceBytes).
      // A held decode answers in pieces too: its reader may come while it runs.
      slot.worker.post({ id: task.id, framed: task.framed.slice(), size: task.size, pieces: task.hold || task.askers.some((a) => a.progress !== undefined) });
    }
    if (this.broken === undefined && this.slots.length > 0 && this.slots.every((s) => s.task === undefined)) {
      this.idleTimer = setTimeout(() => this.endIdle(), this.options.idleMs ?? 30_000);
    }
  }

  /** A new worker, when the pool may have one more; undefined otherwise. */
  private start(): Slot | undefined {
    if (this.slots.length >= this.size) return undefined;
    const slot: Slot = { worker: undefined, task: undefined };
    try {
      slot.worker = this.options.spawn({ reply: (r) => this.answered(slot, r), fail: (reason) => this.failed(slot, reason) });
    } catch (e) {
      const reason = `cannot start an xz decoding worker (${e instanceof Error ? e.message : String(e)})`;
      if (this.slots.length === 0) this.giveUp(reason);
      else {
        // Fewer workers than cores: the ones running carry on.
        this.size = this.slots.length;
        this.options.warn(`${reason}; decoding .xz with ${this.size} worker(s)`);
      }
      return undefined;
    }
    this.slots.push(slot);
    return slot;
  }

  private answered(slot: Slot, reply: XzReply): void {
    const task = slot.task;
    if (!task || task.id !== reply.id) {
      this.failed(slot, `answered decode ${reply.id}, not the one it was given (${task?.id ?? 'none'})`);
      return;
    }
    if ('piece' in reply) {
      const end = reply.offset + reply.piece.length;
      if (end > task.size) {
        this.failed(slot, `answered ${end} bytes of a block of ${task.size}`);
        return;
      }
      if (reply.offset > task.available) {
        this.failed(slot, `answered bytes from ${reply.offset} with only ${task.available} before them`);
        return;
      }
      // A retry sends the same bytes again from the start: only what is new is kept, and
      // progress only ever grows. The piece is kept as it came (no copy into one buffer).
      if (end > task.available) {
        task.pieces.push(reply.offset === task.available ? reply.piece : reply.piece.subarray(task.available - reply.offset));
        task.starts.push(task.available);
        task.available = end;
        const sofar = soFar(task);
        for (const a of task.askers) a.progress?.(sofar, end);
      }
      return;
    }
    if ('done' in reply && task.available !== task.size) {
      this.failed(slot, `ended a decode at ${task.available} of ${task.size} bytes`);
      return;
    }
    slot.task = undefined;
    if ('done' in reply || 'bytes' in reply) {
      const bytes = 'done' in reply ? soFar(task) : reply.bytes;
      for (const a of task.askers) a.resolve(bytes);
      if (task.hold && task.askers.length === 1) this.keep(task, bytes);
    } else if (reply.unavailable) {
      this.giveUp(`the xz decoding worker cannot decode here (${reply.error})`, task);
      return;
    } else {
      const error = new Error(reply.error);
      for (const a of task.askers) a.reject(error);
    }
    this.pump();
  }

  /** Holds a decode nobody else asked for yet, for the identical one asked next (within HOLD_MS). */
  private keep(task: Task, bytes: ChunkBytes): void {
    const entry: Held = {
      framed: task.framed,
      size: task.size,
      bytes,
      timer: setTimeout(() => {
        const at = this.held.indexOf(entry);
        if (at >= 0) this.held.splice(at, 1);
      }, HOLD_MS),
    };
    this.held.push(entry);
  }

  /** A worker died or could not load: it goes; its decode is tried again on a new one, once. */
  private failed(slot: Slot, reason: string): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    slot.worker?.terminate();
    const task = slot.task;
    slot.task = undefined;
    if (task && task.tries >= TRIES) {
      this.giveUp(`the xz decoding worker failed ${task.tries} times (${reason})`, task);
      return;
    }
    if (task) this.demand.unshift(task);
    this.pump();
  }

  /** No decoding in the pool from now on: every decode, queued or running, is handed back. */
  private giveUp(reason: string, first?: Task): void {
    if (this.broken !== undefined) return;
    this.broken = reason;
    this.options.warn(`${reason}; decoding .xz on the engine's thread instead`);
    const error = new XzDecoderUnavailable(reason);
    const tasks = [...(first ? [first] : []), ...this.tasks()];
    this.demand.length = 0;
    this.ahead.length = 0;
    this.dropHeld();
    for (const s of this.slots.splice(0)) s.worker?.terminate();
    for (const t of tasks) for (const a of t.askers) a.reject(error);
  }

  /** Ends every worker; decodes queued or running are handed back (XzDecoderUnavailable). */
  close(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const tasks = this.tasks();
    this.broken ??= 'the xz decoding pool was closed';
    this.demand.length = 0;
    this.ahead.length = 0;
    this.dropHeld();
    for (const s of this.slots.splice(0)) s.worker?.terminate();
    const error = new XzDecoderUnavailable(this.broken);
    for (const t of tasks) for (const a of t.askers) a.reject(error);
  }

  private dropHeld(): void {
    for (const h of this.held.splice(0)) clearTimeout(h.timer);
  }

  /** Nothing to decode for a while: the workers end (the next decode starts them again). */
  private endIdle(): void {
    this.idleTimer = undefined;
    if (this.slots.some((s) => s.task !== undefined)) return;
    for (const s of this.slots.splice(0)) s.worker?.terminate();
    this.asked = false;
  }
}

/** The pool's side of a Web Worker (its script: xz-pool-worker.ts); buffers are transferred. */
export function webXzWorker(make: () => Worker): SpawnXzWorker {
  return (events) => {
    const worker = make();
    worker.onmessage = (e: MessageEvent<XzReply>) => events.reply(e.data);
    worker.onerror = (e: ErrorEvent) => {
      // Handled here: the pool names it in its warning when it gives up.
      e.preventDefault();
      events.fail(e.message || 'the worker could not load or ended with an error');
    };
    worker.onmessageerror = () => events.fail('an answer could not be read');
    return { post: (job) => worker.postMessage(job, [job.framed.buffer]), terminate: () => worker.terminate() };
  };
}
