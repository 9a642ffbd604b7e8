// Timestamp arithmetic the archive reader needs, with libpcp's exact semantics:
// __pmTimestampCmp (sec, then nsec), __pmTimestampSub (a double of seconds) and the ±1 ms
// shifts of synthesised <mark> records (archive-format.md §8). Values from damaged archives
// may carry nsec outside 0..1e9; these functions never normalise their inputs, as libpcp
// does not either.
import { civilFromDays } from '../time/calendar';
import type { Timestamp } from '../types';

/** __pmTimestampCmp: negative, zero or positive as a is before, at or after b. */
export function compareTimestamps(a: Timestamp, b: Timestamp): number {
  if (a.sec !== b.sec) return a.sec < b.sec ? -1 : 1;
  if (a.nsec !== b.nsec) return a.nsec < b.nsec ? -1 : 1;
  return 0;
}

/** __pmTimestampSub: a − b in seconds, as libpcp computes it (a double). */
export function timestampSub(a: Timestamp, b: Timestamp): number {
  return a.sec - b.sec + (a.nsec - b.nsec) / 1e9;
}

/** Nanoseconds since the epoch, exact. */
export function timestampToNs(t: Timestamp): bigint {
  return BigInt(t.sec) * 1_000_000_000n + BigInt(t.nsec);
}

export function timestampFromNs(ns: bigint): Timestamp {
  let sec = ns / 1_000_000_000n;
  let nsec = ns - sec * 1_000_000_000n;
  if (nsec < 0n) {
    nsec += 1_000_000_000n;
    sec -= 1n;
  }
  return { sec: Number(sec), nsec: Number(nsec) };
}

/**
 * The synthesised mark after an archive: end + 1 ms. libpcp normalises only when nsec
 * exceeds 1e9 (`>` not `>=`); we normalise fully, which names the same instant.
 */
export function markAfter(end: Timestamp): Timestamp {
  const nsec = end.nsec + 1_000_000;
  return nsec >= 1_000_000_000 ? { sec: end.sec + 1, nsec: nsec - 1_000_000_000 } : { sec: end.sec, nsec };
}

/** The synthesised mark before an archive: start − 1 ms. */
export function markBefore(start: Timestamp): Timestamp {
  return start.nsec >= 1_000_000 ? { sec: start.sec, nsec: start.nsec - 1_000_000 } : { sec: start.sec - 1, nsec: start.nsec + 999_000_000 };
}

const pad2 = (n: number): string => (n < 10 ? '0' : '') + String(n);

/**
 * UTC ISO-8601 with nine fractional digits: "2018-01-01T02:10:11.563796000Z". Exact for any
 * timestamp (computed on integers); an unnormalised nsec is folded into the seconds first.
 */
export function formatIsoUtc(t: Timestamp): string {
  let sec = t.sec;
  let nsec = t.nsec;
  if (nsec < 0 || nsec >= 1e9) {
    const n = timestampFromNs(timestampToNs(t));
    sec = n.sec;
    nsec = n.nsec;
  }
  const days = Math.floor(sec / 86400);
  const rem = sec - days * 86400;
  const { year: y, month, mday: d } = civilFromDays(days);
  const m = month + 1;
  const ys = y >= 0 && y <= 9999 ? String(y).padStart(4, '0') : (y < 0 ? '-' : '+') + String(Math.abs(y)).padStart(6, '0');
  const hh = Math.floor(rem / 3600);
  const mm = Math.floor(rem / 60) % 60;
  const ss = rem % 60;
  return `${ys}-${pad2(m)}-${pad2(d)}T${pad2(hh)}:${pad2(mm)}:${pad2(ss)}.${String(nsec).padStart(9, '0')}Z`;
}
