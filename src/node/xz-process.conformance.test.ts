// The system-xz decoder against pcp-core's own WebAssembly decoder on real pmlogger volumes,
// its errors, its fallback when there is no xz, and XzSource.readAhead on top of it.
import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { xzProcessDecoder } from './xz-process';
import { openFileSource } from './file-source';
import { ByteCache } from '../pcp-core/io/byte-cache';
import { MemorySource } from '../pcp-core/io/memory-source';
import { XzSource } from '../pcp-core/io/xz-source';
import { setXzStreamDecoder, xzDecodesOffThread, type XzStreamDecoder } from '../pcp-core/io/xz-block';
import { PM_ERR_LOGREC, PmError } from '../pcp-core/errors';
import { QA_ARCHIVES } from '../../test/oracle';
import { DirFileSet } from './dir-file-set';
import { openArchiveContext } from '../pcp-core/context/archive-context';
import { PM_MODE_INTERP } from '../pcp-core/context/context';
import type { PmId } from '../pcp-core/types';

const VOLUME = `${QA_ARCHIVES}/20180606.0.xz`;

/** The whole uncompressed file, through an XzSource with its own cache. */
async function decodeAll(path: string): Promise<Uint8Array> {
  const src = await XzSource.open(await openFileSource(path), new ByteCache(512 << 20));
  try {
    return await src.read(0, src.size);
  } finally {
    await src.close();
  }
}

/** Counts the blocks a decoder is asked for. */
function counting(inner: XzStreamDecoder): XzStreamDecoder & { calls: number } {
  const d = {
    calls: 0,
    decode(framed: Uint8Array, size: number) {
      d.calls++;
      return inner.decode(framed, size);
    },
  };
  return d;
}

afterEach(() => setXzStreamDecoder(undefined));

describe('system xz decoder', () => {
  it('decodes real volumes exactly as the WebAssembly decoder does', async () => {
    for (const path of [VOLUME, `${QA_ARCHIVES}/20180606.meta.xz`]) {
      const wasm = await decodeAll(path);
      const decoder = counting(xzProcessDecoder());
      setXzStreamDecoder(decoder);
      const native = await decodeAll(path);
      setXzStreamDecoder(undefined);
      expect(decoder.calls, path).toBeGreaterThan(0);
      expect(native.length, path).toBe(wasm.length);
      expect(Buffer.compare(native, wasm), path).toBe(0);
    }
  });

  it("reports xz's verdict on damaged data as a corrupted record naming the file and block", async () => {
    const bytes = new Uint8Array(await readFile(VOLUME));
    bytes[2000] ^= 0x55; // inside the block's compressed data
    setXzStreamDecoder(xzProcessDecoder());
    const src = await XzSource.open(new MemorySource('damaged.0.xz', bytes), new ByteCache(512 << 20));
    const e = await src.read(0, src.size).then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(PmError);
    expect((e as PmError).code).toBe(PM_ERR_LOGREC);
    expect((e as PmError).describe()).toMatch(/^damaged\.0\.xz \(xz block at offset 12: xz: .+\): Corrupted record/);
    await src.close();
  });

  it('hands blocks back to WebAssembly for good when there is no xz program', async () => {
    const warnings: string[] = [];
    setXzStreamDecoder(xzProcessDecoder({ program: '/nonexistent/xz', warn: (t) => warnings.push(t) }));
    expect(xzDecodesOffThread()).toBe(true);
    const bytes = await decodeAll(VOLUME);
    expect(xzDecodesOffThread()).toBe(false);
    expect(warnings).toEqual([]); // xz-utils is optional: no warning for its absence
    setXzStreamDecoder(undefined);
    expect(Buffer.compare(bytes, await decodeAll(VOLUME))).toBe(0);
  });

  it('says why, once, and decodes in WebAssembly when it has no room for its output', async () => {
    const warnings: string[] = [];
    setXzStreamDecoder(xzProcessDecoder({ scratchDir: '/nonexistent/scratch', warn: (t) => warnings.push(t) }));
    const bytes = await decodeAll(VOLUME);
    expect(xzDecodesOffThread()).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/\/nonexistent\/scratch.*; decoding \.xz in WebAssembly instead$/);
    setXzStreamDecoder(undefined);
    expect(Buffer.compare(bytes, await decodeAll(VOLUME))).toBe(0);
  });

  it('reads ahead whole blocks once, and only when decoding is off this thread', async () => {
    const path = VOLUME;
    let src = await XzSource.open(await openFileSource(path), new ByteCache(512 << 20));
    await src.readAhead(0, src.size); // WebAssembly: a no-op, nothing to wait for
    await src.close();
    const decoder = counting(xzProcessDecoder());
    setXzStreamDecoder(decoder);
    src = await XzSource.open(await openFileSource(path), new ByteCache(512 << 20));
    await Promise.all([src.readAhead(0, src.size), src.readAhead(0, src.size)]);
    expect(decoder.calls).toBe(src.blocks.length);
    await src.read(0, src.size);
    expect(decoder.calls).toBe(src.blocks.length);
    await src.close();
    // Not a block too big for half the cache (one that keeps only its newest entry): it would
    // push out what is being read.
    const calls = decoder.calls;
    src = await XzSource.open(await openFileSource(path), new ByteCache(4 * 1024 * 1024));
    await src.readAhead(0, src.size);
    expect(decoder.calls).toBe(calls);
    await src.close();
  });

  it("decodes each block of a context's first volume once: replay shares the read-ahead's decode", async () => {
    const layout = await XzSource.open(await openFileSource(VOLUME));
    const blockSizes = layout.blocks.map((b) => b.uncompressedSize);
    await layout.close();
    const sizes: number[] = [];
    const inner = xzProcessDecoder();
    setXzStreamDecoder({ decode: (framed, size) => (sizes.push(size), inner.decode(framed, size)) });
    const ctx = await openArchiveContext(new DirFileSet(), `${QA_ARCHIVES}/20180606`);
    const pmids = (await ctx.lookupNames(['kernel.all.load'])) as PmId[];
    ctx.setMode(PM_MODE_INTERP, ctx.set.label.start, 10_000_000_000n);
    for (let i = 0; i < 50; i++) await ctx.fetch(pmids);
    // Each block of the volume once (whole: the read-ahead's), besides the metadata's.
    for (const size of blockSizes) expect(sizes.filter((s) => s === size), `block of ${size} bytes`).toHaveLength(1);
    await ctx.close();
  });

  it('leaves a failed read-ahead to the read, which reports it', async () => {
    const bytes = new Uint8Array(await readFile(VOLUME));
    bytes[2000] ^= 0x55;
    setXzStreamDecoder(xzProcessDecoder());
    const src = await XzSource.open(new MemorySource('damaged.0.xz', bytes), new ByteCache(512 << 20));
    await src.readAhead(0, src.size); // resolves: the hint itself does not fail
    const e = await src.read(0, src.size).then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(PmError);
    expect((e as PmError).describe()).toMatch(/^damaged\.0\.xz \(xz block at offset 12: xz: .+\): Corrupted record/);
    await src.close();
  });
});
