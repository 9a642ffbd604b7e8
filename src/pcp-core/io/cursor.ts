// A bounds-checked big-endian reader over one block of bytes. Every short read throws a
// DecodeError naming the source, the absolute file offset and the record being decoded, so a
// truncated or corrupt input is reported precisely instead of reading zeros.
import { DecodeError, PM_ERR_LOGREC } from '../errors';

export class Cursor {
  private readonly view: DataView;
  /** Position within `bytes`. */
  pos = 0;

  /**
   * @param bytes the block
   * @param source name of the file or stream, for errors
   * @param baseOffset absolute offset of bytes[0] in the source, for errors
   * @param record what is being decoded ("label", "record 12", "PDU RESULT"), for errors
   * @param code the error code a short read reports
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly source: string,
    readonly baseOffset = 0,
    public record = '',
    readonly code = PM_ERR_LOGREC,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  /** Throws unless `n` more bytes are available. */
  need(n: number, what: string): void {
    if (n < 0 || this.pos + n > this.bytes.length) {
      this.fail(`${what}: wanted ${n} bytes, ${this.remaining} left`);
    }
  }

  fail(detail: string, at = this.pos): never {
    throw new DecodeError(this.code, this.source, this.baseOffset + at, this.record, detail);
  }

  seek(pos: number): void {
    if (pos < 0 || pos > this.bytes.length) this.fail(`seek to ${pos} outside ${this.bytes.length} bytes`);
    this.pos = pos;
  }

  skip(n: number, what = 'skip'): void {
    this.need(n, what);
    this.pos += n;
  }

  u8(what = 'u8'): number {
    this.need(1, what);
    return this.view.getUint8(this.pos++);
  }

  u16(what = 'u16'): number {
    this.need(2, what);
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }

  u32(what = 'u32'): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  i32(what = 'i32'): number {
    this.need(4, what);
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }

  u64(what = 'u64'): bigint {
    this.need(8, what);
    const v = this.view.getBigUint64(this.pos);
    this.pos += 8;
    return v;
  }

  i64(what = 'i64'): bigint {
    this.need(8, what);
    const v = this.view.getBigInt64(this.pos);
    this.pos += 8;
    return v;
  }

  /** A u64 that must fit a JavaScript number exactly (offsets, sizes). */
  u64Number(what = 'u64'): number {
    const v = this.u64(what);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) this.fail(`${what}: ${v} exceeds 2^53`, this.pos - 8);
    return Number(v);
  }

  f32(what = 'f32'): number {
    this.need(4, what);
    const v = this.view.getFloat32(this.pos);
    this.pos += 4;
    return v;
  }

  f64(what = 'f64'): number {
    this.need(8, what);
    const v = this.view.getFloat64(this.pos);
    this.pos += 8;
    return v;
  }

  /** A view of the next `n` bytes (not a copy). */
  bytesView(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const v = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** `n` bytes as text: UTF-8, stopping at the first NUL as C strings do. */
  cstring(n: number, what = 'string'): string {
    const raw = this.bytesView(n, what);
    return decodeCStringAt(raw, 0, raw.length);
  }
}

const utf8 = new TextDecoder('utf-8');

/**
 * Short ASCII strings seen before, by a hash of their bytes. Metadata repeats the same names
 * over and over (every instance domain record lists all its instances' names), so most
 * decodes find their string here: a compare instead of a subarray and a new string each.
 */
const INTERN_SLOTS = 4096;
const interned: (string | undefined)[] = new Array<string | undefined>(INTERN_SLOTS);

/** The C string in bytes [start, end): up to the first NUL, as UTF-8 text. The one C-string
 *  decoder of the core (labels, metadata, value blocks, event parameters, PDUs). */
export function decodeCStringAt(bytes: Uint8Array, start: number, end: number): string {
  let nul = start;
  let hash = 0x811c9dc5;
  let ascii = true;
  while (nul < end) {
    const b = bytes[nul];
    if (b === 0) break;
    if (b >= 0x80) ascii = false;
    hash = Math.imul(hash ^ b, 0x01000193);
    nul++;
  }
  // Short ASCII strings are the common case; skip TextDecoder's per-call overhead for them.
  if (ascii && nul - start <= 32) {
    const slot = (hash >>> 0) % INTERN_SLOTS;
    const known = interned[slot];
    if (known !== undefined && known.length === nul - start) {
      let same = true;
      for (let i = 0; i < known.length; i++) {
        if (known.charCodeAt(i) !== bytes[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return known;
    }
    const text = String.fromCharCode.apply(null, bytes.subarray(start, nul) as unknown as number[]);
    interned[slot] = text;
    return text;
  }
  return utf8.decode(bytes.subarray(start, nul));
}

/** Decodes UTF-8 text up to the first NUL (C string semantics). */
export function decodeCString(raw: Uint8Array): string {
  return decodeCStringAt(raw, 0, raw.length);
}

/**
 * decodeCStringAt(bytes, table + offsets[i], end) for each offset (null for a negative one: a
 * delta's deleted instance), as a string table of an instance domain record holds them. A
 * table that is all ASCII is decoded once and each name is a substring of it: an export
 * walks every observation of a process domain (hundreds of names of 30–60 bytes, every 10 s),
 * where a decode per name cost more than writing them.
 */
export function decodeCStringTable(bytes: Uint8Array, table: number, end: number, offsets: Int32Array): (string | null)[] {
  const n = offsets.length;
  const out = new Array<string | null>(n);
  for (let i = table; i < end; i++) {
    if (bytes[i] >= 0x80) {
      for (let k = 0; k < n; k++) out[k] = offsets[k] >= 0 ? decodeCStringAt(bytes, table + offsets[k], end) : null;
      return out;
    }
  }
  const text = utf8.decode(bytes.subarray(table, end));
  for (let k = 0; k < n; k++) {
    const at = offsets[k];
    if (at < 0) {
      out[k] = null;
      continue;
    }
    const nul = text.indexOf('\0', at);
    out[k] = text.substring(at, nul < 0 ? text.length : nul);
  }
  return out;
}
