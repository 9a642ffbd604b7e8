// A ByteSource of the uncompressed bytes of a .zst file, decoded frame by frame, like an .xz
// file of several blocks (xz-source.ts): a frame is a chunk of chunked-source.ts, which reads
// only the frames a read covers, keeps them in a shared LRU cache and decodes a prefix first.
// `zstd` writes one frame per file, often of 100 MB.
// Files of several frames come from pzstd, the seekable format or concatenated .zst files.
// Newer libpcp (6.3.2 and later) reads .zst through `zstd -dcq`, whole; the bytes are the same.
//
// The size must be known at open: a frame whose header leaves out its content size (zstd
// reading a pipe writes such frames) is decoded once at open to learn it.
import type { ByteSource } from './byte-source';
import type { ZstdFrame } from './zstd-layout';
import { readZstdLayout, zstdCorrupt } from './zstd-layout';
import { decodeZstdFrame, decodeZstdPrefix } from './zstd-frame';
import { dropZstdFrameDecoder, zstdFrameDecoder, ZstdDecoderUnavailable } from './zstd-decoder';
import type { ByteCache } from './byte-cache';
import type { ChunkBytes } from './piece-bytes';
import { ChunkedSource, decodedChunkCache } from './chunked-source';

/** Decoded zstd frames share the budget of every decoded chunk (chunked-source.ts). */
export const zstdFrameCache = decodedChunkCache;

interface PlacedFrame extends ZstdFrame {
  readonly uncompressedOffset: number;
  readonly uncompressedSize: number;
}

export class ZstdSource extends ChunkedSource {
  private constructor(
    compressed: ByteSource,
    private readonly placed: readonly PlacedFrame[],
    cache: ByteCache<ChunkBytes>,
  ) {
    const last = placed.at(-1);
    super(compressed, placed, cache, 'zstd', last ? last.uncompressedOffset + last.uncompressedSize : 0);
  }

  /** Finds the frames of the .zst file `compressed` (which the source then owns). */
  static async open(compressed: ByteSource, cache = zstdFrameCache): Promise<ZstdSource> {
    // An off-thread decoder asks for room to decode ahead in the shared cache.
    const wanted = zstdFrameDecoder()?.cacheBytes ?? 0;
    if (cache === zstdFrameCache && wanted > cache.budgetBytes) cache.resize(wanted);
    const { frames } = await readZstdLayout(compressed);
    const placed: PlacedFrame[] = [];
    const learned = new Map<number, Uint8Array>();
    let uncompressedOffset = 0;
    for (const [i, frame] of frames.entries()) {
      let uncompressedSize = frame.contentSize;
      if (uncompressedSize === undefined) {
        const content = await decodeStored(compressed, frame);
        learned.set(i, content);
        uncompressedSize = content.length;
      }
      placed.push({ ...frame, uncompressedOffset, uncompressedSize });
      uncompressedOffset += uncompressedSize;
      if (!Number.isSafeInteger(uncompressedOffset)) throw zstdCorrupt(compressed.name, `frame at ${frame.offset}: content size too large`);
    }
    const source = new ZstdSource(compressed, placed, cache);
    for (const [i, content] of learned) cache.set(source.owner + i, content);
    return source;
  }

  /** The data frames, with where their content lies in the uncompressed bytes. */
  get frames(): readonly PlacedFrame[] {
    return this.placed;
  }

  protected decodeChunk(i: number, want: number): Promise<Uint8Array> {
    const frame = this.placed[i];
    const full = frame.uncompressedSize;
    return decodeStored(this.compressed, frame, want < full ? { want, size: full } : undefined);
  }

  protected decodesOffThread(): boolean {
    return zstdFrameDecoder() !== undefined;
  }
}

/**
 * Reads the stored bytes of `frame` from `compressed` and decodes them: the whole content,
 * checked, or with `prefix` at least `want` of its `size` bytes from the start (zstd-frame.ts).
 */
async function decodeStored(compressed: ByteSource, frame: ZstdFrame, prefix?: { want: number; size: number }): Promise<Uint8Array> {
  const stored = await compressed.read(frame.offset, frame.compressedSize);
  if (stored.length !== frame.compressedSize) {
    throw zstdCorrupt(compressed.name, `frame at ${frame.offset} is cut short at ${frame.offset + stored.length}`);
  }
  if (prefix !== undefined) {
    const bytes = await decodeZstdPrefix(compressed.name, frame, stored, prefix.want);
    // A prefix that came out whole is decoded again whole, to be checked.
    if (bytes.length < prefix.size) return bytes;
  }
  return (await decodeOffThread(compressed.name, frame, stored)) ?? decodeZstdFrame(compressed.name, frame, stored);
}

/**
 * The whole frame, decoded by the registered off-thread decoder (zstd-decoder.ts); undefined
 * when there is none (or it has just proved unavailable here), so fzstd decodes it instead.
 */
async function decodeOffThread(name: string, frame: ZstdFrame, stored: Uint8Array): Promise<Uint8Array | undefined> {
  const decoder = zstdFrameDecoder();
  if (!decoder) return undefined;
  try {
    return await decoder.decode(stored, frame.contentSize);
  } catch (e) {
    if (!(e instanceof ZstdDecoderUnavailable)) throw zstdCorrupt(name, `frame at ${frame.offset}: ${e instanceof Error ? e.message : String(e)}`);
    dropZstdFrameDecoder(decoder);
    return undefined;
  }
}
