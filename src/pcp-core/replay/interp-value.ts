// The value an interpolated fetch returns for one (metric, instance) whose bounds qualify
// (archive-format.md §7.4.5): the bound exactly at t for numeric types, else the prior value
// for instantaneous and discrete metrics, else linear interpolation in C double arithmetic
// with libpcp 6.0.3's rounding, decrease and PCP_COUNTER_WRAP rules, type by type. Strings,
// aggregates and events copy the lower bound's value unconditionally.
import type { AtomValue } from '../types';
import {
  PM_SEM_DISCRETE,
  PM_SEM_INSTANT,
  PM_TYPE_32,
  PM_TYPE_64,
  PM_TYPE_AGGREGATE,
  PM_TYPE_DOUBLE,
  PM_TYPE_EVENT,
  PM_TYPE_FLOAT,
  PM_TYPE_HIGHRES_EVENT,
  PM_TYPE_STRING,
  PM_TYPE_U32,
} from '../types';
import { doubleToInt32, doubleToInt64, doubleToInt64Number, doubleToUint32, doubleToUint64, doubleToUint64Number } from '../c-numeric';
import type { MetricControl } from './interp-state';
import { PM_VAL_INSITU, type LogRecord } from './log-record';
import { decodeValue } from './value-decode';

const TWO_32 = 4294967296;

function decodeBound(mc: MetricControl, i: number, prior: boolean, type: number): AtomValue | undefined {
  const rec = prior ? mc.recPrior[i] : mc.recNext[i];
  if (!rec) return undefined;
  return decodeValue(rec.view, prior ? mc.offPrior[i] : mc.offNext[i], mc.valfmt, type);
}

/** The record view holding a bound (the caller knows both bounds are values). */
function viewOf(rec: LogRecord | null): DataView {
  return (rec as LogRecord).view;
}

/**
 * The value for slot i at tReq, or undefined when libpcp would leave it out. The caller has
 * already checked that the bounds qualify.
 */
export function interpolatedValue(mc: MetricControl, i: number, tReq: number, counterWrap: boolean): AtomValue | undefined {
  return interpolate(mc, i, tReq, counterWrap, false);
}

/**
 * interpolatedValue as a number equal to it (a 64-bit value as the safe integer it is), for
 * a run of fetches kept in Float64Arrays (InterpEngine.fetchRun); undefined when libpcp leaves
 * the value out, the type is not numeric, or a 64-bit value is beyond 2^53 (then the run
 * stops and the fetch builds its bigint).
 */
export function interpolatedNumber(mc: MetricControl, i: number, tReq: number, counterWrap: boolean): number | undefined {
  const v = interpolate(mc, i, tReq, counterWrap, true);
  return typeof v === 'number' ? v : undefined;
}

/** Both of the above: `asNumber` makes 64-bit results numbers (or undefined), not bigints. */
function interpolate(mc: MetricControl, i: number, tReq: number, counterWrap: boolean, asNumber: boolean): AtomValue | undefined {
  const desc = mc.desc;
  if (!desc) return undefined;
  const type = desc.type;
  const tPrior = mc.tPrior[i];
  if (type < PM_TYPE_32 || type > PM_TYPE_DOUBLE) {
    // Strings, aggregates and events: the lower bound's value, whatever the time.
    if ((type === PM_TYPE_AGGREGATE || type === PM_TYPE_EVENT || type === PM_TYPE_HIGHRES_EVENT || type === PM_TYPE_STRING) && tPrior >= 0) {
      return asNumber ? undefined : decodeBound(mc, i, true, type);
    }
    return undefined;
  }
  const tNext = mc.tNext[i];
  if (tPrior === tReq) return bound(mc, i, true, type, asNumber);
  if (tNext === tReq) return bound(mc, i, false, type, asNumber);
  if (desc.sem === PM_SEM_DISCRETE) return tPrior >= 0 ? bound(mc, i, true, type, asNumber) : undefined;
  if (tPrior < 0 || tNext < 0) return undefined;
  if (desc.sem === PM_SEM_INSTANT) return bound(mc, i, true, type, asNumber);
  // Counter (or any other semantics): linear interpolation between the two bound values,
  // read straight from their records (insitu: the value word; else the block's payload).
  const dt = tReq - tPrior;
  const span = tNext - tPrior;
  const vp = viewOf(mc.recPrior[i]);
  const vn = viewOf(mc.recNext[i]);
  const insitu = mc.valfmt === PM_VAL_INSITU;
  const op = insitu ? mc.offPrior[i] : mc.offPrior[i] + 4;
  const on = insitu ? mc.offNext[i] : mc.offNext[i] + 4;
  switch (type) {
    case PM_TYPE_32:
      return interp32(vp.getInt32(op), vn.getInt32(on), dt, span, counterWrap);
    case PM_TYPE_U32:
      if (!insitu) return undefined;
      return interpU32(vp.getUint32(op), vn.getUint32(on), dt, span, counterWrap);
    case PM_TYPE_FLOAT: {
      const fp = vp.getFloat32(op);
      const fn = vn.getFloat32(on);
      // (float)(f_prior + dt * (float)(f_next - f_prior) / span)
      return Math.fround(fp + (dt * Math.fround(fn - fp)) / span);
    }
    case PM_TYPE_DOUBLE: {
      const dp = vp.getFloat64(op);
      const dn = vn.getFloat64(on);
      return dp + (dt * (dn - dp)) / span;
    }
    case PM_TYPE_64: {
      const x = interp64Fast(vp, op, vn, on, dt, span);
      if (asNumber) return x === undefined ? undefined : doubleToInt64Number(x);
      return x !== undefined ? doubleToInt64(x) : interp64Wide(vp.getBigInt64(op), vn.getBigInt64(on), dt, span);
    }
    default: {
      // PM_TYPE_U64, the last numeric type
      const x = interpU64Fast(vp, op, vn, on, dt, span, counterWrap);
      if (asNumber) return x === undefined ? undefined : doubleToUint64Number(x);
      return x !== undefined ? doubleToUint64(x) : interpU64Wide(vp.getBigInt64(op), vn.getBigInt64(on), dt, span, counterWrap);
    }
  }
}

/** A bound's value as decodeBound gives it; asNumber: a bigint as its number when exact. */
function bound(mc: MetricControl, i: number, prior: boolean, type: number, asNumber: boolean): AtomValue | undefined {
  const v = decodeBound(mc, i, prior, type);
  if (!asNumber || typeof v !== 'bigint') return v;
  return v >= -MAX_SAFE && v <= MAX_SAFE ? Number(v) : undefined;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A big-endian int64 at `off` as a double when |value| < 2^53 (exact), else undefined. */
function safeInt64(view: DataView, off: number): number | undefined {
  const hi = view.getInt32(off);
  if (hi >= 2097152 || hi < -2097152) return undefined;
  return hi * 4294967296 + view.getUint32(off + 4);
}

/** The double (int64_t) converts, when both values are within ±2^53 (where doubles hold them
 *  and their difference); else undefined: only 64-bit arithmetic gives the value. */
function interp64Fast(vp: DataView, op: number, vn: DataView, on: number, dt: number, span: number): number | undefined {
  const fp = safeInt64(vp, op);
  const fn = safeInt64(vn, on);
  if (fp !== undefined && fn !== undefined && Math.abs(fn - fp) <= 9007199254740991) return 0.5 + fp + (dt * (fn - fp)) / span;
  return undefined;
}

function interp64Wide(lp: bigint, ln: bigint, dt: number, span: number): bigint {
  // With or without PCP_COUNTER_WRAP the difference is next - prior modulo 2^64.
  const d = BigInt.asIntN(64, ln - lp);
  return doubleToInt64(0.5 + Number(lp) + (dt * Number(d)) / span);
}

/** The double (uint64_t) converts, when both values are below 2^53 (every conversion then
 *  exact in doubles); else undefined. libpcp holds the two U64 values in signed 64-bit
 *  variables: compares and converts them as signed, while the difference is converted as
 *  unsigned (interpU64Wide). */
function interpU64Fast(vp: DataView, op: number, vn: DataView, on: number, dt: number, span: number, wrap: boolean): number | undefined {
  const fp = safeInt64(vp, op);
  const fn = safeInt64(vn, on);
  if (fp !== undefined && fn !== undefined && fp >= 0 && fn >= 0) {
    if (fn >= fp) return 0.5 + fp + (dt * (fn - fp)) / span;
    if (!wrap) return 0.5 + fp - (dt * (fp - fn)) / span;
  }
  return undefined;
}

function interpU64Wide(sp: bigint, sn: bigint, dt: number, span: number, wrap: boolean): bigint {
  if (sn >= sp || wrap) {
    const d = BigInt.asUintN(64, sn - sp);
    return doubleToUint64(0.5 + Number(sp) + (dt * Number(d)) / span);
  }
  const d = BigInt.asUintN(64, sp - sn);
  return doubleToUint64(0.5 + Number(sp) - (dt * Number(d)) / span);
}

function interp32(vp: number, vn: number, dt: number, span: number, wrap: boolean): number {
  if (vn >= vp || !wrap) {
    return doubleToInt32(0.5 + vp + (dt * ((vn - vp) | 0)) / span);
  }
  // libpcp 6.0.3 adds the prior value into the next result slot here (a heap overrun,
  // docs/deviations.md); we add it to this value as intended. The wrapped difference of two
  // signed 32-bit values is their plain difference modulo 2^32.
  const d = (vn - vp) | 0;
  return (doubleToInt32(0.5 + (dt * d) / span) + vp) | 0;
}

function interpU32(vp: number, vn: number, dt: number, span: number, wrap: boolean): number {
  if (vn >= vp) return doubleToUint32(0.5 + vp + (dt * (vn - vp)) / span);
  if (wrap) {
    const d = (TWO_32 - vp + vn) % TWO_32;
    return (doubleToUint32(0.5 + (dt * d) / span) + vp) % TWO_32;
  }
  return doubleToUint32(0.5 + vp - (dt * (vp - vn)) / span);
}
