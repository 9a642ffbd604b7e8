// pmExtractValue: a decoded value (types.ts AtomValue) of one PM_TYPE cast to another with
// libpcp 6.0.3's exact rules and errors — PM_ERR_TRUNC, PM_ERR_SIGN, PM_ERR_CONV, truncation
// of floats toward zero, x86-64's answers for NaN and out-of-range casts, FLOAT via
// Math.fround, 64-bit integers exact as bigint. Used by rate conversion, fetchgroups, derived
// metrics and every display of a value. Follows derived-units-conversion.md §7.
import { bigintToFloat32, doubleToInt32, doubleToInt64, doubleToUint32, doubleToUint64 } from './c-numeric';
import { PM_ERR_CONV, PM_ERR_SIGN, PM_ERR_TRUNC, PmError } from './errors';
import {
  PM_TYPE_32,
  PM_TYPE_64,
  PM_TYPE_AGGREGATE,
  PM_TYPE_DOUBLE,
  PM_TYPE_FLOAT,
  PM_TYPE_STRING,
  PM_TYPE_U32,
  PM_TYPE_U64,
  PM_TYPE_UNKNOWN,
  PM_VAL_DPTR,
  PM_VAL_INSITU,
  PM_VAL_SPTR,
} from './types';
import type { AtomValue } from './types';

export type ExtractResult = { readonly ok: true; readonly value: AtomValue } | { readonly ok: false; readonly code: number };

/** A failed cast; distinct from every value, so numeric results need no side channel. */
class Fail {
  constructor(readonly code: number) {}
}
const CONV = new Fail(PM_ERR_CONV);
const SIGN = new Fail(PM_ERR_SIGN);
const TRUNC = new Fail(PM_ERR_TRUNC);
type Cast = AtomValue | Fail;

const INT32_MAX = 0x7fffffff;
const UINT32_MAX = 0xffffffff;
const INT64_MAX = (1n << 63n) - 1n;
const TWO63 = 2 ** 63;
const TWO64 = 2 ** 64;
/** (float)0x7fffffff and (float)0xffffffff as C rounds them: 2^31 and 2^32. */
const F_INT32_MAX = 2 ** 31;
const F_UINT32_MAX = 2 ** 32;

/** The value formats in which libpcp accepts each input type (§7.2). */
function valfmtAllows(valfmt: number, itype: number): boolean {
  if (valfmt === PM_VAL_INSITU) return itype === PM_TYPE_32 || itype === PM_TYPE_U32 || itype === PM_TYPE_FLOAT || itype === PM_TYPE_UNKNOWN;
  if (valfmt === PM_VAL_DPTR || valfmt === PM_VAL_SPTR)
    return itype === PM_TYPE_64 || itype === PM_TYPE_U64 || itype === PM_TYPE_FLOAT || itype === PM_TYPE_DOUBLE || itype === PM_TYPE_STRING || itype === PM_TYPE_AGGREGATE;
  return false;
}

function asNumber(v: AtomValue): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}
function asBigint(v: AtomValue): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return undefined;
}

// --- one function per input type, each a switch on the output type -------------------------

function from32(l: number, otype: number): Cast {
  switch (otype) {
    case PM_TYPE_32:
      return l;
    case PM_TYPE_U32:
      return l < 0 ? SIGN : l;
    case PM_TYPE_64:
      return BigInt(l);
    case PM_TYPE_U64:
      return l < 0 ? SIGN : BigInt(l);
    case PM_TYPE_FLOAT:
      return Math.fround(l);
    case PM_TYPE_DOUBLE:
      return l;
    default:
      return CONV;
  }
}

function fromU32(ul: number, otype: number): Cast {
  switch (otype) {
    case PM_TYPE_32:
      return ul > INT32_MAX ? TRUNC : ul;
    case PM_TYPE_U32:
      return ul;
    case PM_TYPE_64:
    case PM_TYPE_U64:
      return BigInt(ul);
    case PM_TYPE_FLOAT:
      return Math.fround(ul);
    case PM_TYPE_DOUBLE:
      return ul;
    default:
      return CONV;
  }
}

function from64(ll: bigint, otype: number): Cast {
  switch (otype) {
    case PM_TYPE_32:
      // Only the upper bound is checked: large negatives wrap silently.
      return ll > BigInt(INT32_MAX) ? TRUNC : Number(BigInt.asIntN(32, ll));
    case PM_TYPE_U32:
      return ll > BigInt(UINT32_MAX) ? TRUNC : ll < 0n ? SIGN : Number(ll);
    case PM_TYPE_64:
      return ll;
    case PM_TYPE_U64:
      return ll < 0n ? SIGN : ll;
    case PM_TYPE_FLOAT:
      return bigintToFloat32(ll);
    case PM_TYPE_DOUBLE:
      return Number(ll);
    default:
      return CONV;
  }
}

function fromU64(ull: bigint, otype: number): Cast {
  switch (otype) {
    case PM_TYPE_32:
      return ull > BigInt(INT32_MAX) ? TRUNC : Number(ull);
    case PM_TYPE_U32:
      return ull > BigInt(UINT32_MAX) ? TRUNC : Number(ull);
    case PM_TYPE_64:
      return ull > INT64_MAX ? TRUNC : ull;
    case PM_TYPE_U64:
      return ull;
    case PM_TYPE_FLOAT:
      return bigintToFloat32(ull);
    case PM_TYPE_DOUBLE:
      return Number(ull);
    default:
      return CONV;
  }
}

/** FLOAT and DOUBLE inputs share the rules; the bounds differ (compared as float or double). */
function fromReal(d: number, otype: number, isFloat: boolean): Cast {
  switch (otype) {
    case PM_TYPE_32:
      // FLOAT: |f| >= (float)0x7fffffff = 2^31; DOUBLE: |d| >= 2147483647.0.
      return Math.abs(d) >= (isFloat ? F_INT32_MAX : INT32_MAX) ? TRUNC : doubleToInt32(d);
    case PM_TYPE_U32:
      return d >= (isFloat ? F_UINT32_MAX : UINT32_MAX) ? TRUNC : d < 0 ? SIGN : doubleToUint32(d);
    case PM_TYPE_64:
      return d >= TWO63 ? TRUNC : doubleToInt64(d);
    case PM_TYPE_U64:
      return d >= TWO64 ? TRUNC : d < 0 ? SIGN : doubleToUint64(d);
    case PM_TYPE_FLOAT:
      // DOUBLE → FLOAT has no overflow check: 1e300 becomes inf.
      return Math.fround(d);
    case PM_TYPE_DOUBLE:
      return d;
    default:
      return CONV;
  }
}

function dispatch(value: AtomValue, itype: number, otype: number): Cast {
  switch (itype) {
    case PM_TYPE_32:
    case PM_TYPE_UNKNOWN: {
      const n = asNumber(value);
      return n === undefined ? CONV : from32(n | 0, otype);
    }
    case PM_TYPE_U32: {
      const n = asNumber(value);
      return n === undefined ? CONV : fromU32(n >>> 0, otype);
    }
    case PM_TYPE_64: {
      const b = asBigint(value);
      return b === undefined ? CONV : from64(BigInt.asIntN(64, b), otype);
    }
    case PM_TYPE_U64: {
      const b = asBigint(value);
      return b === undefined ? CONV : fromU64(BigInt.asUintN(64, b), otype);
    }
    case PM_TYPE_FLOAT: {
      const n = asNumber(value);
      return n === undefined ? CONV : fromReal(Math.fround(n), otype, true);
    }
    case PM_TYPE_DOUBLE: {
      const n = asNumber(value);
      return n === undefined ? CONV : fromReal(n, otype, false);
    }
    case PM_TYPE_STRING:
      return otype === PM_TYPE_STRING && typeof value === 'string' ? value : CONV;
    case PM_TYPE_AGGREGATE:
      // libpcp hands back a copy of the whole value block.
      return otype === PM_TYPE_AGGREGATE && value instanceof Uint8Array ? value.slice() : CONV;
    default:
      // EVENT, HIGHRES_EVENT, AGGREGATE_STATIC, NOSUPPORT and unknown codes.
      return CONV;
  }
}

/**
 * pmExtractValue without throwing. `value` is the decoded value of type `itype` (a number
 * for 32, U32, FLOAT, DOUBLE; a bigint for 64 and U64; a string; the bytes of an aggregate).
 * `valfmt`, when given, applies libpcp's check of which types may come in situ and which in
 * a value block (the archive and PDU decoders already checked block lengths and vtypes).
 * The result has `otype`'s representation: number, bigint (64, U64), string or bytes.
 */
export function tryExtractValue(value: AtomValue, itype: number, otype: number, valfmt?: number): ExtractResult {
  if (valfmt !== undefined && !valfmtAllows(valfmt, itype)) return { ok: false, code: PM_ERR_CONV };
  const r = dispatch(value, itype, otype);
  return r instanceof Fail ? { ok: false, code: r.code } : { ok: true, value: r };
}

/** pmExtractValue; throws PmError(PM_ERR_TRUNC | PM_ERR_SIGN | PM_ERR_CONV). */
export function extractValue(value: AtomValue, itype: number, otype: number, valfmt?: number): AtomValue {
  const r = tryExtractValue(value, itype, otype, valfmt);
  if (!r.ok) throw new PmError(r.code);
  return r.value;
}

/**
 * pmExtractValue to DOUBLE, the hot path of rates and charts: NaN (not an exception) when the
 * type has no numeric value, since pmExtractValue to DOUBLE fails only for non-numeric types.
 */
export function toDouble(value: AtomValue, itype: number): number {
  switch (itype) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
    case PM_TYPE_DOUBLE:
    case PM_TYPE_UNKNOWN:
      return typeof value === 'number' ? (itype === PM_TYPE_U32 ? value >>> 0 : itype === PM_TYPE_DOUBLE ? value : value | 0) : NaN;
    case PM_TYPE_FLOAT:
      return typeof value === 'number' ? Math.fround(value) : NaN;
    case PM_TYPE_64:
      return typeof value === 'bigint' ? Number(BigInt.asIntN(64, value)) : typeof value === 'number' ? value : NaN;
    case PM_TYPE_U64:
      return typeof value === 'bigint' ? Number(BigInt.asUintN(64, value)) : typeof value === 'number' ? value : NaN;
    default:
      return NaN;
  }
}
