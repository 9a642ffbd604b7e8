// c-numeric.ts: glibc strtod's syntax and ERANGE rule (values measured with glibc 2.36),
// correct rounding of rationals, int64 → float and integer powers.
import { describe, expect, it } from 'vitest';
import { bigintToFloat32, doubleToInt64, doubleToInt64Number, doubleToUint64, doubleToUint64Number, powInt, rationalToDouble, strtod, strtol } from './c-numeric';

describe('strtod', () => {
  it.each([
    ['1e-310', 1e-310, true, 6],
    ['1e-400', 0, true, 6],
    ['4.9e-324', 5e-324, true, 8],
    ['2.2250738585072014e-308', 2.2250738585072014e-308, false, 23],
    ['2.2250738585072011e-308', 2.225073858507201e-308, true, 23],
    ['1e309', Infinity, true, 5],
    ['0x1p-1074', 5e-324, false, 9],
    ['0x1.8p-1070', 1.2e-322, false, 11],
    ['infinityx', Infinity, false, 8],
    ['inf', Infinity, false, 3],
    ['0x', 0, false, 1],
    ['1e', 1, false, 1],
    ['0x.8', 0.5, false, 4],
    ['1e+', 1, false, 1],
    ['  -2.5e3x', -2500, false, 8],
  ])('%j', (text, value, erange, end) => {
    expect(strtod(text, 0)).toEqual({ value, erange, end });
  });
  it('converts nothing from text without a number', () => {
    expect(strtod('.e1', 0).end).toBe(0);
    expect(strtod('x', 0).end).toBe(0);
    expect(Number.isNaN(strtod('nan(123)x', 0).value)).toBe(true);
    expect(strtod('nan(123)x', 0).end).toBe(8);
  });
  it('strtol reads a signed decimal', () => {
    expect(strtol(' -12x', 0)).toEqual({ value: -12, end: 4 });
    expect(strtol('x', 0)).toEqual({ value: 0, end: 0 });
  });
});

describe('rounding', () => {
  it('rounds rationals to nearest, ties to even', () => {
    expect(rationalToDouble(1n, 3n)).toBe(1 / 3);
    expect(rationalToDouble(2n ** 53n + 1n, 1n)).toBe(2 ** 53);
    expect(rationalToDouble(2n ** 53n + 3n, 1n)).toBe(2 ** 53 + 4);
    expect(rationalToDouble(-(10n ** 400n), 1n)).toBe(-Infinity);
  });
  it('rounds int64 to float once', () => {
    expect(bigintToFloat32(9007199791611905n)).toBe(9007200328482816);
    expect(bigintToFloat32(16777217n)).toBe(16777216);
    expect(bigintToFloat32(-16777219n)).toBe(-16777220);
  });
  it('computes integer powers exactly rounded', () => {
    expect(powInt(1024, 3)).toBe(1073741824);
    expect(powInt(10, -3)).toBe(0.001);
    expect(powInt(0.001, -2)).toBe(1000000);
    expect(powInt(60, -1)).toBe(1 / 60);
    expect(powInt(2, 0)).toBe(1);
  });
});


describe('doubleToInt64Number / doubleToUint64Number', () => {
  // Where they give a number it is the C cast's value (doubleToInt64 / doubleToUint64, pinned to
  // libpcp by the conformance tests); beyond 2^53 and for NaN they give none.
  const xs = [0, -0, 0.5, -0.5, -0.99, 1.5, -1.5, 2 ** 52 + 0.5, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 2 ** 63, -(2 ** 63), 1e300, -Infinity, Infinity, NaN, 123456789.987];
  it('agree with the bigint casts where the value is a safe integer, and say none elsewhere', () => {
    for (const x of xs) {
      const s = doubleToInt64Number(x);
      const u = doubleToUint64Number(x);
      const sb = doubleToInt64(x);
      const ub = doubleToUint64(x);
      const safe = (b: bigint): boolean => b >= -BigInt(Number.MAX_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER);
      if (Number.isNaN(x) || !Number.isFinite(x)) expect([s, u]).toEqual([undefined, undefined]);
      if (s !== undefined) expect([x, BigInt(s)]).toEqual([x, sb]);
      else if (Number.isFinite(x) && Math.abs(x) < 2 ** 63) expect([x, safe(sb)]).toEqual([x, false]);
      if (u !== undefined) expect([x, BigInt(u)]).toEqual([x, ub]);
      if (s !== undefined) expect(Object.is(s, -0)).toBe(false);
      if (u !== undefined) expect(Object.is(u, -0)).toBe(false);
    }
  });
});
