// Local broken-down time → UTC seconds, inverting a zone's localtime by probing as glibc's
// mktime (__mktime_internal) does: start from the previous call's offset, follow the error,
// settle spring-forward gaps and fall-back overlaps the same way, honour tm_isdst ≥ 0 by
// searching for a nearby time with that flag, and keep tm_sec = 60 one second on. libpcp
// reaches it through __pmMktime when -S/-T/-O name a local date (time-window.ts).
import { MON_YDAY, isLeapYear, secondsFromYday } from './calendar';
import type { BrokenDownTime } from './calendar';

/**
 * The fields mktime reads, struct tm's date and time of day; any may be out of range (they
 * are normalised: a month beyond 11 rolls into the year).
 */
export type LocalTimeFields = Pick<BrokenDownTime, 'year' | 'month' | 'mday' | 'hour' | 'min' | 'sec'> & {
  /** tm_isdst: negative = unknown (libpcp always passes −1), 0 = standard, > 0 = DST. */
  readonly isdst: number;
};

/** The state glibc keeps between calls: the offset guess of the last result. */
export interface MktimeState {
  offsetGuess: number;
}

const isdstDiffer = (a: number, b: number): boolean => !a !== !b && a >= 0 && b >= 0;

function tmDiff(year: number, yday: number, hour: number, min: number, sec: number, tm: BrokenDownTime): number {
  return secondsFromYday(year, yday, hour, min, sec) - secondsFromYday(tm.year, tm.yday, tm.hour, tm.min, tm.sec);
}

/**
 * mktime over `localtime`: the UTC second whose local time is `fields`, or undefined where
 * glibc gives −1 (EOVERFLOW after its probes). Updates `state` as glibc updates its static.
 */
export function mktimeProbe(fields: LocalTimeFields, localtime: (sec: number) => BrokenDownTime, state: MktimeState): number | undefined {
  const secRequested = fields.sec;
  // Leap seconds are possible in glibc's view: probe with tm_sec in 0–59, adjust after.
  const sec = Math.min(Math.max(secRequested, 0), 59);
  const monRemainder = fields.month % 12;
  const negative = monRemainder < 0 ? 1 : 0;
  const year = fields.year + Math.trunc(fields.month / 12) - negative;
  const yday = (MON_YDAY[isLeapYear(year) ? 1 : 0][monRemainder + 12 * negative] ?? 0) - 1 + fields.mday;
  const { hour, min, isdst } = fields;

  const negativeOffsetGuess = -state.offsetGuess;
  const t0 = secondsFromYday(year, yday, hour, min, sec) - negativeOffsetGuess;
  let t = t0;
  let t1 = t0;
  let t2 = t0;
  let dst2 = 0;
  let remainingProbes = 6;
  let tm: BrokenDownTime;
  let found = false;
  for (;;) {
    tm = localtime(t);
    const dt = tmDiff(year, yday, hour, min, sec, tm);
    if (dt === 0) break;
    const tmDst = tm.isdst ? 1 : 0;
    if (t === t1 && t !== t2 && (isdst < 0 ? dst2 <= tmDst : (isdst !== 0) !== (tmDst !== 0))) {
      // Oscillating across a spring-forward gap: take this side, as glibc does.
      found = true;
      break;
    }
    if (--remainingProbes === 0) return undefined;
    t1 = t2;
    t2 = t;
    t += dt;
    dst2 = tmDst;
  }

  if (!found && isdstDiffer(isdst, tm.isdst ? 1 : 0)) {
    // The wrong DST flag: look for a nearby time with the requested one and use its offset;
    // failing that, move by an hour in the requested direction (glibc 2.36's gnulib mktime).
    const dstDifference = (isdst === 0 ? 1 : 0) - (tm.isdst ? 0 : 1);
    const stride = 601200;
    const deltaBound = Math.floor(457243209 / 2) + stride;
    let done = false;
    for (let delta = stride; delta < deltaBound && !done; delta += stride) {
      for (const direction of [-1, 1]) {
        const ot = t + delta * direction;
        const otm = localtime(ot);
        if (!isdstDiffer(isdst, otm.isdst ? 1 : 0)) {
          t = ot + tmDiff(year, yday, hour, min, sec, otm);
          done = true;
          break;
        }
      }
    }
    if (!done) t += 3600 * dstDifference;
    tm = localtime(t);
  }

  state.offsetGuess = t - t0 + state.offsetGuess;
  if (secRequested !== tm.sec) {
    const adjustment = (sec === 0 && tm.sec === 60 ? 1 : 0) - sec + secRequested;
    t += adjustment;
  }
  return t;
}
