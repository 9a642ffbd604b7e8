// Time arithmetic exactly as libpcp does it during replay (archive-format.md §7.4.1, §2.3).
// libpcp measures every record and request time as a double "seconds since the start of the
// earliest archive", computed as (double)(Δsec + (long double)Δnsec / 1e9) on x86-64, i.e.
// through the 80-bit x87 `long double` (64-bit significand) and rounded twice. Comparisons in
// the interpolation engine (t_this ≤ t_req, t_prior == t_req, the 1 ms end slop) and the
// interpolated values are all computed from these doubles, so we reproduce them bit for bit:
// a fast path that is provably exact for almost every input, and an exact bigint fallback.
import type { Timestamp } from '../types';

const NS_PER_SEC = 1_000_000_000;
const NS_BIG = 1_000_000_000n;

/** A binary number mant · 2^exp (mant signed, |mant| < 2^bits after rounding). */
interface Binary {
  mant: bigint;
  exp: number;
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** Rounds num/den (den > 0) to `bits` significant bits, to nearest, ties to even. */
function roundRational(num: bigint, den: bigint, bits: number): Binary {
  if (num === 0n) return { mant: 0n, exp: 0 };
  const negative = num < 0n;
  const n = negative ? -num : num;
  // Pick exp so that the quotient n / (den · 2^exp) has exactly `bits` integer bits.
  let exp = bitLength(n) - bitLength(den) - bits;
  const scaled = (e: number): [bigint, bigint] => (e >= 0 ? [n, den << BigInt(e)] : [n << BigInt(-e), den]);
  let [sn, sd] = scaled(exp);
  if (sn / sd >= 1n << BigInt(bits)) {
    exp += 1;
    [sn, sd] = scaled(exp);
  } else if (sn / sd < 1n << BigInt(bits - 1)) {
    exp -= 1;
    [sn, sd] = scaled(exp);
  }
  let q = sn / sd;
  const r2 = (sn - q * sd) * 2n;
  if (r2 > sd || (r2 === sd && (q & 1n) === 1n)) q += 1n;
  if (q === 1n << BigInt(bits)) {
    q >>= 1n;
    exp += 1;
  }
  return { mant: negative ? -q : q, exp };
}

function binaryToNumber(b: Binary): number {
  // mant has at most 53 bits here, so Number(mant) is exact; scaling by 2^exp is exact too.
  return Number(b.mant) * 2 ** b.exp;
}

/** (double)((long double)ds + (long double)dn / 1e9L), evaluated exactly as x87 does. */
function extendedSecondsExact(ds: number, dn: number): number {
  const l1 = roundRational(BigInt(dn), NS_BIG, 64);
  // ds + l1 as a rational over a power of two, rounded to the 64-bit significand.
  let num: bigint;
  let den: bigint;
  if (l1.exp >= 0) {
    num = BigInt(ds) + (l1.mant << BigInt(l1.exp));
    den = 1n;
  } else {
    den = 1n << BigInt(-l1.exp);
    num = BigInt(ds) * den + l1.mant;
  }
  const l2 = roundRational(num, den, 64);
  if (l2.mant === 0n) return 0;
  // Then the conversion to double rounds the 64-bit value to 53 bits.
  const d = l2.exp >= 0 ? roundRational(l2.mant << BigInt(l2.exp), 1n, 53) : roundRational(l2.mant, 1n << BigInt(-l2.exp), 53);
  return binaryToNumber(d);
}

/** Splits a double for Dekker's exact product (Veltkamp). */
function split(a: number): [number, number] {
  const c = 134217729 * a; // 2^27 + 1
  const hi = c - (c - a);
  return [hi, a - hi];
}

const bitsView = new DataView(new ArrayBuffer(8));

/** Powers of two 2^k for k in [-1100, 1100], by table: Math.pow is slow in the hot path. */
const POW2 = new Float64Array(2201);
for (let k = -1100; k <= 1100; k++) POW2[k + 1100] = 2 ** k;
function pow2(k: number): number {
  return POW2[k + 1100];
}

/** Unbiased binary exponent of a finite normal double, and whether it is a power of two. */
function binade(x: number): { exp: number; isPow2: boolean } {
  bitsView.setFloat64(0, x);
  const hi = bitsView.getUint32(0);
  const lo = bitsView.getUint32(4);
  return { exp: ((hi >>> 20) & 0x7ff) - 1023, isPow2: (hi & 0xfffff) === 0 && lo === 0 };
}

/** Upper bound of half a 64-bit-significand ulp at x ≠ 0 (x87 long double spacing). */
function halfUlp64(x: number): number {
  if (x === 0) return 0;
  // 2^(e-63) is the ulp for |x| in [2^e, 2^(e+1)); half of it is 2^(e-64). One binade up is
  // a safe over-estimate should x sit just below a power of two after rounding.
  return pow2(binade(x).exp - 63);
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
  if (Math.abs(n) > 9007199254740991) return extendedSecondsExact(ds, dn);
  const c = n / NS_PER_SEC;
  // Residual r - c = (n - c·1e9) / 1e9; c·1e9 is taken apart exactly by Dekker's product.
  const p = c * NS_PER_SEC;
  const [ch, cl] = split(c);
  const err = ch * NS_PER_SEC - p + cl * NS_PER_SEC;
  const residual = (n - p - err) / NS_PER_SEC;
  const { exp, isPow2 } = binade(c);
  const ulp = pow2(exp - 52);
  // Distance from r to the nearest midpoint between c and its neighbour on r's side.
  const towardZero = residual !== 0 && residual < 0 === c > 0;
  const halfGap = isPow2 && towardZero ? ulp / 4 : ulp / 2;
  const distance = halfGap - Math.abs(residual);
  // libpcp's error: half a 64-bit ulp of Δnsec/1e9 plus half a 64-bit ulp of the sum.
  const errorBound = halfUlp64(dn / NS_PER_SEC) + halfUlp64(c) * 1.001;
  if (distance > errorBound * 1.01 + ulp * 1e-9) return c;
  return extendedSecondsExact(ds, dn);
}

/** pmtimespecToReal: (double)(sec + (long double)nsec / 1e9L). Used by pmval's rate rule. */
export function timestampToReal(t: Timestamp): number {
  return extendedSecondsExact(t.sec, t.nsec);
}

/** Seconds from `b` to `a` (libpcp's __pmTimestampSub). */
export function timestampSub(a: Timestamp, b: Timestamp): number {
  return secondsBetween(a.sec, a.nsec, b.sec, b.nsec);
}

/** Exact comparison of two timestamps: negative, zero or positive. */
export function compareTimestamps(a: Timestamp, b: Timestamp): number {
  return a.sec !== b.sec ? a.sec - b.sec : a.nsec - b.nsec;
}

/**
 * libpcp's advance of a replay origin by a delta (sec + nsec, either sign): it normalises with
 * `nsec > 1e9` (not ≥), so an origin may hold nsec = 1e9 exactly. We normalise fully; the
 * instant denoted is the same and every later computation agrees.
 */
export function addTimestamp(t: Timestamp, deltaSec: number, deltaNsec: number): Timestamp {
  let sec = t.sec + deltaSec;
  let nsec = t.nsec + deltaNsec;
  while (nsec >= NS_PER_SEC) {
    sec += 1;
    nsec -= NS_PER_SEC;
  }
  while (nsec < 0) {
    sec -= 1;
    nsec += NS_PER_SEC;
  }
  return { sec, nsec };
}

/** A signed nanosecond delta split as libpcp keeps it (sec and nsec with the same sign). */
export function splitDeltaNs(deltaNs: bigint): { sec: number; nsec: number } {
  const sec = deltaNs / NS_BIG; // truncates toward zero: both parts share the sign
  return { sec: Number(sec), nsec: Number(deltaNs - sec * NS_BIG) };
}

/** Exact timestamp ± milliseconds, for synthesised <mark> records (end + 1 ms, start − 1 ms). */
export function offsetMs(t: Timestamp, ms: number): Timestamp {
  return addTimestamp(t, 0, ms * 1_000_000);
}
