// A ByteSource of the uncompressed bytes of an .xz file, read in place through the file's
// block index (xz-layout.ts), as libpcp's io_xz.c does: size comes from the index, and a read
// decodes only the blocks it covers, keeping decoded blocks in a shared LRU cache (libpcp
// keeps 4 per file). pmlogger's files are often one block of up to 100 MB; for those the first
// read near the start (a label) decodes only a prefix, and the whole block is decoded once a
// read reaches further.
import type { ByteSource } from './byte-source';
import type { XzBlock, XzLayout } from './xz-layout';
import { readXzLayout } from './xz-layout';
import { decodeXzBlock } from './xz-block';
import { xzDecodesOffThread, xzStreamDecoder } from './xz-decoder';
import { ByteCache, cacheOwner } from './byte-cache';
import { checkRead } from './read-args';

/** Decoded xz blocks of every open XzSource share this budget. */
export const xzBlockCache = new ByteCache(256 * 1024 * 1024);

/** readAhead decodes only blocks of at most this fraction of the cache's budget. */
const READ_AHEAD_SHARE = 4;

/** How much of a block a first read near its start decodes at least: a label and then some
 *  (opening an archive reads every volume's label; records are read from the whole block). */
const PREFIX_BYTES = 64 * 1024;

export class XzSource implements ByteSource {
  readonly name: string;
  readonly size: number;
  private readonly owner = cacheOwner('xz');
  /** Decodes under way, per block, so concurrent reads share them. */
  private readonly pending = new Map<number, Promise<Uint8Array>>();
  private closed = false;

  private constructor(
    private readonly compressed: ByteSource,
    private readonly layout: XzLayout,
    private readonly cache: ByteCache,
  ) {
    this.name = compressed.name;
    this.size = layout.uncompressedSize;
  }

  /** Reads the index of the .xz file `compressed` (which the source then owns). */
  static async open(compressed: ByteSource, cache = xzBlockCache): Promise<XzSource> {
    // An off-thread decoder asks for room to decode ahead in the shared cache.
    const wanted = xzStreamDecoder()?.cacheBytes ?? 0;
    if (cache === xzBlockCache && wanted > cache.budgetBytes) cache.resize(wanted);
    return new XzSource(compressed, await readXzLayout(compressed), cache);
  }

  get blocks(): readonly XzBlock[] {
    return this.layout.blocks;
  }

  get streamCount(): number {
    return this.layout.streams.length;
  }

  /** Bytes of stream padding in the file. */
  get streamPadding(): number {
    return this.layout.padding;
  }

  /** Index of the block holding uncompressed offset `offset` (< size). */
  private blockAt(offset: number): number {
    const blocks = this.layout.blocks;
    let lo = 0;
    let hi = blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (blocks[mid].uncompressedOffset <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Block `i` decoded at least up to `end` (relative to the block). */
  private async decoded(i: number, end: number): Promise<Uint8Array> {
    const key = this.owner + i;
    const block = this.layout.blocks[i];
    for (;;) {
      const have = this.cache.get(key);
      if (have && have.length >= end) return have;
      const running = this.pending.get(i);
      if (running) {
        await running.catch(() => undefined);
        const after = this.cache.get(key);
        if (after && after.length >= end) return after;
        if (this.pending.get(i) !== running) continue;
      }
      // First touch near the start: a prefix. Anything more: the whole block, once.
      const full = block.uncompressedSize;
      const want = !have && end <= full / 2 ? Math.min(full, Math.max(end, PREFIX_BYTES)) : full;
      const decode = decodeXzBlock(this.compressed, block, want);
      this.pending.set(i, decode);
      try {
        const bytes = await decode;
        if (!this.closed) this.cache.set(key, bytes);
        if (bytes.length >= end) return bytes;
      } finally {
        if (this.pending.get(i) === decode) this.pending.delete(i);
      }
    }
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRead(this.name, offset, length, this.closed);
    const end = Math.min(offset + length, this.size);
    if (offset >= end) return new Uint8Array(0);
    const blocks = this.layout.blocks;
    const first = this.blockAt(offset);
    const last = this.blockAt(end - 1);
    if (first === last) {
      const at = blocks[first].uncompressedOffset;
      return (await this.decoded(first, end - at)).subarray(offset - at, end - at);
    }
    const out = new Uint8Array(end - offset);
    await Promise.all(
      blocks.slice(first, last + 1).map(async (block, k) => {
        const from = Math.max(offset, block.uncompressedOffset);
        const to = Math.min(end, block.uncompressedOffset + block.uncompressedSize);
        const bytes = await this.decoded(first + k, to - block.uncompressedOffset);
        out.set(bytes.subarray(from - block.uncompressedOffset, to - block.uncompressedOffset), from - offset);
      }),
    );
    return out;
  }

  /** Decodes the blocks of [offset, offset+length) now when that happens off this thread. */
  async readAhead(offset: number, length: number): Promise<void> {
    const end = Math.min(offset + length, this.size);
    if (this.closed || offset >= end || !xzDecodesOffThread()) return;
    const decodes: Promise<unknown>[] = [];
    for (let i = this.blockAt(offset); i <= this.blockAt(end - 1); i++) {
      const size = this.layout.blocks[i].uncompressedSize;
      // Blocks decoded ahead share the cache with what is being read: only blocks small
      // enough for it to hold a few at once.
      if (size * READ_AHEAD_SHARE > this.cache.budgetBytes) continue;
      // A failure is not lost: the block stays undecoded, and the read that needs it decodes
      // it again and reports the error.
      decodes.push(this.decoded(i, size).catch(() => undefined));
    }
    await Promise.all(decodes);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cache.deletePrefix(this.owner);
    await this.compressed.close();
  }
}
