// __pmParseCtime: the "@" form of -S/-T/-O — a ctime-like date with any leading part left
// out ("@ Thu Mar 16 10:31:13 2017", "@ Mar 16 10:31", "@ 16 10:31:13.5", "@ 10:31",
// "@ 10pm 2017"), giving a partial broken-down time in which unspecified fields are −1
// until defaults fill them. The seconds may carry a fraction (kept as nanoseconds, as libpcp
// keeps them in tm_yday). time-window.ts turns the result into an instant.
import { EXTENDED_BITS, EXTENDED_MIN_EXP, decomposeDouble, roundRational } from '../c-numeric';
import { TimeParseError } from './parse-error';
import { Scanner } from './scan';

const WDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const AMPM = ['am', 'pm'];

/** A parsed ctime specification; −1 marks a field that was not given (and got no default). */
export interface CtimeFields {
  /** Full year, or −1. */
  year: number;
  /** 0–11, or −1. */
  month: number;
  mday: number;
  hour: number;
  min: number;
  sec: number;
  /** Nanoseconds of the seconds' fraction, or −1. */
  nsec: number;
}

/** (int)((long double)1e9 · (long double)frac): the fraction's nanoseconds, truncated. */
export function fractionNanoseconds(frac: number): number {
  if (frac === 0) return 0;
  const { mant, exp } = decomposeDouble(frac);
  const neg = mant < 0n;
  const m = (neg ? -mant : mant) * 1_000_000_000n;
  const r = exp >= 0 ? roundRational(m << BigInt(exp), 1n, EXTENDED_BITS, EXTENDED_MIN_EXP) : roundRational(m, 1n << BigInt(-exp), EXTENDED_BITS, EXTENDED_MIN_EXP);
  const whole = r.exp >= 0 ? r.mant << BigInt(r.exp) : r.mant >> BigInt(-r.exp);
  return Number(neg ? -whole : whole);
}

export type CtimeResult = { readonly ok: true; readonly fields: CtimeFields } | { readonly ok: false; readonly error: TimeParseError };

/** __pmParseCtime of `spec` (the text after "@"). */
export function parseCtime(spec: string): CtimeResult {
  const tm: CtimeFields = { year: -1, month: -1, mday: -1, hour: -1, min: -1, sec: -1, nsec: -1 };
  const s = new Scanner(spec);
  const weekday = s.threeChars(WDAYS);
  tm.month = s.threeChars(MONTHS) ?? -1;
  tm.mday = s.int(0, 31) ?? -1;
  tm.hour = s.int(0, 23) ?? -1;
  if (tm.mday === 0 && tm.hour !== -1) tm.mday = -1;
  // A lone small number before ':' (or with no month) is an hour, not a day.
  if (tm.hour === -1 && tm.mday >= 0 && tm.mday <= 23 && (tm.month === -1 || s.peek() === ':')) {
    tm.hour = tm.mday;
    tm.mday = -1;
  }
  if (s.char(':')) {
    if (tm.hour === -1) tm.hour = 0;
    tm.min = 0;
    tm.min = s.int(0, 59) ?? tm.min;
    if (s.char(':')) {
      const d = s.double(0, 61);
      if (Number.isNaN(d ?? 0)) {
        // strtod's "nan" passes the range check; C's (int)NaN is INT_MIN.
        tm.sec = -2147483648;
        tm.nsec = -2147483648;
      } else if (d !== undefined) {
        tm.sec = Math.trunc(d);
        tm.nsec = fractionNanoseconds(d - tm.sec);
      }
    }
  }
  const pm = s.threeChars(AMPM);
  if (pm !== undefined) {
    if (tm.hour > 12 || tm.hour === -1) s.pos -= 2;
    else if (pm === 1) {
      if (tm.hour < 12) tm.hour += 12;
    } else if (tm.hour === 12) {
      tm.hour = 0;
    }
  }
  const year = s.int(1900, 9999);
  if (year !== undefined) tm.year = year;

  s.skipSpace();
  if (!s.atEnd) return { ok: false, error: new TimeParseError(spec, s.pos, 'unexpected value') };
  if ((weekday !== undefined && tm.month === -1 && tm.mday === -1) || (tm.hour !== -1 && tm.min === -1 && tm.mday === -1 && tm.month === -1 && tm.year === -1)) {
    return { ok: false, error: new TimeParseError(spec, s.pos, 'more information expected') };
  }

  // Fields after the first one given default to their start (month 0, day 1, 00:00:00).
  let dflt = tm.year !== -1;
  if (tm.month !== -1) dflt = true;
  else if (dflt) tm.month = 0;
  if (tm.mday !== -1) dflt = true;
  else if (dflt) tm.mday = 1;
  if (tm.hour !== -1) dflt = true;
  else if (dflt) tm.hour = 0;
  if (tm.min !== -1) dflt = true;
  else if (dflt) tm.min = 0;
  if (tm.sec === -1 && dflt) {
    tm.sec = 0;
    tm.nsec = 0;
  }
  return { ok: true, fields: tm };
}
