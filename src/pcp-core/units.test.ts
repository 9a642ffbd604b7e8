// units.ts on the observed examples of derived-units-conversion.md §6 (libpcp 6.0.3).
import { describe, expect, it } from 'vitest';
import { PM_ERR_CONV, PM_ERR_UNIT, PmError } from './errors';
import { PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64 } from './types';
import type { Units } from './types';
import { convertScale, formatUnits, makeScaleConverter, makeUnits, parseUnits, tryParseUnits } from './units';

const u = (dimSpace: number, dimTime: number, dimCount: number, scaleSpace = 0, scaleTime = 0, scaleCount = 0): Units => ({ dimSpace, dimTime, dimCount, scaleSpace, scaleTime, scaleCount });

describe('parseUnits (pmParseUnitsStr)', () => {
  it.each([
    ['2 count', u(0, 0, 1), 0.5, 'count'],
    ['count / 7.5 nanosecond', u(0, -1, 1), 7.5, 'count / nanosec'],
    ['10 kilobytes / 2.5e2 count x 10^3', u(1, 0, -1, 1, 0, 3), 25, 'Kbyte / count x 10^3'],
    ['millisecond / second^2', u(0, -1, 0, 0, 3, 0), 1000, '/ sec'],
    ['mib/s', u(1, -1, 0, 2, 3, 0), 1, 'Mbyte / sec'],
    ['Kbyte / Mbyte', u(0, 0, 0), 1024, ''],
    ['sec / sec', u(0, 0, 0), 1, ''],
    ['1000 ms', u(0, 1, 0, 0, 2, 0), 0.001, 'millisec'],
    ['0.001 sec', u(0, 1, 0, 0, 3, 0), 1000, 'sec'],
    ['count x 10^6 / sec', u(0, -1, 1, 0, 3, 6), 1, 'count x 10^6 / sec'],
    ['byte^2 / sec^3', u(2, -3, 0, 0, 3, 0), 1, 'byte^2 / sec^3'],
    ['bytes s', u(1, 1, 0, 0, 3, 0), 1, 'byte sec'],
    ['sec^-1', u(0, -1, 0, 0, 3, 0), 1, '/ sec'],
    ['/sec', u(0, -1, 0, 0, 3, 0), 1, '/ sec'],
    ['kb/hr', u(1, -1, 0, 1, 5, 0), 1, 'Kbyte / hour'],
    ['space-3', u(1, 0, 0, 3, 0, 0), 1, 'Gbyte'],
    ['-1 count', u(0, 0, 1), -1, 'count'],
    ['', u(0, 0, 0), 1, ''],
  ])('%j', (text, units, multiplier, formatted) => {
    const r = parseUnits(text);
    expect(r.units).toEqual(units);
    expect(r.multiplier).toBeCloseTo(multiplier, 12);
    expect(formatUnits(r.units)).toBe(formatted);
  });

  it.each([
    ['msec', 'unrecognized or duplicate base unit'],
    ['none', 'unrecognized or duplicate base unit'],
    ['per sec', 'unrecognized or duplicate base unit'],
    ['Kbyte*sec', 'unrecognized or duplicate base unit'],
    ['ms ms', 'unrecognized or duplicate base unit'],
    ['x 10^3', 'unrecognized or duplicate base unit'],
    ['count x 10^8', 'count dimension out of bounds'],
    ['1e999 sec', 'invalid floating point literal'],
  ])('rejects %j: %s', (text, message) => {
    expect(tryParseUnits(text)).toEqual({ ok: false, code: PM_ERR_CONV, message });
    expect(() => parseUnits(text)).toThrow(PmError);
  });
});

describe('formatUnits (pmUnitsStr)', () => {
  it.each([
    [u(1, -2, 0, 2, 3, 0), 'Mbyte / sec^2'],
    [u(0, 0, 0, 0, 0, 3), 'x 10^3'],
    [u(0, 0, 0, 0, 0, 1), 'x 10'],
    [u(0, 0, -1, 0, 0, 6), '/ count x 10^6'],
    [u(2, 1, 1, 0, 0, 0), 'byte^2 nanosec count'],
    [u(-1, -1, -1, 1, 1, 1), '/ Kbyte microsec count x 10'],
    [u(0, 1, -1, 0, 2, 0), 'millisec / count'],
    [u(1, 0, 0, 9, 0, 0), 'space-9'],
    [u(0, 1, 0, 0, 6, 0), 'time-6'],
    [u(0, 0, 0, 5, 5, 0), ''],
  ])('%j → %j', (units, text) => {
    expect(formatUnits(units)).toBe(text);
  });
});

describe('convertScale (pmConvScale)', () => {
  const byte = makeUnits({ dimSpace: 1 });
  const kbyte = makeUnits({ dimSpace: 1, scaleSpace: 1 });
  const sec = makeUnits({ dimTime: 1, scaleTime: 3 });
  it.each([
    [PM_TYPE_U32, 1536, byte, kbyte, 2],
    [PM_TYPE_U32, 1535, byte, kbyte, 1],
    [PM_TYPE_32, -1536, byte, kbyte, -1],
    [PM_TYPE_32, -1535, byte, kbyte, 0],
    [PM_TYPE_32, -1537, byte, kbyte, -1],
    [PM_TYPE_U32, 90, sec, makeUnits({ dimTime: 1, scaleTime: 4 }), 2],
    [PM_TYPE_U32, 89, sec, makeUnits({ dimTime: 1, scaleTime: 4 }), 1],
    [PM_TYPE_U32, 500, makeUnits({ dimTime: 1, scaleTime: 2 }), sec, 1],
    [PM_TYPE_U32, 499, makeUnits({ dimTime: 1, scaleTime: 2 }), sec, 0],
    [PM_TYPE_DOUBLE, 1500, makeUnits({ dimTime: 1, scaleTime: 2 }), sec, 1.5],
    [PM_TYPE_U64, 3n, makeUnits({ dimSpace: 1, scaleSpace: 2 }), byte, 3145728n],
    [PM_TYPE_DOUBLE, 1, makeUnits({ dimTime: -1, dimCount: 1, scaleTime: 3 }), makeUnits({ dimTime: -1, dimCount: 1, scaleTime: 4 }), 60],
    [PM_TYPE_DOUBLE, 1, makeUnits({ dimSpace: 1, dimTime: -1, scaleSpace: 1, scaleTime: 3 }), makeUnits({ dimSpace: 1, dimTime: -1, scaleSpace: 2, scaleTime: 5 }), 3.515625],
    [PM_TYPE_U32, 5, makeUnits({ dimCount: 1, scaleCount: 3 }), makeUnits({ dimCount: 1 }), 5000],
    [PM_TYPE_U32, 5, makeUnits({}), makeUnits({ dimCount: 1, scaleCount: 3 }), 0],
    [PM_TYPE_DOUBLE, 5, makeUnits({}), makeUnits({ dimCount: 1 }), 5],
    [PM_TYPE_U32, 7, makeUnits({ dimCount: 1 }), makeUnits({ dimCount: 1, scaleCount: -2 }), 700],
    [PM_TYPE_FLOAT, 1.5, makeUnits({ dimSpace: 1, scaleSpace: 3 }), makeUnits({ dimSpace: 1, scaleSpace: 2 }), 1536],
    [PM_TYPE_U32, 4000000000, kbyte, byte, 2896166912],
    [PM_TYPE_64, 1n, makeUnits({ dimSpace: 1, scaleSpace: 6 }), byte, 1152921504606846976n],
    [PM_TYPE_DOUBLE, 1, makeUnits({ dimTime: 1, scaleTime: 5 }), makeUnits({ dimTime: 1, scaleTime: 0 }), 3600000000000],
  ])('type %i %s', (type, value, from, to, want) => {
    expect(convertScale(type, value, from, to)).toBe(want);
  });

  it('fails as libpcp does', () => {
    const code = (f: () => unknown): number | undefined => {
      try {
        f();
        return undefined;
      } catch (e) {
        return e instanceof PmError ? e.code : undefined;
      }
    };
    expect(code(() => convertScale(PM_TYPE_DOUBLE, 1, byte, sec))).toBe(PM_ERR_CONV);
    expect(code(() => convertScale(PM_TYPE_DOUBLE, 1, makeUnits({ dimSpace: 1, scaleSpace: 7 }), makeUnits({ dimSpace: 1, scaleSpace: 6 })))).toBe(PM_ERR_UNIT);
    expect(code(() => convertScale(PM_TYPE_STRING, 1, byte, kbyte))).toBe(PM_ERR_CONV);
    // byte^4 → Ebyte^4 wraps the 64-bit divisor to 0: libpcp raises SIGFPE, we refuse.
    expect(code(() => makeScaleConverter(PM_TYPE_64, makeUnits({ dimSpace: 4 }), makeUnits({ dimSpace: 4, scaleSpace: 6 })))).toBe(PM_ERR_CONV);
  });
});
