// Display time zones: the archive host's, the browser's, or UTC (pmtime's Options→Timezone).
// An archive names its zone as an Olson name (v3 labels) and/or a POSIX TZ string (every
// label, e.g. "EDT+4" or "EST5EDT,M3.2.0,M11.1.0"). Both are answered by the core's zone
// (pcp-core/time, glibc's rules exactly as libpcp's pmNewZone gets them), the one zone
// implementation the CLI uses too. Charts shift timestamps by the zone's offset and format
// them as UTC, so every axis shows the chosen wall clock.
import { isIntlZone } from '../../pcp-core/time/intl-zone';
import { parsePosixTz } from '../../pcp-core/time/posix-tz';
import { Zone } from '../../pcp-core/time/zone';
import type { ZoneChoice } from '../state/model';

export interface DisplayZone {
  /** What the time bar calls it: "UTC", "EDT", "Australia/Melbourne", "local". */
  readonly label: string;
  /** Offset east of UTC in minutes at an instant. */
  offsetMinutes(ms: number): number;
}

export const UTC_ZONE: DisplayZone = { label: 'UTC', offsetMinutes: () => 0 };

export const LOCAL_ZONE: DisplayZone = {
  label: Intl.DateTimeFormat().resolvedOptions().timeZone || 'local',
  offsetMinutes: (ms) => -new Date(ms).getTimezoneOffset(),
};

/** An Olson zone (a zoneinfo name); undefined when the browser does not know it. */
export function olsonZone(name: string): DisplayZone | undefined {
  return isIntlZone(name) ? coreZone(`:${name}`, name) : undefined;
}

/** A zone as libpcp's pmNewZone(tz) gives it (pcp-core/time): the offsets `pmdash values -z` uses. */
function coreZone(tz: string, label: string): DisplayZone {
  const z = Zone.fromTz(tz);
  return { label, offsetMinutes: (ms) => z.offsetAt(Math.floor(ms / 1000)).gmtoff / 60 };
}

/**
 * A POSIX TZ string ("EST5EDT,M3.2.0,M11.1.0", "EDT+4", "AEST-10", J-rules too) read as
 * glibc reads it; undefined when it names no zone at all.
 */
export function posixZone(tz: string): DisplayZone | undefined {
  const text = tz.trim();
  const [std, dst] = parsePosixTz(text).rules;
  if (std.name === '') return undefined;
  return coreZone(text, dst.name !== '' && dst.name !== std.name ? `${std.name}/${dst.name}` : std.name);
}

/** The zone for a choice, given the archive's label zone facts. */
export function displayZone(choice: ZoneChoice, archive?: { zoneinfo: string; timezone: string }): DisplayZone {
  if (choice === 'utc') return UTC_ZONE;
  if (choice.startsWith('tz:')) {
    const tz = choice.slice(3).replace(/^:/, '');
    return (tz.toUpperCase() === 'UTC' ? UTC_ZONE : undefined) ?? olsonZone(tz) ?? posixZone(tz) ?? UTC_ZONE;
  }
  if (choice === 'local' || !archive) return LOCAL_ZONE;
  const olson = archive.zoneinfo ? olsonZone(archive.zoneinfo.replace(/^:/, '')) : undefined;
  return olson ?? posixZone(archive.timezone) ?? UTC_ZONE;
}

/** The TZ value (as libpcp takes it) of a choice, for parsing typed times in the engine. */
export function zoneTz(choice: ZoneChoice, archive?: { zoneinfo: string; timezone: string }): string {
  if (choice === 'utc') return 'UTC';
  if (choice.startsWith('tz:')) {
    // As libpcp takes TZ: a POSIX rule as is, a zoneinfo name with a leading colon.
    const tz = choice.slice(3);
    if (tz.startsWith(':') || posixZone(tz) || tz.toUpperCase() === 'UTC') return tz;
    return olsonZone(tz) ? `:${tz}` : tz;
  }
  if (choice === 'local' || !archive) return LOCAL_ZONE.label === 'local' ? 'UTC' : `:${LOCAL_ZONE.label}`;
  return archive.zoneinfo ? `:${archive.zoneinfo.replace(/^:/, '')}` : archive.timezone || 'UTC';
}

/** Wall-clock fields of an instant in a zone, via the shifted-UTC trick. */
export function shiftMs(ms: number, zone: DisplayZone): number {
  return ms + zone.offsetMinutes(ms) * 60_000;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "14:01:35.325" in the zone (milliseconds only when not zero, or always with `ms`). */
export function formatClock(ms: number, zone: DisplayZone, withMs = true): string {
  const d = new Date(shiftMs(ms, zone));
  const base = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return withMs ? `${base}.${pad(d.getUTCMilliseconds(), 3)}` : base;
}

/** ctime-like "Mon Apr 16 14:01:35 2018" in the zone (pmtime's position field). */
export function formatCtime(ms: number, zone: DisplayZone): string {
  const d = new Date(shiftMs(ms, zone));
  return `${DAYS[d.getUTCDay()] ?? ''} ${MONTHS[d.getUTCMonth()] ?? ''} ${pad(d.getUTCDate())} ${formatClock(ms, zone, false)} ${d.getUTCFullYear()}`;
}

/** "2018-04-16 14:01:35.325" in the zone: the form the position field accepts back. */
export function formatIso(ms: number, zone: DisplayZone): string {
  const d = new Date(shiftMs(ms, zone));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${formatClock(ms, zone)}`;
}

/** Parses "YYYY-MM-DD HH:MM[:SS[.mmm]]" as wall time in the zone; NaN when malformed. */
export function parseIso(text: string, zone: DisplayZone): number {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?\s*$/.exec(text);
  if (!m) return NaN;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), Number((m[7] ?? '0').padEnd(3, '0')));
  // Two passes settle the offset across a DST change.
  let utc = wall - zone.offsetMinutes(wall) * 60_000;
  utc = wall - zone.offsetMinutes(utc) * 60_000;
  return utc;
}
