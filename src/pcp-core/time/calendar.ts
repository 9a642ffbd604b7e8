// Proleptic Gregorian calendar arithmetic on integer days and seconds since the epoch: the
// pieces of glibc's __offtime (seconds + UTC offset → broken-down time) and of mktime that
// zone.ts, posix-tz.ts and the time-window parser share. No Date objects: exact integers,
// any year.

export const SECS_PER_DAY = 86400;

/** Days before each month (0–12), non-leap and leap years (glibc's __mon_yday). */
export const MON_YDAY: readonly [readonly number[], readonly number[]] = [
  [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365],
  [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366],
];

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Days from 1970-01-01 to year-month-day (month 0–11; day 1-based; out-of-range days roll). */
export function daysFromCivil(year: number, month: number, mday: number): number {
  // Shift so the year starts in March: leap days fall at the end.
  const y = month < 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 10) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + mday - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The civil date of a day number (inverse of daysFromCivil). */
export function civilFromDays(days: number): { year: number; month: number; mday: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const mday = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 2 : mp - 10;
  return { year: yoe + era * 400 + (month < 2 ? 1 : 0), month, mday };
}

/** Broken-down time (struct tm) with full year and UTC offset; see zone.ts. */
export interface BrokenDownTime {
  /** Full year, e.g. 2011 (tm_year + 1900). */
  readonly year: number;
  /** 0–11. */
  readonly month: number;
  /** 1–31. */
  readonly mday: number;
  readonly hour: number;
  readonly min: number;
  readonly sec: number;
  /** 0 = Sunday. */
  readonly wday: number;
  /** 0–365. */
  readonly yday: number;
  readonly isdst: boolean;
  /** Seconds east of UTC. */
  readonly gmtoff: number;
  /** Zone abbreviation (tm_zone), e.g. "AEDT". */
  readonly zone: string;
}

/** glibc's __offtime: the broken-down time of `sec + gmtoff` seconds after the epoch. */
export function breakDown(sec: number, gmtoff: number, isdst: boolean, zone: string): BrokenDownTime {
  const local = sec + gmtoff;
  const days = Math.floor(local / SECS_PER_DAY);
  let rem = local - days * SECS_PER_DAY;
  const hour = Math.floor(rem / 3600);
  rem -= hour * 3600;
  const min = Math.floor(rem / 60);
  const { year, month, mday } = civilFromDays(days);
  const wday = (((days + 4) % 7) + 7) % 7;
  const yday = (MON_YDAY[isLeapYear(year) ? 1 : 0][month] ?? 0) + mday - 1;
  return { year, month, mday, hour, min, sec: rem - min * 60, wday, yday, isdst, gmtoff, zone };
}

/** Seconds from the epoch of a UTC (year, yday, hour, min, sec); fields may be out of range. */
export function secondsFromYday(year: number, yday: number, hour: number, min: number, sec: number): number {
  return ((daysFromCivil(year, 0, 1) + yday) * 24 + hour) * 3600 + min * 60 + sec;
}
