// Decodes a one-block .xz stream as xz-block.ts frames it (stream header, the block as stored,
// an index and footer for just that block) with the core's LZMA2 decoder (lzma2-decoder.ts),
// checking the block's CRC32/CRC64 as it goes: what the browser's xz pool workers run
// (src/workers/xz-pool-job.ts) and what xz-block.ts runs on the calling thread. About 1.6–1.9x
// less CPU than xz-embedded in WebAssembly (which it replaced) on pmlogger's volumes, with no
// WebAssembly memory, and the bytes can be handed on as they decode.
// Block layout facts: the .xz file format 1.0.4, §3.
import { Lzma2DataError, Lzma2Decoder, lzma2DictionarySize } from './lzma2-decoder';
import { Crc64 } from './crc64';
import { crc32 } from './crc32';
import { XZ_HEADER_SIZE, pad4, xzCheckSize } from './xz-layout';

/** Why a framed stream did not decode, in xz's words; the caller names the file and block. */
export class XzDataError extends Error {}

const LZMA2 = 0x21;
/** Bytes decoded between updates of the check: well inside a core's L2 cache. */
const CHECK_STEP = 256 << 10;
const CHECK_NONE = 0;
const CHECK_CRC32 = 1;
const CHECK_CRC64 = 4;

function u32le(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

/** Multibyte integer (xz §1.2) at `at`: [value, next position]. */
function varint(b: Uint8Array, at: number, end: number): [number, number] {
  let value = 0;
  for (let shift = 0; shift < 63 && at < end; shift += 7) {
    const byte = b[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if (!(byte & 0x80)) return [value, at];
  }
  throw new XzDataError('corrupt data');
}

/** A check in progress over the bytes decoded so far (none, CRC32 or CRC64). */
interface Check {
  update(bytes: Uint8Array, from: number, to: number): void;
  matches(stored: Uint8Array): boolean;
}

function newCheck(type: number): Check {
  if (type === CHECK_CRC64) {
    const crc = new Crc64();
    return { update: (b, from, to) => crc.update(b, from, to), matches: (s) => crc.value().every((x, i) => x === s[i]) };
  }
  if (type === CHECK_CRC32) {
    let crc = 0;
    return { update: (b, from, to) => void (crc = crc32(b.subarray(from, to), crc)), matches: (s) => u32le(s, 0) === crc };
  }
  if (type === CHECK_NONE) return { update: () => undefined, matches: () => true };
  // xz-block.ts frames every other check type as none (and verifies SHA-256 itself).
  throw new XzDataError('unsupported integrity check');
}

/** A framed block being decoded: `to(n)` decodes at least n bytes, `finish()` the rest and checks it. */
export class XzFramedDecoder {
  readonly out: Uint8Array<ArrayBuffer>;
  private readonly lzma2: Lzma2Decoder;
  private readonly check: Check;
  private readonly stored: Uint8Array;
  private checked = 0;

  /**
   * `size`: the block's uncompressed size; `want`: less for a prefix (out holds a little
   * more); `into`: a buffer to decode into when it is large enough (its bytes need not be
   * zero: every byte is written before it is read), instead of a new one.
   */
  constructor(framed: Uint8Array, readonly size: number, want = size, into?: Uint8Array<ArrayBuffer>) {
    if (framed.length < 2 * XZ_HEADER_SIZE + 8) throw new XzDataError('data cut short');
    const checkType = framed[7] & 0x0f;
    const checkSize = xzCheckSize(checkType);
    // Our own index after the block: its one record's unpadded size places the block's end.
    const footerAt = framed.length - XZ_HEADER_SIZE;
    const indexAt = footerAt - (u32le(framed, footerAt + 4) + 1) * 4;
    const [count, afterCount] = varint(framed, indexAt + 1, footerAt);
    if (count !== 1) throw new XzDataError('corrupt data');
    const [unpadded, afterUnpadded] = varint(framed, afterCount, footerAt);
    const [indexSize] = varint(framed, afterUnpadded, footerAt);
    if (indexSize !== size) throw new XzDataError('corrupt data');
    const blockAt = XZ_HEADER_SIZE;
    const headerSize = (framed[blockAt] + 1) * 4;
    const headerEnd = blockAt + headerSize - 4;
    const flags = framed[blockAt + 1];
    if ((flags & 3) !== 0) throw new XzDataError('unsupported options');
    let at = blockAt + 2;
    const compressed = unpadded - headerSize - checkSize;
    if (compressed <= 0 || blockAt + pad4(unpadded) > indexAt) throw new XzDataError('corrupt data');
    if (flags & 0x40) {
      const [v, next] = varint(framed, at, headerEnd);
      if (v !== compressed) throw new XzDataError('corrupt data');
      at = next;
    }
    if (flags & 0x80) {
      const [v, next] = varint(framed, at, headerEnd);
      if (v !== size) throw new XzDataError('corrupt data');
      at = next;
    }
    const [filter, afterId] = varint(framed, at, headerEnd);
    const [propsSize, afterSize] = varint(framed, afterId, headerEnd);
    if (filter !== LZMA2 || propsSize !== 1) throw new XzDataError('unsupported options');
    const props = framed[afterSize];
    const dataAt = blockAt + headerSize;
    const dataEnd = dataAt + compressed;
    for (let i = dataEnd; i < blockAt + pad4(headerSize + compressed); i++) if (framed[i] !== 0) throw new XzDataError('corrupt data');
    const checkAt = blockAt + pad4(headerSize + compressed);
    this.stored = framed.subarray(checkAt, checkAt + checkSize);
    this.check = newCheck(checkType);
    try {
      const n = want < size ? Math.min(size, want + 273) : size;
      this.out = into !== undefined && into.length >= n ? into.subarray(0, n) : new Uint8Array(n);
      this.lzma2 = new Lzma2Decoder(framed.subarray(dataAt, dataEnd), this.out, size, lzma2DictionarySize(props));
    } catch (e) {
      throw e instanceof Lzma2DataError ? new XzDataError(e.message) : e;
    }
  }

  /** Bytes decoded so far. */
  get decoded(): number {
    return this.lzma2.decoded;
  }

  /**
   * Decodes at least the first `want` bytes (out[0, decoded) are final). `check` false: the
   * bytes are checked later, by finish() (a decode in pieces hands them on sooner).
   */
  to(want: number, check = true): void {
    const whole = this.out.length === this.size;
    try {
      if (!check || !whole) this.lzma2.decodeTo(want);
      else {
        // Checked as they come, a step at a time: the bytes are still in the processor's
        // cache (a 100 MB block checked at the end is read back from memory).
        for (let at = this.lzma2.decoded; ; at = this.lzma2.decoded) {
          this.lzma2.decodeTo(Math.min(want, at + CHECK_STEP));
          this.check.update(this.out, this.checked, this.lzma2.decoded);
          this.checked = this.lzma2.decoded;
          if (this.lzma2.decoded >= want || this.lzma2.done) break;
        }
      }
    } catch (e) {
      throw e instanceof Lzma2DataError ? new XzDataError(e.message) : e;
    }
    if (check && whole && this.checked < this.lzma2.decoded) {
      // Bytes decoded earlier unchecked (a decode in pieces).
      this.check.update(this.out, this.checked, this.lzma2.decoded);
      this.checked = this.lzma2.decoded;
    }
  }

  /** Decodes the rest and verifies the block's check; the whole block. */
  finish(): Uint8Array<ArrayBuffer> {
    this.to(this.size);
    if (!this.lzma2.done || !this.check.matches(this.stored)) throw new XzDataError('corrupt data');
    return this.out;
  }
}
