// The core's LZMA2 decoder (xz-framed.ts, lzma2-decoder.ts), as the xz pool's workers run it,
// against `xz -dc`: every .xz file of the QA archives up to 2 MB (and the 100 MB volume
// 20180416.10.00.0.xz), then files made here by `xz` with the options that change what the
// decoder meets (checks, literal/position bits, small dictionaries, several blocks, stored
// chunks of incompressible data); prefixes, pieces and damage.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_ARCHIVES, scratchDir } from '../../../test/oracle';
import { MemorySource } from './memory-source';
import { XzSource } from './xz-source';
import { ByteCache } from './byte-cache';
import { decodeXzFramed, decodeXzFramedPieces, setXzStreamDecoder } from './xz-block';
import { XzDataError, XzFramedDecoder } from './xz-framed';
import { Crc64 } from './crc64';
import { PmError } from '../errors';

/** The framed streams the pool is sent, kept for the prefix and damage cases. */
const framedSeen: Array<{ framed: Uint8Array; size: number }> = [];

beforeAll(() => {
  // Whole blocks decode as in a pool worker, in this process.
  setXzStreamDecoder({
    decode: (framed, size) => {
      framedSeen.push({ framed: framed.slice(), size });
      return decodeXzFramed(framed, size);
    },
  });
});
afterAll(() => setXzStreamDecoder(undefined));

/** All of an .xz file's uncompressed bytes through XzSource (whole blocks: the decoder here). */
async function decodeAll(name: string, bytes: Uint8Array): Promise<Uint8Array> {
  const src = await XzSource.open(new MemorySource(name, bytes), new ByteCache(512 << 20));
  try {
    // A read of everything at once decodes every block whole.
    return await src.read(0, src.size);
  } finally {
    await src.close();
  }
}

function xzDc(path: string): Uint8Array {
  return new Uint8Array(execFileSync('xz', ['-dc', path], { maxBuffer: 1 << 30 }));
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

describe('CRC-64/XZ', () => {
  it('gives the catalogue check value, and the same in parts', () => {
    const crc = new Crc64();
    crc.update(new TextEncoder().encode('123456789'));
    expect(Buffer.from(crc.value()).toString('hex')).toBe('fa3919dfbbc95d99');
    const parts = new Crc64();
    const bytes = new TextEncoder().encode('123456789');
    parts.update(bytes, 0, 3);
    parts.update(bytes, 3, 9);
    expect(parts.value()).toEqual(crc.value());
  });
});

describe('QA archives: as xz -dc', () => {
  const files = readdirSync(QA_ARCHIVES)
    .filter((f) => f.endsWith('.xz') && !f.endsWith('.tar.xz'))
    .map((f) => join(QA_ARCHIVES, f))
    .filter((f) => statSync(f).size <= 2 << 20 || f.endsWith('20180416.10.00.0.xz'));

  it('finds the QA archives\' .xz files', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map((f) => [f.slice(QA_ARCHIVES.length + 1), f]))('%s', { timeout: 120_000 }, async (_name, path) => {
    const got = await decodeAll(path, new Uint8Array(readFileSync(path)));
    expect(same(got, xzDc(path))).toBe(true);
  });
});

describe('files made by xz: as the bytes compressed', () => {
  const dir = scratchDir('pmdash-xz-framed-');
  /** Text-like, repetitive bytes, with stretches of pseudo-random ones (stored chunks). */
  const input = (() => {
    const out = new Uint8Array(3 << 20);
    let seed = 7;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    let at = 0;
    for (let rec = 0; at < out.length; rec++) {
      const line = new TextEncoder().encode(`record ${rec} value ${rec % 17} ${(rec * 7919) % 1000} kernel.all.load\n`);
      out.set(line.subarray(0, Math.min(line.length, out.length - at)), at);
      at += line.length;
      if (rec % 5000 === 4999) for (let i = 0; i < 100_000 && at < out.length; i++) out[at++] = rand();
    }
    return out;
  })();
  const raw = join(dir, 'input');
  writeFileSync(raw, input);

  it.each([
    ['CRC64, default', ['-6']],
    ['CRC32', ['-C', 'crc32']],
    ['no check', ['-C', 'none']],
    ['SHA-256', ['-C', 'sha256']],
    ['lc=0 lp=2 pb=0', ['--lzma2=preset=6,lc=0,lp=2,pb=0']],
    ['lc=4 pb=4', ['--lzma2=preset=6,lc=4,lp=0,pb=4']],
    ['4 KiB dictionary', ['--lzma2=preset=1,dict=4KiB']],
    ['extreme', ['-9e']],
    ['several blocks', ['--block-size=300000']],
  ])('%s', { timeout: 60_000 }, async (_what, options) => {
    const packed = new Uint8Array(execFileSync('xz', ['-c', ...options, raw], { maxBuffer: 1 << 30 }));
    expect(same(await decodeAll('made.xz', packed), input)).toBe(true);
  });
});

describe('prefixes, pieces and damage', () => {
  it('a prefix decode gives the first bytes, and pieces make up the block', async () => {
    const path = join(QA_ARCHIVES, '20180416.10.00.meta.xz');
    const want = xzDc(path);
    framedSeen.length = 0;
    await decodeAll(path, new Uint8Array(readFileSync(path)));
    const { framed, size } = framedSeen[0];
    for (const n of [1, 808, 65536, 1 << 20]) {
      const d = new XzFramedDecoder(framed, size, n);
      d.to(n);
      expect(d.decoded).toBeGreaterThanOrEqual(n);
      expect(same(d.out.subarray(0, n), want.subarray(0, n))).toBe(true);
    }
    const whole = new Uint8Array(size);
    let next = 0;
    await decodeXzFramedPieces(framed, size, (piece, offset) => {
      expect(offset).toBe(next);
      // Pieces start at whole MiBs (their bounds), so aligned 1 MiB reads lie in one piece.
      expect(offset % (1 << 20)).toBe(0);
      whole.set(piece, offset);
      next = offset + piece.length;
    });
    expect(next).toBe(size);
    expect(same(whole, want)).toBe(true);
  });

  it('damaged data is an error in xz\'s words, named by the engine with file and block', async () => {
    const path = join(QA_ARCHIVES, '20180416.10.00.meta.xz');
    const good = new Uint8Array(readFileSync(path));
    for (const at of [40, 5000, 40_000, good.length - 80]) {
      const bad = good.slice();
      bad[at] ^= 0x10;
      const e = await decodeAll('damaged.meta.xz', bad).then(() => undefined, (err: unknown) => err);
      expect(e, `byte ${at} changed`).toBeInstanceOf(PmError);
      expect(String((e as PmError).describe())).toMatch(/^damaged\.meta\.xz \((xz block at offset 12|xz): .*\): Corrupted record/);
    }
    const { framed, size } = framedSeen[0];
    expect(() => new XzFramedDecoder(framed.subarray(0, 400), size).finish()).toThrow(XzDataError);
    expect(() => new XzFramedDecoder(framed, size + 1).finish()).toThrow(XzDataError);
  });
});
