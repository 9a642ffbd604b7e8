// Units of measure as libpcp 6.0.3 handles them: parse (pmParseUnitsStr), format (pmUnitsStr)
// and scale conversion (pmConvScale, with its 64-bit integer rounding). Used by descriptors'
// display, fetchgroup scale strings, derived metrics and the rate code.
// Follows derived-units-conversion.md §1.2 and §6; conformance: units.conformance.test.ts.
import { bigintToFloat32, isCDigit, isCSpace, powInt, strtod } from './c-numeric';
import { PM_ERR_CONV, PM_ERR_UNIT, PmError } from './errors';
import { NO_UNITS, PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_U32, PM_TYPE_U64 } from './types';
import type { Units } from './types';

export const PM_SPACE_BYTE = 0;
export const PM_SPACE_KBYTE = 1;
export const PM_SPACE_MBYTE = 2;
export const PM_SPACE_GBYTE = 3;
export const PM_SPACE_TBYTE = 4;
export const PM_SPACE_PBYTE = 5;
export const PM_SPACE_EBYTE = 6;
export const PM_SPACE_ZBYTE = 7;
export const PM_SPACE_YBYTE = 8;
export const PM_TIME_NSEC = 0;
export const PM_TIME_USEC = 1;
export const PM_TIME_MSEC = 2;
export const PM_TIME_SEC = 3;
export const PM_TIME_MIN = 4;
export const PM_TIME_HOUR = 5;
export const PM_COUNT_ONE = 0;

export function makeUnits(u: Partial<Units>): Units {
  return { ...NO_UNITS, ...u };
}

export function isDimensionless(u: Units): boolean {
  return u.dimSpace === 0 && u.dimTime === 0 && u.dimCount === 0;
}

// ---------------------------------------------------------------------------------------------
// pmUnitsStr (§6.3)

const SPACE_NAMES = ['byte', 'Kbyte', 'Mbyte', 'Gbyte', 'Tbyte', 'Pbyte', 'Ebyte', 'Zbyte', 'Ybyte'];
const TIME_NAMES = ['nanosec', 'microsec', 'millisec', 'sec', 'min', 'hour'];

function spaceName(scale: number): string {
  return SPACE_NAMES[scale] ?? `space-${scale}`;
}
function timeName(scale: number): string {
  return TIME_NAMES[scale] ?? `time-${scale}`;
}
function countName(scale: number): string {
  return scale === 0 ? 'count' : scale === 1 ? 'count x 10' : `count x 10^${scale}`;
}

/**
 * pmUnitsStr: positive dimensions (space, time, count), then "/" and the negative ones;
 * "" for dimensionless units, or "x 10^N" when only a count scale is set. Clients print ""
 * as "none".
 */
export function formatUnits(u: Units): string {
  const terms: Array<[dim: number, name: string]> = [
    [u.dimSpace, u.dimSpace ? spaceName(u.scaleSpace) : ''],
    [u.dimTime, u.dimTime ? timeName(u.scaleTime) : ''],
    [u.dimCount, u.dimCount ? countName(u.scaleCount) : ''],
  ];
  const term = (dim: number, name: string): string => (Math.abs(dim) === 1 ? name : `${name}^${Math.abs(dim)}`);
  const pos = terms.filter(([d]) => d > 0).map(([d, n]) => term(d, n));
  const neg = terms.filter(([d]) => d < 0).map(([d, n]) => term(d, n));
  if (pos.length === 0 && neg.length === 0) {
    // Dimensionless: only a count scale is shown (a historical anomaly kept by libpcp).
    return u.scaleCount === 0 ? '' : u.scaleCount === 1 ? 'x 10' : `x 10^${u.scaleCount}`;
  }
  return neg.length === 0 ? pos.join(' ') : [...pos, '/', ...neg].join(' ');
}

// ---------------------------------------------------------------------------------------------
// pmParseUnitsStr (§6.2)

/** The result of pmParseUnitsStr: a value in `units` times `multiplier` is in the named units. */
export interface ParsedUnits {
  readonly units: Units;
  readonly multiplier: number;
}

export type UnitsParseResult =
  | { readonly ok: true; readonly units: Units; readonly multiplier: number }
  | { readonly ok: false; readonly code: number; readonly message: string };

interface Keyword {
  readonly text: string;
  readonly scale: number;
}
const kw = (text: string, scale: number): Keyword => ({ text, scale });

// Keyword tables in libpcp's matching order: the first keyword that matches (case-insensitive,
// followed by white space, '^' or the end of the part) wins, so longer spellings come first.
const TIME_KEYWORDS: readonly Keyword[] = [
  ...['nanoseconds', 'nanosecond', 'nanosec', 'ns'].map((t) => kw(t, PM_TIME_NSEC)),
  ...['microseconds', 'microsecond', 'microsec', 'us'].map((t) => kw(t, PM_TIME_USEC)),
  ...['milliseconds', 'millisecond', 'millisec', 'ms'].map((t) => kw(t, PM_TIME_MSEC)),
  ...['seconds', 'second', 'sec', 's'].map((t) => kw(t, PM_TIME_SEC)),
  ...['minutes', 'minute', 'min'].map((t) => kw(t, PM_TIME_MIN)),
  ...['hours', 'hour', 'hr', 'h'].map((t) => kw(t, PM_TIME_HOUR)),
  ...[0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1].map((n) => kw(`time-${n}`, n)),
];
const SPACE_PREFIXES: ReadonlyArray<[short: string, iec: string, word: string]> = [
  ['K', 'Kibi', 'Kilo'],
  ['M', 'Mebi', 'Mega'],
  ['G', 'Gibi', 'Giga'],
  ['T', 'Tebi', 'Tera'],
  ['P', 'Pebi', 'Peta'],
  ['E', 'Exbi', 'Exa'],
  ['Z', 'Zebi', 'Zetta'],
  ['Y', 'Yobi', 'Yotta'],
];
const SPACE_KEYWORDS: readonly Keyword[] = [
  kw('bytes', PM_SPACE_BYTE),
  kw('byte', PM_SPACE_BYTE),
  ...SPACE_PREFIXES.flatMap(([p, iec, word], i) =>
    [`${p}B`, `${p}iB`, `${p}bytes`, `${p}byte`, `${iec}bytes`, `${iec}byte`, `${word}bytes`, `${word}byte`].map((t) => kw(t, i + 1)),
  ),
  ...[0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1].map((n) => kw(`space-${n}`, n)),
];
const COUNT_KEYWORDS: readonly Keyword[] = [
  ...[-8, -7, -6, -5, -4, -3, -2, -1, 2, 3, 4, 5, 6, 7].map((n) => kw(`count x 10^${n}`, n)),
  kw('count x 10', 1),
  kw('counts', 0),
  kw('count', 0),
];
const EXPONENT_KEYWORDS: readonly Keyword[] = [
  ...[-8, -7, -6, -5, -4, -3, -2, -1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map((n) => kw(`^${n}`, n)),
  kw('^1', 1),
];

/** One side of the '/': dimensions may exceed the 4-bit fields here (up to 15, down to −8). */
interface UnitsPart {
  dimSpace: number;
  dimTime: number;
  dimCount: number;
  scaleSpace: number;
  scaleTime: number;
  scaleCount: number;
  multiplier: number;
}

class PartError extends Error {}

/** libpcp's keyword match: case-insensitive, then white space, '^' or the end of the part. */
function matchKeyword(text: string, pos: number, end: number, word: string): boolean {
  const after = pos + word.length;
  if (after > end) return false;
  if (text.slice(pos, after).toLowerCase() !== word.toLowerCase()) return false;
  return after === end || isCSpace(text[after]) || text[after] === '^';
}

function parsePart(text: string, start: number, end: number): UnitsPart {
  const part: UnitsPart = { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0, multiplier: 1 };
  let pos = start;
  while (pos < end) {
    const c = text[pos];
    if (isCSpace(c)) {
      pos++;
      continue;
    }
    if (c === '-' || c === '.' || isCDigit(c)) {
      const num = strtod(text, pos);
      if (num.erange || num.end === pos || num.end > end) throw new PartError('invalid floating point literal');
      pos = num.end;
      part.multiplier *= num.value;
      continue;
    }
    // A base unit: each axis at most once per part (an axis whose dimension is still 0 may
    // be named again, as libpcp checks the dimension, not whether the axis was seen).
    let axis: 'time' | 'space' | 'count' | undefined;
    let found: Keyword | undefined;
    if (part.dimTime === 0 && (found = TIME_KEYWORDS.find((k) => matchKeyword(text, pos, end, k.text)))) {
      axis = 'time';
      part.scaleTime = found.scale;
    } else if (part.dimSpace === 0 && (found = SPACE_KEYWORDS.find((k) => matchKeyword(text, pos, end, k.text)))) {
      axis = 'space';
      part.scaleSpace = found.scale;
    } else if (part.dimCount === 0 && (found = COUNT_KEYWORDS.find((k) => matchKeyword(text, pos, end, k.text)))) {
      axis = 'count';
      part.scaleCount = found.scale;
    }
    if (!axis || !found) throw new PartError('unrecognized or duplicate base unit');
    pos += found.text.length;
    let dim: number | undefined;
    if (pos === end || isCSpace(text[pos])) {
      dim = 1;
    } else {
      const exp = EXPONENT_KEYWORDS.find((k) => matchKeyword(text, pos, end, k.text));
      if (exp) {
        dim = exp.scale;
        pos += exp.text.length;
      }
      // No exponent matched: the dimension stays 0 and the '^' fails as the next base unit.
    }
    if (dim !== undefined) {
      if (axis === 'time') part.dimTime = dim;
      else if (axis === 'space') part.dimSpace = dim;
      else part.dimCount = dim;
    }
  }
  return part;
}

const TIME_SCALE_SECONDS = [0.000000001, 0.000001, 0.001, 1, 60, 3600];

/** Whether a dimension fits the signed 4-bit field of pmUnits. */
function fitsDim(d: number): boolean {
  return d >= -8 && d <= 7;
}

/**
 * pmParseUnitsStr without throwing: the units, or PM_ERR_CONV with libpcp's message
 * (`invalid floating point literal`, `unrecognized or duplicate base unit`,
 * `space|time|count dimension out of bounds`).
 */
export function tryParseUnits(text: string): UnitsParseResult {
  const slash = text.indexOf('/');
  let dividend: UnitsPart;
  let divisor: UnitsPart;
  try {
    dividend = parsePart(text, 0, slash < 0 ? text.length : slash);
    divisor = slash < 0 ? parsePart('', 0, 0) : parsePart(text, slash + 1, text.length);
  } catch (e) {
    if (e instanceof PartError) return { ok: false, code: PM_ERR_CONV, message: e.message };
    throw e;
  }
  const dimSpace = dividend.dimSpace - divisor.dimSpace;
  const dimTime = dividend.dimTime - divisor.dimTime;
  const dimCount = dividend.dimCount - divisor.dimCount;
  if (!fitsDim(dimSpace)) return { ok: false, code: PM_ERR_CONV, message: 'space dimension out of bounds' };
  if (!fitsDim(dimTime)) return { ok: false, code: PM_ERR_CONV, message: 'time dimension out of bounds' };
  if (!fitsDim(dimCount)) return { ok: false, code: PM_ERR_CONV, message: 'count dimension out of bounds' };

  // The reciprocal: a value in the result units times this gives the value in the text's units.
  let multiplier = divisor.multiplier / dividend.multiplier;
  // An axis named on one side keeps that side's scale; on both sides (or neither) the scale
  // becomes the base unit and the difference moves into the multiplier, in libpcp's order.
  let scaleSpace: number;
  if (dividend.dimSpace === 0 && divisor.dimSpace !== 0) scaleSpace = divisor.scaleSpace;
  else if (divisor.dimSpace === 0 && dividend.dimSpace !== 0) scaleSpace = dividend.scaleSpace;
  else {
    scaleSpace = PM_SPACE_BYTE;
    multiplier *= powInt(powInt(1024, dividend.scaleSpace), -dividend.dimSpace);
    multiplier *= powInt(powInt(1024, divisor.scaleSpace), divisor.dimSpace);
    if (dimSpace === 0) scaleSpace = 0;
  }
  let scaleCount: number;
  if (dividend.dimCount === 0 && divisor.dimCount !== 0) scaleCount = divisor.scaleCount;
  else if (divisor.dimCount === 0 && dividend.dimCount !== 0) scaleCount = dividend.scaleCount;
  else {
    scaleCount = PM_COUNT_ONE;
    multiplier *= powInt(powInt(10, dividend.scaleCount), -dividend.dimCount);
    multiplier *= powInt(powInt(10, divisor.scaleCount), divisor.dimCount);
    if (dimCount === 0) scaleCount = 0;
  }
  let scaleTime: number;
  if (dividend.dimTime === 0 && divisor.dimTime !== 0) scaleTime = divisor.scaleTime;
  else if (divisor.dimTime === 0 && dividend.dimTime !== 0) scaleTime = dividend.scaleTime;
  else {
    const a = TIME_SCALE_SECONDS[dividend.scaleTime];
    const b = TIME_SCALE_SECONDS[divisor.scaleTime];
    // libpcp asserts here (and aborts) for time-6 … time-15 named on both sides; we refuse
    // the text instead (docs/deviations.md, "pmParseUnitsStr with time-N on both sides").
    if (a === undefined || b === undefined) return { ok: false, code: PM_ERR_CONV, message: 'unrecognized or duplicate base unit' };
    scaleTime = PM_TIME_SEC;
    multiplier *= powInt(a, -dividend.dimTime);
    multiplier *= powInt(b, divisor.dimTime);
    if (dimTime === 0) scaleTime = 0;
  }
  return { ok: true, units: { dimSpace, dimTime, dimCount, scaleSpace, scaleTime, scaleCount }, multiplier };
}

/** pmParseUnitsStr; throws PmError(PM_ERR_CONV) whose message is libpcp's error text. */
export function parseUnits(text: string): ParsedUnits {
  const r = tryParseUnits(text);
  if (!r.ok) throw new PmError(r.code, r.message, `units "${text}"`);
  return { units: r.units, multiplier: r.multiplier };
}

// ---------------------------------------------------------------------------------------------
// pmConvScale (§6.4)

const INT64 = (x: bigint): bigint => BigInt.asIntN(64, x);

/**
 * The integer ratio pmConvScale applies, as 64-bit signed integers (wrapping as C does):
 * value_out = value_in · mult / div. Throws PM_ERR_CONV (dimensions differ) or PM_ERR_UNIT
 * (space scale beyond Ebyte, time scale beyond hour).
 */
export function scaleRatio(from: Units, to: Units): { readonly mult: bigint; readonly div: bigint } {
  // Dimensionless units are treated as count^1 with their own count scale.
  const i = isDimensionless(from) ? { ...from, dimCount: 1 } : from;
  const o = isDimensionless(to) ? { ...to, dimCount: 1 } : to;
  if (i.dimSpace !== o.dimSpace || i.dimTime !== o.dimTime || i.dimCount !== o.dimCount) throw new PmError(PM_ERR_CONV);
  let mult = 1n;
  let div = 1n;
  const apply = (dim: number, m: bigint, d: bigint): void => {
    for (let k = 0; k < Math.abs(dim); k++) {
      if (dim > 0) {
        div = INT64(div * d);
        mult = INT64(mult * m);
      } else {
        mult = INT64(mult * d);
        div = INT64(div * m);
      }
    }
  };
  if (i.dimSpace) {
    // Relative to the canonical Mbyte.
    const f = (s: number): bigint => {
      if (s < PM_SPACE_BYTE || s > PM_SPACE_EBYTE) throw new PmError(PM_ERR_UNIT);
      return 1n << BigInt(10 * Math.abs(s - PM_SPACE_MBYTE));
    };
    const fi = f(i.scaleSpace);
    const fo = f(o.scaleSpace);
    const d = (i.scaleSpace < PM_SPACE_MBYTE ? fi : 1n) * (o.scaleSpace > PM_SPACE_MBYTE ? fo : 1n);
    const m = (i.scaleSpace > PM_SPACE_MBYTE ? fi : 1n) * (o.scaleSpace < PM_SPACE_MBYTE ? fo : 1n);
    apply(i.dimSpace, INT64(m), INT64(d));
  }
  if (i.dimTime) {
    // Relative to the canonical second.
    const below = [1000000000n, 1000000n, 1000n, 1n];
    const above = [1n, 1n, 1n, 1n, 60n, 3600n];
    const check = (s: number): void => {
      if (s < PM_TIME_NSEC || s > PM_TIME_HOUR) throw new PmError(PM_ERR_UNIT);
    };
    check(i.scaleTime);
    check(o.scaleTime);
    const d = (below[i.scaleTime] ?? 1n) * (above[o.scaleTime] ?? 1n);
    const m = (above[i.scaleTime] ?? 1n) * (below[o.scaleTime] ?? 1n);
    apply(i.dimTime, m, d);
  }
  if (i.dimCount) {
    const p10 = (n: number): bigint => 10n ** BigInt(n);
    const d = INT64((i.scaleCount < 0 ? p10(-i.scaleCount) : 1n) * (o.scaleCount > 0 ? p10(o.scaleCount) : 1n));
    const m = INT64((i.scaleCount > 0 ? p10(i.scaleCount) : 1n) * (o.scaleCount < 0 ? p10(-o.scaleCount) : 1n));
    apply(i.dimCount, m, d);
  }
  if (div === 0n || (div === -1n && mult === -(1n << 63n))) {
    // libpcp divides by zero here (SIGFPE) when the 64-bit factors wrap; we refuse instead
    // (docs/deviations.md, "pmConvScale factor overflow").
    throw new PmError(PM_ERR_CONV, undefined, 'scale factor overflows 64 bits');
  }
  if (mult % div === 0n) {
    mult /= div;
    div = 1n;
  }
  return { mult, div };
}

/** A value of one numeric type: number for 32, U32, FLOAT, DOUBLE; bigint for 64 and U64. */
export type NumericAtom = number | bigint;

/** pmConvScale: converts a value of `type` from one scale to another. Throws PmError. */
export function convertScale(type: number, value: NumericAtom, from: Units, to: Units): NumericAtom {
  return makeScaleConverter(type, from, to)(value);
}

/**
 * Precomputes pmConvScale for one (type, from, to) so columns convert without repeating the
 * unit checks. Integer types round as libpcp: (v·mult + div/2) / div in 64-bit arithmetic
 * with truncation toward zero, then a silent cast to the type.
 */
export function makeScaleConverter(type: number, from: Units, to: Units): (value: NumericAtom) => NumericAtom {
  const { mult, div } = scaleRatio(from, to);
  const half = div / 2n;
  switch (type) {
    case PM_TYPE_32:
      return (v) => Number(BigInt.asIntN(32, INT64(INT64(BigInt(v) * mult) + half) / div));
    case PM_TYPE_U32:
      return (v) => Number(BigInt.asUintN(32, INT64(INT64(BigInt(v) * mult) + half) / div));
    case PM_TYPE_64:
      return (v) => INT64(INT64(INT64(BigInt(v) * mult) + half) / div);
    case PM_TYPE_U64: {
      // uint64 arithmetic: mult, div/2 and div are converted to unsigned.
      const um = BigInt.asUintN(64, mult);
      const uh = BigInt.asUintN(64, half);
      const ud = BigInt.asUintN(64, div);
      return (v) => BigInt.asUintN(64, BigInt.asUintN(64, BigInt(v) * um) + uh) / ud;
    }
    case PM_TYPE_FLOAT: {
      const f = Math.fround(bigintToFloat32(mult) / bigintToFloat32(div));
      return (v) => Math.fround(Number(v) * f);
    }
    case PM_TYPE_DOUBLE: {
      const f = Number(mult) / Number(div);
      return (v) => Number(v) * f;
    }
    default:
      throw new PmError(PM_ERR_CONV);
  }
}
