// Time arithmetic exactly as libpcp does it during replay (archive-format.md §7.4.1, §2.3).
// libpcp measures every record and request time as a double "seconds since the start of the
// earliest archive", computed as (double)(Δsec + (long double)Δnsec / 1e9) on x86-64, i.e.
// through the 80-bit x87 `long double` (64-bit significand) and rounded twice. Comparisons in
// the interpolation engine (t_this ≤ t_req, t_prior == t_req, the 1 ms end slop) and the
// interpolated values are all computed from these doubles, which time/timestamp.ts reproduces
// bit for bit (subtractTimestampsLongDouble); here: the origin's advance and <mark> times.
import { NS_PER_SEC, secondsBetween, subtractTimestampsLongDouble } from '../time/timestamp';
import type { Timestamp } from '../types';

const NS_BIG = 1_000_000_000n;

/** Seconds from `b` to `a` (libpcp's __pmTimestampSub), long-double exact (time/). */
export const timestampSub = subtractTimestampsLongDouble;
export { secondsBetween };

/**
 * libpcp's advance of a replay origin by a delta (sec + nsec, either sign): it normalises with
 * `nsec > 1e9` (not ≥), so an origin may hold nsec = 1e9 exactly. We normalise fully; the
 * instant denoted is the same and every later computation agrees.
 */
export function addTimestamp(t: Timestamp, deltaSec: number, deltaNsec: number): Timestamp {
  const out = { sec: t.sec, nsec: t.nsec };
  advanceTimestamp(out, deltaSec, deltaNsec);
  return out;
}

/** addTimestamp in place, for a replay's run that steps one origin through its fetches
 *  (no object per fetch). */
export function advanceTimestamp(t: { sec: number; nsec: number }, deltaSec: number, deltaNsec: number): void {
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
  t.sec = sec;
  t.nsec = nsec;
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
