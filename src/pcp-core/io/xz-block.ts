// Decodes one block of an .xz file (or the first part of it) with the core's LZMA2 decoder
// (xz-framed.ts, lzma2-decoder.ts). The block is framed as a stream of its own (the stream
// header, the block's bytes as stored, and an index and footer that describe just this block):
// the form an off-thread decoder (the CLI's system xz, the browser's pool of workers) takes,
// and the decoder checks the block's CRC32/CRC64 as it goes. Block layout facts: the .xz file
// format 1.0.4, §3.
//
// Limits, met by no file PCP writes: filters other than LZMA2 (BCJ, delta) are reported as
// PM_ERR_NYI; a SHA-256 check is dropped from the frame and verified here instead with
// WebCrypto where the platform has it.
import type { ByteSource } from './byte-source';
import type { XzBlock } from './xz-layout';
import { XZ_MAGIC, pad4, xzCheckSize } from './xz-layout';
import { crc32 } from './crc32';
import type { ChunkBytes } from './piece-bytes';
import { dropXzStreamDecoder, xzStreamDecoder, XzDecoderUnavailable, type XzDecodeOptions } from './xz-decoder';
export { setXzStreamDecoder, xzDecodesOffThread, XzDecoderUnavailable, type XzStreamDecoder } from './xz-decoder';
import { PM_ERR_LOGREC, PM_ERR_NYI, PmError } from '../errors';
import { XzDataError, XzFramedDecoder } from './xz-framed';
export { XzDataError } from './xz-framed';

/**
 * First pieces of a block decoded in pieces (decodeXzFramedPieces), small so the first records
 * come soon; then larger, but not so large that a read waits long for bytes decoded past its
 * own (a first window ending 70 MB into a volume waited for the 8 MiB piece ending at 75.5 MB).
 */
const FIRST_PIECE_BYTES = 1 << 20;
const PIECE_BYTES = 4 << 20;
const SMALL_PIECES_UNTIL = 8 << 20;

const FILTER_NAMES: Record<number, string> = { 3: 'delta', 4: 'x86 BCJ', 5: 'PowerPC BCJ', 6: 'IA-64 BCJ', 7: 'ARM BCJ', 8: 'ARM-Thumb BCJ', 9: 'SPARC BCJ', 10: 'ARM64 BCJ', 11: 'RISC-V BCJ' };
const LZMA2 = 0x21;
const CHECK_NONE = 0;
const CHECK_CRC32 = 1;
const CHECK_CRC64 = 4;
const CHECK_SHA256 = 10;

function blockError(name: string, block: XzBlock, detail: string, code = PM_ERR_LOGREC): PmError {
  return new PmError(code, undefined, `${name} (xz block at offset ${block.offset}: ${detail})`);
}

/** Multibyte integer (xz §1.2) at `pos`; returns [value, next position], or undefined if cut. */
function varint(b: Uint8Array, pos: number): [number, number] | undefined {
  let value = 0;
  for (let shift = 0; shift < 63 && pos < b.length; shift += 7) {
    const byte = b[pos++];
    value += (byte & 0x7f) * 2 ** shift;
    if (!(byte & 0x80)) return [value, pos];
  }
  return undefined;
}

/** Checks the block header's size, CRC32 and filter chain; only LZMA2 alone is decodable. */
function checkBlockHeader(name: string, block: XzBlock, bytes: Uint8Array): void {
  const headerSize = (bytes[0] + 1) * 4;
  if (bytes[0] === 0 || headerSize > bytes.length) throw blockError(name, block, 'bad block header size');
  const crcAt = headerSize - 4;
  const stored = (bytes[crcAt] | (bytes[crcAt + 1] << 8) | (bytes[crcAt + 2] << 16) | (bytes[crcAt + 3] << 24)) >>> 0;
  if (crc32(bytes.subarray(0, crcAt)) !== stored) throw blockError(name, block, 'block header CRC32 mismatch');
  const flags = bytes[1];
  let pos = 2;
  for (const present of [flags & 0x40, flags & 0x80]) {
    if (!present) continue;
    const size = varint(bytes.subarray(0, crcAt), pos);
    if (!size) throw blockError(name, block, 'bad block header');
    pos = size[1];
  }
  const filters: number[] = [];
  for (let i = 0; i <= (flags & 3); i++) {
    const id = varint(bytes.subarray(0, crcAt), pos);
    const propsSize = id && varint(bytes.subarray(0, crcAt), id[1]);
    if (!id || !propsSize) throw blockError(name, block, 'bad filter flags');
    filters.push(id[0]);
    pos = propsSize[1] + propsSize[0];
  }
  const other = filters.find((id) => id !== LZMA2);
  if (other !== undefined || filters.length !== 1) {
    const what = other === undefined ? 'filter chain' : (FILTER_NAMES[other] ?? `filter 0x${other.toString(16)}`);
    throw blockError(name, block, `${what} not supported (only LZMA2)`, PM_ERR_NYI);
  }
}

function u32le(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
}

function encodeVarint(value: number): number[] {
  const out: number[] = [];
  while (value >= 0x80) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
  return out;
}

/** A one-block .xz stream around `blockBytes` (header, data, padding and check as stored). */
function frameBlock(blockBytes: Uint8Array, checkType: number, unpaddedSize: number, uncompressedSize: number): Uint8Array {
  const flags = [0, checkType];
  const header = [...XZ_MAGIC, ...flags, ...u32le(crc32(Uint8Array.from(flags)))];
  const index = [0x00, ...encodeVarint(1), ...encodeVarint(unpaddedSize), ...encodeVarint(uncompressedSize)];
  while (index.length % 4) index.push(0);
  index.push(...u32le(crc32(Uint8Array.from(index))));
  const footerBody = [...u32le(index.length / 4 - 1), ...flags];
  const footer = [...u32le(crc32(Uint8Array.from(footerBody))), ...footerBody, 0x59, 0x5a];
  const out = new Uint8Array(header.length + blockBytes.length + index.length + footer.length);
  out.set(header, 0);
  out.set(blockBytes, header.length);
  out.set(index, header.length + blockBytes.length);
  out.set(footer, header.length + blockBytes.length + index.length);
  return out;
}

/**
 * Block `block` of the .xz file `src` as a one-block stream for the decoders (its stored
 * bytes, and the size without a check they do not compute).
 */
async function framedXzBlock(src: ByteSource, block: XzBlock): Promise<{ stored: Uint8Array; unpadded: number; framed: Uint8Array }> {
  const name = src.name;
  const stored = await src.read(block.offset, pad4(block.unpaddedSize));
  if (stored.length !== pad4(block.unpaddedSize)) throw blockError(name, block, 'block cut short');
  checkBlockHeader(name, block, stored);
  let checkType = block.stream.checkType;
  let blockBytes = stored;
  let unpadded = block.unpaddedSize;
  if (checkType !== CHECK_NONE && checkType !== CHECK_CRC32 && checkType !== CHECK_CRC64) {
    // The decoder computes no other check: frame the block without it (and verify below).
    const checkSize = xzCheckSize(checkType);
    unpadded -= checkSize;
    blockBytes = stored.subarray(0, pad4(unpadded));
    checkType = CHECK_NONE;
  }
  return { stored, unpadded, framed: frameBlock(blockBytes, checkType, unpadded, block.uncompressedSize) };
}

/**
 * Reads block `block` of `src` for the off-thread decoder and returns what asks it to decode
 * the block whole for a reader that is not there yet (XzDecodeOptions.hold: the decoder keeps
 * the bytes for that reader's decodeXzBlock of the same block); undefined when there is no
 * off-thread decoder. Reading and asking are apart so a caller asks for several blocks in the
 * order it wants them decoded, whichever was read first.
 */
export async function prepareXzPredecode(src: ByteSource, block: XzBlock): Promise<((ahead: boolean) => void) | undefined> {
  if (!xzStreamDecoder()) return undefined;
  const { framed } = await framedXzBlock(src, block);
  return (ahead) => {
    void xzStreamDecoder()
      ?.decode(framed, block.uncompressedSize, { ahead, hold: true })
      .catch(() => {
        // Deliberately dropped: the reader's own decode of this block (decodeXzBlock) decodes
        // it again and reports what is wrong with it, naming the file and the block.
      });
  };
}

/**
 * Decodes block `block` of the .xz file `src`: its first `want` bytes (all of it by default).
 * The result is exactly `want` bytes; corrupt or cut data is PM_ERR_LOGREC naming the file.
 * `options` go to the off-thread decoder for a whole block (XzDecodeOptions).
 */
export async function decodeXzBlock(src: ByteSource, block: XzBlock, want = block.uncompressedSize, options: XzDecodeOptions = {}): Promise<ChunkBytes> {
  const name = src.name;
  const { stored, unpadded, framed } = await framedXzBlock(src, block);
  want = Math.min(want, block.uncompressedSize);
  const full = want === block.uncompressedSize;
  const out = (full ? await decodeOffThread(name, block, framed, options) : undefined) ?? decodeHere(name, block, framed, want);
  // WebCrypto exists in Node and in workers of secure contexts; elsewhere the check is skipped,
  // as liblzma skips checks it does not know.
  if (block.stream.checkType === CHECK_SHA256 && full && globalThis.crypto?.subtle) {
    // The digest takes one ArrayBuffer's bytes: an off-thread decode's pieces joined, a copy.
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', out.subarray(0, out.length).slice()));
    const check = stored.subarray(pad4(unpadded), pad4(unpadded) + 32);
    if (!digest.every((b, i) => b === check[i])) throw blockError(name, block, 'SHA-256 mismatch');
  }
  return out;
}

/**
 * The whole block, decoded by the registered off-thread decoder; undefined when there is none
 * (or it has just proved unavailable here), so the block is decoded on this thread instead.
 */
async function decodeOffThread(name: string, block: XzBlock, framed: Uint8Array, options: XzDecodeOptions = {}): Promise<ChunkBytes | undefined> {
  const decoder = xzStreamDecoder();
  if (!decoder) return undefined;
  let bytes: ChunkBytes;
  try {
    bytes = await decoder.decode(framed, block.uncompressedSize, options);
  } catch (e) {
    if (!(e instanceof XzDecoderUnavailable)) throw blockError(name, block, e instanceof Error ? e.message : String(e));
    dropXzStreamDecoder(decoder);
    return undefined;
  }
  if (bytes.length !== block.uncompressedSize) throw blockError(name, block, `decoded ${bytes.length} bytes, the index says ${block.uncompressedSize}`);
  return bytes;
}


/**
 * A whole framed one-block stream of `size` decoded bytes, decoded on this thread by the core's
 * LZMA2 decoder (xz-framed.ts): what a worker of an XzStreamDecoder pool runs
 * (src/workers/xz-pool-worker.ts). Damaged data rejects with XzDataError.
 */
export function decodeXzFramed(framed: Uint8Array, size: number): Promise<Uint8Array<ArrayBuffer>> {
  return Promise.resolve().then(() => new XzFramedDecoder(framed, size).finish());
}

/**
 * decodeXzFramed handing the bytes on in pieces as they are decoded (1 MiB pieces for the
 * first 8 MiB, then 4 MiB, each starting at a multiple of its size), so a reader can start on the first records of a 100 MB volume
 * long before the rest is decoded. Every piece is a buffer of its own (transferable); the
 * block is decoded in `into` when given and large enough (a worker's buffer kept for the next
 * block: its pages are not new, so the kernel does not zero 100 MB of them again). The
 * block's check runs after the last piece (it fails the decode then, as it would at the end
 * anyway): the reader, waiting for the pieces, does not wait for it.
 */
export function decodeXzFramedPieces(
  framed: Uint8Array,
  size: number,
  onPiece: (piece: Uint8Array<ArrayBuffer>, offset: number) => void,
  into?: Uint8Array<ArrayBuffer>,
): Promise<void> {
  return Promise.resolve().then(() => {
    const decoder = new XzFramedDecoder(framed, size, size, into);
    let at = 0;
    while (at < size) {
      const bound = Math.min(size, at + (at < SMALL_PIECES_UNTIL ? FIRST_PIECE_BYTES : PIECE_BYTES));
      if (decoder.decoded < bound) decoder.to(bound, false);
      // A piece ends at its bound, not where the decoder stopped a little past it (the rest
      // starts the next piece): the readers' aligned 1 MiB blocks (replay's VolumeBytes) then
      // each lie within one piece, a view of it where the pieces are kept as they came.
      const end = Math.min(decoder.decoded, bound);
      // Cut short: finish() says what is wrong.
      if (end <= at) break;
      onPiece(decoder.out.slice(at, end), at);
      at = end;
    }
    decoder.finish();
  });
}

/** The first `want` bytes of the block, decoded on this thread. */
function decodeHere(name: string, block: XzBlock, framed: Uint8Array, want: number): Uint8Array<ArrayBuffer> {
  try {
    const decoder = new XzFramedDecoder(framed, block.uncompressedSize, want);
    if (want === block.uncompressedSize) return decoder.finish();
    decoder.to(want);
    return decoder.out.slice(0, want);
  } catch (e) {
    if (e instanceof XzDataError) throw blockError(name, block, e.message);
    throw e;
  }
}
