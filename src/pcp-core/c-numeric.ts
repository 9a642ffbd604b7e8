// C numeric semantics that libpcp's results depend on, reproduced exactly in JavaScript:
// correctly rounded rational → double / float conversions, integer powers (glibc pow),
// int64 → float, the x87 80-bit `long double` rounding that pmtimespecToReal and
// pmtimespecFromReal go through, strtod / strtol as glibc parses in the C locale, and C's
// double → integer casts as gcc compiles them for x86-64. Used by units.ts (pmParseUnitsStr,
// pmConvScale), values.ts (pmExtractValue), replay's interpolation, fetchgroup and time/.
// Everything here is exact: bigint rationals, rounding to nearest, ties to even.

/** Number of significant bits of a non-negative bigint (0 for 0). */
export function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** A binary floating value held exactly: mant · 2^exp, mant ≥ 0. */
export interface Binary {
  readonly mant: bigint;
  readonly exp: number;
}

/**
 * Rounds the positive rational num/den to `bits` significant bits, to nearest with ties to
 * even, never using a lowest bit below 2^minExp (gradual underflow, as IEEE subnormals).
 */
export function roundRational(num: bigint, den: bigint, bits: number, minExp: number): Binary {
  if (num <= 0n || den <= 0n) return { mant: 0n, exp: minExp };
  // Choose exp so that num / (den · 2^exp) has exactly `bits` integer bits (or fewer at minExp).
  let exp = bitLength(num) - bitLength(den) - bits;
  if (scaledQuotient(num, den, exp) >= 1n << BigInt(bits)) exp += 1;
  if (exp < minExp) exp = minExp;
  const [q, r2, d2] = quotientRemainder(num, den, exp);
  let mant = q;
  // Round: compare twice the remainder with the divisor.
  if (r2 > d2 || (r2 === d2 && (mant & 1n) === 1n)) mant += 1n;
  if (mant === 1n << BigInt(bits)) {
    mant >>= 1n;
    exp += 1;
  }
  return { mant, exp };
}

function scaledQuotient(num: bigint, den: bigint, exp: number): bigint {
  return exp >= 0 ? num / (den << BigInt(exp)) : (num << BigInt(-exp)) / den;
}

/** Quotient of num / (den·2^exp) with twice the remainder and the divisor, for rounding. */
function quotientRemainder(num: bigint, den: bigint, exp: number): [bigint, bigint, bigint] {
  const n = exp >= 0 ? num : num << BigInt(-exp);
  const d = exp >= 0 ? den << BigInt(exp) : den;
  return [n / d, (n % d) * 2n, d];
}

/** mant · 2^exp as a double; exact when mant has at most 53 bits and the value is in range. */
export function binaryToNumber(b: Binary): number {
  const m = Number(b.mant);
  // Split the power so that neither factor overflows or underflows on its own.
  const half = Math.trunc(b.exp / 2);
  return m * 2 ** half * 2 ** (b.exp - half);
}

const DOUBLE_BITS = 53;
const DOUBLE_MIN_EXP = -1074;
const FLOAT_BITS = 24;
const FLOAT_MIN_EXP = -149;

/** The double nearest to num/den (den > 0), ±Infinity on overflow. */
export function rationalToDouble(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const neg = num < 0n;
  const r = roundRational(neg ? -num : num, den, DOUBLE_BITS, DOUBLE_MIN_EXP);
  const v = r.exp + bitLength(r.mant) > 1024 ? Infinity : binaryToNumber(r);
  return neg ? -v : v;
}

/** (float) of a 64-bit integer, correctly rounded (not via double, which could round twice). */
export function bigintToFloat32(x: bigint): number {
  if (x === 0n) return 0;
  const neg = x < 0n;
  const r = roundRational(neg ? -x : x, 1n, FLOAT_BITS, FLOAT_MIN_EXP);
  const v = binaryToNumber(r);
  return neg ? -v : v;
}

/** A finite double as an exact signed rational mant · 2^exp (mant an integer bigint). */
export function decomposeDouble(x: number): { mant: bigint; exp: number } {
  if (!Number.isFinite(x)) throw new RangeError(`decomposeDouble: ${x}`);
  if (x === 0) return { mant: 0n, exp: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (biased === 0) {
    exp = DOUBLE_MIN_EXP;
  } else {
    mant |= 1n << 52n;
    exp = biased - 1075;
  }
  return { mant: x < 0 ? -mant : mant, exp };
}

/**
 * base^n for an integer n, correctly rounded. glibc's pow is correctly rounded for the
 * arguments libpcp gives it (powers of 1024, of 10 and of the time-scale constants).
 */
export function powInt(base: number, n: number): number {
  if (n === 0) return 1;
  if (!Number.isFinite(base) || base === 0) return base ** n;
  const { mant, exp } = decomposeDouble(base);
  const k = BigInt(Math.abs(n));
  const m = mant ** k;
  const e = exp * Math.abs(n);
  // m · 2^e, or its reciprocal for a negative power.
  if (n > 0) return e >= 0 ? rationalToDouble(m << BigInt(e), 1n) : rationalToDouble(m, 1n << BigInt(-e));
  const neg = m < 0n;
  const abs = neg ? -m : m;
  const v = e >= 0 ? rationalToDouble(1n, abs << BigInt(e)) : rationalToDouble(1n << BigInt(-e), abs);
  return neg ? -v : v;
}

/** x87 `long double`: 64 significant bits, 15-bit exponent. */
export const EXTENDED_BITS = 64;
export const EXTENDED_MIN_EXP = -16445;

/** C's isspace in the C locale. */
export function isCSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';
}
export function isCDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}
export function isCAlpha(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}
function isHexDigit(c: string | undefined): boolean {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c);
}

/** strtod's result: `end === start` when nothing was converted; `erange` as errno == ERANGE. */
export interface StrtodResult {
  readonly value: number;
  readonly end: number;
  readonly erange: boolean;
}

/**
 * glibc strtod in the C locale from `start`: leading white space, sign, decimal or hex
 * (`0x`) significand with optional exponent, `inf`, `infinity`, `nan`, `nan(...)`. ERANGE on
 * overflow, and on underflow when the result is subnormal or zero and inexact.
 */
export function strtod(text: string, start: number): StrtodResult {
  let i = start;
  while (isCSpace(text[i])) i++;
  let neg = false;
  if (text[i] === '+' || text[i] === '-') {
    neg = text[i] === '-';
    i++;
  }
  const signed = (v: number): number => (neg ? -v : v);
  const lower = text.slice(i, i + 8).toLowerCase();
  if (lower.startsWith('inf')) {
    const end = i + (lower === 'infinity' ? 8 : 3);
    return { value: signed(Infinity), end, erange: false };
  }
  if (lower.startsWith('nan')) {
    let end = i + 3;
    if (text[end] === '(') {
      let j = end + 1;
      while (j < text.length && /[0-9A-Za-z_]/.test(text[j] ?? '')) j++;
      if (text[j] === ')') end = j + 1;
    }
    return { value: NaN, end, erange: false };
  }
  if (text[i] === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X')) {
    const hex = parseHexFloat(text, i + 2);
    if (hex) return { value: signed(hex.value), end: hex.end, erange: hex.erange };
    // "0x" without hex digits converts the "0" alone.
    return { value: signed(0), end: i + 1, erange: false };
  }
  // Decimal: digits [. digits] [e[+-]digits], at least one digit in the significand.
  let digits = '';
  let fracDigits = 0;
  let j = i;
  while (isCDigit(text[j])) digits += text[j++];
  if (text[j] === '.') {
    j++;
    while (isCDigit(text[j])) {
      digits += text[j++];
      fracDigits++;
    }
  }
  if (digits.length === 0) return { value: 0, end: start, erange: false };
  let exp10 = 0;
  const e10 = exponentAt(text, j, 'eE', 1e9);
  if (e10) {
    exp10 = e10.value;
    j = e10.end;
  }
  return { ...decimalToDouble(digits, exp10 - fracDigits, neg), end: j };
}

/**
 * A C exponent part at `j` (a letter of `letters`, an optional sign, at least one digit),
 * its magnitude capped at `cap`; undefined when there is none, so strtod stops before it.
 */
function exponentAt(text: string, j: number, letters: string, cap: number): { value: number; end: number } | undefined {
  const c = text[j];
  if (c === undefined || !letters.includes(c)) return undefined;
  let k = j + 1;
  const neg = text[k] === '-';
  if (neg || text[k] === '+') k++;
  if (!isCDigit(text[k])) return undefined;
  let e = 0;
  while (isCDigit(text[k])) {
    e = Math.min(e * 10 + Number(text[k]), cap);
    k++;
  }
  return { value: neg ? -e : e, end: k };
}

function decimalToDouble(digits: string, exp10: number, neg: boolean): { value: number; erange: boolean } {
  const mant = BigInt(digits);
  if (mant === 0n) return { value: neg ? -0 : 0, erange: false };
  // Clamp absurd exponents: the result is then certainly 0 or infinity.
  const e = Math.max(Math.min(exp10, 400), -400 - digits.length);
  const [num, den] = e >= 0 ? [mant * 10n ** BigInt(e), 1n] : [mant, 10n ** BigInt(-e)];
  return roundDecimalResult(num, den, neg);
}

function roundDecimalResult(num: bigint, den: bigint, neg: boolean): { value: number; erange: boolean } {
  const v = rationalToDouble(num, den);
  if (!Number.isFinite(v)) return { value: neg ? -Infinity : Infinity, erange: true };
  let erange = false;
  if (Math.abs(v) < 2.2250738585072014e-308) {
    // Subnormal or zero: ERANGE unless the conversion was exact.
    const d = decomposeDouble(v);
    erange = d.mant === 0n || !exactlyEquals(d.mant, d.exp, num, den);
  }
  return { value: neg ? -v : v, erange };
}

function exactlyEquals(mant: bigint, exp: number, num: bigint, den: bigint): boolean {
  // mant · 2^exp == num / den  ⇔  mant · den · 2^exp == num
  return exp >= 0 ? (mant * den) << BigInt(exp) === num : mant * den === num << BigInt(-exp);
}

function parseHexFloat(text: string, start: number): { value: number; end: number; erange: boolean } | undefined {
  let j = start;
  let mant = 0n;
  let fracDigits = 0;
  let any = false;
  while (isHexDigit(text[j])) {
    mant = mant * 16n + BigInt(parseInt(text[j] ?? '0', 16));
    j++;
    any = true;
  }
  if (text[j] === '.') {
    let k = j + 1;
    while (isHexDigit(text[k])) {
      mant = mant * 16n + BigInt(parseInt(text[k] ?? '0', 16));
      k++;
      fracDigits++;
      any = true;
    }
    if (any) j = k;
  }
  if (!any) return undefined;
  let exp2 = -4 * fracDigits;
  const e2 = exponentAt(text, j, 'pP', 1e6);
  if (e2) {
    exp2 += e2.value;
    j = e2.end;
  }
  if (mant === 0n) return { value: 0, end: j, erange: false };
  const e = Math.max(Math.min(exp2, 2000), -2000 - bitLength(mant));
  const [num, den] = e >= 0 ? [mant << BigInt(e), 1n] : [mant, 1n << BigInt(-e)];
  return { ...roundDecimalResult(num, den, false), end: j };
}

/** strtol(text, &end, 10) from `start`; `end === start` when no digits were found. */
export function strtol(text: string, start: number): { value: number; end: number } {
  let i = start;
  while (isCSpace(text[i])) i++;
  let neg = false;
  if (text[i] === '+' || text[i] === '-') {
    neg = text[i] === '-';
    i++;
  }
  if (!isCDigit(text[i])) return { value: 0, end: start };
  let v = 0;
  while (isCDigit(text[i])) {
    // Saturate as strtol does at LONG_MAX / LONG_MIN (far beyond any range checked by callers).
    v = Math.min(v * 10 + Number(text[i]), Number.MAX_SAFE_INTEGER);
    i++;
  }
  return { value: neg ? -v : v, end: i };
}

const signView = new DataView(new ArrayBuffer(8));
/** 10^0 … 10^20, each exact. */
const POW10 = Array.from({ length: 21 }, (_, k) => 10 ** k);
const TWO_52 = 2 ** 52;

/** C's signbit(): also for NaN, whose sign glibc prints ("-nan": x86's inf - inf sets it). */
export function signBit(x: number): boolean {
  signView.setFloat64(0, x);
  return (signView.getUint8(0) & 0x80) !== 0;
}

/** glibc's printf text for a non-finite double: "inf", "-inf", "nan", "-nan" (upper for %E/%F). */
export function cNonFinite(x: number, upper: boolean): string {
  const s = `${signBit(x) ? '-' : ''}${Number.isNaN(x) ? 'nan' : 'inf'}`;
  return upper ? s.toUpperCase() : s;
}

/** printf("%.Nf", x) as glibc prints it: exact decimal expansion, to nearest, ties to even. */
export function formatFixedC(x: number, digits: number): string {
  if (!Number.isFinite(x)) return cNonFinite(x, false);
  // A finite double's sign bit: negative, or negative zero (signBit's answer, without its
  // DataView round trip: this runs for every value a table prints).
  const neg = x < 0 || (x === 0 && 1 / x < 0);
  // Number#toFixed is exact but for ties, which it rounds up. Below 2^52 a true tie n + ½ is
  // representable, so the correctly rounded product is that tie: any other proves none.
  if (digits <= 20) {
    const a = neg ? -x : x;
    const scaled = a * POW10[digits];
    // x % 1 === 0: an integer (both are finite here).
    if (scaled < TWO_52 && !((scaled * 2) % 1 === 0 && scaled % 1 !== 0)) return neg ? `-${a.toFixed(digits)}` : a.toFixed(digits);
  }
  const { mant, exp } = decomposeDouble(Math.abs(x));
  // |x| · 10^digits = num / den exactly; q is its rounded value.
  let num = mant * 10n ** BigInt(digits);
  let den = 1n;
  if (exp >= 0) num <<= BigInt(exp);
  else den <<= BigInt(-exp);
  let q = num / den;
  const r2 = (num - q * den) * 2n;
  if (r2 > den || (r2 === den && (q & 1n) === 1n)) q += 1n;
  const s = q.toString().padStart(digits + 1, '0');
  const int = s.slice(0, s.length - digits);
  return `${neg ? '-' : ''}${digits > 0 ? `${int}.${s.slice(s.length - digits)}` : int}`;
}

/**
 * printf("%.Pg", x) as glibc prints it: P significant digits (0 means 1), fixed or
 * exponential by the rounded exponent, trailing zeros and a trailing point removed.
 */
export function formatGC(x: number, precision: number): string {
  if (!Number.isFinite(x)) return cNonFinite(x, false);
  const p = precision === 0 ? 1 : precision;
  const e = formatExpC(x, p - 1);
  const exp = Number(e.slice(e.indexOf('e') + 1));
  const strip = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (exp < p && exp >= -4) return strip(formatFixedC(x, p - 1 - exp));
  const [mant, tail] = e.split('e') as [string, string];
  return `${strip(mant)}e${tail}`;
}

/** printf("%.Ne", x): exact, to nearest, ties to even; at least two exponent digits. */
export function formatExpC(x: number, digits: number): string {
  if (!Number.isFinite(x)) return cNonFinite(x, false);
  const neg = signBit(x);
  const a = Math.abs(x);
  if (a === 0) return `${neg ? '-' : ''}0${digits > 0 ? `.${'0'.repeat(digits)}` : ''}e+00`;
  // Number#toExponential rounds the exact value too, but a tie up where glibc rounds it to
  // even. A tie is exactly one digit more ending in 5: rounded to that digit it still ends in
  // 5 and reads back as the same double. Only those take the exact path below, a BigInt
  // division per call. (One digit more, not 21 digits: that many leaves V8's fast dtoa.)
  if (digits <= 19) {
    const wide = a.toExponential(digits + 1);
    if (wide.charCodeAt(digits + 2) !== 53 || Number(wide) !== a) {
      const s = a.toExponential(digits);
      const e = s.indexOf('e');
      const exp = s.slice(e + 2);
      return `${neg ? '-' : ''}${s.slice(0, e + 2)}${exp.length < 2 ? `0${exp}` : exp}`;
    }
  }
  const { mant, exp } = decomposeDouble(a);
  // a = num / den exactly.
  const num0 = exp >= 0 ? mant << BigInt(exp) : mant;
  const den0 = exp >= 0 ? 1n : 1n << BigInt(-exp);
  let dexp = Math.floor(Math.log10(a));
  const scaled = (d: number): [bigint, bigint] => (d >= 0 ? [num0, den0 * 10n ** BigInt(d)] : [num0 * 10n ** BigInt(-d), den0]);
  let [sn, sd] = scaled(dexp);
  if (sn < sd) [sn, sd] = scaled(--dexp);
  else if (sn >= sd * 10n) [sn, sd] = scaled(++dexp);
  const num = sn * 10n ** BigInt(digits);
  let q = num / sd;
  const r2 = (num - q * sd) * 2n;
  if (r2 > sd || (r2 === sd && (q & 1n) === 1n)) q += 1n;
  if (q >= 10n ** BigInt(digits + 1)) {
    q /= 10n;
    dexp += 1;
  }
  const s = q.toString();
  return `${neg ? '-' : ''}${digits > 0 ? `${s[0]}.${s.slice(1)}` : s}e${dexp < 0 ? '-' : '+'}${String(Math.abs(dexp)).padStart(2, '0')}`;
}

// --- C casts on x86-64 (cvttsd2si and gcc's unsigned sequences) ------------------------------
// In-range values truncate toward zero; out-of-range values and NaN give the "integer
// indefinite" pattern, which for unsigned targets passes through the signed 64-bit
// conversion first (libpcp's pmExtractValue and interpolation store results this way).

const TWO_63 = 2 ** 63;
const INT64_MIN = -(1n << 63n);

/** (int32_t)x: truncation; NaN and out-of-range give INT_MIN. */
export function doubleToInt32(x: number): number {
  if (!(x > -2147483649 && x < 2147483648)) return -2147483648;
  return Math.trunc(x) | 0;
}

/** (int64_t)x: truncation; NaN and out-of-range give INT64_MIN. */
export function doubleToInt64(x: number): bigint {
  if (!(x >= -TWO_63 && x < TWO_63)) return INT64_MIN;
  return BigInt(Math.trunc(x));
}

/** (uint32_t)x: gcc converts through int64, so the low 32 bits of that result. */
export function doubleToUint32(x: number): number {
  const t = Math.trunc(x);
  if (t >= 0 && t < 4294967296) return t;
  return Number(BigInt.asUintN(32, doubleToInt64(x)));
}

/**
 * (uint64_t)x: below 2^63 (and NaN, which compares unordered) a signed conversion, so NaN
 * gives 2^63 as libpcp's pmExtractValue does (c-numeric.conformance.test.ts); from 2^63 the
 * value minus 2^63 converted, then the top bit flipped (beyond 2^64: 0).
 */
export function doubleToUint64(x: number): bigint {
  // In [0, 2^63) the signed conversion is already the unsigned value (the common case: one
  // BigInt made, not two).
  if (x >= 0 && x < TWO_63) return BigInt(Math.trunc(x));
  if (!(x >= TWO_63)) return BigInt.asUintN(64, doubleToInt64(x));
  return BigInt.asUintN(64, doubleToInt64(x - TWO_63) ^ INT64_MIN);
}

/** Largest integer a double holds with every integer below it (2^53 − 1). */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * (int64_t)x as a number, when that value is a safe integer; else undefined (the caller takes
 * the bigint path). Where defined, BigInt of the result is doubleToInt64(x).
 */
export function doubleToInt64Number(x: number): number | undefined {
  // + 0: a truncated -0.5 is -0, where C's integer is 0.
  const t = Math.trunc(x) + 0;
  return t >= -SAFE && t <= SAFE ? t : undefined;
}

/** (uint64_t)x as a number, when that value is a safe integer; else undefined (as above). */
export function doubleToUint64Number(x: number): number | undefined {
  const t = Math.trunc(x) + 0;
  return t >= 0 && t <= SAFE ? t : undefined;
}
