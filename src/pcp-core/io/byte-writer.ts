// The core's one growable byte buffer: big-endian output appended in place into one
// allocation that doubles when full (PDUs, the archive writer, whole-file decompressors,
// test archives). Words are written in network byte order; values known only later (record
// and PDU lengths) are patched in.

/** Never preallocate more than this from a size hint (a hint read from a corrupt file may
 *  be absurd); growing past it is still fine. */
const MAX_HINT = 256 * 1024 * 1024;

const utf8Encoder = new TextEncoder();

export class ByteWriter {
  private buf: Uint8Array<ArrayBuffer>;
  private view: DataView;
  /** Bytes written so far. */
  length = 0;

  /** Bytes the buffer holds before it must grow. */
  get capacity(): number {
    return this.buf.length;
  }

  /** @param capacity expected final size; a wrong guess only costs a copy */
  constructor(capacity = 256) {
    this.buf = new Uint8Array(Math.min(Math.max(16, capacity), MAX_HINT));
    this.view = new DataView(this.buf.buffer);
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    if (this.length === this.buf.length) this.room(1);
    this.buf[this.length++] = v & 0xff;
    return this;
  }
  u16(v: number): this {
    this.room(2);
    this.view.setUint16(this.length, v);
    this.length += 2;
    return this;
  }
  u32(v: number): this {
    this.room(4);
    this.view.setUint32(this.length, v >>> 0);
    this.length += 4;
    return this;
  }
  i32(v: number): this {
    this.room(4);
    this.view.setInt32(this.length, v | 0);
    this.length += 4;
    return this;
  }
  u64(v: bigint): this {
    this.room(8);
    this.view.setBigUint64(this.length, BigInt.asUintN(64, v));
    this.length += 8;
    return this;
  }
  i64(v: bigint): this {
    this.room(8);
    this.view.setBigInt64(this.length, BigInt.asIntN(64, v));
    this.length += 8;
    return this;
  }
  f32(v: number): this {
    this.room(4);
    this.view.setFloat32(this.length, v);
    this.length += 4;
    return this;
  }
  f64(v: number): this {
    this.room(8);
    this.view.setFloat64(this.length, v);
    this.length += 8;
    return this;
  }
  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  /** A string's UTF-8 bytes, `byteLength` of them (the caller counted them): encoded in
   *  place, with no array of its own per string. */
  utf8(s: string, byteLength: number): this {
    this.room(byteLength);
    const { written } = utf8Encoder.encodeInto(s, this.buf.subarray(this.length, this.length + byteLength));
    if (written !== byteLength) throw new RangeError(`utf8: ${written} bytes written, ${byteLength} counted`);
    this.length += byteLength;
    return this;
  }

  /**
   * `text` as bytes, one per character, if every character is ASCII (then it is its UTF-8 too);
   * false, with nothing written, if one is not.
   */
  ascii(text: string): boolean {
    const n = text.length;
    this.room(n);
    const buf = this.buf;
    const at = this.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) return false;
      buf[at + i] = c;
    }
    this.length = at + n;
    return true;
  }
  /**
   * Room for `n` more bytes: the buffer to write them into from `length` on, by index, after
   * which the caller advances `length` (a loop writing byte by byte, without a call per byte).
   */
  reserve(n: number): Uint8Array<ArrayBuffer> {
    this.room(n);
    return this.buf;
  }
  /** `n` copies of one byte (padding). */
  fill(byte: number, n: number): this {
    this.room(n);
    this.buf.fill(byte, this.length, this.length + n);
    this.length += n;
    return this;
  }

  /** Overwrites a word written earlier (a length known only at the end of a record). */
  patchU32(at: number, v: number): this {
    this.view.setUint32(at, v >>> 0);
    return this;
  }
  patchI32(at: number, v: number): this {
    this.view.setInt32(at, v | 0);
    return this;
  }
  /** Overwrites bytes written earlier. */
  patchBytes(at: number, b: Uint8Array): this {
    this.buf.set(b, at);
    return this;
  }

  /** The bytes written so far (a view: later writes may replace the buffer). */
  current(): Uint8Array<ArrayBuffer> {
    return this.buf.subarray(0, this.length);
  }

  /** The finished bytes, copied into an allocation of their own size. */
  finish(): Uint8Array<ArrayBuffer> {
    return this.buf.slice(0, this.length);
  }

  /** The finished bytes without a copy unless more than a quarter of the capacity is spare
   *  (whole decompressed volumes: a second full-size copy is what this avoids). */
  take(): Uint8Array<ArrayBuffer> {
    const view = this.buf.subarray(0, this.length);
    return this.length < this.buf.length * 0.75 ? view.slice() : view;
  }
}
