// PCP time syntax for the page's range picker and address (`?S= ?T= ?O=`): the core's
// pmParseHighResTimeWindow over the bounds the UI shows, in the zone it shows, answering in
// epoch ms or with libpcp's own message (the spec, a caret line, the reason).
import { makeTimestamp, PM_MAX_TIME_T, parseTimeWindow, tryParseIntervalSeconds, Zone, type TimeWindowArgs } from '../pcp-core/time';
import type { Timestamp } from '../pcp-core/types';
import { msToTimestamp, timestampToMs } from './series-time';

export type TimeWindowAnswer =
  | { readonly ok: true; readonly startMs: number; readonly endMs: number; readonly originMs: number }
  | { readonly ok: false; readonly message: string; readonly spec: string };

/**
 * -S/-T/-O against [startMs, endMs] (endMs = Infinity for a live, open-ended window); `tz`
 * is a TZ value as libpcp takes it ("UTC", ":Australia/Melbourne", "EST5EDT").
 */
export function parsePageTimeWindow(args: TimeWindowArgs, startMs: number, endMs: number, tz: string): TimeWindowAnswer {
  const zone = Zone.fromTz(tz);
  const now = (): Timestamp => makeTimestamp(Math.floor(Date.now() / 1000), 0);
  const end = Number.isFinite(endMs) ? msToTimestamp(endMs) : { sec: PM_MAX_TIME_T, nsec: 0 };
  const r = parseTimeWindow(args, msToTimestamp(startMs), end, { zone, now });
  if (!r.ok) return { ok: false, message: r.error.message, spec: r.error.spec };
  return { ok: true, startMs: timestampToMs(r.start), endMs: timestampToMs(r.end), originMs: timestampToMs(r.origin) };
}

export type IntervalAnswer = { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly message: string };

/** pmParseInterval ("10", "2min", "1 hour 30 min") in ms, or libpcp's message. */
export function parsePageInterval(text: string): IntervalAnswer {
  const r = tryParseIntervalSeconds(text);
  return r.ok ? { ok: true, ms: r.seconds * 1000 } : { ok: false, message: r.error.message };
}
