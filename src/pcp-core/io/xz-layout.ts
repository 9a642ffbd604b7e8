// The layout of an .xz file, read from its end the way `xz --list` and libpcp's io_xz.c do:
// stream footer → index → stream header, for each stream. The index gives every block's
// compressed position and size and its uncompressed offset and size, so a read in the middle
// of a volume decodes only the blocks it covers, and the uncompressed size is known without
// decoding anything (archive-format.md §1.2). Container framing only; decoding is xz-block.ts.
//
// Format facts (the .xz file format, version 1.0.4): stream header = magic FD 37 7A 58 5A 00,
// 2 flag bytes (0, check type), CRC32 of the flags; stream footer = CRC32 of the next 6
// bytes, backward size ((index size / 4) - 1, u32 LE), the same 2 flag bytes, "YZ". Index =
// 0x00, record count, (unpadded size, uncompressed size) per block as multibyte integers,
// zero padding to 4 bytes, CRC32. Stream padding = zero bytes in groups of 4 between streams.
import type { ByteSource } from './byte-source';
import { crc32 } from './crc32';
import { PM_ERR_LOGREC, PmError } from '../errors';

export const XZ_MAGIC = Uint8Array.of(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00);
const FOOTER_MAGIC = [0x59, 0x5a]; // "YZ"
export const XZ_HEADER_SIZE = 12;

/** Check field size in bytes by check type (0 none, 1 CRC32, 4 CRC64, 10 SHA-256, others reserved). */
export function xzCheckSize(checkType: number): number {
  return checkType === 0 ? 0 : 4 << Math.floor((checkType - 1) / 3);
}

export interface XzStream {
  /** File offset of the stream header. */
  readonly offset: number;
  readonly checkType: number;
}

export interface XzBlock {
  readonly stream: XzStream;
  /** File offset of the block header. */
  readonly offset: number;
  /** Block header + compressed data + check, without the block padding. */
  readonly unpaddedSize: number;
  readonly uncompressedOffset: number;
  readonly uncompressedSize: number;
}

export interface XzLayout {
  readonly streams: readonly XzStream[];
  readonly blocks: readonly XzBlock[];
  /** Total stream padding bytes. */
  readonly padding: number;
  readonly uncompressedSize: number;
}

/** Rounds up to a multiple of 4, as xz pads blocks and indexes. */
export const pad4 = (n: number): number => Math.ceil(n / 4) * 4;

function corrupt(name: string, detail: string): PmError {
  return new PmError(PM_ERR_LOGREC, undefined, `${name} (xz: ${detail})`);
}

function readU32LE(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

/** Reads exactly `length` bytes or fails as corrupt. */
async function readExactly(src: ByteSource, offset: number, length: number, what: string): Promise<Uint8Array> {
  const bytes = await src.read(offset, length);
  if (bytes.length !== length) throw corrupt(src.name, `${what} at ${offset} is cut short`);
  return bytes;
}

/** Parses one stream's index; returns its (unpadded, uncompressed) size pairs. */
function decodeIndex(name: string, index: Uint8Array, offset: number): Array<[number, number]> {
  let pos = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 63; shift += 7) {
      if (pos >= index.length) break;
      const byte = index[pos++];
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) {
        if (!Number.isSafeInteger(value)) throw corrupt(name, `index at ${offset}: size too large`);
        return value;
      }
    }
    throw corrupt(name, `index at ${offset}: bad multibyte integer`);
  };
  if (index[pos++] !== 0x00) throw corrupt(name, `index at ${offset}: no index indicator`);
  const count = varint();
  const records: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    const unpadded = varint();
    const uncompressed = varint();
    if (unpadded < 5) throw corrupt(name, `index at ${offset}: block ${i} unpadded size ${unpadded}`);
    records.push([unpadded, uncompressed]);
  }
  const end = index.length - 4;
  if (pad4(pos) !== end) throw corrupt(name, `index at ${offset}: size does not match its records`);
  for (; pos < end; pos++) if (index[pos] !== 0) throw corrupt(name, `index at ${offset}: non-zero padding`);
  if (crc32(index.subarray(0, end)) !== readU32LE(index, end)) throw corrupt(name, `index at ${offset}: CRC32 mismatch`);
  return records;
}

/** Reads the streams and blocks of an .xz file; a malformed file is PM_ERR_LOGREC naming it. */
export async function readXzLayout(src: ByteSource): Promise<XzLayout> {
  const name = src.name;
  if (src.size === 0) throw corrupt(name, 'empty file');
  if (src.size % 4 !== 0) throw corrupt(name, `file size ${src.size} is not a multiple of 4`);
  const found: Array<{ stream: XzStream; records: Array<[number, number]> }> = [];
  let padding = 0;
  let pos = src.size;
  while (pos > 0) {
    if (pos < 2 * XZ_HEADER_SIZE) throw corrupt(name, `${pos} bytes before offset ${pos} cannot hold a stream`);
    const footer = await readExactly(src, pos - XZ_HEADER_SIZE, XZ_HEADER_SIZE, 'stream footer');
    if (footer[8] === 0 && footer[9] === 0 && footer[10] === 0 && footer[11] === 0) {
      padding += 4;
      pos -= 4;
      continue;
    }
    const footerAt = pos - XZ_HEADER_SIZE;
    if (footer[10] !== FOOTER_MAGIC[0] || footer[11] !== FOOTER_MAGIC[1]) throw corrupt(name, `no stream footer at ${footerAt}`);
    if (crc32(footer.subarray(4, 10)) !== readU32LE(footer, 0)) throw corrupt(name, `stream footer at ${footerAt}: CRC32 mismatch`);
    if (footer[8] !== 0 || footer[9] > 0x0f) throw corrupt(name, `stream footer at ${footerAt}: unknown flags`);
    const indexSize = (readU32LE(footer, 4) + 1) * 4;
    const indexAt = footerAt - indexSize;
    if (indexAt < XZ_HEADER_SIZE) throw corrupt(name, `stream footer at ${footerAt}: index size ${indexSize} too large`);
    const records = decodeIndex(name, await readExactly(src, indexAt, indexSize, 'index'), indexAt);
    const blocksSize = records.reduce((sum, [unpadded]) => sum + pad4(unpadded), 0);
    const headerAt = indexAt - blocksSize - XZ_HEADER_SIZE;
    if (headerAt < 0) throw corrupt(name, `index at ${indexAt}: blocks larger than the file`);
    const header = await readExactly(src, headerAt, XZ_HEADER_SIZE, 'stream header');
    if (!XZ_MAGIC.every((b, i) => header[i] === b)) throw corrupt(name, `no stream header at ${headerAt}`);
    if (crc32(header.subarray(6, 8)) !== readU32LE(header, 8)) throw corrupt(name, `stream header at ${headerAt}: CRC32 mismatch`);
    if (header[6] !== footer[8] || header[7] !== footer[9]) throw corrupt(name, `stream at ${headerAt}: header and footer flags differ`);
    found.push({ stream: { offset: headerAt, checkType: header[7] }, records });
    pos = headerAt;
  }
  const streams: XzStream[] = [];
  const blocks: XzBlock[] = [];
  let uncompressedOffset = 0;
  for (const { stream, records } of found.reverse()) {
    streams.push(stream);
    let offset = stream.offset + XZ_HEADER_SIZE;
    for (const [unpaddedSize, uncompressedSize] of records) {
      blocks.push({ stream, offset, unpaddedSize, uncompressedOffset, uncompressedSize });
      offset += pad4(unpaddedSize);
      uncompressedOffset += uncompressedSize;
    }
  }
  return { streams, blocks, padding, uncompressedSize: uncompressedOffset };
}
