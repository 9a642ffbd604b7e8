// Sequential read-ahead over a ByteSource whose reads are round trips (a dropped File's Blob
// slices, HTTP Range requests): the record readers read a volume in 1 MiB windows, one at a
// time, and each window waits for the platform's I/O while the worker sits idle. Once reads
// run forwards through a file, this source reads aligned chunks (4 MiB) ahead of them, several
// in flight (4), so decoding overlaps reading and each round trip carries more bytes. Chunks
// wait in a shared LRU ByteCache (32 MiB for every open source together). Reads that do not
// follow the previous one (labels, the index, seeks through the temporal index) pass straight
// through and start no read-ahead, so opening an archive reads no more than before; nor do
// the first reads of a pass, until it has read a chunk's worth (a stepped replay's short runs
// around samples megabytes apart). A pass may have a trailing reader (a stepped replay's
// fetches behind its prefetch); it holds the chunk before that reader's, and those ahead.
//
// A chunk read ahead that fails is forgotten: the read that needs those bytes asks the source
// itself, and reports its error.
import type { ByteSource } from './byte-source';
import { ByteCache, cacheOwner } from './byte-cache';
import { checkRead } from './read-args';

// Measured in Chromium on a 313 MB plain archive read through 1 MiB record windows (medians
// under load): no read-ahead 1.6 s, 4 MiB × 4 0.59 s, 8 MiB × 3 0.57 s, 16 MiB × 2 0.5 s,
// whole-file reads 0.4 s; 2 MiB × 8 0.98 s (each Blob read costs a round trip, more in flight
// do not hide it). 4 MiB × 4 is as fast within the noise, and records and volume blocks are
// views of the chunks, so smaller chunks keep less alive: the page's renderer held 275-296 MB
// after the whole-archive view with 4 MiB chunks, 331-338 MB with 8 MiB ones.
export const READ_AHEAD_CHUNK_BYTES = 4 * 1024 * 1024;
export const READ_AHEAD_DEPTH = 4;

/** Chunks read ahead by every open ReadAheadSource share this budget (io/README.md budgets):
 *  twice what one forward pass has in flight. */
export const readAheadCache = new ByteCache(2 * READ_AHEAD_DEPTH * READ_AHEAD_CHUNK_BYTES);

/** A read starting at most this far past the previous one's end still counts as sequential
 *  (a record reader skips a few bytes of a record it does not need). */
const SEQUENTIAL_GAP = 64 * 1024;

export interface ReadAheadOptions {
  /** Bytes per chunk read ahead. */
  readonly chunkBytes?: number;
  /** Chunks read ahead of the current read (and so in flight at most, plus the current one). */
  readonly depth?: number;
  readonly cache?: ByteCache;
}

export class ReadAheadSource implements ByteSource {
  readonly name: string;
  readonly size: number;
  private readonly chunkBytes: number;
  private readonly depth: number;
  private readonly cache: ByteCache;
  private readonly owner = cacheOwner('ahead');
  /** Chunk reads in flight. */
  private readonly pending = new Map<number, Promise<Uint8Array | undefined>>();
  /** The pass: where it started and the furthest end read in it (-1: no pass), to tell a
   *  forward pass from seeks. */
  private passStart = -1;
  private frontier = -1;
  /** Where the last read behind the frontier started (Infinity: none): a second reader
   *  trailing the first in the same pass, whose chunks must not be dropped under it. */
  private trail = Infinity;
  /** Reads in a row since the pass began reading ahead: the read-ahead grows with it (one
   *  chunk, two, … the depth), so it does not start with a depth of chunks in flight. */
  private streak = 0;
  /** The pass was started by startPass: it reads ahead from its first read, up to passEnd. */
  private primed = false;
  private passEnd = Infinity;
  private closed = false;

  /** Wraps `inner`, which the source then owns. */
  constructor(
    private readonly inner: ByteSource,
    options: ReadAheadOptions = {},
  ) {
    this.name = inner.name;
    this.size = inner.size;
    this.chunkBytes = options.chunkBytes ?? READ_AHEAD_CHUNK_BYTES;
    this.depth = options.depth ?? READ_AHEAD_DEPTH;
    this.cache = options.cache ?? readAheadCache;
  }

  /** Chunk reads started so far that are still in flight (for tests and diagnostics). */
  get inFlight(): number {
    return this.pending.size;
  }

  private chunkLength(k: number): number {
    return Math.min(this.chunkBytes, this.size - k * this.chunkBytes);
  }

  /** Starts reading chunk `k` unless it is held or already on its way. */
  private fetchChunk(k: number): void {
    const key = this.owner + k;
    if (this.pending.has(k) || this.cache.get(key)) return;
    const expected = this.chunkLength(k);
    const request = this.inner.read(k * this.chunkBytes, expected).then(
      (bytes) => {
        // A short chunk (the file shrank) is not kept: the read itself reports it.
        if (bytes.length !== expected) return undefined;
        if (!this.closed) this.cache.set(key, bytes);
        return bytes;
      },
      () => undefined,
    );
    this.pending.set(k, request);
    const forget = (): void => {
      if (this.pending.get(k) === request) this.pending.delete(k);
    };
    void request.then(forget);
  }

  /** Chunk `k` if held or on its way (undefined when it is neither, or its read failed). */
  private chunk(k: number): Promise<Uint8Array | undefined> | undefined {
    const held = this.cache.get(this.owner + k);
    return held ? Promise.resolve(held) : this.pending.get(k);
  }

  /**
   * Notes a read of [offset, end); on a forward pass, reads the chunks from it onwards ahead.
   * A pass may have two readers, one trailing the other (a stepped replay reads what its
   * prefetch asked for a few samples earlier): a read a little behind the frontier belongs to
   * the pass, and chunks are dropped only behind the trailing reader.
   */
  private track(offset: number, end: number): void {
    const behind = this.depth * this.chunkBytes;
    const sequential = this.frontier >= 0 && offset >= this.frontier - behind && offset <= this.frontier + SEQUENTIAL_GAP;
    if (!sequential) {
      this.passStart = offset;
      this.frontier = end;
      this.trail = Infinity;
      this.streak = 0;
      this.primed = false;
      return;
    }
    if (end > this.frontier) this.frontier = end;
    else this.trail = offset;
    // A trailing reader that stopped long ago no longer holds chunks back.
    if (this.trail < this.frontier - 2 * behind) this.trail = Infinity;
    // Reading ahead starts once the pass has read a chunk's worth: a stepped replay over a big
    // archive reads a megabyte or two around each of its samples, megabytes apart, and chunks
    // read ahead there would read the whole file (1175 of 1235 MB for 361 samples).
    if (!this.primed && this.frontier - this.passStart < this.chunkBytes) return;
    this.streak++;
    const first = Math.floor(offset / this.chunkBytes);
    // Chunks every reader of the pass has left behind go: the reader above keeps the
    // neighbourhood it re-reads.
    this.cache.delete(this.owner + (Math.floor(Math.min(offset, this.trail) / this.chunkBytes) - 2));
    const ahead = Math.min(this.depth, this.streak);
    const last = Math.min(Math.floor((end - 1) / this.chunkBytes) + ahead, this.lastChunk());
    for (let k = first; k <= last; k++) this.fetchChunk(k);
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRead(this.name, offset, length, this.closed);
    const end = Math.min(offset + length, this.size);
    if (offset >= end) return new Uint8Array(0);
    this.track(offset, end);
    const first = Math.floor(offset / this.chunkBytes);
    const last = Math.floor((end - 1) / this.chunkBytes);
    // A read of more than two chunks is a bulk read (a whole file to decompress): straight through.
    const parts = last - first <= 1 ? [first, last].slice(0, last - first + 1).map((k) => this.chunk(k)) : [];
    if (parts.length > 0 && parts.every((p) => p !== undefined)) {
      const chunks = await Promise.all(parts);
      if (chunks.every((c): c is Uint8Array => c !== undefined)) {
        const base = first * this.chunkBytes;
        if (chunks.length === 1) return chunks[0].subarray(offset - base, end - base);
        const out = new Uint8Array(end - offset);
        const split = base + this.chunkBytes;
        out.set(chunks[0].subarray(offset - base), 0);
        out.set(chunks[1].subarray(0, end - split), split - offset);
        return out;
      }
    }
    return this.inner.read(offset, end - offset);
  }

  /**
   * A forward pass of about `length` bytes from `offset` is about to begin (ByteSource.
   * startPass): its first chunks, up to a depth's worth, are read now, and its reads then read
   * ahead at full depth from the first, no further than the pass's end when it is known. An
   * archive's first records (the logging-interval probe, the first window) then find their
   * bytes read while its metadata loaded, and a window's replay from a seek does not wait for
   * 1 MiB reads one at a time until it has read a chunk's worth. A pass under way that these
   * reads continue goes on as it is.
   */
  startPass(offset: number, length: number): void {
    if (this.closed || offset >= this.size || !(length > 0)) return;
    // A label read before is no pass yet; one that has read a chunk's worth (or was started
    // here) is.
    const going = this.frontier >= 0 && (this.primed || this.frontier - this.passStart >= this.chunkBytes);
    if (going && offset >= this.frontier - this.depth * this.chunkBytes && offset <= this.frontier + SEQUENTIAL_GAP) return;
    this.passStart = offset;
    this.frontier = offset;
    this.passEnd = Math.min(offset + length, this.size);
    this.trail = Infinity;
    this.streak = this.depth;
    this.primed = true;
    const first = Math.floor(offset / this.chunkBytes);
    const last = Math.min(first + this.depth - 1, this.lastChunk());
    for (let k = first; k <= last; k++) this.fetchChunk(k);
  }

  /** The last chunk to read ahead: the file's, or the started pass's end. */
  private lastChunk(): number {
    return Math.floor((Math.min(this.primed ? this.passEnd : this.size, this.size) - 1) / this.chunkBytes);
  }

  readAhead(offset: number, length: number): Promise<void> {
    return this.inner.readAhead?.(offset, length) ?? Promise.resolve();
  }

  /** The wrapped source's own fresh read (none: it has none), past the chunks held here: a
   *  reader of fresh bytes reads ahead itself. Not counted as a read of the pass. */
  get readFresh(): ((offset: number, length: number) => Promise<Uint8Array>) | undefined {
    const inner = this.inner;
    if (!inner.readFresh) return undefined;
    return (offset, length) => {
      checkRead(this.name, offset, length, this.closed);
      return inner.readFresh?.(offset, length) ?? inner.read(offset, length);
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cache.deletePrefix(this.owner);
    await this.inner.close();
  }
}
