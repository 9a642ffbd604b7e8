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
  PM_TYPE_U64,
} from '../types';
import { doubleToInt32, doubleToInt64, doubleToUint32, doubleToUint64 } from '../c-numeric';
import type { MetricControl } from './interp-state';
import { PM_VAL_INSITU } from './log-record';
import { decodeValue } from './value-decode';

const TWO_32 = 4294967296;

/** Raw 32-bit word of a bound (insitu value word). */
function word(mc: MetricControl, i: number, prior: boolean): number {
  const rec = prior ? mc.recPrior[i] : mc.recNext[i];
  const off = prior ? mc.offPrior[i] : mc.offNext[i];
  return (rec as NonNullable<typeof rec>).view.getInt32(off);
}

/** A bound's value block payload view and offset. */
function payload(mc: MetricControl, i: number, prior: boolean): [DataView, number] {
  const rec = prior ? mc.recPrior[i] : mc.recNext[i];
  const off = prior ? mc.offPrior[i] : mc.offNext[i];
  return [(rec as NonNullable<typeof rec>).view, (off) + 4];
}

function decodeBound(mc: MetricControl, i: number, prior: boolean, type: number): AtomValue | undefined {
  const rec = prior ? mc.recPrior[i] : mc.recNext[i];
  if (!rec) return undefined;
  return decodeValue(rec.view, (prior ? mc.offPrior[i] : mc.offNext[i]), mc.valfmt, type);
}

/**
 * The value for slot i at tReq, or undefined when libpcp would leave it out. The caller has
 * already checked that the bounds qualify.
 */
export function interpolatedValue(mc: MetricControl, i: number, tReq: number, counterWrap: boolean): AtomValue | undefined {
  const desc = mc.desc;
  if (!desc) return undefined;
  const type = desc.type;
  const tPrior = mc.tPrior[i];
  const tNext = mc.tNext[i];
  const numeric = type === PM_TYPE_32 || type === PM_TYPE_U32 || type === PM_TYPE_64 || type === PM_TYPE_U64 || type === PM_TYPE_FLOAT || type === PM_TYPE_DOUBLE;
  if (!numeric) {
    if ((type === PM_TYPE_AGGREGATE || type === PM_TYPE_EVENT || type === PM_TYPE_HIGHRES_EVENT || type === PM_TYPE_STRING) && tPrior >= 0) {
      return decodeBound(mc, i, true, type);
    }
    return undefined;
  }
  if (tPrior === tReq) return decodeBound(mc, i, true, type);
  if (tNext === tReq) return decodeBound(mc, i, false, type);
  if (desc.sem === PM_SEM_DISCRETE) return tPrior >= 0 ? decodeBound(mc, i, true, type) : undefined;
  if (tPrior < 0 || tNext < 0) return undefined;
  if (desc.sem === PM_SEM_INSTANT) return decodeBound(mc, i, true, type);
  // Counter (or any other semantics): linear interpolation.
  const dt = tReq - tPrior;
  const span = tNext - tPrior;
  switch (type) {
    case PM_TYPE_32:
      return interp32(word(mc, i, true), word(mc, i, false), dt, span, counterWrap);
    case PM_TYPE_U32:
      if (mc.valfmt !== PM_VAL_INSITU) return undefined;
      return interpU32(word(mc, i, true) >>> 0, word(mc, i, false) >>> 0, dt, span, counterWrap);
    case PM_TYPE_FLOAT: {
      let fp: number;
      let fn: number;
      if (mc.valfmt === PM_VAL_INSITU) {
        fp = (mc.recPrior[i] as NonNullable<(typeof mc.recPrior)[0]>).view.getFloat32(mc.offPrior[i]);
        fn = (mc.recNext[i] as NonNullable<(typeof mc.recNext)[0]>).view.getFloat32(mc.offNext[i]);
      } else {
        const [vp, op] = payload(mc, i, true);
        const [vn, on] = payload(mc, i, false);
        fp = vp.getFloat32(op);
        fn = vn.getFloat32(on);
      }
      // (float)(f_prior + dt * (float)(f_next - f_prior) / span)
      return Math.fround(fp + (dt * Math.fround(fn - fp)) / span);
    }
    case PM_TYPE_DOUBLE: {
      const [vp, op] = payload(mc, i, true);
      const [vn, on] = payload(mc, i, false);
      const dp = vp.getFloat64(op);
      const dn = vn.getFloat64(on);
      return dp + (dt * (dn - dp)) / span;
    }
    case PM_TYPE_64: {
      const [vp, op] = payload(mc, i, true);
      const [vn, on] = payload(mc, i, false);
      // Fast path: both values within ±2^53, where doubles hold them and their difference.
      const fp = safeInt64(vp, op);
      const fn = safeInt64(vn, on);
      if (fp !== undefined && fn !== undefined && Math.abs(fn - fp) <= 9007199254740991) {
        return doubleToInt64(0.5 + fp + (dt * (fn - fp)) / span);
      }
      const lp = vp.getBigInt64(op);
      const ln = vn.getBigInt64(on);
      // With or without PCP_COUNTER_WRAP the difference is next - prior modulo 2^64.
      const d = BigInt.asIntN(64, ln - lp);
      return doubleToInt64(0.5 + Number(lp) + (dt * Number(d)) / span);
    }
    case PM_TYPE_U64: {
      const [vp, op] = payload(mc, i, true);
      const [vn, on] = payload(mc, i, false);
      // libpcp holds the two U64 values in signed 64-bit variables: compares and converts
      // them as signed, while the difference is converted as unsigned.
      const fp = safeInt64(vp, op);
      const fn = safeInt64(vn, on);
      if (fp !== undefined && fn !== undefined && fp >= 0 && fn >= 0) {
        // Fast path: both below 2^53, so every conversion below is exact in doubles.
        if (fn >= fp) return doubleToUint64(0.5 + fp + (dt * (fn - fp)) / span);
        if (!counterWrap) return doubleToUint64(0.5 + fp - (dt * (fp - fn)) / span);
      }
      const sp = vp.getBigInt64(op);
      const sn = vn.getBigInt64(on);
      if (sn >= sp) {
        const d = BigInt.asUintN(64, sn - sp);
        return doubleToUint64(0.5 + Number(sp) + (dt * Number(d)) / span);
      }
      if (counterWrap) {
        const d = BigInt.asUintN(64, sn - sp);
        return doubleToUint64(0.5 + Number(sp) + (dt * Number(d)) / span);
      }
      const d = BigInt.asUintN(64, sp - sn);
      return doubleToUint64(0.5 + Number(sp) - (dt * Number(d)) / span);
    }
    default:
      return undefined;
  }
}

/** A big-endian int64 at `off` as a double when |value| < 2^53 (exact), else undefined. */
function safeInt64(view: DataView, off: number): number | undefined {
  const hi = view.getInt32(off);
  if (hi >= 2097152 || hi < -2097152) return undefined;
  return hi * 4294967296 + view.getUint32(off + 4);
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
