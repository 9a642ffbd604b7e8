// Unit tests of fetchgroup text conversions: printf's %.Ne (vectors printed by glibc through
// python's % operator, which rounds the same way) and __pmStringValue's parsing rules.
import { describe, expect, it } from 'vitest';
import { PM_ERR_TYPE } from '../errors';
import { PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import { ERANGE_CODE, stringValue } from './string-value';
import { formatExpC as formatExp } from '../c-numeric';

describe('formatExp (printf %.Ne)', () => {
  const vectors: [number, string, string][] = [
    [0.1, '1.00000000000000006e-01', '1.000000000e-01'],
    [1e6, '1.00000000000000000e+06', '1.000000000e+06'],
    [-2.5, '-2.50000000000000000e+00', '-2.500000000e+00'],
    [123456789.12345679, '1.23456789123456791e+08', '1.234567891e+08'],
    [1e-310, '9.99999999999996945e-311', '1.000000000e-310'],
    [5e-324, '4.94065645841246544e-324', '4.940656458e-324'],
    [1.7976931348623157e308, '1.79769313486231571e+308', '1.797693135e+308'],
    [0.5, '5.00000000000000000e-01', '5.000000000e-01'],
    [9007199254740992, '9.00719925474099200e+15', '9.007199255e+15'],
    [41.89817323964675, '4.18981732396467521e+01', '4.189817324e+01'],
  ];
  for (const [v, e17, e9] of vectors) {
    it(`${v}`, () => {
      expect(formatExp(v, 17)).toBe(e17);
      expect(formatExp(v, 9)).toBe(e9);
    });
  }
  it('zero, infinities and NaN', () => {
    expect(formatExp(0, 17)).toBe('0.00000000000000000e+00');
    expect(formatExp(-0, 3)).toBe('-0.000e+00');
    expect(formatExp(Infinity, 17)).toBe('inf');
    expect(formatExp(NaN, 17)).toBe('nan');
  });
});

describe('stringValue (__pmStringValue)', () => {
  const ok = (text: string, type: number): unknown => {
    const r = stringValue(text, type);
    return r.ok ? r.value : `code ${r.code}`;
  };
  it('integers, decimal and hex, with the range checks of 64-bit longs', () => {
    expect(ok('42', PM_TYPE_32)).toBe(42);
    expect(ok('  -7', PM_TYPE_32)).toBe(-7);
    expect(ok('0x1f', PM_TYPE_U32)).toBe(31);
    expect(ok('2147483648', PM_TYPE_32)).toBe(`code ${ERANGE_CODE}`);
    expect(ok('-1', PM_TYPE_U32)).toBe(`code ${ERANGE_CODE}`);
    expect(ok('-1', PM_TYPE_U64)).toBe(18446744073709551615n);
    expect(ok('18446744073709551616', PM_TYPE_U64)).toBe(`code ${ERANGE_CODE}`);
    expect(ok('9223372036854775807', PM_TYPE_64)).toBe(9223372036854775807n);
    expect(ok('', PM_TYPE_32)).toBe(0);
  });
  it('trailing text is PM_ERR_TYPE; hex is not a float', () => {
    expect(ok('12 ', PM_TYPE_32)).toBe(`code ${PM_ERR_TYPE}`);
    expect(ok('deadline', PM_TYPE_DOUBLE)).toBe(`code ${PM_ERR_TYPE}`);
    expect(ok('0x10', PM_TYPE_DOUBLE)).toBe(`code ${PM_ERR_TYPE}`);
    expect(ok('0x1g', PM_TYPE_32)).toBe(`code ${PM_ERR_TYPE}`);
  });
  it('FLOAT must lie within FLT_MIN..FLT_MAX (so zero is out of range)', () => {
    expect(ok('1.5', PM_TYPE_FLOAT)).toBe(1.5);
    expect(ok('0', PM_TYPE_FLOAT)).toBe(`code ${ERANGE_CODE}`);
    expect(ok('1e39', PM_TYPE_FLOAT)).toBe(`code ${ERANGE_CODE}`);
    expect(ok('1e-400', PM_TYPE_DOUBLE)).toBe(`code ${ERANGE_CODE}`);
    expect(ok('2.5e3', PM_TYPE_DOUBLE)).toBe(2500);
  });
});
