// Big-endian output for the archive writer: one byte writer per file (label, .meta, .index,
// data volume) with the on-disk encodings of archive-format.md §2 the core's writer lacks
// (the V3 timestamp with its low-word-first seconds, NUL-padded strings).
import { ByteWriter } from '../io/byte-writer';
import type { Timestamp } from '../types';

const utf8 = new TextEncoder();

/** The core's byte writer (io/byte-writer.ts) with the archive encodings. */
export class ArchiveByteWriter extends ByteWriter {
  /** §2.3 V3 timestamp: u32 sec_low, i32 sec_high, i32 nsec (the low word first). */
  stampV3(t: Timestamp): void {
    const high = Math.floor(t.sec / 0x100000000);
    this.u32(t.sec - high * 0x100000000);
    this.i32(high);
    this.i32(t.nsec);
  }

  /** A string's UTF-8 bytes, written in place (an export writes thousands of names and help
   *  texts: an array of its own for each was a tenth of the metadata's cost); returns how many. */
  text(s: string): number {
    if (this.ascii(s)) return s.length;
    const n = utf8Length(s);
    this.utf8(s, n);
    return n;
  }

  /** A string in a fixed field of `size` bytes: UTF-8, cut to size − 1 bytes, NUL-padded. */
  fixedString(s: string, size: number): void {
    const b = utf8.encode(s).subarray(0, size - 1);
    this.bytes(b);
    this.fill(0, size - b.length);
  }
}

/** Bytes of a string in UTF-8, counted without encoding it (a lone surrogate counts as the
 *  3-byte replacement character TextEncoder writes for it). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** UTF-8 bytes of a string. */
export function utf8Bytes(s: string): Uint8Array {
  return utf8.encode(s);
}
