// The core's xz decoder (xz-framed.ts, lzma2-decoder.ts, crc64.ts) against `xz -dc` on the
// paths its speed-ups take: decodes stopped and resumed at uneven points (long matches that
// cross where a piece or a prefix ends, the check updated in uneven parts), decodes into a
// buffer that held another volume (a pool worker's, kept between jobs), and a block's
// check failing where it is checked last (after the last piece of a decode in pieces) or as
// it goes, for CRC64 and CRC32. A QA .xz file is one block: the file is itself the framed
// stream the pool's workers decode.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES } from '../../../test/oracle';
import { decodeXzFramed, decodeXzFramedPieces } from './xz-block';
import { XzDataError, XzFramedDecoder } from './xz-framed';
import { Crc64 } from './crc64';
import { crc32 } from './crc32';

const META = join(QA_ARCHIVES, '20180416.10.00.meta.xz');

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

/** Where `needle` is in `hay`, searching from the end (a check sits just before the index). */
function lastIndexOf(hay: Uint8Array, needle: Uint8Array): number {
  return Buffer.from(hay.buffer, hay.byteOffset, hay.length).lastIndexOf(Buffer.from(needle));
}

const plain = new Uint8Array(execFileSync('xz', ['-dc', META], { maxBuffer: 1 << 30 }));
const framed = new Uint8Array(readFileSync(META));

describe('decodes stopped and resumed anywhere', () => {
  it('finds one block with a CRC64 (the file as the pool is sent it)', () => {
    expect(framed[7]).toBe(4);
    expect(plain.length).toBeGreaterThan(4 << 20);
  });

  it('in uneven steps, checked as it goes, gives xz -dc\'s bytes', () => {
    const steps = [1, 272, 273, 274, 4093, 65_537, 2];
    const d = new XzFramedDecoder(framed, plain.length);
    let calls = 0;
    for (let at = 0; at < plain.length; at = d.decoded) d.to(at + steps[calls++ % steps.length]);
    expect(calls).toBeGreaterThan(100);
    expect(same(d.finish(), plain)).toBe(true);
  });

  it('a prefix ending anywhere (a long match runs past it) gives xz -dc\'s first bytes', () => {
    for (const n of [2, 273, 1000, 12_345, 99_999, 1_048_575, 2_000_001, plain.length - 1]) {
      const d = new XzFramedDecoder(framed, plain.length, n);
      d.to(n);
      expect(d.decoded, `prefix ${n}`).toBeGreaterThanOrEqual(n);
      expect(same(d.out.subarray(0, n), plain.subarray(0, n)), `prefix ${n}`).toBe(true);
    }
  });
});

describe('decoding into a buffer used before (a pool worker\'s)', () => {
  it('gives xz -dc\'s bytes whatever the buffer held, whole and in pieces', async () => {
    const other = join(QA_ARCHIVES, '20180416.10.00.3.xz');
    const otherPlain = new Uint8Array(execFileSync('xz', ['-dc', other], { maxBuffer: 1 << 30 }));
    const into = new Uint8Array(Math.max(plain.length, otherPlain.length) + 5).fill(0xa5);
    for (const [bytes, want] of [
      [new Uint8Array(readFileSync(other)), otherPlain],
      [framed, plain],
      [new Uint8Array(readFileSync(other)), otherPlain],
    ] as const) {
      const whole = new Uint8Array(want.length);
      await decodeXzFramedPieces(bytes, want.length, (piece, offset) => whole.set(piece, offset), into);
      expect(same(whole, want)).toBe(true);
      expect(same(new XzFramedDecoder(bytes, want.length, want.length, into).finish(), want)).toBe(true);
    }
    // Too small a buffer: a new one.
    const small = new Uint8Array(10);
    const d = new XzFramedDecoder(framed, plain.length, plain.length, small);
    expect(d.out.buffer).not.toBe(small.buffer);
    expect(same(d.finish(), plain)).toBe(true);
  });
});

describe('a check that fails', () => {
  /** `bytes` with one bit of its stored check (found as `check`) flipped. */
  function badCheck(bytes: Uint8Array, check: Uint8Array): Uint8Array {
    const at = lastIndexOf(bytes, check);
    expect(at).toBeGreaterThan(bytes.length / 2);
    const bad = bytes.slice();
    bad[at + check.length - 1] ^= 0x01;
    return bad;
  }

  const crc64 = (() => {
    const c = new Crc64();
    c.update(plain);
    return c.value();
  })();

  it('CRC64, in pieces: every piece comes as decoded, then the decode fails', async () => {
    const bad = badCheck(framed, crc64);
    const whole = new Uint8Array(plain.length);
    let next = 0;
    const e = await decodeXzFramedPieces(bad, plain.length, (piece, offset) => {
      whole.set(piece, offset);
      next = offset + piece.length;
    }).then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(XzDataError);
    expect((e as Error).message).toBe('corrupt data');
    expect(next).toBe(plain.length);
    expect(same(whole, plain)).toBe(true);
    // The good file in pieces passes.
    await expect(decodeXzFramedPieces(framed, plain.length, () => undefined)).resolves.toBeUndefined();
  });

  it('CRC64, whole: the decode fails', async () => {
    await expect(decodeXzFramed(badCheck(framed, crc64), plain.length)).rejects.toThrow(XzDataError);
  });

  it('CRC32, whole and in pieces: the decode fails', async () => {
    const made = new Uint8Array(execFileSync('xz', ['-c', '-T1', '-C', 'crc32'], { input: plain, maxBuffer: 1 << 30 }));
    const check = new Uint8Array(4);
    new DataView(check.buffer).setUint32(0, crc32(plain), true);
    await expect(decodeXzFramed(made, plain.length)).resolves.toHaveLength(plain.length);
    const bad = badCheck(made, check);
    await expect(decodeXzFramed(bad, plain.length)).rejects.toThrow(XzDataError);
    await expect(decodeXzFramedPieces(bad, plain.length, () => undefined)).rejects.toThrow(XzDataError);
  });
});
