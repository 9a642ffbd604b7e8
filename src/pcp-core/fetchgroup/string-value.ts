// Text ↔ number for fetchgroup outputs (derived-units-conversion.md §9.4): a STRING metric
// read into a numeric output goes through libpcp's __pmStringValue (strtol/strtoul/strtoll/
// strtoull with base 16 only for "0x…" text, strtod otherwise, FLOAT range-checked against
// FLT_MIN..FLT_MAX), and numbers written into a STRING output use printf's "%d", "%u",
// 64-bit decimal, "%.9e" (FLOAT) and "%.17e" (DOUBLE), reproduced exactly here.
import { PM_ERR_TYPE } from '../errors';
import { strtod } from '../c-numeric';
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
