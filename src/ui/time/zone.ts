// Display time zones: the archive host's, the browser's, or UTC (pmtime's Options→Timezone).
// An archive names its zone as an Olson name (v3 labels) and/or a POSIX TZ string (every
// label, e.g. "EDT+4" or "EST5EDT,M3.2.0,M11.1.0"). Olson names go through Intl; POSIX
// strings are parsed here, DST rules of the Mm.w.d form included. Charts shift timestamps
// by the zone's offset and format them as UTC, so every axis shows the chosen wall clock.
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

/** An Olson zone through Intl; undefined when the browser does not know it. */
export function olsonZone(name: string): DisplayZone | undefined {
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', { timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  } catch {
    return undefined;
  }
  return {
    label: name,
    offsetMinutes(ms) {
      const parts: Record<string, number> = {};
      for (const p of fmt.formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
      const wall = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
      return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
    },
  };
}

interface PosixRule {
  readonly month: number;
  readonly week: number;
  readonly day: number;
  /** Seconds after local midnight. */
  readonly timeSec: number;
}

function parseOffset(text: string): number | undefined {
  const m = /^([+-]?)(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?$/.exec(text);
  if (!m) return undefined;
  const sec = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -sec : sec;
}

function parseRule(text: string): PosixRule | undefined {
  const m = /^M(\d{1,2})\.(\d)\.(\d)(?:\/([+-]?\d{1,3}(?::\d{2}){0,2}))?$/.exec(text);
  if (!m) return undefined;
  return { month: Number(m[1]), week: Number(m[2]), day: Number(m[3]), timeSec: m[4] ? (parseOffset(m[4]) ?? 7200) : 7200 };
}

/** UTC ms of a rule's transition in `year`, given the local offset (seconds east) in force before it. */
function transition(rule: PosixRule, year: number, offsetEastSec: number): number {
  const first = new Date(Date.UTC(year, rule.month - 1, 1)).getUTCDay();
  let day = 1 + ((rule.day - first + 7) % 7) + (rule.week - 1) * 7;
  const daysInMonth = new Date(Date.UTC(year, rule.month, 0)).getUTCDate();
  while (day > daysInMonth) day -= 7;
  return Date.UTC(year, rule.month - 1, day) + (rule.timeSec - offsetEastSec) * 1000;
}

/** A POSIX TZ string ("EST5EDT,M3.2.0,M11.1.0", "EDT+4", "AEST-10"); undefined if unparsable. */
export function posixZone(tz: string): DisplayZone | undefined {
  const m = /^(<[^>]+>|[A-Za-z]{3,})([+-]?\d{1,2}(?::\d{2}){0,2})(?:(<[^>]+>|[A-Za-z]{3,})([+-]?\d{1,2}(?::\d{2}){0,2})?(?:,([^,]+),([^,]+))?)?$/.exec(tz.trim());
  if (!m) return undefined;
  const stdName = (m[1] ?? '').replace(/[<>]/g, '');
  const stdWest = parseOffset(m[2] ?? '');
  if (stdWest === undefined) return undefined;
  const stdEast = -stdWest;
  if (!m[3]) return { label: stdName, offsetMinutes: () => stdEast / 60 };
  const dstEast = m[4] ? -(parseOffset(m[4]) ?? stdWest - 3600) : stdEast + 3600;
  const start = parseRule(m[5] ?? 'M3.2.0');
  const end = parseRule(m[6] ?? 'M11.1.0');
  if (!start || !end) return { label: stdName, offsetMinutes: () => stdEast / 60 };
  return {
    label: `${stdName}/${(m[3] ?? '').replace(/[<>]/g, '')}`,
    offsetMinutes(ms) {
      const year = new Date(ms).getUTCFullYear();
      const on = transition(start, year, stdEast);
      const off = transition(end, year, dstEast);
      const inDst = on < off ? ms >= on && ms < off : ms >= on || ms < off;
      return (inDst ? dstEast : stdEast) / 60;
    },
  };
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
