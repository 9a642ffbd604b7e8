// pmParseHighResInterval / pmParseInterval: "10", "2.5sec", "250 msec", "1.5min", "1hour",
// "1 day", "1h30m", "1 hour 30 min" — numbers each followed by an optional unit, summed as
// double seconds, then rounded to a timestamp as pmtimespecFromReal does. Quirks kept: a
// trailing 's' is dropped from any unit longer than one letter (so "ms" is minutes), NaN
// and "0x" hex numbers pass through strtod, a bare number is seconds.
import { TimeParseError } from './parse-error';
import { Scanner } from './scan';
import { timestampFromReal } from './timestamp';
import type { Timestamp } from '../types';
import { isCAlpha } from '../c-numeric';

/** Units in libpcp's table order: a negative scale divides. */
const UNITS: ReadonlyArray<readonly [name: string, scale: number]> = [
  ['nanosecond', -1000000000],
  ['microsecond', -1000000],
  ['millisecond', -1000],
  ['second', 1],
  ['minute', 60],
  ['hour', 3600],
  ['day', 86400],
  ['msec', -1000],
  ['usec', -1000000],
  ['nsec', -1000000000],
  ['sec', 1],
  ['min', 60],
  ['hr', 3600],
  ['s', 1],
  ['m', 60],
  ['h', 3600],
  ['d', 86400],
];

/** PM_MAX_TIME_T on 64-bit Linux: LONGLONG_MAX as a double. */
export const PM_MAX_TIME_T = 2 ** 63 - 1;

export type IntervalResult = { readonly ok: true; readonly seconds: number; readonly interval: Timestamp } | { readonly ok: false; readonly error: TimeParseError };

/** The interval in double seconds (libpcp's __pmParseInterval), without rounding. */
export function tryParseIntervalSeconds(spec: string): { ok: true; seconds: number } | { ok: false; error: TimeParseError } {
  if (spec === '') return { ok: false, error: new TimeParseError('', 0, 'Null or empty specification') };
  const s = new Scanner(spec);
  let sec = 0;
  while (!s.atEnd) {
    const d = s.double(0, PM_MAX_TIME_T);
    if (d === undefined) break;
    s.skipSpace();
    if (s.atEnd) {
      sec += d;
      break;
    }
    let p = s.pos;
    while (isCAlpha(spec[p])) p++;
    let len = p - s.pos;
    if (len === 0) {
      sec += d;
    } else {
      if (len > 1 && (spec[p - 1] === 's' || spec[p - 1] === 'S')) len--;
      const word = spec.slice(s.pos, s.pos + len).toLowerCase();
      const unit = UNITS.find(([name]) => name === word);
      if (!unit) break;
      sec += unit[1] < 0 ? d / -unit[1] : d * unit[1];
    }
    s.pos = p;
  }
  if (!s.atEnd) return { ok: false, error: new TimeParseError(spec, s.pos, 'unexpected value') };
  // libpcp accepts "nan" (its range checks fail to reject it) and returns a garbage interval;
  // we refuse it (docs/deviations.md, "NaN intervals").
  if (Number.isNaN(sec)) return { ok: false, error: new TimeParseError(spec, 0, 'unexpected value') };
  return { ok: true, seconds: sec };
}

/** pmParseHighResInterval without throwing. */
export function tryParseInterval(spec: string): IntervalResult {
  const r = tryParseIntervalSeconds(spec);
  return r.ok ? { ok: true, seconds: r.seconds, interval: timestampFromReal(r.seconds) } : r;
}

/** pmParseHighResInterval: the interval as a timestamp; throws TimeParseError. */
export function parseInterval(spec: string): Timestamp {
  const r = tryParseInterval(spec);
  if (!r.ok) throw r.error;
  return r.interval;
}
