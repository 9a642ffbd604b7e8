// The conversion a fetchgroup registration asks for (derived-units-conversion.md §9.2–9.3):
// from its scale string — NULL (rate iff counter), "rate", "instant", or a pmParseUnitsStr
// expression with the metric's dimensions (scale only) or one less time dimension (rate and
// scale, the multiplier adjusted from per-second to per-unit-time) — and applying it to a
// value extracted as DOUBLE: rate (cur − prev over Δt, floored at 1 ns, decrease → error
// unless PCP_COUNTER_WRAP), then pmConvScale and the multiplier.
import { PM_ERR_CONV, PM_ERR_TYPE, isPmError } from '../errors';
import type { Desc, Units } from '../types';
import { PM_SEM_COUNTER, PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import { convertScale, tryParseUnits, PM_TIME_HOUR, PM_TIME_MIN, PM_TIME_MSEC, PM_TIME_NSEC, PM_TIME_SEC, PM_TIME_USEC } from '../units';

export interface Conversion {
  readonly rate: boolean;
  readonly units?: { readonly to: Units; readonly multiplier: number };
}

const OUT_TYPES = [PM_TYPE_32, PM_TYPE_U32, PM_TYPE_64, PM_TYPE_U64, PM_TYPE_FLOAT, PM_TYPE_DOUBLE, PM_TYPE_STRING];

/** pmfg_prep_conversion: the conversion for `scale`, or a negative code (PM_ERR_TYPE/CONV). */
export function prepareConversion(desc: Desc, scale: string | undefined, outType: number): Conversion | number {
  if (!OUT_TYPES.includes(desc.type) || !OUT_TYPES.includes(outType)) return PM_ERR_TYPE;
  if (scale === undefined) return { rate: desc.sem === PM_SEM_COUNTER };
  if (scale === 'rate') return { rate: true };
  if (scale === 'instant') return { rate: false };
  const p = tryParseUnits(scale);
  if (!p.ok) return p.code;
  const u = desc.units;
  const o = p.units;
  if (u.dimSpace === o.dimSpace && u.dimCount === o.dimCount && u.dimTime === o.dimTime) {
    return { rate: false, units: { to: o, multiplier: p.multiplier } };
  }
  if (u.dimSpace === o.dimSpace && u.dimCount === o.dimCount && u.dimTime === o.dimTime + 1) {
    // Per second, as the rate comes out, to per the string's time unit.
    let m = p.multiplier;
    switch (o.scaleTime) {
      case PM_TIME_NSEC:
        m /= 1000000000;
        break;
      case PM_TIME_USEC:
        m /= 1000000;
        break;
      case PM_TIME_MSEC:
        m /= 1000;
        break;
      case PM_TIME_SEC:
        break;
      case PM_TIME_MIN:
        m *= 60;
        break;
      case PM_TIME_HOUR:
        m *= 3600;
        break;
      default:
        return PM_ERR_CONV;
    }
    return { rate: true, units: { to: { ...o, dimTime: o.dimTime + 1 }, multiplier: m } };
  }
  return PM_ERR_CONV;
}

export type Converted = { readonly ok: true; readonly value: number } | { readonly ok: false; readonly code: number };

/** pmfg_convert_double: pmConvScale(DOUBLE) then the multiplier. */
export function convertDouble(desc: Desc, conv: Conversion, value: number): Converted {
  if (!conv.units) return { ok: true, value };
  try {
    return { ok: true, value: (convertScale(PM_TYPE_DOUBLE, value, desc.units, conv.units.to) as number) * conv.units.multiplier };
  } catch (e) {
    if (isPmError(e)) return { ok: false, code: e.code };
    throw e;
  }
}
