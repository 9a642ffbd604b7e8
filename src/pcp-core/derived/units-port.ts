// The three units services derived metrics need — pmParseUnitsStr, pmUnitsStr, pmConvScale —
// behind one narrow seam, so the derived code does not depend on the shape of ../units
// (derived-units-conversion.md §6).
import { formatUnits, makeScaleConverter, tryParseUnits } from '../units';
import { isPmError } from '../errors';
import type { Units } from '../types';

export type ParsedUnitsText = { readonly ok: true; readonly units: Units } | { readonly ok: false; readonly message: string };

/** pmParseUnitsStr: the units, or libpcp's error text ("unrecognized or duplicate base unit"). */
export function parseUnitsText(text: string): ParsedUnitsText {
  const r = tryParseUnits(text);
  return r.ok ? { ok: true, units: r.units } : { ok: false, message: r.message };
}

/** pmUnitsStr ("" for dimensionless). */
export function unitsText(u: Units): string {
  return formatUnits(u);
}

/** A value of one numeric type: number for 32, U32, FLOAT, DOUBLE; bigint for 64 and U64. */
export type Numeric = number | bigint;

/**
 * pmConvScale for one (type, from, to): a converter, or the negative PCP error code when the
 * conversion is impossible (PM_ERR_CONV, PM_ERR_UNIT).
 */
export function scaleConverter(type: number, from: Units, to: Units): ((v: Numeric) => Numeric) | number {
  try {
    return makeScaleConverter(type, from, to);
  } catch (e) {
    if (isPmError(e)) return e.code;
    throw e;
  }
}
