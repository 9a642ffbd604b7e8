// A ByteSource of the uncompressed bytes of a .zst file, decoded frame by frame, like an .xz
// file of several blocks (xz-source.ts): a read decodes only the frames it covers, and
// decoded frames stay in a shared LRU cache. `zstd` writes one frame per file, often of
// 100 MB: as for xz, a first read near its start (opening an archive reads every volume's
// label) decodes only a prefix, and the whole frame is decoded once a read reaches further.
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
import { ByteCache, cacheOwner } from './byte-cache';
import { checkRead } from './read-args';

/** Decoded frames of every open ZstdSource share this budget. */
export const zstdFrameCache = new ByteCache(256 * 1024 * 1024);

/** readAhead decodes only frames of at most this fraction of the cache's budget. */
const READ_AHEAD_SHARE = 4;

/** How much of a frame a first read near its start decodes at least: a label and then some. */
const PREFIX_BYTES = 64 * 1024;

interface PlacedFrame extends ZstdFrame {
  readonly uncompressedOffset: number;
  readonly uncompressedSize: number;
}

export class ZstdSource implements ByteSource {
  readonly name: string;
  readonly size: number;
  private readonly owner = cacheOwner('zstd');
  /** Decodes under way, per frame, so concurrent reads share them. */
  private readonly pending = new Map<number, Promise<Uint8Array>>();
  private closed = false;

  private constructor(
    private readonly compressed: ByteSource,
    private readonly placed: readonly PlacedFrame[],
    private readonly cache: ByteCache,
  ) {
    this.name = compressed.name;
    const last = placed.at(-1);
    this.size = last ? last.uncompressedOffset + last.uncompressedSize : 0;
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

  /** Index of the frame holding uncompressed offset `offset` (< size), skipping empty frames. */
  private frameAt(offset: number): number {
    let lo = 0;
    let hi = this.placed.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.placed[mid].uncompressedOffset <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Frame `i` decoded at least up to `end` (relative to the frame). */
  private async decoded(i: number, end: number): Promise<Uint8Array> {
    const key = this.owner + i;
    const frame = this.placed[i];
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
      // First touch near the start: a prefix. Anything more: the whole frame, once.
      const full = frame.uncompressedSize;
      const prefix = !have && end <= full / 2 ? Math.max(end, PREFIX_BYTES) : full;
      const decode = decodeStored(this.compressed, frame, prefix < full ? { want: prefix, size: full } : undefined);
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
    const first = this.frameAt(offset);
    const last = this.frameAt(end - 1);
    if (first === last) {
      const at = this.placed[first].uncompressedOffset;
      return (await this.decoded(first, end - at)).subarray(offset - at, end - at);
    }
    const out = new Uint8Array(end - offset);
    await Promise.all(
      this.placed.slice(first, last + 1).map(async (frame, k) => {
        const from = Math.max(offset, frame.uncompressedOffset);
        const to = Math.min(end, frame.uncompressedOffset + frame.uncompressedSize);
        if (from >= to) return;
        const bytes = await this.decoded(first + k, to - frame.uncompressedOffset);
        out.set(bytes.subarray(from - frame.uncompressedOffset, to - frame.uncompressedOffset), from - offset);
      }),
    );
    return out;
  }

  /** Decodes the frames of [offset, offset+length) now when that happens off this thread. */
  async readAhead(offset: number, length: number): Promise<void> {
    const end = Math.min(offset + length, this.size);
    if (this.closed || offset >= end || !zstdFrameDecoder()) return;
    const decodes: Promise<unknown>[] = [];
    for (let i = this.frameAt(offset); i <= this.frameAt(end - 1); i++) {
      const size = this.placed[i].uncompressedSize;
      // Frames decoded ahead share the cache with what is being read: only frames small
      // enough for it to hold a few at once.
      if (size * READ_AHEAD_SHARE > this.cache.budgetBytes) continue;
      // A failure is not lost: the frame stays undecoded, and the read that needs it decodes
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
