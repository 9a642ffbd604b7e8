// Counter rate conversion as the clients do it (derived-units-conversion.md §8, §9.3):
// pmval's rule — value difference over the difference of the two result timestamps (taken
// as libpcp's long double → double seconds), a time counter scaled into a utilisation, a
// decrease giving no value unless PCP_COUNTER_WRAP adds 2^32 / 2^64 once — its "converting
// to" units text, and the fetchgroup variant (Δt from pmtimespecSub, floored at 1 ns, a
// decrease is PM_ERR_VALUE). Pure functions over doubles and timestamps; the replay, the
// `values` command, fetchgroups and the worker's series call them per sample or per column.
import { powInt } from './c-numeric';
import { PM_ERR_VALUE } from './errors';
import { subtractTimestampsLongDouble, timestampToReal } from './time/timestamp';
import { PM_SEM_COUNTER, PM_TYPE_32, PM_TYPE_64, PM_TYPE_U32, PM_TYPE_U64 } from './types';
import type { Desc, Timestamp, Units } from './types';
import { formatUnits, PM_TIME_SEC } from './units';

/** (double)UINT_MAX + 1 and (double)ULONGLONG_MAX + 1: what PCP_COUNTER_WRAP adds once. */
const WRAP_32 = 2 ** 32;
const WRAP_64 = 2 ** 64;

/**
 * The amount PCP_COUNTER_WRAP adds to a negative difference of a counter of this type:
 * 2^32 for 32 and U32, 2^64 for 64 and U64, 0 for FLOAT and DOUBLE (left negative).
 */
export function counterWrapAmount(type: number): number {
  if (type === PM_TYPE_32 || type === PM_TYPE_U32) return WRAP_32;
  if (type === PM_TYPE_64 || type === PM_TYPE_U64) return WRAP_64;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// pmval (§8.2)

/**
 * pmval's per-metric factor on the sample interval: 1 unless the counter has a time
 * dimension, then 1000^(3 − scaleTime) up to seconds and 60^(3 − scaleTime) above — so a
 * millisecond counter divided by 1000·Δt(s) becomes a utilisation. 1 for non-counters.
 */
export function pmvalTimeScale(desc: Pick<Desc, 'sem' | 'units'>): number {
  if (desc.sem !== PM_SEM_COUNTER || desc.units.dimTime === 0) return 1;
  const st = desc.units.scaleTime;
  return st > PM_TIME_SEC ? powInt(60, PM_TIME_SEC - st) : powInt(1000, PM_TIME_SEC - st);
}

/** pmval's interval between two samples: scale · (toReal(t1) − toReal(t0)), in double. */
export function pmvalDelta(scale: number, t0: Timestamp, t1: Timestamp): number {
  return pmvalDeltaOfReals(scale, timestampToReal(t0), timestampToReal(t1));
}

/** pmvalDelta of times already converted by timestampToReal (a replay converts each once). */
export function pmvalDeltaOfReals(scale: number, real0: number, real1: number): number {
  return scale * (real1 - real0);
}

/**
 * One pmval rate from two values already extracted as DOUBLE (values.ts toDouble): NaN
 * when there is none — a decrease without `counterWrap`, a decrease of a FLOAT/DOUBLE
 * counter even with it, or any negative result (pmval prints those as "!").
 */
export function pmvalRate(prev: number, cur: number, delta: number, type: number, counterWrap: boolean): number {
  let v = cur - prev;
  if (v < 0 && counterWrap) v += counterWrapAmount(type);
  v /= delta;
  return v < 0 ? NaN : v;
}

/**
 * pmvalRate over columns: out[i] = rate of prev[i] → cur[i] (NaN in, NaN out). `out` may
 * be `cur` itself.
 */
export function pmvalRates(prev: ArrayLike<number>, cur: ArrayLike<number>, delta: number, type: number, counterWrap: boolean, out: Float64Array): Float64Array {
  const wrap = counterWrap ? counterWrapAmount(type) : 0;
  const n = Math.min(prev.length, cur.length, out.length);
  for (let i = 0; i < n; i++) {
    let v = (cur[i] ?? NaN) - (prev[i] ?? NaN);
    if (v < 0 && counterWrap) v += wrap;
    v /= delta;
    out[i] = v < 0 ? NaN : v;
  }
  return out;
}

/** The units of pmval's rate: one less time dimension (per second when there was none). */
export function rateUnits(units: Units): Units {
  return { ...units, scaleTime: units.dimTime === 0 ? PM_TIME_SEC : units.scaleTime, dimTime: units.dimTime - 1 };
}

/**
 * What pmval prints after `units:` for a metric: pmUnitsStr (or "none"), and for counters
 * being rate-converted " (converting to <rate units>)" or " (converting to time utilization)".
 */
export function pmvalUnitsText(desc: Pick<Desc, 'sem' | 'units'>, raw: boolean): string {
  const base = formatUnits(desc.units) || 'none';
  if (raw || desc.sem !== PM_SEM_COUNTER) return base;
  const r = rateUnits(desc.units);
  const target = r.dimSpace === 0 && r.dimTime === 0 && r.dimCount === 0 ? 'time utilization' : formatUnits(r) || 'none';
  return `${base} (converting to ${target})`;
}

// ---------------------------------------------------------------------------------------------
// fetchgroups (§9.3)

/** One nanosecond: fetchgroups never divide by a smaller interval. */
const FETCHGROUP_MIN_DELTA = 0.000000001;

/** Δt of a fetchgroup rate: pmtimespecSub(t1, t0) raised to at least 1 ns. */
export function fetchgroupDelta(t0: Timestamp, t1: Timestamp): number {
  const d = subtractTimestampsLongDouble(t1, t0);
  return d < FETCHGROUP_MIN_DELTA ? FETCHGROUP_MIN_DELTA : d;
}

/**
 * A fetchgroup rate in metric units per second, before unit conversion: (cur − prev) / Δt.
 * A decrease is PM_ERR_VALUE, unless `counterWrap`, which adds 2^32 or 2^64 for integer
 * types and leaves FLOAT / DOUBLE negative. Returns the value, or the negative error code
 * as `{ code }`.
 */
export function fetchgroupRate(prev: number, cur: number, delta: number, type: number, counterWrap: boolean): number | { readonly code: number } {
  let v = cur - prev;
  if (v < 0) {
    if (!counterWrap) return { code: PM_ERR_VALUE };
    v += counterWrapAmount(type);
  }
  return v / delta;
}
