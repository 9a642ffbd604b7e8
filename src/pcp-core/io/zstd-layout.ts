// The frames of a .zst file, found by walking their headers from the start (zstd has no
// index at the end, unlike .xz): for each data frame its compressed position and size, and
// its uncompressed size where the frame header states it, so a read decodes only the frames
// it covers (zstd-source.ts). Framing only; decoding is zstd-frame.ts.
//
// Format facts (RFC 8878 §3.1): a data frame is magic 28 B5 2F FD, a frame header descriptor
// (bits 7-6 content size field size, bit 5 single segment, bit 3 reserved, bit 2 content
// checksum, bits 1-0 dictionary ID size), a window descriptor unless single segment, the
// dictionary ID, the content size (2-byte sizes are stored minus 256), then blocks of a
// 3-byte little-endian header (bit 0 last, bits 2-1 type: raw, RLE, compressed, reserved;
// bits 23-3 size; an RLE block stores 1 byte) and, with the checksum flag, 4 bytes of
// XXH64. A skippable frame is magic 5? 2A 4D 18 and a 4-byte size of the data that follows.
import type { ByteSource } from './byte-source';
import { PM_ERR_LOGREC, PM_ERR_NYI, PmError } from '../errors';

export const ZSTD_MAGIC = 0xfd2fb528;
/** Skippable frames: any magic from 0x184D2A50 to 0x184D2A5F. */
const SKIPPABLE_MAGIC = 0x184d2a5;
/** The largest block a frame may hold, compressed or not (Block_Maximum_Size). */
const MAX_BLOCK = 128 * 1024;
/** Header bytes of one frame at most: magic, descriptor, window, dictionary ID, content size. */
const MAX_FRAME_HEADER = 4 + 1 + 1 + 4 + 8;

export interface ZstdFrame {
  /** File offset of the frame's magic number. */
  readonly offset: number;
  /** The whole frame: header, blocks and checksum. */
  readonly compressedSize: number;
  /** From the frame header; undefined when the frame does not state it. */
  readonly contentSize: number | undefined;
  /** Whether the frame ends with the low 32 bits of the XXH64 of its content. */
  readonly checksum: boolean;
}

export interface ZstdLayout {
  /** The data frames, in file order (skippable frames are left out). */
  readonly frames: readonly ZstdFrame[];
  readonly skippableFrames: number;
}

export function zstdCorrupt(name: string, detail: string): PmError {
  return new PmError(PM_ERR_LOGREC, undefined, `${name} (zstd: ${detail})`);
}

function readU32LE(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

/** Little-endian unsigned integer of `n` (≤ 8) bytes; beyond 2^53 is not a size we can hold. */
function readUintLE(b: Uint8Array, at: number, n: number): number {
  let value = 0;
  for (let i = n - 1; i >= 0; i--) value = value * 256 + b[at + i];
  return value;
}

/** Reads through `src` in chunks, so walking small block headers costs few reads. */
class ChunkReader {
  private chunk: Uint8Array = new Uint8Array(0);
  private chunkAt = 0;

  constructor(private readonly src: ByteSource) {}

  /** Up to `n` bytes at `at` (fewer only at the end of the file). */
  async bytes(at: number, n: number): Promise<Uint8Array> {
    const from = at - this.chunkAt;
    if (from < 0 || from + n > this.chunk.length) {
      this.chunk = await this.src.read(at, Math.max(n, 64 * 1024));
      this.chunkAt = at;
      return this.chunk.subarray(0, n);
    }
    return this.chunk.subarray(from, from + n);
  }
}

/** Walks the blocks of the data frame whose header starts at `offset`; returns the frame. */
async function walkFrame(reader: ChunkReader, name: string, size: number, offset: number): Promise<ZstdFrame> {
  const head = await reader.bytes(offset, MAX_FRAME_HEADER);
  const where = `frame at ${offset}`;
  if (head.length < 6) throw zstdCorrupt(name, `${where} is cut short at ${size}`);
  const descriptor = head[4];
  const fcsFlag = descriptor >> 6;
  const singleSegment = (descriptor >> 5) & 1;
  const checksum = ((descriptor >> 2) & 1) === 1;
  const dictFlag = descriptor & 3;
  if (descriptor & 0x08) throw zstdCorrupt(name, `${where}: reserved bit set in the frame header`);
  const dictBytes = [0, 1, 2, 4][dictFlag];
  const fcsBytes = fcsFlag === 0 ? singleSegment : 1 << fcsFlag;
  const headerSize = 5 + (singleSegment ? 0 : 1) + dictBytes + fcsBytes;
  if (head.length < headerSize) throw zstdCorrupt(name, `${where} is cut short at ${size}`);
  const dictAt = 5 + (singleSegment ? 0 : 1);
  const dictionary = readUintLE(head, dictAt, dictBytes);
  // No PCP tool writes dictionary-compressed archives, and the decoder has no dictionaries.
  if (dictionary !== 0) throw new PmError(PM_ERR_NYI, undefined, `${name} (zstd: ${where} needs dictionary ${dictionary})`);
  let contentSize: number | undefined;
  if (fcsBytes > 0) {
    contentSize = readUintLE(head, dictAt + dictBytes, fcsBytes) + (fcsBytes === 2 ? 256 : 0);
    if (!Number.isSafeInteger(contentSize)) throw zstdCorrupt(name, `${where}: content size too large`);
  }
  let at = offset + headerSize;
  for (;;) {
    const block = await reader.bytes(at, 3);
    if (block.length < 3) throw zstdCorrupt(name, `${where}: block at ${at} is cut short at ${size}`);
    const header = block[0] | (block[1] << 8) | (block[2] << 16);
    const type = (header >> 1) & 3;
    const blockSize = header >>> 3;
    if (type === 3) throw zstdCorrupt(name, `${where}: block at ${at} has the reserved type`);
    if (blockSize > MAX_BLOCK) throw zstdCorrupt(name, `${where}: block at ${at} of ${blockSize} bytes`);
    const stored = type === 1 ? 1 : blockSize;
    if (at + 3 + stored > size) throw zstdCorrupt(name, `${where}: block at ${at} is cut short at ${size}`);
    at += 3 + stored;
    if (header & 1) break;
  }
  if (checksum) at += 4;
  if (at > size) throw zstdCorrupt(name, `${where}: checksum is cut short at ${size}`);
  return { offset, compressedSize: at - offset, contentSize, checksum };
}

/** Reads the frames of a .zst file; a malformed file is PM_ERR_LOGREC naming it and the offset. */
export async function readZstdLayout(src: ByteSource): Promise<ZstdLayout> {
  const name = src.name;
  const size = src.size;
  // `zstd -d` refuses an empty file as cut short, and so libpcp's read of it fails.
  if (size === 0) throw zstdCorrupt(name, 'empty file');
  const reader = new ChunkReader(src);
  const frames: ZstdFrame[] = [];
  let skippableFrames = 0;
  for (let pos = 0; pos < size; ) {
    const magicBytes = await reader.bytes(pos, 8);
    if (magicBytes.length < 4) throw zstdCorrupt(name, `frame at ${pos} is cut short at ${size}`);
    const magic = readU32LE(magicBytes, 0);
    if (magic === ZSTD_MAGIC) {
      const frame = await walkFrame(reader, name, size, pos);
      frames.push(frame);
      pos += frame.compressedSize;
    } else if (magic >>> 4 === SKIPPABLE_MAGIC) {
      if (magicBytes.length < 8) throw zstdCorrupt(name, `skippable frame at ${pos} is cut short at ${size}`);
      const end = pos + 8 + readU32LE(magicBytes, 4);
      if (end > size) throw zstdCorrupt(name, `skippable frame at ${pos} is cut short at ${size}`);
      skippableFrames++;
      pos = end;
    } else {
      throw zstdCorrupt(name, `no frame at ${pos}`);
    }
  }
  return { frames, skippableFrames };
}
