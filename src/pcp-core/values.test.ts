// values.ts on the observed cases of derived-units-conversion.md §7.3 (libpcp 6.0.3).
import { describe, expect, it } from 'vitest';
import { PM_ERR_CONV, PM_ERR_SIGN, PM_ERR_TRUNC, PmError } from './errors';
import { PM_TYPE_32, PM_TYPE_64, PM_TYPE_AGGREGATE, PM_TYPE_DOUBLE, PM_TYPE_EVENT, PM_TYPE_FLOAT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64, PM_VAL_DPTR, PM_VAL_INSITU } from './types';
import type { AtomValue } from './types';
import { extractValue, toDouble, tryExtractValue } from './values';

const ok = (value: AtomValue, itype: number, otype: number): AtomValue => {
  const r = tryExtractValue(value, itype, otype);
  if (!r.ok) throw new Error(`error ${r.code}`);
  return r.value;
};
const code = (value: AtomValue, itype: number, otype: number, valfmt?: number): number | undefined => {
  const r = tryExtractValue(value, itype, otype, valfmt);
  return r.ok ? undefined : r.code;
};

describe('extractValue (pmExtractValue)', () => {
  it('checks bounds and signs as the §7.3 matrix says', () => {
    expect(code(-1, PM_TYPE_32, PM_TYPE_U32)).toBe(PM_ERR_SIGN);
    expect(code(-1, PM_TYPE_32, PM_TYPE_U64)).toBe(PM_ERR_SIGN);
    expect(code(0x80000000, PM_TYPE_U32, PM_TYPE_32)).toBe(PM_ERR_TRUNC);
    expect(code(0x80000000n, PM_TYPE_64, PM_TYPE_32)).toBe(PM_ERR_TRUNC);
    expect(code(0x100000000n, PM_TYPE_64, PM_TYPE_U32)).toBe(PM_ERR_TRUNC);
    expect(code(-1n, PM_TYPE_64, PM_TYPE_U32)).toBe(PM_ERR_SIGN);
    expect(code(1n << 63n, PM_TYPE_U64, PM_TYPE_64)).toBe(PM_ERR_TRUNC);
    expect(code(4294967295.0, PM_TYPE_DOUBLE, PM_TYPE_U32)).toBe(PM_ERR_TRUNC);
    expect(code(2147483647, PM_TYPE_DOUBLE, PM_TYPE_32)).toBe(PM_ERR_TRUNC);
    expect(code(-0.5, PM_TYPE_DOUBLE, PM_TYPE_U64)).toBe(PM_ERR_SIGN);
    expect(code(2 ** 64, PM_TYPE_FLOAT, PM_TYPE_U64)).toBe(PM_ERR_TRUNC);
    expect(code('x', PM_TYPE_STRING, PM_TYPE_DOUBLE)).toBe(PM_ERR_CONV);
    expect(code(1, PM_TYPE_DOUBLE, PM_TYPE_STRING)).toBe(PM_ERR_CONV);
    expect(code({ kind: 'events', highres: false, records: [] }, PM_TYPE_EVENT, PM_TYPE_EVENT)).toBe(PM_ERR_CONV);
  });

  it('reproduces the observed edge cases', () => {
    expect(ok(-5000000000n, PM_TYPE_64, PM_TYPE_32)).toBe(-705032704);
    expect(ok(4294967294.9, PM_TYPE_DOUBLE, PM_TYPE_U32)).toBe(4294967294);
    expect(ok(-2.7, PM_TYPE_DOUBLE, PM_TYPE_32)).toBe(-2);
    expect(ok(2.7, PM_TYPE_DOUBLE, PM_TYPE_FLOAT)).toBe(2.700000047683716);
    expect(ok(1e300, PM_TYPE_DOUBLE, PM_TYPE_FLOAT)).toBe(Infinity);
    expect(ok(2147483647, PM_TYPE_32, PM_TYPE_FLOAT)).toBe(2147483648);
    expect(ok(NaN, PM_TYPE_DOUBLE, PM_TYPE_32)).toBe(-2147483648);
    expect(ok(NaN, PM_TYPE_DOUBLE, PM_TYPE_U32)).toBe(0);
    expect(ok(NaN, PM_TYPE_DOUBLE, PM_TYPE_64)).toBe(-9223372036854775808n);
    expect(ok(NaN, PM_TYPE_DOUBLE, PM_TYPE_U64)).toBe(9223372036854775808n);
  });

  it('keeps 64-bit integers exact and rounds to float once', () => {
    expect(ok(9007199254740993n, PM_TYPE_U64, PM_TYPE_U64)).toBe(9007199254740993n);
    expect(ok(18446744073709551615n, PM_TYPE_U64, PM_TYPE_DOUBLE)).toBe(18446744073709551616);
    // 2^53 + 2^29 + 1: via double it would round twice (to 2^53); C rounds once.
    expect(ok(9007199791611905n, PM_TYPE_64, PM_TYPE_FLOAT)).toBe(9007200328482816);
  });

  it('copies strings and aggregates, and applies the value-format rules', () => {
    expect(ok('abc', PM_TYPE_STRING, PM_TYPE_STRING)).toBe('abc');
    const block = Uint8Array.of(1, 2, 3);
    const copy = ok(block, PM_TYPE_AGGREGATE, PM_TYPE_AGGREGATE);
    expect(copy).toEqual(block);
    expect(copy).not.toBe(block);
    expect(code(1n, PM_TYPE_64, PM_TYPE_64, PM_VAL_INSITU)).toBe(PM_ERR_CONV);
    expect(code(1, PM_TYPE_32, PM_TYPE_32, PM_VAL_DPTR)).toBe(PM_ERR_CONV);
    expect(code(1.5, PM_TYPE_FLOAT, PM_TYPE_DOUBLE, PM_VAL_INSITU)).toBeUndefined();
    expect(() => extractValue(-1, PM_TYPE_32, PM_TYPE_U32)).toThrow(PmError);
  });

  it('toDouble is extractValue to DOUBLE for numbers and NaN otherwise', () => {
    expect(toDouble(4294967295, PM_TYPE_U32)).toBe(4294967295);
    expect(toDouble(-1, PM_TYPE_32)).toBe(-1);
    expect(toDouble(18446744073709551615n, PM_TYPE_U64)).toBe(2 ** 64);
    expect(toDouble(-1n, PM_TYPE_64)).toBe(-1);
    expect(toDouble(2.7, PM_TYPE_FLOAT)).toBe(Math.fround(2.7));
    expect(toDouble('1', PM_TYPE_STRING)).toBeNaN();
  });
});
