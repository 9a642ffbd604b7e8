// ReadAheadSource over a source that counts its reads: seeks pass through, a forward pass is
// read in aligned chunks ahead of the reader with a bounded number in flight, chunks that fail
// leave the error to the read itself, and held chunks stay within the cache's budget.
import { describe, expect, it } from 'vitest';
import type { ByteSource } from './byte-source';
import { ByteCache } from './byte-cache';
import { MemorySource } from './memory-source';
import { ReadAheadSource } from './read-ahead-source';

const KB = 1024;

/** A MemorySource whose reads take a macrotask and are logged; reads from `failAt` reject. */
class SlowSource implements ByteSource {
  readonly reads: [number, number][] = [];
  inFlight = 0;
  maxInFlight = 0;
  failAt = Infinity;
  private readonly mem: MemorySource;

  constructor(readonly bytes: Uint8Array) {
    this.mem = new MemorySource('slow', bytes);
  }

  get name(): string {
    return this.mem.name;
  }

  get size(): number {
    return this.mem.size;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    this.reads.push([offset, length]);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((r) => setTimeout(r, 1));
    this.inFlight--;
    if (offset + length > this.failAt) throw new Error(`slow: cannot read at ${offset}`);
    return this.mem.read(offset, length);
  }

  close(): Promise<void> {
    return this.mem.close();
  }
}

/** Byte-wise equality without vitest's element-by-element diff (slow on large arrays). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function pattern(n: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 7 + (i >> 8)) & 0xff);
}

describe('ReadAheadSource', () => {
  it('passes reads that do not follow the previous one straight through, reading nothing ahead', async () => {
    const inner = new SlowSource(pattern(1000 * KB));
    const src = new ReadAheadSource(inner, { chunkBytes: 64 * KB, depth: 4, cache: new ByteCache(1 << 20) });
    for (const [offset, length] of [[0, 132], [900 * KB, 4 * KB], [300 * KB, 10], [10 * KB, 100]]) {
      expect(same(await src.read(offset, length), inner.bytes.subarray(offset, offset + length))).toBe(true);
    }
    expect(inner.reads).toEqual([[0, 132], [900 * KB, 4 * KB], [300 * KB, 10], [10 * KB, 100]]);
    expect(src.inFlight).toBe(0);
  });

  it('reads a forward pass in aligned chunks ahead of the reader, a bounded number in flight', async () => {
    const size = 1000 * KB + 123;
    const inner = new SlowSource(pattern(size));
    const cache = new ByteCache(1 << 20);
    const src = new ReadAheadSource(inner, { chunkBytes: 64 * KB, depth: 3, cache });
    // Windows of 16 KiB that overlap a little, as the record reader's do, to the end.
    let got = 0;
    let held = 0;
    for (let at = 100; at < size; at += 16 * KB - 40) {
      const bytes = await src.read(at, 16 * KB);
      held = Math.max(held, cache.size);
      expect(same(bytes, inner.bytes.subarray(at, Math.min(size, at + 16 * KB)))).toBe(true);
      got++;
    }
    expect(got).toBeGreaterThan(60);
    // Windows are read as asked until the pass has read a chunk's worth; then only chunks.
    const asAsked = inner.reads.findIndex(([, length]) => length !== 16 * KB);
    expect(asAsked).toBeGreaterThan(0);
    expect(asAsked).toBeLessThanOrEqual(Math.ceil((64 * KB) / (16 * KB - 40)));
    const chunked = inner.reads.slice(asAsked);
    expect(chunked.every(([offset, length]) => offset % (64 * KB) === 0 && (length === 64 * KB || offset + length === size))).toBe(true);
    const starts = chunked.map(([offset]) => offset);
    expect(new Set(starts).size).toBe(starts.length); // each chunk read once
    expect(starts.length).toBe(Math.ceil(size / (64 * KB)));
    expect(inner.maxInFlight).toBeLessThanOrEqual(3 + 1);
    expect(inner.maxInFlight).toBeGreaterThan(1);
    // Behind the pass only the previous chunk stays; ahead of it, at most the depth.
    expect(held).toBeLessThanOrEqual((1 + 1 + 3) * 64 * KB);
    expect(held).toBeGreaterThanOrEqual(3 * 64 * KB);
  });

  it('reads ahead once a pass has read a chunk’s worth, one chunk more with each read, up to its depth', async () => {
    const inner = new SlowSource(pattern(1024 * KB));
    const src = new ReadAheadSource(inner, { chunkBytes: 64 * KB, depth: 4, cache: new ByteCache(1 << 20) });
    await src.read(0, 16 * KB);
    await src.read(16 * KB, 16 * KB);
    await src.read(32 * KB, 16 * KB); // a short run (a sample of a stepped replay): as asked
    expect(inner.reads.map(([offset, length]) => [offset / KB, length / KB])).toEqual([[0, 16], [16, 16], [32, 16]]);
    await src.read(48 * KB, 16 * KB); // a chunk's worth: its chunk and one ahead
    expect(inner.reads.slice(3).map(([offset]) => offset / KB)).toEqual([0, 64]);
    await src.read(64 * KB, 16 * KB); // in chunk 1: two ahead of it
    expect(inner.reads.slice(3).map(([offset]) => offset / KB)).toEqual([0, 64, 128, 192]);
    await src.read(80 * KB, 16 * KB); // three ahead
    await src.read(96 * KB, 16 * KB); // four: the depth
    await src.read(112 * KB, 16 * KB); // still four
    expect(inner.reads.slice(3).map(([offset]) => offset / KB)).toEqual([0, 64, 128, 192, 256, 320]);
  });

  it('starts a pass at once when told one begins (an archive just opened), reading ahead at full depth from its first read', async () => {
    const inner = new SlowSource(pattern(1024 * KB));
    const src = new ReadAheadSource(inner, { chunkBytes: 64 * KB, depth: 4, cache: new ByteCache(1 << 20) });
    expect(same(await src.read(0, 132), inner.bytes.subarray(0, 132))).toBe(true); // the label
    src.startPass(0, Infinity);
    // A depth's worth of chunks, read now, before any record is asked for.
    expect(inner.reads.slice(1)).toEqual([0, 64, 128, 192].map((k) => [k * KB, 64 * KB]));
    for (let at = 0; at < 256 * KB; at += 16 * KB) expect(same(await src.read(at, 16 * KB), inner.bytes.subarray(at, at + 16 * KB))).toBe(true);
    // Every read came from those chunks, and the pass read on ahead of them at full depth.
    const after = inner.reads.slice(5);
    expect(after.every(([offset, length]) => offset % (64 * KB) === 0 && length === 64 * KB && offset >= 256 * KB)).toBe(true);
    expect(after.map(([offset]) => offset / KB)).toEqual([256, 320, 384, 448]);
  });

  it('lets a pass the reads are making go on; a pass started elsewhere reads ahead no further than its end', async () => {
    const inner = new SlowSource(pattern(1024 * KB));
    const src = new ReadAheadSource(inner, { chunkBytes: 64 * KB, depth: 4, cache: new ByteCache(1 << 20) });
    for (let at = 300 * KB; at < 380 * KB; at += 16 * KB) await src.read(at, 16 * KB);
    const before = inner.reads.length;
    src.startPass(320 * KB, 1000);
    expect(inner.reads.length).toBe(before);
    // A window's replay from a seek: its chunks at once, none past its end (704 KiB).
    src.startPass(600 * KB, 100 * KB);
    expect(inner.reads.slice(before).map(([offset]) => offset / KB)).toEqual([576, 640]);
    for (let at = 600 * KB; at + 16 * KB <= 700 * KB; at += 16 * KB) expect(same(await src.read(at, 16 * KB), inner.bytes.subarray(at, at + 16 * KB))).toBe(true);
    expect(inner.reads.slice(before).map(([offset]) => offset / KB)).toEqual([576, 640]);
  });

  it('reads nothing ahead for short runs megabytes apart (a stepped replay over a big archive)', async () => {
    const inner = new SlowSource(pattern(2048 * KB));
    const src = new ReadAheadSource(inner, { chunkBytes: 64 * KB, depth: 4, cache: new ByteCache(1 << 20) });
    const asked: [number, number][] = [];
    for (let at = 0; at + 32 * KB <= 2048 * KB; at += 200 * KB) {
      for (const part of [at, at + 16 * KB]) {
        await src.read(part, 16 * KB);
        asked.push([part, 16 * KB]);
      }
    }
    expect(inner.reads).toEqual(asked);
  });

  it('serves a second reader trailing the first in one pass from the chunks read ahead', async () => {
    // A stepped replay: its prefetch reads 16 KiB windows a few samples ahead, and the replay
    // then reads the same windows; the pass goes on, each chunk read once, none dropped under
    // the trailing reader.
    const size = 2048 * KB;
    const inner = new SlowSource(pattern(size));
    const src = new ReadAheadSource(inner, { chunkBytes: 64 * KB, depth: 4, cache: new ByteCache(1 << 20) });
    const windows: number[] = [];
    for (let at = 0; at + 16 * KB <= size; at += 16 * KB) windows.push(at);
    const lead = 8;
    for (let k = 0; k < windows.length + lead; k++) {
      const ahead = windows[k];
      if (ahead !== undefined) await src.read(ahead, 16 * KB);
      const behind = windows[k - lead];
      if (behind !== undefined) expect(same(await src.read(behind, 16 * KB), inner.bytes.subarray(behind, behind + 16 * KB))).toBe(true);
    }
    const chunked = inner.reads.filter(([offset, length]) => offset % (64 * KB) === 0 && length === 64 * KB);
    // The pass's first chunk's worth of windows is read as asked; everything else in chunks.
    expect(inner.reads.length - chunked.length).toBeLessThanOrEqual(4);
    // Every chunk is read, and once, but the pass's first: the leader has left it behind
    // before the trailing reader's first read shows there is one.
    const starts = chunked.map(([offset]) => offset);
    expect(new Set(starts).size).toBe(size / (64 * KB));
    expect(starts.filter((o) => o !== 0)).toHaveLength(size / (64 * KB) - 1);
  });

  it('assembles a read across two chunks and passes a bulk read through', async () => {
    const inner = new SlowSource(pattern(512 * KB));
    const src = new ReadAheadSource(inner, { chunkBytes: 64 * KB, depth: 2, cache: new ByteCache(1 << 20) });
    await src.read(0, 60 * KB);
    expect(same(await src.read(60 * KB, 8 * KB), inner.bytes.subarray(60 * KB, 68 * KB))).toBe(true); // starts the pass
    expect(same(await src.read(68 * KB, 70 * KB), inner.bytes.subarray(68 * KB, 138 * KB))).toBe(true); // chunks 1 and 2
    const before = inner.reads.length;
    expect(same(await src.read(0, 512 * KB), inner.bytes)).toBe(true);
    expect(inner.reads.slice(before)).toContainEqual([0, 512 * KB]);
  });

  it('leaves a failed chunk to the read that needs it, which reports the source’s error', async () => {
    const inner = new SlowSource(pattern(512 * KB));
    inner.failAt = 200 * KB;
    const src = new ReadAheadSource(inner, { chunkBytes: 64 * KB, depth: 4, cache: new ByteCache(1 << 20) });
    await src.read(0, 16 * KB);
    await src.read(16 * KB, 16 * KB);
    expect(same(await src.read(128 * KB, 16 * KB), inner.bytes.subarray(128 * KB, 144 * KB))).toBe(true);
    await expect(src.read(190 * KB, 16 * KB)).rejects.toThrow('slow: cannot read at 194560');
    inner.failAt = Infinity; // the file is readable again: so is the range
    expect(same(await src.read(192 * KB, 16 * KB), inner.bytes.subarray(192 * KB, 208 * KB))).toBe(true);
  });

  it('holds no more than its cache’s budget, and nothing after close', async () => {
    const cache = new ByteCache(256 * KB);
    const inner = new SlowSource(pattern(2048 * KB));
    const src = new ReadAheadSource(inner, { chunkBytes: 64 * KB, depth: 4, cache });
    for (let at = 0; at < 2048 * KB; at += 16 * KB) {
      await src.read(at, 16 * KB);
      expect(cache.size).toBeLessThanOrEqual(256 * KB);
    }
    await src.close();
    expect(cache.size).toBe(0);
    await expect(src.read(0, 1)).rejects.toThrow('read after close');
  });
});
