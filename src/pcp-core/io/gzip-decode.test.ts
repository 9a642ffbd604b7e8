// gzip -dc's framing on top of fflate, with data made by node:zlib: members, trailers,
// trailing bytes, and formats gzip -dc knows but we do not decode.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeGzip } from './gzip-decode';
import { crc32 } from './crc32';
import { PM_ERR_LOGREC, PM_ERR_NYI, PmError } from '../errors';

const data = Uint8Array.from({ length: 50_000 }, (_, i) => (i * 7 + (i >> 7)) & 0xff);
const cat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));

function code(f: () => unknown): number {
  try {
    f();
  } catch (e) {
    if (e instanceof PmError) return e.code;
    throw e;
  }
  throw new Error('no error');
}

describe('decodeGzip', () => {
  it('decodes one member, several members, and ignores trailing zeros', () => {
    expect(decodeGzip('a.gz', gzipSync(data))).toEqual(data);
    expect(decodeGzip('b.gz', cat(gzipSync(data.subarray(0, 1000)), gzipSync(data.subarray(1000))))).toEqual(data);
    expect(decodeGzip('c.gz', cat(gzipSync(data), new Uint8Array(12)))).toEqual(data);
    expect(decodeGzip('d.gz', gzipSync(new Uint8Array(0)))).toEqual(new Uint8Array(0));
  });

  it('refuses what gzip -dc refuses', () => {
    const one = gzipSync(data);
    const badCrc = Uint8Array.from(one);
    badCrc[badCrc.length - 8] ^= 1;
    expect(code(() => decodeGzip('crc.gz', badCrc))).toBe(PM_ERR_LOGREC);
    expect(code(() => decodeGzip('cut.gz', one.subarray(0, one.length - 20)))).toBe(PM_ERR_LOGREC);
    expect(code(() => decodeGzip('tail.gz', cat(one, new TextEncoder().encode('junk'))))).toBe(PM_ERR_LOGREC);
    expect(code(() => decodeGzip('half.gz', cat(one, Uint8Array.of(0x1f, 0x8b))))).toBe(PM_ERR_LOGREC);
    expect(code(() => decodeGzip('text.gz', new TextEncoder().encode('plain text')))).toBe(PM_ERR_LOGREC);
  });

  it('names the gzip -dc formats it does not decode', () => {
    expect(code(() => decodeGzip('lzw.Z', Uint8Array.of(0x1f, 0x9d, 0x90, 0x41)))).toBe(PM_ERR_NYI);
    expect(code(() => decodeGzip('pack.z', Uint8Array.of(0x1f, 0x1e, 0, 0)))).toBe(PM_ERR_NYI);
  });

  it('computes CRC-32 as gzip does', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });
});
