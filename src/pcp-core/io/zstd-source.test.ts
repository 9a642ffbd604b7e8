// ZstdSource as the browser's worker uses it (fzstd and xxhash-wasm, no system tools): frames
// built here from raw and RLE blocks (whose layout is plain bytes, RFC 8878 §3.1.1.2), one
// frame of real compressed blocks made by `zstd --no-check`, several frames with and without
// content sizes and checksums, skippable frames, reads that decode only the frames they
// cover, and damage reported as PM_ERR_LOGREC naming the file and offset.
import xxhash from 'xxhash-wasm';
import { describe, expect, it } from 'vitest';
import { MemorySource } from './memory-source';
import { memoryFileSet } from './listed-file-set';
import { openStored } from './open-stored';
import { ZstdSource } from './zstd-source';
import { readZstdLayout } from './zstd-layout';
import { ByteCache } from './byte-cache';
import type { ByteSource } from './byte-source';
import { PM_ERR_LOGREC, PM_ERR_NYI, PmError } from '../errors';

const hasher = await xxhash();

const u32 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];
const blockHeader = (last: boolean, type: number, size: number): number[] => {
  const h = (last ? 1 : 0) | (type << 1) | (size << 3);
  return [h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff];
};

interface FrameOptions {
  /** State the content size in the header (else: a 1 KB window, no size). */
  readonly contentSize?: boolean;
  readonly checksum?: boolean;
  /** Pieces of at most 1 KB: a string is a raw block, [byte, count] an RLE block. */
  readonly blocks: ReadonlyArray<string | readonly [number, number]>;
}

/** A zstd frame of raw and RLE blocks, and its content. */
function frame(o: FrameOptions): { bytes: Uint8Array; content: Uint8Array } {
  const content = o.blocks.flatMap((b) => (typeof b === 'string' ? [...new TextEncoder().encode(b)] : new Array<number>(b[1]).fill(b[0])));
  const out = [...u32(0xfd2fb528)];
  if (o.contentSize) out.push((2 << 6) | (1 << 5) | (o.checksum ? 4 : 0), ...u32(content.length));
  else out.push(o.checksum ? 4 : 0, 0x00);
  o.blocks.forEach((b, i) => {
    const last = i === o.blocks.length - 1;
    if (typeof b === 'string') {
      const raw = new TextEncoder().encode(b);
      out.push(...blockHeader(last, 0, raw.length), ...raw);
    } else {
      out.push(...blockHeader(last, 1, b[1]), b[0]);
    }
  });
  if (o.checksum) out.push(...u32(Number(hasher.h64Raw(Uint8Array.from(content)) & 0xffffffffn)));
  return { bytes: Uint8Array.from(out), content: Uint8Array.from(content) };
}

const skippable = (n: number): Uint8Array => Uint8Array.from([...u32(0x184d2a53), ...u32(n), ...new Array<number>(n).fill(7)]);

const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** `zstd -c --no-check` of a file holding REAL_TEXT (a single-segment frame: its size is stated). */
const REAL = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x38, 0x75, 0x00, 0x00, 0x40, 0x70, 0x6d, 0x64, 0x61, 0x73, 0x68, 0x20, 0x21, 0x01, 0x00, 0x29, 0x2a, 0x46]);
const REAL_TEXT = `${'pmdash '.repeat(7)}pmdash!`;

const f1 = frame({ contentSize: true, checksum: true, blocks: ['first frame, ', [0x41, 600], ' end of first\n'] });
const f2 = frame({ checksum: true, blocks: ['second frame, no size in its header\n'] });
const f3 = frame({ contentSize: true, blocks: [[0x42, 1000], 'third\n'] });
const MULTI = concat(f1.bytes, skippable(5), f2.bytes, REAL, f3.bytes);
const MULTI_TEXT = concat(f1.content, f2.content, new TextEncoder().encode(REAL_TEXT), f3.content);

/** A MemorySource that records its reads. */
class Recording extends MemorySource {
  readonly reads: Array<[number, number]> = [];
  override read(offset: number, length: number): Promise<Uint8Array> {
    this.reads.push([offset, length]);
    return super.read(offset, length);
  }
}

async function failure(p: Promise<unknown>): Promise<PmError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  if (!(e instanceof PmError)) throw new Error(`expected a PmError, got ${String(e)}`);
  return e;
}

async function readAll(src: ByteSource): Promise<Uint8Array> {
  return src.read(0, src.size);
}

describe('zstd layout and source', () => {
  it('finds data frames, their sizes and checksums, and skips skippable frames', async () => {
    const layout = await readZstdLayout(new MemorySource('multi.zst', MULTI));
    expect(layout.skippableFrames).toBe(1);
    expect(layout.frames.map((f) => [f.offset, f.compressedSize, f.contentSize, f.checksum])).toEqual([
      [0, f1.bytes.length, f1.content.length, true],
      [f1.bytes.length + 13, f2.bytes.length, undefined, true],
      [f1.bytes.length + 13 + f2.bytes.length, REAL.length, 56, false],
      [f1.bytes.length + 13 + f2.bytes.length + REAL.length, f3.bytes.length, f3.content.length, false],
    ]);
  });

  it('decodes a frame of compressed blocks', async () => {
    const src = await ZstdSource.open(new MemorySource('real.zst', REAL), new ByteCache(1 << 20));
    expect(new TextDecoder().decode(await readAll(src))).toBe(REAL_TEXT);
    await src.close();
  });

  it('reads inside and across frames, equal to the content', async () => {
    const src = await ZstdSource.open(new MemorySource('multi.zst', MULTI), new ByteCache(1 << 20));
    expect(src.size).toBe(MULTI_TEXT.length);
    const ends = src.frames.map((f) => f.uncompressedOffset + f.uncompressedSize);
    for (const [offset, length] of [[0, 5], [ends[0] - 3, 10], [ends[1] - 1, 60], [0, 5000], [MULTI_TEXT.length - 1, 5], [MULTI_TEXT.length, 1], [700, 0]]) {
      expect(await src.read(offset, length), `read(${offset}, ${length})`).toEqual(
        MULTI_TEXT.subarray(Math.min(offset, MULTI_TEXT.length), Math.min(offset + length, MULTI_TEXT.length)),
      );
    }
    await src.close();
  });

  it('decodes only the frames a read covers', async () => {
    const compressed = new Recording('multi.zst', MULTI);
    const src = await ZstdSource.open(compressed, new ByteCache(1 << 20));
    const [, second, third] = src.frames;
    compressed.reads.length = 0;
    expect(await src.read(third.uncompressedOffset + 3, 10)).toEqual(MULTI_TEXT.subarray(third.uncompressedOffset + 3, third.uncompressedOffset + 13));
    expect(compressed.reads).toEqual([[third.offset, third.compressedSize]]);
    // The frame without a content size was decoded at open to learn it, and is cached.
    compressed.reads.length = 0;
    await src.read(second.uncompressedOffset, 4);
    expect(compressed.reads).toEqual([]);
    await src.close();
  });

  it('decodes a prefix of a large frame for a read near its start, the whole frame for more', async () => {
    const big = frame({ contentSize: true, checksum: true, blocks: ['label', ...Array.from({ length: 12 }, (_, i) => String.fromCharCode(0x41 + i).repeat(100_000)), 'end'] });
    const cache = new ByteCache(64 << 20);
    const src = await ZstdSource.open(new MemorySource('big.zst', big.bytes), cache);
    expect(src.size).toBe(big.content.length);
    expect(new TextDecoder().decode(await src.read(0, 5))).toBe('label');
    expect(cache.size).toBeGreaterThanOrEqual(64 * 1024);
    expect(cache.size).toBeLessThan(big.content.length / 2);
    expect(await src.read(big.content.length - 10, 10)).toEqual(big.content.subarray(big.content.length - 10));
    expect(cache.size).toBe(big.content.length);
    expect(await src.read(0, big.content.length)).toEqual(big.content);
    await src.close();
    // Damage the prefix does not reach is found when the whole frame is decoded, and checked.
    const damaged = big.bytes.slice();
    damaged[damaged.length - 6] ^= 0x20; // inside the last raw block
    const bad = await ZstdSource.open(new MemorySource('big.zst', damaged), new ByteCache(64 << 20));
    expect(new TextDecoder().decode(await bad.read(0, 5))).toBe('label');
    const e = await failure(bad.read(big.content.length - 10, 10));
    expect(e.describe()).toContain('big.zst (zstd: frame at 0: content checksum mismatch)');
    await bad.close();
  });

  it('opens .zst files of a file set through openStored, as the worker does', async () => {
    const fs = memoryFileSet('dropped', [['a.0.zst', MULTI]]);
    const src = await openStored(fs, 'a.0.zst');
    expect(await readAll(src)).toEqual(MULTI_TEXT);
    await src.close();
  });

  describe('damage is PM_ERR_LOGREC naming the file and the offset', () => {
    const f3At = f1.bytes.length + 13 + f2.bytes.length + REAL.length;
    it.each<[string, Uint8Array, RegExp]>([
      ['an empty file', new Uint8Array(0), /bad\.zst \(zstd: empty file\)/],
      ['no frame magic', concat(f1.bytes, Uint8Array.of(1, 2, 3, 4, 5)), new RegExp(`bad\\.zst \\(zstd: no frame at ${f1.bytes.length}\\)`)],
      ['a frame cut short', MULTI.subarray(0, MULTI.length - 4), new RegExp(`frame at ${f3At}: block at \\d+ is cut short at ${MULTI.length - 4}`)],
      ['a reserved block type', concat(f1.bytes, Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x07, 0x00, 0x00)), new RegExp(`frame at ${f1.bytes.length}: block at ${f1.bytes.length + 6} has the reserved type`)],
      ['a skippable frame cut short', concat(f1.bytes, skippable(5).subarray(0, 10)), new RegExp(`skippable frame at ${f1.bytes.length} is cut short`)],
    ])('%s, at open', async (_what, bytes, message) => {
      const e = await failure(ZstdSource.open(new MemorySource('bad.zst', bytes)));
      expect(e.code).toBe(PM_ERR_LOGREC);
      expect(e.describe()).toMatch(message);
    });

    it('a content checksum mismatch, at the read of that frame', async () => {
      const bytes = MULTI.slice();
      bytes[20] ^= 0x01; // inside the first raw block of the first frame
      const src = await ZstdSource.open(new MemorySource('bad.zst', bytes), new ByteCache(1 << 20));
      const e = await failure(src.read(0, 10));
      expect(e.code).toBe(PM_ERR_LOGREC);
      expect(e.describe()).toMatch(/bad\.zst \(zstd: frame at 0: content checksum mismatch\)/);
      // The other frames still read.
      const third = src.frames[3];
      expect(await src.read(third.uncompressedOffset, 6)).toEqual(MULTI_TEXT.subarray(third.uncompressedOffset, third.uncompressedOffset + 6));
      await src.close();
    });

    it('compressed data the decoder rejects', async () => {
      const realAt = f1.bytes.length + 13 + f2.bytes.length;
      const bytes = MULTI.slice();
      bytes[realAt + 9] = 0xff; // the literals section header of the compressed block
      const src = await ZstdSource.open(new MemorySource('bad.zst', bytes), new ByteCache(1 << 20));
      const e = await failure(src.read(src.frames[2].uncompressedOffset, 10));
      expect(e.code).toBe(PM_ERR_LOGREC);
      expect(e.describe()).toContain(`bad.zst (zstd: frame at ${realAt}: `);
      await src.close();
    });

    it('a dictionary frame is PM_ERR_NYI', async () => {
      const dict = Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x01, 0x00, 0x09, 0x01, 0x00, 0x00, 0x41);
      const e = await failure(ZstdSource.open(new MemorySource('dict.zst', dict)));
      expect(e.code).toBe(PM_ERR_NYI);
      expect(e.describe()).toContain('dict.zst (zstd: frame at 0 needs dictionary 9)');
    });
  });
});
