// ChunkedSource's decoding ahead (readAhead) against its cache's budget: chunks decoded ahead
// and not yet read fill at most half the budget, except that one may always be ahead however
// large (the cache keeps its two newest), so the chunk being read is never evicted by them.
import { describe, expect, it } from 'vitest';
import { ByteCache } from './byte-cache';
import { ChunkedSource, type Chunk, type ChunkDecodeOptions } from './chunked-source';
import { MemorySource } from './memory-source';

/** A source of `chunks` equal chunks of `size` bytes whose decodes it counts ("off thread"). */
class CountingSource extends ChunkedSource {
  readonly decodes: Array<{ chunk: number; want: number; ahead: boolean }> = [];
  constructor(name: string, chunks: number, size: number, cache: ByteCache) {
    const table: Chunk[] = Array.from({ length: chunks }, (_, i) => ({ uncompressedOffset: i * size, uncompressedSize: size }));
    super(new MemorySource(name, new Uint8Array(0)), table, cache, 'test', chunks * size);
  }
  protected decodeChunk(i: number, want: number, options: ChunkDecodeOptions): Promise<Uint8Array> {
    this.decodes.push({ chunk: i, want, ahead: options.ahead === true });
    return Promise.resolve(new Uint8Array(want).fill(i));
  }
  protected decodesOffThread(): boolean {
    return true;
  }
}

const MB = 1024 * 1024;

describe('ChunkedSource.readAhead', () => {
  it('decodes one large chunk ahead at a time, and the next once it is read', async () => {
    // 100 MB single-chunk volumes in a 128 MiB cache that keeps its two newest.
    const cache = new ByteCache(128 * MB, 2);
    const vols = [0, 1, 2, 3].map((v) => new CountingSource(`vol${v}`, 1, 100 * MB, cache));
    await vols[0].read(0, 10);
    await Promise.all([vols[1].readAhead(0, 100 * MB), vols[2].readAhead(0, 100 * MB)]);
    expect(vols[1].decodes).toEqual([{ chunk: 0, want: 100 * MB, ahead: true }]);
    expect(vols[2].decodes).toEqual([]);
    // Reading volume 1 (already decoded) makes room for volume 2 ahead.
    expect((await vols[1].read(5, 1))[0]).toBe(0);
    expect(vols[1].decodes).toHaveLength(1);
    await Promise.all([vols[2].readAhead(0, 100 * MB), vols[3].readAhead(0, 100 * MB)]);
    expect(vols[2].decodes).toEqual([{ chunk: 0, want: 100 * MB, ahead: true }]);
    expect(vols[3].decodes).toEqual([]);
    // The one being read and the one ahead are both still there.
    await vols[1].read(50 * MB, 10);
    await vols[2].read(0, 10);
    expect(vols[1].decodes).toHaveLength(1);
    expect(vols[2].decodes).toHaveLength(1);
    await Promise.all(vols.map((v) => v.close()));
  });

  it('decodes small chunks ahead up to half the budget', async () => {
    const cache = new ByteCache(64 * MB, 2);
    const src = new CountingSource('blocks', 20, 4 * MB, cache);
    await src.readAhead(0, 80 * MB);
    // 8 chunks of 4 MB: 32 MB, half of 64 MiB.
    expect(src.decodes.map((d) => d.chunk)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(src.decodes.every((d) => d.ahead)).toBe(true);
    // Reads take chunks off the ahead count: more may be decoded ahead.
    await src.read(0, 8 * MB);
    await src.readAhead(0, 80 * MB);
    expect(src.decodes.map((d) => d.chunk)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await src.close();
  });

  it('forgets chunks ahead that were evicted unread, or whose source closed', async () => {
    const cache = new ByteCache(128 * MB, 2);
    const a = new CountingSource('a', 1, 100 * MB, cache);
    const b = new CountingSource('b', 1, 100 * MB, cache);
    await a.readAhead(0, 100 * MB);
    await a.close();
    await b.readAhead(0, 100 * MB);
    expect(b.decodes).toEqual([{ chunk: 0, want: 100 * MB, ahead: true }]);
    const c = new CountingSource('c', 1, 100 * MB, cache);
    cache.clear();
    await c.readAhead(0, 100 * MB);
    expect(c.decodes).toHaveLength(1);
    await Promise.all([b.close(), c.close()]);
  });

  it('serves reads from the bytes a whole decode has told so far, before it ends', async () => {
    let told: ((available: number) => void) | undefined;
    let finish: (() => void) | undefined;
    const bytes = Uint8Array.from({ length: 1000 }, (_, k) => k & 0xff);
    class Streaming extends ChunkedSource {
      calls = 0;
      constructor() {
        super(new MemorySource('stream', new Uint8Array(0)), [{ uncompressedOffset: 0, uncompressedSize: 1000 }], new ByteCache(1 << 20, 2), 'test', 1000);
      }
      protected decodeChunk(_i: number, want: number, options: ChunkDecodeOptions): Promise<Uint8Array> {
        this.calls++;
        if (want < 1000) return Promise.resolve(bytes.slice(0, want));
        told = (available) => options.progress?.(bytes, available);
        return new Promise((resolve) => (finish = () => resolve(bytes)));
      }
      protected decodesOffThread(): boolean {
        return true;
      }
    }
    const src = new Streaming();
    void src.readAhead(0, 1000);
    let early: Uint8Array | undefined;
    let late: Uint8Array | undefined;
    void src.read(100, 50).then((b) => (early = b));
    void src.read(900, 50).then((b) => (late = b));
    await new Promise((r) => setTimeout(r, 0));
    expect(early).toBeUndefined();
    told?.(400);
    await new Promise((r) => setTimeout(r, 0));
    expect(early).toEqual(bytes.subarray(100, 150));
    expect(late).toBeUndefined();
    finish?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(late).toEqual(bytes.subarray(900, 950));
    // One whole decode served both reads.
    expect(src.calls).toBe(1);
    await src.close();
  });
});
