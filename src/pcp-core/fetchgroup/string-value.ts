// Text ↔ number for fetchgroup outputs (derived-units-conversion.md §9.4): a STRING metric
// read into a numeric output goes through libpcp's __pmStringValue (strtol/strtoul/strtoll/
// strtoull with base 16 only for "0x…" text, strtod otherwise, FLOAT range-checked against
// FLT_MIN..FLT_MAX), and numbers written into a STRING output use printf's "%d", "%u",
// 64-bit decimal, "%.9e" (FLOAT) and "%.17e" (DOUBLE), reproduced exactly here.
import { PM_ERR_TYPE } from '../errors';
import { cNonFinite, strtod } from '../c-numeric';
import type { AtomValue } from '../types';
import { PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64 } from '../types';

/** -ERANGE, as libpcp returns errno values. */
export const ERANGE_CODE = -34;
const FLT_MIN = 1.1754943508222875e-38;
const FLT_MAX = 3.4028234663852886e38;
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isXDigit = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** glibc strto[u]l[l] on 64-bit longs: value (wrapped for unsigned negation), end, ERANGE. */
function strtoInt(text: string, base: 10 | 16, unsigned: boolean): { value: bigint; end: number; erange: boolean } {
  let i = 0;
  while (isSpace(text[i])) i++;
  let neg = false;
  if (text[i] === '+' || text[i] === '-') {
    neg = text[i] === '-';
    i++;
  }
  if (base === 16 && text[i] === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X') && isXDigit(text[i + 2])) i += 2;
  const digit = base === 16 ? isXDigit : isDigit;
  const from = i;
  let mag = 0n;
  while (digit(text[i])) {
    mag = mag * BigInt(base) + BigInt(parseInt(text[i], 16));
    i++;
  }
  if (i === from) return { value: 0n, end: 0, erange: false };
  if (unsigned) {
    if (mag > UINT64_MAX) return { value: UINT64_MAX, end: i, erange: true };
    return { value: neg ? BigInt.asUintN(64, -mag) : mag, end: i, erange: false };
  }
  if (!neg && mag > INT64_MAX) return { value: INT64_MAX, end: i, erange: true };
  if (neg && mag > INT64_MAX + 1n) return { value: -INT64_MAX - 1n, end: i, erange: true };
  return { value: neg ? -mag : mag, end: i, erange: false };
}

export type StringValueResult = { readonly ok: true; readonly value: AtomValue } | { readonly ok: false; readonly code: number };

const ok = (value: AtomValue): StringValueResult => ({ ok: true, value });
const bad = (code: number): StringValueResult => ({ ok: false, code });

/**
 * __pmStringValue: the text as a value of `type`, or a negative code (PM_ERR_TYPE for
 * trailing text, -ERANGE out of range).
 */
export function stringValue(text: string, type: number): StringValueResult {
  // Does it look hex ("0x" then hex digits only) or decimal floating point (one '.')?
  let p = 0;
  while (isSpace(text[p])) p++;
  if (text[p] === '-') p++;
  let hex = true;
  if (text[p] === '0' && (text[p + 1] === 'x' || text[p + 1] === 'X')) p += 2;
  else hex = false;
  for (; p < text.length; p++) if (!isDigit(text[p]) && !isXDigit(text[p])) hex = false;
  const base = hex ? 16 : 10;
  switch (type) {
    case PM_TYPE_32: {
      const r = strtoInt(text, base, false);
      if (text.slice(r.end) !== '') return bad(PM_ERR_TYPE);
      if (r.erange || r.value > 0x7fffffffn || r.value < -0x80000000n) return bad(ERANGE_CODE);
      return ok(Number(r.value));
    }
    case PM_TYPE_U32: {
      const r = strtoInt(text, base, true);
      if (text.slice(r.end) !== '') return bad(PM_ERR_TYPE);
      if (r.erange || r.value > 0xffffffffn) return bad(ERANGE_CODE);
      return ok(Number(r.value));
    }
    case PM_TYPE_64: {
      const r = strtoInt(text, base, false);
      if (text.slice(r.end) !== '') return bad(PM_ERR_TYPE);
      return r.erange ? bad(ERANGE_CODE) : ok(r.value);
    }
    case PM_TYPE_U64: {
      const r = strtoInt(text, base, true);
      if (text.slice(r.end) !== '') return bad(PM_ERR_TYPE);
      return r.erange ? bad(ERANGE_CODE) : ok(r.value);
    }
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE: {
      // Hex text is refused: glibc's strtod would read it as a hex float.
      if (hex) return bad(PM_ERR_TYPE);
      const r = strtod(text, 0);
      if (text.slice(r.end) !== '' || (r.end === 0 && text !== '')) return bad(PM_ERR_TYPE);
      if (type === PM_TYPE_FLOAT) {
        const a = Math.abs(r.value);
        if (a < FLT_MIN || a > FLT_MAX) return bad(ERANGE_CODE);
        return ok(Math.fround(r.value));
      }
      return r.erange ? bad(ERANGE_CODE) : ok(r.value);
    }
    case PM_TYPE_STRING:
      return ok(text);
    default:
      return bad(PM_ERR_TYPE);
  }
}

/** printf("%.Ne", v) with glibc's exact rounding (to nearest, ties to even). */
export function formatExp(v: number, digits: number): string {
  if (!Number.isFinite(v)) return cNonFinite(v, false);
  const neg = v < 0 || Object.is(v, -0);
  const a = Math.abs(v);
  if (a === 0) return `${neg ? '-' : ''}0.${'0'.repeat(digits)}e+00`;
  // Exact binary value a = m · 2^e.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const bexp = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (bexp === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = bexp - 1075;
  }
  // a = num / den exactly.
  let num = e >= 0 ? m << BigInt(e) : m;
  const den = e >= 0 ? 1n : 1n << BigInt(-e);
  // Decimal exponent: first guess from the double, then corrected.
  let dexp = Math.floor(Math.log10(a));
  const scaled = (d: number): [bigint, bigint] => (d >= 0 ? [num, den * 10n ** BigInt(d)] : [num * 10n ** BigInt(-d), den]);
  let [sn, sd] = scaled(dexp);
  if (sn < sd) {
    dexp -= 1;
    [sn, sd] = scaled(dexp);
  } else if (sn >= sd * 10n) {
    dexp += 1;
    [sn, sd] = scaled(dexp);
  }
  // Digits: round(sn/sd · 10^digits) to nearest, ties to even.
  num = sn * 10n ** BigInt(digits);
  let q = num / sd;
  const r2 = (num - q * sd) * 2n;
  if (r2 > sd || (r2 === sd && (q & 1n) === 1n)) q += 1n;
  if (q >= 10n ** BigInt(digits + 1)) {
    q /= 10n;
    dexp += 1;
  }
  const s = q.toString();
  const mant = digits > 0 ? `${s[0]}.${s.slice(1)}` : s;
  return `${neg ? '-' : ''}${mant}e${dexp < 0 ? '-' : '+'}${String(Math.abs(dexp)).padStart(2, '0')}`;
}
