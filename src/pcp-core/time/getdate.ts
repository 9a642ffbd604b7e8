// __pmGetDate: libpcp's fallback for -S/-T/-O text that is neither an interval nor a ctime
// form — "yesterday", "2 days ago", "last monday", "2011-12-14 20:31", "14-Dec-2011 8pm",
// "Dec 14, 2011 EST", "tomorrow 10:00". A recursive-descent parser accepts exactly the
// language of getdate.y's LALR grammar (its 11 shift/reduce conflicts resolved by shifting,
// as bison does); the date arithmetic keeps the original's quirks (years before 1970 refused,
// a 4-year leap rule, DST guessed as one hour, month arithmetic through local time).
import { lexGetdate } from './getdate-lexer';
import type { Token } from './getdate-lexer';
import { breakDown } from './calendar';
import type { Zone } from './zone';

type Meridian = 'am' | 'pm' | '24';
type DstMode = 'on' | 'off' | 'maybe';

/** The parser's state (getdate.y's PARSER). */
interface DateSpec {
  dstMode: DstMode;
  dayOrdinal: number;
  dayNumber: number;
  haveDate: number;
  haveDay: number;
  haveRel: number;
  haveTime: number;
  haveZone: number;
  haveDateAlign: number;
  /** Minutes west of UTC. */
  timezone: number;
  day: number;
  hour: number;
  minutes: number;
  month: number;
  seconds: number;
  year: number;
  meridian: Meridian;
  relMonth: number;
  relSeconds: number;
}

class SyntaxError_ extends Error {}

function parse(tokens: readonly Token[], spec: DateSpec): void {
  let i = 0;
  const peek = (k = 0): Token => tokens[i + k] ?? { kind: 'END' };
  const next = (): Token => tokens[i++] ?? { kind: 'END' };
  const num = (kind: 'UNUMBER' | 'SNUMBER'): number => {
    const t = next();
    if (t.kind !== kind) throw new SyntaxError_();
    return t.value;
  };
  const isChar = (t: Token, c: string): boolean => t.kind === 'CHAR' && t.char === c;
  const isUnit = (t: Token): boolean => t.kind === 'MINUTE_UNIT' || t.kind === 'SEC_UNIT' || t.kind === 'MONTH_UNIT' || t.kind === 'DAMINUTE_UNIT';

  /** relunit, given its optional number (undefined for a bare unit), then an optional "ago". */
  const rel = (n: number | undefined): void => {
    const u = next();
    switch (u.kind) {
      case 'MINUTE_UNIT':
        spec.relSeconds += (n ?? 1) * u.value * 60;
        break;
      case 'SEC_UNIT':
        spec.relSeconds += n ?? 1;
        break;
      case 'MONTH_UNIT':
        spec.relMonth += (n ?? 1) * u.value;
        break;
      case 'DAMINUTE_UNIT':
        spec.relSeconds += (n ?? 1) * u.value * 60;
        spec.haveDateAlign++;
        break;
      default:
        throw new SyntaxError_();
    }
    if (peek().kind === 'AGO') {
      next();
      spec.relSeconds = -spec.relSeconds;
      spec.relMonth = -spec.relMonth;
    }
    spec.haveRel++;
  };

  /** The time forms after "hh:mm": optional ":ss", then a meridian or a numeric zone. */
  const clock = (hour: number): void => {
    next(); // ':'
    const minutes = num('UNUMBER');
    let seconds: number | undefined;
    if (isChar(peek(), ':')) {
      next();
      seconds = num('UNUMBER');
    }
    spec.hour = hour;
    spec.minutes = minutes;
    const t = peek();
    // "hh:mm" sets the seconds to 0 except in the "hh:mm ±zone" form, which leaves them be.
    if (seconds !== undefined || t.kind !== 'SNUMBER') spec.seconds = seconds ?? 0;
    if (t.kind === 'MERIDIAN') {
      next();
      spec.meridian = t.value;
    } else if (t.kind === 'SNUMBER') {
      next();
      spec.meridian = '24';
      spec.dstMode = 'off';
      spec.timezone = -((t.value % 100) + Math.trunc(t.value / 100) * 60);
    } else {
      spec.meridian = '24';
    }
    spec.haveTime++;
  };

  for (;;) {
    const t = next();
    switch (t.kind) {
      case 'END':
        return;
      case 'UNUMBER': {
        const n = t.value;
        const la = peek();
        if (la.kind === 'MERIDIAN') {
          next();
          spec.hour = n;
          spec.minutes = 0;
          spec.seconds = 0;
          spec.meridian = la.value;
          spec.haveTime++;
        } else if (isChar(la, ':')) {
          clock(n);
        } else if (la.kind === 'DAY') {
          next();
          spec.dayOrdinal = n;
          spec.dayNumber = la.value;
          spec.haveDay++;
        } else if (isChar(la, '/')) {
          next();
          const b = num('UNUMBER');
          if (isChar(peek(), '/')) {
            next();
            const c = num('UNUMBER');
            if (n >= 100) [spec.year, spec.month, spec.day] = [n, b, c];
            else [spec.month, spec.day, spec.year] = [n, b, c];
          } else {
            spec.month = n;
            spec.day = b;
          }
          spec.haveDate++;
        } else if (la.kind === 'SNUMBER') {
          // ISO 8601 yyyy-mm-dd.
          next();
          const d = num('SNUMBER');
          spec.year = n;
          spec.month = -la.value;
          spec.day = -d;
          spec.haveDate++;
        } else if (la.kind === 'MONTH') {
          next();
          const after = peek();
          spec.day = n;
          spec.month = la.value;
          if (after.kind === 'SNUMBER') {
            next();
            spec.year = -after.value;
          } else if (after.kind === 'UNUMBER') {
            next();
            spec.year = after.value;
          }
          spec.haveDate++;
        } else if (isUnit(la)) {
          rel(n);
        } else {
          number(spec, n);
        }
        break;
      }
      case 'SNUMBER':
        if (!isUnit(peek())) throw new SyntaxError_();
        rel(t.value);
        break;
      case 'MINUTE_UNIT':
      case 'SEC_UNIT':
      case 'MONTH_UNIT':
      case 'DAMINUTE_UNIT':
        i--;
        rel(undefined);
        break;
      case 'ZONE':
        spec.timezone = t.value;
        spec.dstMode = 'off';
        if (peek().kind === 'DST') {
          next();
          spec.dstMode = 'on';
        }
        spec.haveZone++;
        break;
      case 'DAYZONE':
        spec.timezone = t.value;
        spec.dstMode = 'on';
        spec.haveZone++;
        break;
      case 'DAY':
        spec.dayOrdinal = 0;
        spec.dayNumber = t.value;
        if (isChar(peek(), ',')) next();
        spec.haveDay++;
        break;
      case 'MONTH': {
        spec.month = t.value;
        spec.day = num('UNUMBER');
        if (isChar(peek(), ',')) {
          next();
          spec.year = num('UNUMBER');
        }
        spec.haveDate++;
        break;
      }
      default:
        throw new SyntaxError_();
    }
  }
}

/** The grammar's "number" item: a year, a yyyymmdd date, or an hhmm time. */
function number(spec: DateSpec, n: number): void {
  if (spec.haveTime && spec.haveDate && !spec.haveRel) {
    spec.year = n;
  } else if (n > 10000) {
    spec.haveDate++;
    spec.day = n % 100;
    spec.month = Math.trunc(n / 100) % 100;
    spec.year = Math.trunc(n / 10000);
  } else {
    spec.haveTime++;
    if (n < 100) {
      spec.hour = n;
      spec.minutes = 0;
    } else {
      spec.hour = Math.trunc(n / 100);
      spec.minutes = n % 100;
    }
    spec.seconds = 0;
    spec.meridian = '24';
  }
}

const SECS_PER_DAY = 86400;

function toSeconds(hours: number, minutes: number, seconds: number, meridian: Meridian): number {
  if (minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59) return -1;
  switch (meridian) {
    case '24':
      if (hours < 0 || hours > 23) return -1;
      return (hours * 60 + minutes) * 60 + seconds;
    case 'am':
    case 'pm': {
      if (hours < 1 || hours > 12) return -1;
      const h = (hours === 12 ? 0 : hours) + (meridian === 'pm' ? 12 : 0);
      return (h * 60 + minutes) * 60 + seconds;
    }
  }
}

/** Convert: a local date and time (plus the parsed zone) to seconds, or −1. */
function convert(spec: DateSpec, zone: Zone, month: number, day: number, year: number, hours: number, minutes: number, seconds: number, meridian: Meridian, dstMode: DstMode): number {
  const daysInMonth = [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  let y = year < 0 ? -year : year;
  if (y < 69) y += 2000;
  else if (y < 100) y += 1900;
  daysInMonth[1] = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
  if (y < 1970 || month < 1 || month > 12 || day < 1 || day > (daysInMonth[month - 1] ?? 0)) return -1;
  let julian = day - 1;
  for (let m = 0; m < month - 1; m++) julian += daysInMonth[m] ?? 0;
  // The original counts a leap year every fourth year, with no century rule.
  for (let i = 1970; i < y; i++) julian += 365 + (i % 4 === 0 ? 1 : 0);
  julian *= SECS_PER_DAY;
  julian += spec.timezone * 60;
  const tod = toSeconds(hours, minutes, seconds, meridian);
  if (tod < 0) return -1;
  julian += tod;
  if (dstMode === 'on' || (dstMode === 'maybe' && zone.localtime(julian).isdst)) julian -= 3600;
  return julian;
}

function dstCorrect(zone: Zone, start: number, future: number): number {
  const startDay = (zone.localtime(start).hour + 1) % 24;
  const futureDay = (zone.localtime(future).hour + 1) % 24;
  return future - start + (startDay - futureDay) * 3600;
}

function relativeDate(zone: Zone, start: number, dayOrdinal: number, dayNumber: number): number {
  const tm = zone.localtime(start);
  let offset = start + SECS_PER_DAY * ((((dayNumber - tm.wday + 7) % 7) + 7) % 7);
  offset += 7 * SECS_PER_DAY * (dayOrdinal <= 0 ? dayOrdinal : dayOrdinal - 1);
  return dstCorrect(zone, start, offset);
}

function relativeMonth(spec: DateSpec, zone: Zone, start: number, relMonth: number): number {
  if (relMonth === 0) return 0;
  const tm = zone.localtime(start);
  const months = 12 * tm.year + tm.month + relMonth;
  const year = Math.trunc(months / 12);
  const month = (months % 12) + 1;
  // An impossible day (Jan 31 + 1 month) gives −1 here, and libpcp carries on with it.
  return dstCorrect(zone, start, convert(spec, zone, month, tm.mday, year, tm.hour, tm.min, tm.sec, '24', 'maybe'));
}

/**
 * __pmGetDate: the instant `text` names, in `zone`, relative to `now` (whole seconds); or
 * undefined where libpcp fails (syntax error, repeated parts, an impossible date).
 */
export function getDate(text: string, now: number, zone: Zone): number | undefined {
  const gmt = breakDown(now, 0, false, 'GMT');
  const tm = zone.localtime(now);
  // difftm(gmt, local) in minutes, truncated; DST taken as one hour.
  const diff = Math.trunc((secondsOf(gmt) - secondsOf(tm)) / 60);
  const tzoff = diff + (tm.isdst ? 60 : 0);
  const spec: DateSpec = {
    dstMode: 'maybe',
    dayOrdinal: 0,
    dayNumber: 0,
    haveDate: 0,
    haveDay: 0,
    haveRel: 0,
    haveTime: 0,
    haveZone: 0,
    haveDateAlign: 0,
    timezone: tzoff,
    day: tm.mday,
    hour: 0,
    minutes: 0,
    month: tm.month + 1,
    seconds: 0,
    year: tm.year,
    meridian: '24',
    relMonth: 0,
    relSeconds: 0,
  };
  try {
    parse(lexGetdate(text), spec);
  } catch (e) {
    if (e instanceof SyntaxError_) return undefined;
    throw e;
  }
  if (spec.haveTime > 1 || spec.haveZone > 1 || spec.haveDate > 1 || spec.haveDay > 1 || spec.haveDateAlign > 1) return undefined;
  let start: number;
  if (spec.haveDate || spec.haveTime || spec.haveDay || spec.haveDateAlign) {
    start = convert(spec, zone, spec.month, spec.day, spec.year, spec.hour, spec.minutes, spec.seconds, spec.meridian, spec.dstMode);
    if (start < 0) return undefined;
  } else {
    start = now;
    if (!spec.haveRel) start -= (tm.hour * 60 + tm.min) * 60 + tm.sec;
  }
  start += spec.relSeconds;
  start += relativeMonth(spec, zone, start, spec.relMonth);
  if (spec.haveDay && !spec.haveDate) start += relativeDate(zone, start, spec.dayOrdinal, spec.dayNumber);
  return start;
}

/** Seconds of a broken-down time counted as difftm does (its own leap-day arithmetic). */
function secondsOf(t: { year: number; yday: number; hour: number; min: number; sec: number }): number {
  const y = t.year - 1;
  const days = t.yday + (y >> 2) - Math.trunc(y / 100) + (Math.trunc(y / 100) >> 2) + y * 365;
  return ((days * 24 + t.hour) * 60 + t.min) * 60 + t.sec;
}
