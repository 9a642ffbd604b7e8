// Casting a fetched value into a fetchgroup output (derived-units-conversion.md §9.4–9.5):
// the sentinel an output holds when it has no value, pmExtractValue extended with
// string ↔ number conversion (libpcp's __pmExtractValue2), and storing a converted double
// into the output type with range checks (__pmStuffDoubleValue).
import { PM_ERR_SIGN, PM_ERR_TRUNC, PM_ERR_TYPE } from '../errors';
import type { AtomValue } from '../types';
import { PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import { tryExtractValue } from '../values';
import { doubleToInt32, doubleToInt64, doubleToUint32, doubleToUint64 } from '../c-numeric';
import { stringValue } from './string-value';
import { formatExpC as formatExp } from '../c-numeric';

/** An output value: AtomValue, or null for an empty STRING output. */
export type OutValue = AtomValue | null;

const FLT_MAX = 3.4028234663852886e38;

/** The "no value" an output holds (__pmReinitValue): all bits set, NaN, or no string. */
export function sentinel(otype: number): OutValue {
  switch (otype) {
    case PM_TYPE_32:
      return -1;
    case PM_TYPE_U32:
      return 4294967295;
    case PM_TYPE_64:
      return -1n;
    case PM_TYPE_U64:
      return 18446744073709551615n;
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE:
      return NaN;
    default:
      return null;
  }
}

/** A value or a negative PCP code. */
export type CastResult = { readonly ok: true; readonly value: AtomValue } | { readonly ok: false; readonly code: number };

const fail = (code: number): CastResult => ({ ok: false, code });

/** __pmExtractValue2: pmExtractValue plus number → STRING and STRING → number. */
export function extractCast(value: AtomValue, itype: number, otype: number): CastResult {
  if (itype !== PM_TYPE_STRING && otype === PM_TYPE_STRING) {
    const r = tryExtractValue(value, itype, itype);
    if (!r.ok) return r;
    const v = r.value;
    switch (itype) {
      case PM_TYPE_32:
      case PM_TYPE_U32:
        return { ok: true, value: typeof v === 'number' ? String(v) : '' };
      case PM_TYPE_64:
      case PM_TYPE_U64:
        return { ok: true, value: (v as bigint).toString() };
      case PM_TYPE_FLOAT:
        return { ok: true, value: formatExp(v as number, 9) };
      case PM_TYPE_DOUBLE:
        return { ok: true, value: formatExp(v as number, 17) };
      default:
        return fail(PM_ERR_TYPE);
    }
  }
  if (itype === PM_TYPE_STRING && otype !== PM_TYPE_STRING) {
    const r = tryExtractValue(value, itype, PM_TYPE_STRING);
    if (!r.ok) return r;
    return stringValue(r.value as string, otype);
  }
  return tryExtractValue(value, itype, otype);
}

/** __pmStuffDoubleValue: a converted double into the output type, range-checked. */
export function stuffDouble(val: number, otype: number): CastResult {
  switch (otype) {
    case PM_TYPE_32:
      if (val > 2147483647 || val < -2147483648) return fail(PM_ERR_TRUNC);
      return { ok: true, value: doubleToInt32(val) };
    case PM_TYPE_U32:
      if (val > 4294967295) return fail(PM_ERR_TRUNC);
      if (val < 0) return fail(PM_ERR_SIGN);
      return { ok: true, value: doubleToUint32(val) };
    case PM_TYPE_64:
      // (double)LONGLONG_MAX is 2^63, (double)(-LONGLONG_MAX-1) is -2^63.
      if (val > 2 ** 63 || val < -(2 ** 63)) return fail(PM_ERR_TRUNC);
      return { ok: true, value: doubleToInt64(val) };
    case PM_TYPE_U64:
      // (double)ULONGLONG_MAX is 2^64.
      if (val > 2 ** 64) return fail(PM_ERR_TRUNC);
      if (val < 0) return fail(PM_ERR_SIGN);
      return { ok: true, value: doubleToUint64(val) };
    case PM_TYPE_FLOAT:
      if (Math.abs(val) > FLT_MAX) return fail(PM_ERR_TRUNC);
      return { ok: true, value: Math.fround(val) };
    case PM_TYPE_DOUBLE:
      return { ok: true, value: val };
    case PM_TYPE_STRING:
      return { ok: true, value: formatExp(val, 17) };
    default:
      return fail(PM_ERR_TYPE);
  }
}
