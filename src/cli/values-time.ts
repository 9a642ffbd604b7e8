// Time syntax and zones for `pmdash values`, from src/pcp-core/time: -t is pmParseInterval,
// -S/-T are pmParseTimeWindow over the archive's bounds (offsets, @ dates, free forms, read
// in the chosen zone), and the table's times are printed in that zone: the process's local
// zone by default (as PCP tools), the archive's with -z, TZ with -Z.
import { Zone, formatTimeOfDay, parseInterval, parseTimeWindow, TimeParseError, type TimeContext } from '../pcp-core/time';
import { makeTimestamp } from '../pcp-core/time/timestamp';
import type { Timestamp } from '../pcp-core/types';
import { UsageError } from './args';

function usage(option: string, e: unknown): never {
  if (e instanceof TimeParseError) throw new UsageError(`${option} ${e.spec}: ${e.reason}`);
  throw e;
}

/** pmParseInterval: "10", "2.5sec", "250 msec", "1 hour 30 min" → nanoseconds. */
export function parseIntervalNs(text: string, option = '-t'): bigint {
  let t: Timestamp;
  try {
    t = parseInterval(text);
  } catch (e) {
    usage(option, e);
  }
  return BigInt(t.sec) * 1_000_000_000n + BigInt(t.nsec);
}

/** The process's local zone, as libc would choose it ($TZ, else the system's zone). */
export function localZone(): Zone {
  const tz = process.env.TZ;
  if (tz !== undefined) return Zone.fromTz(tz);
  return Zone.fromTz(`:${Intl.DateTimeFormat().resolvedOptions().timeZone}`);
}

/** An archive's zone for -z: its zoneinfo (V3) when present, else its POSIX TZ string. */
export function archiveZone(timezone: string, zoneinfo: string): Zone {
  return Zone.fromTz(zoneinfo ? `:${zoneinfo.replace(/^:/, '')}` : timezone);
}

export interface ValuesWindow {
  readonly origin: Timestamp;
  readonly finish: Timestamp;
}

/** pmParseTimeWindow for -S / -T against the archive's [start, end], dates in `zone`. */
export function parseValuesWindow(start: string | undefined, finish: string | undefined, logStart: Timestamp, logEnd: Timestamp, zone: Zone): ValuesWindow {
  const ctx: TimeContext = { zone, now: () => makeTimestamp(Math.floor(Date.now() / 1000), 0) };
  const r = parseTimeWindow({ start, finish }, logStart, logEnd, ctx);
  if (!r.ok) usage(r.error.spec === finish ? '-T' : '-S', r.error);
  return { origin: r.origin, finish: r.end };
}

/** "HH:MM:SS.mmm" in `zone`, as pmval prints sample times. */
export function zoneFormatter(zone: Zone): (t: Timestamp) => string {
  return (t) => formatTimeOfDay(zone, t, 3);
}
