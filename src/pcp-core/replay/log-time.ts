// Time arithmetic exactly as libpcp does it during replay (archive-format.md §7.4.1, §2.3).
// libpcp measures every record and request time as a double "seconds since the start of the
// earliest archive", computed as (double)(Δsec + (long double)Δnsec / 1e9) on x86-64, i.e.
// through the 80-bit x87 `long double` (64-bit significand) and rounded twice. Comparisons in
// the interpolation engine (t_this ≤ t_req, t_prior == t_req, the 1 ms end slop) and the
// interpolated values are all computed from these doubles, so we reproduce them bit for bit:
// a fast path that is provably exact for almost every input, and an exact bigint fallback.
import { longDoubleSeconds } from '../time/timestamp';
import type { Timestamp } from '../types';

const NS_PER_SEC = 1_000_000_000;
const NS_BIG = 1_000_000_000n;

const bitsView = new DataView(new ArrayBuffer(8));


/** Powers of two 2^k for k in [-1100, 1100], by table: Math.pow is slow in the hot path. */
const POW2 = new Float64Array(2201);
for (let k = -1100; k <= 1100; k++) POW2[k + 1100] = 2 ** k;
function pow2(k: number): number {
  return POW2[k + 1100];
}

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
