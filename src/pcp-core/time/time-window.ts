// The time window of -S/-T/-A/-O as pmParseHighResTimeWindow computes it against an archive's
// bounds (label start, end) in the zone in force: "+offset" from the start, "-offset" from
// the end, "@ ctime" dates, getdate's free forms, -A alignment, clamping to the archive.
// Parsing follows __pmParseHighResTime / __pmConvertHighResTime (rtime.c); local dates go
// through the Zone's mktime, free forms through getdate.ts.
import type { Timestamp } from '../types';
import { parseCtime } from './ctime-parse';
import type { CtimeFields } from './ctime-parse';
import { getDate } from './getdate';
import { PM_MAX_TIME_T, tryParseIntervalSeconds } from './interval';
import { TimeParseError } from './parse-error';
import { Scanner } from './scan';
import { compareTimestamps, makeTimestamp, timespecFromReal } from './timestamp';
import type { Zone } from './zone';

const NS = 1_000_000_000;
const NS_N = 1_000_000_000n;

/** Where the free-form fallback measures relative dates from, and what "now" is. */
export interface TimeContext {
  readonly zone: Zone;
  /** The wall clock, for forms with no anchor ("yesterday", "now"). */
  readonly now: () => Timestamp;
}

type Offset = 'none' | 'plus' | 'minus';

/**
 * __pmConvertHighResTime for an interval offset from `origin`. Timestamps inside the window
 * computation may carry nsec = 1e9, as libpcp's do; they are normalised on the way out.
 */
function offsetFrom(origin: Timestamp, interval: { readonly sec: number; readonly nsec: number }, sign: 'plus' | 'minus'): Timestamp {
  let { sec, nsec } = origin;
  // libpcp tm_sec is an int: the interval's seconds are cast to 32 bits.
  const isec = interval.sec | 0;
  if (sign === 'plus') {
    nsec += interval.nsec;
    // Strictly greater, as libpcp: exactly 1e9 stays unnormalised.
    if (nsec > NS) {
      nsec -= NS;
      sec++;
    }
    sec += isec;
  } else {
    if (nsec < interval.nsec) {
      nsec += NS;
      sec--;
    }
    nsec -= interval.nsec;
    sec -= isec;
  }
  return { sec, nsec };
}

/** __pmConvertHighResTime for an absolute (possibly partial) local date. */
function absolute(tmin: CtimeFields, origin: Timestamp, zone: Zone): Timestamp {
  let nsec = origin.nsec;
  let fields;
  if (tmin.year !== -1) {
    fields = { year: tmin.year, month: tmin.month, mday: tmin.mday, hour: tmin.hour, min: tmin.min, sec: tmin.sec };
    nsec = tmin.nsec;
  } else {
    // Missing leading fields come from the origin's local date, rolled forward when the
    // given field is earlier than the origin's (comparing that field only).
    const tm = zone.localtime(origin.sec);
    const f = { year: tm.year, month: tm.month, mday: tm.mday, hour: tm.hour, min: tm.min, sec: tm.sec };
    if (tmin.month !== -1) {
      if (tmin.month < tm.month) f.year++;
      Object.assign(f, { month: tmin.month, mday: tmin.mday, hour: tmin.hour, min: tmin.min, sec: tmin.sec });
      nsec = tmin.nsec;
    } else if (tmin.mday !== -1) {
      if (tmin.mday < tm.mday) f.month++;
      Object.assign(f, { mday: tmin.mday, hour: tmin.hour, min: tmin.min, sec: tmin.sec });
      nsec = tmin.nsec;
    } else if (tmin.hour !== -1) {
      if (tmin.hour < tm.hour) f.mday++;
      Object.assign(f, { hour: tmin.hour, min: tmin.min, sec: tmin.sec });
      nsec = tmin.nsec;
    } else if (tmin.min !== -1) {
      if (tmin.min < tm.min) f.hour++;
      Object.assign(f, { min: tmin.min, sec: tmin.sec });
      nsec = tmin.nsec;
    } else if (tmin.sec !== -1) {
      if (tmin.sec < tm.sec) f.min++;
      f.sec = tmin.sec;
      nsec = tmin.nsec;
    }
    fields = f;
  }
  // mktime's failure value (−1) is used as an instant, as libpcp does.
  const sec = zone.mktime({ ...fields, isdst: -1 }) ?? -1;
  return { sec, nsec };
}

/** glib_relative_date: which anchor a free-form date is relative to. */
function relativeKind(text: string): Offset {
  const t = text.replace(/^[ \t\n\v\f\r]+/, '');
  const lower = t.toLowerCase();
  const terms = [' year', ' month', ' fortnight', ' week', ' day', ' hour', ' minute', ' min', ' second', ' sec'];
  if (!terms.some((w) => lower.includes(w))) return 'none';
  return lower.includes('last') || lower.includes('ago') || t.startsWith('-') ? 'minus' : 'plus';
}

export type TimeResult = { readonly ok: true; readonly time: Timestamp } | { readonly ok: false; readonly error: TimeParseError };

/**
 * __pmParseHighResTime: one -S/-T/-O argument against the window [start, end]
 * (end.sec = PM_MAX_TIME_T for an open-ended live window).
 */
export function parseTime(text: string, start: Timestamp, end: Timestamp, ctx: TimeContext): TimeResult {
  const live = end.sec >= PM_MAX_TIME_T;
  const endpoint = live ? { sec: end.sec, nsec: 999_999_999 } : end;
  const s = new Scanner(text);
  let error: TimeParseError;
  if (s.char('@')) {
    const spec = text.slice(s.pos);
    const r = parseCtime(spec);
    if (r.ok) return { ok: true, time: absolute(r.fields, start, ctx.zone) };
    error = r.error;
  } else if (!live && s.char('-')) {
    const r = tryParseIntervalSeconds(text.slice(s.pos));
    if (r.ok) return { ok: true, time: offsetFrom(endpoint, timespecFromReal(r.seconds), 'minus') };
    error = r.error;
  } else {
    s.char('+');
    const r = tryParseIntervalSeconds(text.slice(s.pos));
    if (r.ok) return { ok: true, time: offsetFrom(start, timespecFromReal(r.seconds), 'plus') };
    error = r.error;
  }
  // Neither form: getdate's free forms, anchored by the wording; its failure keeps the
  // earlier error message.
  s.char('@');
  const rest = text.slice(s.pos);
  const kind = relativeKind(rest);
  const anchor = kind === 'none' ? ctx.now() : kind === 'minus' && !live ? endpoint : start;
  const sec = getDate(rest, anchor.sec, ctx.zone);
  if (sec === undefined) return { ok: false, error };
  return { ok: true, time: { sec, nsec: 0 } };
}

/** The result of pmParseHighResTimeWindow: 1 ok, 0 a warning (alignment not applied). */
export type TimeWindowResult =
  | { readonly ok: true; readonly status: 1 | 0; readonly start: Timestamp; readonly end: Timestamp; readonly origin: Timestamp; readonly warning?: TimeParseError }
  | { readonly ok: false; readonly error: TimeParseError };

export interface TimeWindowArgs {
  /** -S */
  readonly start?: string;
  /** -T */
  readonly finish?: string;
  /** -A */
  readonly align?: string;
  /** -O */
  readonly origin?: string;
}

const ALIGN_MESSAGE = 'alignment specified by -A switch could not be applied';
const toNs = (t: Timestamp): bigint => BigInt(t.sec) * NS_N + BigInt(t.nsec);
const fromNs = (ns: bigint): Timestamp => ({ sec: Number(ns / NS_N), nsec: Number(ns % NS_N) });

/**
 * pmParseHighResTimeWindow: the start, end and origin of a replay window over an archive
 * spanning [logStart, logEnd] (logEnd.sec = PM_MAX_TIME_T for live sources).
 */
export function parseTimeWindow(args: TimeWindowArgs, logStart: Timestamp, logEnd: Timestamp, ctx: TimeContext): TimeWindowResult {
  let start = logStart;
  let end = logEnd.sec >= PM_MAX_TIME_T ? { sec: logEnd.sec, nsec: 999_999_999 } : logEnd;
  let status: 1 | 0 = 1;
  let warning: TimeParseError | undefined;
  let delta = 0n;

  if (args.start !== undefined) {
    const r = parseTime(args.start, start, end, ctx);
    if (!r.ok) return r;
    start = r.time;
  }
  if (compareTimestamps(start, logStart) < 0) start = logStart;

  if (args.align !== undefined) {
    const r = tryParseIntervalSeconds(args.align);
    if (!r.ok) return r;
    const interval = timespecFromReal(r.seconds);
    if (interval.sec === 0 && interval.nsec === 0) return { ok: false, error: new TimeParseError(args.align, 0, ALIGN_MESSAGE) };
    delta = toNs(interval);
    const align = toNs(start);
    let blign = (align / delta) * delta;
    if (blign < align) blign += delta;
    const astart = fromNs(blign);
    if (compareTimestamps(astart, logStart) >= 0 && compareTimestamps(astart, logEnd) <= 0) start = astart;
    else {
      warning = new TimeParseError(args.align, 0, ALIGN_MESSAGE);
      status = 0;
    }
  }

  if (args.finish !== undefined) {
    // libpcp's time parser starts by clearing the message: an alignment warning is lost.
    warning = undefined;
    const r = parseTime(args.finish, start, end, ctx);
    if (!r.ok) return r;
    end = r.time;
  }
  if (compareTimestamps(end, logEnd) > 0) end = logEnd;

  let origin = start;
  if (args.origin !== undefined) {
    warning = undefined;
    const r = parseTime(args.origin, start, end, ctx);
    if (!r.ok) return r;
    origin = r.time;
    if (compareTimestamps(origin, start) < 0) origin = start;
    else if (compareTimestamps(origin, end) > 0) origin = end;
    if (args.align !== undefined) {
      let blign = (toNs(origin) / delta) * delta;
      if (blign < toNs(origin)) blign += delta;
      if (blign > toNs(end)) blign -= delta;
      const aorigin = fromNs(blign);
      if (compareTimestamps(aorigin, start) >= 0 && compareTimestamps(aorigin, end) <= 0) origin = aorigin;
      else {
        warning = new TimeParseError(args.align, 0, ALIGN_MESSAGE);
        status = 0;
      }
    }
  }
  // libpcp can leave tv_nsec at 1e9 along the way; the same instants, normalised.
  const norm = (t: Timestamp): Timestamp => makeTimestamp(t.sec, t.nsec);
  return { ok: true, status, start: norm(start), end: norm(end), origin: norm(origin), ...(warning ? { warning } : {}) };
}
