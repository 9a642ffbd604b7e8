import { describe, expect, it } from 'vitest';
import { ByteWriter } from './byte-writer';

describe('ByteWriter', () => {
  it('appends past its hint', () => {
    const out = new ByteWriter(1);
    for (let i = 0; i < 3000; i++) out.u8(i & 0xff);
    out.bytes(Uint8Array.of(1, 2, 3));
    const bytes = out.take();
    expect(bytes.length).toBe(3003);
    expect(bytes[2999]).toBe(2999 & 0xff);
    expect([...bytes.subarray(3000)]).toEqual([1, 2, 3]);
  });

  it('writes big-endian words and patches them', () => {
    const out = new ByteWriter().u32(0).i32(-2).u16(0x102).u64(1n << 63n).f64(0.5);
    out.patchU32(0, 0xdeadbeef);
    expect([...out.finish().subarray(0, 10)]).toEqual([0xde, 0xad, 0xbe, 0xef, 0xff, 0xff, 0xff, 0xfe, 1, 2]);
    expect(new DataView(out.finish().buffer).getBigUint64(10)).toBe(1n << 63n);
    expect(new DataView(out.finish().buffer).getFloat64(18)).toBe(0.5);
  });

  it('encodes UTF-8 in place as TextEncoder does, refusing a wrong count', () => {
    const text = 'cpu0 é € 😀 \ud800';
    const n = new TextEncoder().encode(text).length;
    const out = new ByteWriter(4).u8(7).utf8(text, n).u8(9);
    expect([...out.take()]).toEqual([7, ...new TextEncoder().encode(text), 9]);
    expect(() => new ByteWriter().utf8('é', 1)).toThrow(RangeError);
  });

  it('writes ASCII text byte for byte, and nothing of a text that is not ASCII', () => {
    const out = new ByteWriter(2);
    expect(out.ascii('ab~')).toBe(true);
    expect(out.ascii('xé')).toBe(false);
    expect(out.ascii('')).toBe(true);
    expect(new TextDecoder().decode(out.finish())).toBe('ab~');
  });

  it('reserves room for bytes written by index', () => {
    const out = new ByteWriter(1).u8(7);
    const buf = out.reserve(100);
    for (let i = 0; i < 100; i++) buf[out.length + i] = i;
    out.length += 100;
    const bytes = out.finish();
    expect(bytes.length).toBe(101);
    expect([bytes[0], bytes[1], bytes[100]]).toEqual([7, 0, 99]);
  });
});
