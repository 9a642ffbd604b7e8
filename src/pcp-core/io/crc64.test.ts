// CRC-64/XZ: the WebAssembly version against the catalogue's check value and against the
// JavaScript fallback, over lengths and offsets that take every path of both (the 16-byte
// loop, the byte tail, several copies into the WebAssembly memory, parts of any size).
import { describe, expect, it } from 'vitest';
import { Crc64, crc64Engine } from './crc64';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Pseudo-random bytes (a fixed LCG: the same every run). */
function bytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) out[i] = (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 24;
  return out;
}

describe('CRC-64/XZ', () => {
  it('runs in WebAssembly here', () => {
    expect(crc64Engine()).toBe('webassembly');
  });

  it.each([false, true])('gives the catalogue check value (JavaScript only: %s)', (javascript) => {
    // "123456789" → 0x995DC9BBDF1939FA, stored little-endian.
    const digits = new TextEncoder().encode('123456789');
    const crc = new Crc64(javascript);
    crc.update(digits);
    expect(hex(crc.value())).toBe('fa3919dfbbc95d99');
    const none = new Crc64(javascript);
    expect(hex(none.value())).toBe('0000000000000000');
  });

  it('is the same in WebAssembly and JavaScript, whole and in parts at any offset', () => {
    const data = bytes(300_003);
    for (const n of [63, 64, 65, 79, 80, 1000, 65_535, 65_536, 65_537, 200_001, 300_003]) {
      for (const from of [0, 1, 3, 7, 13]) {
        if (from >= n) continue;
        const w = new Crc64();
        const j = new Crc64(true);
        w.update(data, from, n);
        j.update(data, from, n);
        expect(hex(w.value()), `[${from}, ${n})`).toBe(hex(j.value()));
      }
    }
    // In uneven parts, both kinds interleaved (one module instance serves every Crc64).
    const whole = new Crc64(true);
    whole.update(data);
    const a = new Crc64();
    const b = new Crc64();
    let at = 0;
    for (const step of [1, 17, 64, 100_000, 3, 65_536, 90_000]) {
      a.update(data, at, Math.min(data.length, at + step));
      b.update(data.subarray(at, Math.min(data.length, at + step)));
      at = Math.min(data.length, at + step);
    }
    a.update(data, at);
    b.update(data.subarray(at));
    expect(hex(a.value())).toBe(hex(whole.value()));
    expect(hex(b.value())).toBe(hex(whole.value()));
  });

  it('differs when one bit of the data differs', () => {
    const data = bytes(100_000, 7);
    const crc = new Crc64();
    crc.update(data);
    const flipped = data.slice();
    flipped[77_777] ^= 0x04;
    const other = new Crc64();
    other.update(flipped);
    expect(hex(other.value())).not.toBe(hex(crc.value()));
  });
});
