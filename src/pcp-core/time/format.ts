// Text forms of times as the PCP tools print them: pmCtime (asctime: "Wed Dec 14 20:31:47
// 2011"), the time of day with a truncated fraction that pmval and pmdumplog print
// ("20:31:56.000" / "20:31:56.000000" / nanoseconds for v3 archives), and the ctime form
// with a fraction of pmdumplog -L ("Wed Mar 15 23:31:13.870437 2017"). Local times come
// from a Zone; fractions are truncated, never rounded, as in the tools.
import type { Timestamp } from '../types';
import { civilFromDays, type BrokenDownTime } from './calendar';
import { timestampFromNs, timestampToNs } from './timestamp';
import type { Zone } from './zone';

const WDAY = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad2 = (n: number): string => String(n).padStart(2, '0');
const SECS_PER_DAY = 86400;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => pad2(i));
/** ".000" … ".999". */
const DOT_MILLIS = Array.from({ length: 1000 }, (_, i) => `.${String(i).padStart(3, '0')}`);

/** The fraction digits of nsec, truncated: 3 → milliseconds, 6 → microseconds, 9 → all. */
export function formatFraction(nsec: number, digits: number): string {
  return String(Math.floor(nsec / 10 ** (9 - digits))).padStart(digits, '0');
}

/** asctime's text without its trailing newline: "Wed Dec 14 20:31:47 2011" ("Dec  4" padded). */
export function formatAsctime(tm: BrokenDownTime): string {
  return `${WDAY[tm.wday] ?? '???'} ${MONTH[tm.month] ?? '???'} ${String(tm.mday).padStart(2, ' ')} ${pad2(tm.hour)}:${pad2(tm.min)}:${pad2(tm.sec)} ${tm.year}`;
}

/** pmCtime(sec) in `zone`, without the trailing newline libpcp's buffer ends with. */
export function formatCtime(zone: Zone, sec: number): string {
  return formatAsctime(zone.localtime(sec));
}

/**
 * "HH:MM:SS" plus "." and `digits` truncated fraction digits (none when digits is 0):
 * pmval prints 3, pmdumplog 6 for v2 and 9 for v3 archives.
 */
export function formatTimeOfDay(zone: Zone, t: Timestamp, digits: number): string {
  // Once per sample or record: the time of day needs only the zone's offset, not the
  // calendar date localtime also works out, and its digits come from tables.
  const rem = secondOfDay(zone, t.sec);
  let hms: string;
  if (rem >= 0) {
    // Whole seconds (always, but for damaged stamps): integer arithmetic, and "HH:MM:" kept
    // from the previous call in the same minute — a replay formats thousands of times, most
    // in the minute of the one before.
    const minute = (rem / 60) | 0;
    if (minute !== lastMinute) {
      lastMinute = minute;
      lastMinuteText = `${TWO_DIGITS[(minute / 60) | 0]}:${TWO_DIGITS[minute % 60]}:`;
    }
    hms = lastMinuteText + TWO_DIGITS[rem - minute * 60];
  } else {
    const local = t.sec + zone.offsetAt(t.sec).gmtoff;
    const rem = local - Math.floor(local / SECS_PER_DAY) * SECS_PER_DAY;
    const hour = Math.floor(rem / 3600);
    const min = Math.floor((rem - hour * 3600) / 60);
    const sec = rem - hour * 3600 - min * 60;
    hms = `${pad2(hour)}:${pad2(min)}:${pad2(sec)}`;
  }
  if (digits <= 0) return hms;
  const ms = digits === 3 ? DOT_MILLIS[Math.floor(t.nsec / 1e6)] : undefined;
  return hms + (ms ?? `.${formatFraction(t.nsec, digits)}`);
}

/**
 * formatTimeOfDay(zone, { sec, nsec }, 3) as ASCII bytes into `out` from `at` (12 of them), for a table
 * of thousands of rows (`pmdash values`) without a string per row; returns the end, or -1
 * (nothing written) for a stamp whose seconds are not whole or whose nsec is out of range
 * (damaged archives): formatTimeOfDay prints those.
 */
export function writeTimeOfDayMillis(zone: Zone, sec: number, nsec: number, out: Uint8Array, at: number): number {
  const rem = secondOfDay(zone, sec);
  if (rem < 0 || !(nsec >= 0 && nsec < 1e9)) return -1;
  const hour = (rem / 3600) | 0;
  const min = ((rem / 60) | 0) % 60;
  const second = rem % 60;
  const ms = (nsec / 1e6) | 0;
  out[at] = 48 + ((hour / 10) | 0);
  out[at + 1] = 48 + (hour % 10);
  out[at + 2] = 58; // ':'
  out[at + 3] = 48 + ((min / 10) | 0);
  out[at + 4] = 48 + (min % 10);
  out[at + 5] = 58;
  out[at + 6] = 48 + ((second / 10) | 0);
  out[at + 7] = 48 + (second % 10);
  out[at + 8] = 46; // '.'
  out[at + 9] = 48 + ((ms / 100) | 0);
  out[at + 10] = 48 + (((ms / 10) | 0) % 10);
  out[at + 11] = 48 + (ms % 10);
  return at + 12;
}

/** The local second of the day (0 … 86399) of UTC second `sec` in `zone`; -1 when the local
 *  time is not a whole second (a damaged stamp), which the time-of-day forms print otherwise. */
function secondOfDay(zone: Zone, sec: number): number {
  const local = sec + zone.offsetAt(sec).gmtoff;
  if (!Number.isInteger(local)) return -1;
  const rem = local % SECS_PER_DAY;
  return rem < 0 ? rem + SECS_PER_DAY : rem;
}

/** formatTimeOfDay's last minute of the day and its "HH:MM:" text. */
let lastMinute = -1;
let lastMinuteText = '';

/** pmCtime with the fraction after the seconds: "Wed Mar 15 23:31:13.870437 2017". */
export function formatCtimeFraction(zone: Zone, t: Timestamp, digits: number): string {
  const tm = zone.localtime(t.sec);
  const text = formatAsctime(tm);
  // asctime is fixed-width up to the seconds (19 characters), the year follows.
  return `${text.slice(0, 19)}.${formatFraction(t.nsec, digits)}${text.slice(19)}`;
}

/**
 * UTC ISO-8601 with nine fractional digits: "2018-01-01T02:10:11.563796000Z", as dump and
 * values --json print record times. Exact for any timestamp (computed on integers); an
 * unnormalised nsec (damaged archives) is folded into the seconds first.
 */
export function formatIsoUtc(t: Timestamp): string {
  let sec = t.sec;
  let nsec = t.nsec;
  if (nsec < 0 || nsec >= 1e9) {
    const n = timestampFromNs(timestampToNs(t));
    sec = n.sec;
    nsec = n.nsec;
  }
  const days = Math.floor(sec / SECS_PER_DAY);
  const rem = sec - days * SECS_PER_DAY;
  const { year: y, month, mday: d } = civilFromDays(days);
  const ys = y >= 0 && y <= 9999 ? String(y).padStart(4, '0') : (y < 0 ? '-' : '+') + String(Math.abs(y)).padStart(6, '0');
  const hh = Math.floor(rem / 3600);
  const mm = Math.floor(rem / 60) % 60;
  const ss = rem % 60;
  return `${ys}-${pad2(month + 1)}-${pad2(d)}T${pad2(hh)}:${pad2(mm)}:${pad2(ss)}.${String(nsec).padStart(9, '0')}Z`;
}
