// Time syntax and zones for `pmdash values`, from src/pcp-core/time: -t is pmParseInterval,
// -S/-T are pmParseTimeWindow over the archive's bounds (offsets, @ dates, free forms, read
// in the chosen zone), and the table's times are printed in that zone: the process's local
// zone by default (as PCP tools), the archive's with -z, TZ with -Z.
import { Zone, formatCtimeFraction, formatTimeOfDay, writeTimeOfDayMillis, parseInterval, parseTimeWindow, TimeParseError, type TimeContext, type TimeWindowArgs } from '../pcp-core/time';
import { makeTimestamp } from '../pcp-core/time/timestamp';
import type { Timestamp } from '../pcp-core/types';
import { readlinkSync } from 'node:fs';
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

const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/UCT', 'UCT', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu']);

/** The system zone's name as glibc finds it: the /etc/localtime link, else (no file) UTC. */
function systemZoneName(): string {
  try {
    const m = /zoneinfo\/(.+)$/.exec(readlinkSync('/etc/localtime'));
    if (m) return m[1];
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'UTC';
    if (code !== 'EINVAL') throw e;
    // EINVAL: a plain file rather than a link; ask ICU below.
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The process's local zone, as libc would choose it ($TZ, else the system's zone). UTC is
 *  answered by POSIX rules: setting up ICU zone rules costs a noticeable part of a run. */
export function localZone(): Zone {
  const tz = process.env.TZ;
  if (tz !== undefined) return Zone.fromTz(tz);
  const name = systemZoneName();
  return Zone.fromTz(UTC_NAMES.has(name) ? 'UTC' : `:${name}`);
}

/** An archive's zone for -z: its zoneinfo (V3) when present, else its POSIX TZ string. */
export function archiveZone(timezone: string, zoneinfo: string): Zone {
  return Zone.fromTz(zoneinfo ? `:${zoneinfo.replace(/^:/, '')}` : timezone);
}

export interface ValuesWindow {
  readonly origin: Timestamp;
  readonly finish: Timestamp;
}

/** pmParseTimeWindow for -S / -T / -A / -O against the archive's [start, end], dates in `zone`. */
export function parseValuesWindow(args: TimeWindowArgs, logStart: Timestamp, logEnd: Timestamp, zone: Zone): ValuesWindow {
  const ctx: TimeContext = { zone, now: () => makeTimestamp(Math.floor(Date.now() / 1000), 0) };
  const r = parseTimeWindow(args, logStart, logEnd, ctx);
  if (!r.ok) {
    const spec = r.error.spec;
    usage(spec === args.finish ? '-T' : spec === args.align ? '-A' : spec === args.origin ? '-O' : '-S', r.error);
  }
  return { origin: r.origin, finish: r.end };
}

/**
 * Sample times as pmval prints them in `zone`: "HH:MM:SS.mmm"; with -X "Ddd Mmm DD
 * HH:MM:SS.uuuuuu YYYY", with -XX nine fraction digits.
 */
export function zoneFormatter(zone: Zone, fullTimes = 0): (t: Timestamp) => string {
  if (fullTimes > 0) return (t) => formatCtimeFraction(zone, t, fullTimes > 1 ? 9 : 6);
  return (t) => formatTimeOfDay(zone, t, 3);
}

/** A time (sec, nsec) written as ASCII bytes into `out` from `at`; returns the end, or -1
 *  when the string formatter must print it. */
export type TimeWriter = (sec: number, nsec: number, out: Uint8Array, at: number) => number;

/** zoneFormatter's pmval times as bytes (the archive table's rows); undefined with -X. */
export function zoneTimeWriter(zone: Zone, fullTimes = 0): TimeWriter | undefined {
  if (fullTimes > 0) return undefined;
  return (sec, nsec, out, at) => writeTimeOfDayMillis(zone, sec, nsec, out, at);
}
