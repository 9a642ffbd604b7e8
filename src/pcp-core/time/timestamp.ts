// Exact timestamps (types.ts Timestamp: whole seconds + nanoseconds) and their arithmetic,
// plus the two places where libpcp turns them into doubles through the x87 80-bit
// `long double`: pmtimespecToReal / pmtimespecSub (rates, pmval's interval) and
// pmtimespecFromReal (interval parsing). Reproducing those roundings bit for bit is what
// lets pmval's rates match to 1e-9. Used by replay, rate.ts, interval and time-window parsing.
import { binaryToNumber, bitLength, EXTENDED_BITS, EXTENDED_MIN_EXP, decomposeDouble, rationalToDouble, roundRational } from '../c-numeric';
import type { Timestamp } from '../types';

export const NS_PER_SEC = 1_000_000_000;
const NS_PER_SEC_N = 1_000_000_000n;

/** A bigint count of nanoseconds since the epoch. */
export type TimestampNs = bigint;

/** A normalised timestamp: nsec is brought into [0, 1e9) by carrying into sec. */
export function makeTimestamp(sec: number, nsec = 0): Timestamp {
  if (nsec >= 0 && nsec < NS_PER_SEC) return { sec, nsec };
  const carry = Math.floor(nsec / NS_PER_SEC);
  return { sec: sec + carry, nsec: nsec - carry * NS_PER_SEC };
}

/** −1, 0 or 1 as a is before, at or after b (libpcp's tscmp). */
export function compareTimestamps(a: Timestamp, b: Timestamp): -1 | 0 | 1 {
  if (a.sec !== b.sec) return a.sec < b.sec ? -1 : 1;
  if (a.nsec !== b.nsec) return a.nsec < b.nsec ? -1 : 1;
  return 0;
}

export function addTimestamps(a: Timestamp, b: Timestamp): Timestamp {
  return makeTimestamp(a.sec + b.sec, a.nsec + b.nsec);
}

/** a − b, normalised (a negative difference has sec < 0 and nsec in [0, 1e9)). */
export function subtractTimestamps(a: Timestamp, b: Timestamp): Timestamp {
  return makeTimestamp(a.sec - b.sec, a.nsec - b.nsec);
}

export function timestampToNs(t: Timestamp): TimestampNs {
  return BigInt(t.sec) * NS_PER_SEC_N + BigInt(t.nsec);
}

export function timestampFromNs(ns: TimestampNs): Timestamp {
  let sec = ns / NS_PER_SEC_N;
  let nsec = ns % NS_PER_SEC_N;
  if (nsec < 0n) {
    nsec += NS_PER_SEC_N;
    sec -= 1n;
  }
  return { sec: Number(sec), nsec: Number(nsec) };
}

/**
 * a − b in seconds as a plain double: the nanosecond difference normalised into [0, 1e9),
 * then whole seconds + fraction (derived metrics' rate()).
 */
export function subtractTimestampsDouble(a: Timestamp, b: Timestamp): number {
  let sec = a.sec - b.sec;
  let nsec = a.nsec - b.nsec;
  if (nsec < 0) {
    nsec += NS_PER_SEC;
    sec--;
  }
  return sec + nsec / NS_PER_SEC;
}

// ---------------------------------------------------------------------------------------------
// libpcp's long double conversions

/**
 * `(double)(sec + (long double)nsec / 1e9L)` as gcc computes it on x86-64: the quotient and
 * the sum rounded to 64 significant bits, then the result to 53. Integers sec and nsec, any
 * sign. A fast double computation decides all but the rare values near a rounding boundary,
 * which are settled with exact rational arithmetic.
 */
export function longDoubleSeconds(sec: number, nsec: number): number {
  if (nsec === 0) return sec;
  const fast = fastLongDoubleSeconds(sec, nsec);
  return fast ?? exactLongDoubleSeconds(sec, nsec);
}

/** Powers of two 2^k for k in [-1100, 1100], by table: Math.pow is slow in the hot path. */
const POW2 = new Float64Array(2201);
for (let k = -1100; k <= 1100; k++) POW2[k + 1100] = 2 ** k;
function pow2(k: number): number {
  return POW2[k + 1100];
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // high word index

function fastLongDoubleSeconds(sec: number, nsec: number): number | undefined {
  if (Math.abs(sec) < 2) return undefined;
  const r = sec + nsec / NS_PER_SEC;
  // The exact value minus r: sec − r is exact (Sterbenz), the fraction carries ≤ 2^-53 error.
  const diff = sec - r + nsec / NS_PER_SEC;
  f64[0] = r;
  const hi = u32[HI] ?? 0;
  const lo = u32[1 - HI] ?? 0;
  const biased = (hi >>> 20) & 0x7ff;
  // A power of two has an asymmetric rounding interval: leave it to the exact path.
  if ((hi & 0xfffff) === 0 && lo === 0) return undefined;
  const halfUlp = pow2(biased - 1076);
  // Error bound of both computations: the x87 sum (2^-63 relative) and the double quotient.
  const margin = Math.abs(r) * 2 ** -62 + 2 ** -50;
  const a = Math.abs(diff);
  // Both neighbours and the tests are worked out on every call: arithmetic met only on the
  // rare rounding path would deoptimize the compiled function (and its callers) there.
  const far = a > halfUlp + margin;
  const next = r + (diff > 0 ? 2 : -2) * halfUlp;
  if (a < halfUlp - margin) return r;
  if (far) return next;
  return undefined;
}

/** The same value by exact rational arithmetic on bigints. */
export function exactLongDoubleSeconds(sec: number, nsec: number): number {
  const qNeg = nsec < 0;
  const q = roundRational(BigInt(Math.abs(nsec)), NS_PER_SEC_N, EXTENDED_BITS, EXTENDED_MIN_EXP);
  // sec + (±q.mant · 2^q.exp) as num / 2^-q.exp (q < 2, so q.exp < 0).
  const scale = -q.exp;
  const num = (BigInt(sec) << BigInt(scale)) + (qNeg ? -q.mant : q.mant);
  if (num === 0n) return 0;
  const neg = num < 0n;
  const s = roundRational(neg ? -num : num, 1n << BigInt(scale), EXTENDED_BITS, EXTENDED_MIN_EXP);
  const v = rationalFromBinary(s.mant, s.exp);
  return neg ? -v : v;
}

function rationalFromBinary(mant: bigint, exp: number): number {
  if (bitLength(mant) <= 53) return binaryToNumber({ mant, exp });
  return exp >= 0 ? rationalToDouble(mant << BigInt(exp), 1n) : rationalToDouble(mant, 1n << BigInt(-exp));
}

/** pmtimespecToReal: a timestamp as double seconds, rounded as libpcp rounds it. */
export function timestampToReal(t: Timestamp): number {
  return longDoubleSeconds(t.sec, t.nsec);
}

/**
 * a − b in seconds through x87 long double, as libpcp computes it (pmtimespecSub,
 * __pmTimestampSub; replay's record and request times): exact to the bit.
 */
export function subtractTimestampsLongDouble(a: Timestamp, b: Timestamp): number {
  return secondsBetween(a.sec, a.nsec, b.sec, b.nsec);
}

const bitsView = new DataView(new ArrayBuffer(8));



/** Unbiased binary exponent of a finite normal double. */
function exponentOf(x: number): number {
  bitsView.setFloat64(0, x);
  return ((bitsView.getUint32(0) >>> 20) & 0x7ff) - 1023;
}

/** Whether a finite normal double is a power of two (its fraction bits are all zero). */
function isPowerOfTwo(x: number): boolean {
  bitsView.setFloat64(0, x);
  return (bitsView.getUint32(0) & 0xfffff) === 0 && bitsView.getUint32(4) === 0;
}

/** Upper bound of half a 64-bit-significand ulp at x ≠ 0 (x87 long double spacing). */
function halfUlp64(x: number): number {
  if (x === 0) return 0;
  // 2^(e-63) is the ulp for |x| in [2^e, 2^(e+1)); half of it is 2^(e-64). One binade up is
  // a safe over-estimate should x sit just below a power of two after rounding.
  return pow2(exponentOf(x) - 63);
}

/**
 * Seconds from b to a as libpcp computes them (__pmTimestampSub, pmtimespecSub): exact in the
 * x87 sense. Fast path: N = Δ in ns is an exact double for spans up to ~104 days, so c = N/1e9
 * is the correctly rounded value of r = Δ. libpcp's twice-rounded result differs from c only
 * when r lies within libpcp's own rounding error of a midpoint between doubles; that case is
 * detected from the exact residual and handed to the bigint computation.
 */
export function secondsBetween(aSec: number, aNsec: number, bSec: number, bNsec: number): number {
  const ds = aSec - bSec;
  const dn = aNsec - bNsec;
  if (dn === 0) return ds;
  const n = ds * NS_PER_SEC + dn;
  if (Math.abs(n) > 9007199254740991) return longDoubleSeconds(ds, dn);
  const c = n / NS_PER_SEC;
  // Residual r - c = (n - c·1e9) / 1e9; c·1e9 is taken apart exactly by Dekker's product.
  const p = c * NS_PER_SEC;
  // Veltkamp split of c (2^27 + 1), inline: this runs for every record and fetch.
  const cs = 134217729 * c;
  const ch = cs - (cs - c);
  const cl = c - ch;
  const err = ch * NS_PER_SEC - p + cl * NS_PER_SEC;
  const residual = (n - p - err) / NS_PER_SEC;
  const ulp = pow2(exponentOf(c) - 52);
  // Distance from r to the nearest midpoint between c and its neighbour on r's side.
  const towardZero = residual !== 0 && residual < 0 === c > 0;
  const halfGap = towardZero && isPowerOfTwo(c) ? ulp / 4 : ulp / 2;
  const distance = halfGap - Math.abs(residual);
  // libpcp's error: half a 64-bit ulp of Δnsec/1e9 plus half a 64-bit ulp of the sum.
  const errorBound = halfUlp64(dn / NS_PER_SEC) + halfUlp64(c) * 1.001;
  if (distance > errorBound * 1.01 + ulp * 1e-9) return c;
  return longDoubleSeconds(ds, dn);
}

/**
 * pmtimespecFromReal: tv_sec = (time_t)secs; tv_nsec = (long)((secs − tv_sec)·1e9L + 0.5L),
 * each long double step rounded to 64 bits. libpcp can leave tv_nsec = 1e9 (a fraction just
 * below 1) or negative (negative secs); the result here is normalised, the same instant.
 */
export function timestampFromReal(secs: number): Timestamp {
  const raw = timespecFromReal(secs);
  return makeTimestamp(raw.sec, raw.nsec);
}

/**
 * pmtimespecFromReal exactly, unnormalised: tv_nsec may be 1e9 (or negative for negative
 * secs) as libpcp leaves it. time-window.ts needs this to reproduce libpcp's comparisons.
 */
export function timespecFromReal(secs: number): { readonly sec: number; readonly nsec: number } {
  const whole = Math.trunc(secs);
  const frac = secs - whole; // exact
  if (frac === 0) return { sec: whole, nsec: 0 };
  const { mant, exp } = decomposeDouble(frac);
  const neg = mant < 0n;
  const m = neg ? -mant : mant;
  // frac · 1e9, rounded to 64 bits.
  const p = exp >= 0 ? roundRational((m * NS_PER_SEC_N) << BigInt(exp), 1n, EXTENDED_BITS, EXTENDED_MIN_EXP) : roundRational(m * NS_PER_SEC_N, 1n << BigInt(-exp), EXTENDED_BITS, EXTENDED_MIN_EXP);
  // ± p + 0.5, rounded to 64 bits, then truncated toward zero.
  const scale = Math.max(1, -p.exp);
  const pNum = p.mant << BigInt(p.exp + scale);
  const sum = (neg ? -pNum : pNum) + (1n << BigInt(scale - 1));
  const sNeg = sum < 0n;
  const s = roundRational(sNeg ? -sum : sum, 1n << BigInt(scale), EXTENDED_BITS, EXTENDED_MIN_EXP);
  const truncated = s.exp >= 0 ? s.mant << BigInt(s.exp) : s.mant >> BigInt(-s.exp);
  return { sec: whole, nsec: Number(sNeg ? -truncated : truncated) };
}
