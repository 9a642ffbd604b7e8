// The part every decompressing ByteSource that decodes in place shares (xz blocks in
// xz-source.ts, zstd frames in zstd-source.ts): a table of chunks, each the uncompressed bytes
// of one independently decodable piece of the stored file, decoded on demand and kept in a
// shared LRU ByteCache. pmlogger's files are often one chunk of up to 100 MB, so a first read
// near a chunk's start (opening an archive reads every volume's label) decodes only a prefix,
// and the whole chunk is decoded once a read reaches further. Decodes in flight are shared by
// concurrent reads. Subclasses say how to decode chunk i and whether that happens off thread.
import type { ByteSource } from './byte-source';
import { ByteCache, cacheOwner } from './byte-cache';
import { checkRead } from './read-args';
import type { ChunkBytes } from './piece-bytes';

/** Decoded chunks of every open xz and zstd source share this budget (io/README.md budgets);
 *  the two newest chunks are kept even when larger (100 MB single-block volumes): replay at
 *  the seam of two volumes reads both in turn, and keeping only one decoded each again and
 *  again (8.6× pmchart for 20180416.10.00's whole view). Where decoding happens in another
 *  process (the CLI), the decoder asks for more room to decode ahead. */
export const decodedChunkCache = new ByteCache<ChunkBytes>(128 * 1024 * 1024, 2);

/** What a chunk's decode is for (XzDecodeOptions): decoded ahead; told its progress. */
export interface ChunkDecodeOptions {
  readonly ahead?: boolean;
  readonly wanted?: () => boolean;
  readonly progress?: (bytes: ChunkBytes, available: number) => void;
}

/** Where one chunk's content lies in the uncompressed bytes. */
export interface Chunk {
  readonly uncompressedOffset: number;
  readonly uncompressedSize: number;
}

/**
 * Chunks decoded ahead and not read yet, per cache (key → bytes; `done` once in the cache):
 * together at most half the cache's budget, the other half being for what is read, except
 * that one chunk may always be ahead, however large, in a cache that always keeps its two
 * newest (ByteCache keep): the one read and the one ahead. Without this bound, decoding three 100 MB
 * volumes ahead into a 128 MiB cache evicted the one being read, to be decoded again.
 */
type Ahead = Map<string, { bytes: number; done: boolean }>;
const aheadUnread = new WeakMap<ByteCache<ChunkBytes>, Ahead>();

/** Share of the cache's budget that chunks decoded ahead may fill. */
const READ_AHEAD_SHARE = 2;

function aheadOf(cache: ByteCache<ChunkBytes>): Ahead {
  let ahead = aheadUnread.get(cache);
  if (!ahead) {
    ahead = new Map();
    aheadUnread.set(cache, ahead);
  }
  return ahead;
}

/** Bytes decoded ahead in `cache` and not read yet (entries evicted since are forgotten). */
function aheadBytes(cache: ByteCache<ChunkBytes>, ahead: Ahead): number {
  let total = 0;
  for (const [key, entry] of ahead) {
    if (entry.done && !cache.has(key)) ahead.delete(key);
    else total += entry.bytes;
  }
  return total;
}

/** How much of a chunk a first read near its start decodes at least: a label and then some. */
const PREFIX_BYTES = 64 * 1024;

export abstract class ChunkedSource implements ByteSource {
  readonly name: string;
  /** Key prefix of this source's entries in the shared cache. */
  protected readonly owner: string;
  /** Decodes under way, per chunk, so concurrent reads share them. */
  private readonly pending = new Map<number, Promise<ChunkBytes>>();
  /** Per decode under way that was started ahead: whether a read now waits for it. */
  private readonly wantedNow = new Map<number, { wanted: boolean }>();
  /** Reads waiting for more of a chunk whose whole decode is under way, per chunk. */
  private readonly waiting = new Map<number, Array<() => void>>();
  protected closed = false;

  protected constructor(
    protected readonly compressed: ByteSource,
    private readonly chunks: readonly Chunk[],
    protected readonly cache: ByteCache<ChunkBytes>,
    kind: string,
    readonly size: number,
  ) {
    this.name = compressed.name;
    this.owner = cacheOwner(kind);
  }

  /**
   * Decodes chunk `i`: at least its first `want` bytes, the whole chunk when `want` is its
   * size. Rejects with an error naming the file and the chunk for damaged data.
   */
  protected abstract decodeChunk(i: number, want: number, options: ChunkDecodeOptions): Promise<ChunkBytes>;

  /** Whether decoding happens off this thread now, so that decoding ahead costs it nothing. */
  protected abstract decodesOffThread(): boolean;

  /** Index of the chunk holding uncompressed offset `offset` (< size), skipping empty chunks. */
  private chunkAt(offset: number): number {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (chunks[mid].uncompressedOffset <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Resolves when chunk `i`'s decode under way reports more bytes (or ends). */
  private moreOf(i: number): Promise<void> {
    return new Promise((resolve) => {
      const list = this.waiting.get(i);
      if (list) list.push(resolve);
      else this.waiting.set(i, [resolve]);
    });
  }

  private wake(i: number): void {
    const list = this.waiting.get(i);
    this.waiting.delete(i);
    for (const resolve of list ?? []) resolve();
  }

  /** Chunk `i` decoded at least up to `end` (relative to the chunk); `ahead`: for readAhead. */
  private async decoded(i: number, end: number, ahead = false): Promise<ChunkBytes> {
    const key = this.owner + i;
    const full = this.chunks[i].uncompressedSize;
    // A read: what was decoded ahead for it no longer counts as ahead.
    if (!ahead) aheadUnread.get(this.cache)?.delete(key);
    for (;;) {
      const have = this.cache.get(key);
      if (have && have.length >= end) return have;
      const running = this.pending.get(i);
      if (running) {
        if (!ahead) {
          const state = this.wantedNow.get(i);
          if (state) state.wanted = true;
        }
        // A whole decode that tells its progress may have the bytes wanted before it ends.
        const ended = await Promise.race([running.then(() => true, () => true), this.moreOf(i).then(() => false)]);
        const after = this.cache.get(key);
        if (after && after.length >= end) return after;
        if (!ended || this.pending.get(i) !== running) continue;
      }
      // First touch near the start: a prefix. Anything more: the whole chunk, once, its
      // first bytes cached as they decode (where the decoder tells them).
      const want = !have && end <= full / 2 ? Math.min(full, Math.max(end, PREFIX_BYTES)) : full;
      // The decode's promise, for its progress to check that it is still the chunk's decode.
      const mine: { decode?: Promise<ChunkBytes> } = {};
      const progress =
        want === full
          ? (bytes: ChunkBytes, available: number): void => {
              if (this.closed || this.pending.get(i) !== mine.decode) return;
              // A decoder in pieces tells exactly what has come (PieceBytes, not joined).
              if ((this.cache.peek(key)?.length ?? 0) < available) this.cache.set(key, bytes.length === available ? bytes : bytes.subarray(0, available));
              this.wake(i);
            }
          : undefined;
      const state = { wanted: !ahead };
      const decode = this.decodeChunk(i, want, { ahead, progress, wanted: () => state.wanted });
      mine.decode = decode;
      this.pending.set(i, decode);
      this.wantedNow.set(i, state);
      try {
        const bytes = await decode;
        if (!this.closed) this.cache.set(key, bytes);
        if (bytes.length >= end) return bytes;
      } finally {
        if (this.pending.get(i) === decode) {
          this.pending.delete(i);
          this.wantedNow.delete(i);
        }
        this.wake(i);
      }
    }
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRead(this.name, offset, length, this.closed);
    const end = Math.min(offset + length, this.size);
    if (offset >= end) return new Uint8Array(0);
    const first = this.chunkAt(offset);
    const last = this.chunkAt(end - 1);
    if (first === last) {
      const at = this.chunks[first].uncompressedOffset;
      return (await this.decoded(first, end - at)).subarray(offset - at, end - at);
    }
    const out = new Uint8Array(end - offset);
    await Promise.all(
      this.chunks.slice(first, last + 1).map(async (chunk, k) => {
        const from = Math.max(offset, chunk.uncompressedOffset);
        const to = Math.min(end, chunk.uncompressedOffset + chunk.uncompressedSize);
        if (from >= to) return;
        const bytes = await this.decoded(first + k, to - chunk.uncompressedOffset);
        out.set(bytes.subarray(from - chunk.uncompressedOffset, to - chunk.uncompressedOffset), from - offset);
      }),
    );
    return out;
  }

  /** Decodes the chunks of [offset, offset+length) now when that happens off this thread. */
  async readAhead(offset: number, length: number): Promise<void> {
    const end = Math.min(offset + length, this.size);
    if (this.closed || offset >= end || !this.decodesOffThread()) return;
    const decodes: Promise<unknown>[] = [];
    const ahead = aheadOf(this.cache);
    for (let i = this.chunkAt(offset); i <= this.chunkAt(end - 1); i++) {
      const size = this.chunks[i].uncompressedSize;
      const key = this.owner + i;
      if ((this.cache.peek(key)?.length ?? 0) >= size || this.pending.has(i) || ahead.has(key)) continue;
      // Chunks decoded ahead share the cache with what is being read (see aheadUnread).
      const already = aheadBytes(this.cache, ahead);
      const fits = (already + size) * READ_AHEAD_SHARE <= this.cache.budgetBytes;
      if (!fits && !(already === 0 && this.cache.keepCount >= 2)) break;
      const entry = { bytes: size, done: false };
      ahead.set(key, entry);
      // A failure is not lost: the chunk stays undecoded, and the read that needs it decodes
      // it again and reports the error.
      decodes.push(
        this.decoded(i, size, true).then(
          () => {
            entry.done = true;
          },
          () => {
            if (ahead.get(key) === entry) ahead.delete(key);
          },
        ),
      );
    }
    await Promise.all(decodes);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cache.deletePrefix(this.owner);
    const ahead = aheadUnread.get(this.cache);
    for (const key of ahead?.keys() ?? []) if (key.startsWith(this.owner)) ahead?.delete(key);
    await this.compressed.close();
  }
}
