// A ByteSource of the uncompressed bytes of an .xz file, read in place through the file's
// block index (xz-layout.ts), as libpcp's io_xz.c does: size comes from the index, and a read
// decodes only the blocks it covers, keeping decoded blocks in a shared LRU cache (libpcp
// keeps 4 per file). The cache, prefix decoding and read-ahead are chunked-source.ts's; a
// block is a chunk.
import type { ByteSource } from './byte-source';
import type { XzBlock, XzLayout } from './xz-layout';
import { readXzLayout } from './xz-layout';
import { decodeXzBlock, prepareXzPredecode } from './xz-block';
import { xzDecodesOffThread, xzStreamDecoder } from './xz-decoder';
import type { ByteCache } from './byte-cache';
import type { ChunkBytes } from './piece-bytes';
import { ChunkedSource, decodedChunkCache, type ChunkDecodeOptions } from './chunked-source';

/** Decoded xz blocks share the budget of every decoded chunk (chunked-source.ts). */
export const xzBlockCache = decodedChunkCache;

export class XzSource extends ChunkedSource {
  private constructor(
    compressed: ByteSource,
    private readonly layout: XzLayout,
    cache: ByteCache<ChunkBytes>,
  ) {
    super(compressed, layout.blocks, cache, 'xz', layout.uncompressedSize);
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

  /**
   * Block `i` read for a decode off this thread for a reader that is not there yet (a source
   * of the same file opened soon), and what asks for it (prepareXzPredecode); nothing is cached
   * here. Undefined without an off-thread decoder.
   */
  prepareDecode(i: number): Promise<((ahead: boolean) => void) | undefined> {
    const block = this.layout.blocks[i];
    return block ? prepareXzPredecode(this.compressed, block) : Promise.resolve(undefined);
  }

  protected decodeChunk(i: number, want: number, options: ChunkDecodeOptions): Promise<ChunkBytes> {
    return decodeXzBlock(this.compressed, this.layout.blocks[i], want, options);
  }

  protected decodesOffThread(): boolean {
    return xzDecodesOffThread();
  }
}
