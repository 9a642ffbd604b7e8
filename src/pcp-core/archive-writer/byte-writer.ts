// Big-endian output for the archive writer: one growable buffer per file (label, .meta,
// .index, data volume), appended in place, with the on-disk encodings of archive-format.md
// §2 (network byte order, the V3 timestamp with its low-word-first seconds, NUL-padded
// strings). Lengths that are only known after a record's body is written are patched in.
import type { Timestamp } from '../types';

const utf8 = new TextEncoder();

export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(capacity = 4096) {
    this.buf = new Uint8Array(capacity);
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

  u8(v: number): void {
    this.room(1);
    this.buf[this.length++] = v & 0xff;
  }
  u16(v: number): void {
    this.room(2);
    this.view.setUint16(this.length, v);
    this.length += 2;
  }
  u32(v: number): void {
    this.room(4);
    this.view.setUint32(this.length, v >>> 0);
    this.length += 4;
  }
  i32(v: number): void {
    this.room(4);
    this.view.setInt32(this.length, v | 0);
    this.length += 4;
  }
  u64(v: bigint): void {
    this.room(8);
    this.view.setBigUint64(this.length, BigInt.asUintN(64, v));
    this.length += 8;
  }
  i64(v: bigint): void {
    this.room(8);
    this.view.setBigInt64(this.length, BigInt.asIntN(64, v));
    this.length += 8;
  }
  f32(v: number): void {
    this.room(4);
    this.view.setFloat32(this.length, v);
    this.length += 4;
  }
  f64(v: number): void {
    this.room(8);
    this.view.setFloat64(this.length, v);
    this.length += 8;
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  /** `n` copies of one byte (padding). */
  fill(byte: number, n: number): void {
    this.room(n);
    this.buf.fill(byte, this.length, this.length + n);
    this.length += n;
  }

  /** §2.3 V3 timestamp: u32 sec_low, i32 sec_high, i32 nsec (the low word first). */
  stampV3(t: Timestamp): void {
    const high = Math.floor(t.sec / 0x100000000);
    this.u32(t.sec - high * 0x100000000);
    this.i32(high);
    this.i32(t.nsec);
  }

  /** A string in a fixed field of `size` bytes: UTF-8, cut to size − 1 bytes, NUL-padded. */
  fixedString(s: string, size: number): void {
    const b = utf8.encode(s).subarray(0, size - 1);
    this.bytes(b);
    this.fill(0, size - b.length);
  }

  /** Overwrites a u32 written earlier (a length known only at the end of a record). */
  patchU32(at: number, v: number): void {
    this.view.setUint32(at, v >>> 0);
  }

  /** Overwrites bytes written earlier (the label, once the start time is known). */
  patchBytes(at: number, b: Uint8Array): void {
    this.buf.set(b, at);
  }

  /** The bytes written so far (a view: later writes may replace the buffer). */
  current(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /** The finished bytes, copied into an allocation of their own size. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** UTF-8 bytes of a string. */
export function utf8Bytes(s: string): Uint8Array {
  return utf8.encode(s);
}
