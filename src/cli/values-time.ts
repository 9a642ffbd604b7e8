// Time syntax for `pmdash values`: -t intervals and -S/-T window bounds, as PCP tools read
// them (pmParseInterval, pmParseTimeWindow), and the zone used for the table's times. This
// is the narrow seam to src/pcp-core/time: until that module exports its parsers and zones,
// the forms handled here are the offset forms (+x from the start, -x from the end) and
// intervals with PCP's unit words; anything else is refused with a clear message.
import { UsageError } from './args';
import type { Timestamp } from '../pcp-core/types';

const NS: Record<string, bigint> = {
  nsec: 1n, nsecs: 1n, nanosec: 1n, nanosecs: 1n, nanosecond: 1n, nanoseconds: 1n,
  usec: 1000n, usecs: 1000n, microsec: 1000n, microsecs: 1000n, microsecond: 1000n, microseconds: 1000n,
  msec: 1_000_000n, msecs: 1_000_000n, millisec: 1_000_000n, millisecs: 1_000_000n, millisecond: 1_000_000n, milliseconds: 1_000_000n,
  s: 1_000_000_000n, sec: 1_000_000_000n, secs: 1_000_000_000n, second: 1_000_000_000n, seconds: 1_000_000_000n,
  m: 60_000_000_000n, min: 60_000_000_000n, mins: 60_000_000_000n, minute: 60_000_000_000n, minutes: 60_000_000_000n,
  h: 3_600_000_000_000n, hr: 3_600_000_000_000n, hrs: 3_600_000_000_000n, hour: 3_600_000_000_000n, hours: 3_600_000_000_000n,
  d: 86_400_000_000_000n, day: 86_400_000_000_000n, days: 86_400_000_000_000n,
};

/** A decimal number times a unit, in nanoseconds (rounded to the nanosecond). */
function decimalNs(num: string, unitNs: bigint): bigint {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(num);
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) throw new UsageError(`bad number "${num}"`);
  const frac = m[2] ?? '';
  const scale = 10n ** BigInt(frac.length);
  const whole = BigInt(`${m[1] || '0'}${frac}`);
  return (whole * unitNs * 2n + scale) / (2n * scale);
}

/** pmParseInterval: "10", "2.5sec", "250 msec", "1 hour 30 min" → nanoseconds (> 0). */
export function parseIntervalNs(text: string): bigint {
  const parts = text.trim().match(/(\d*\.?\d*)\s*([a-zA-Z]*)/g)?.filter((p) => p.trim() !== '') ?? [];
  if (parts.length === 0) throw new UsageError(`bad interval "${text}"`);
  let total = 0n;
  let consumed = '';
  for (const p of parts) {
    const m = /^(\d*\.?\d*)\s*([a-zA-Z]*)$/.exec(p.trim());
    if (!m || m[1] === '') throw new UsageError(`bad interval "${text}"`);
    const unit = m[2] === '' ? 'sec' : (m[2]).toLowerCase();
    const ns = NS[unit];
    if (ns === undefined) throw new UsageError(`bad interval "${text}": unknown unit "${m[2]}"`);
    total += decimalNs(m[1], ns);
    consumed += p;
  }
  if (consumed.replace(/\s+/g, '') !== text.replace(/\s+/g, '')) throw new UsageError(`bad interval "${text}"`);
  return total;
}

function addNs(t: Timestamp, ns: bigint): Timestamp {
  const total = BigInt(t.sec) * 1_000_000_000n + BigInt(t.nsec) + ns;
  const sec = total / 1_000_000_000n;
  let nsec = total % 1_000_000_000n;
  let s = sec;
  if (nsec < 0n) {
    nsec += 1_000_000_000n;
    s -= 1n;
  }
  return { sec: Number(s), nsec: Number(nsec) };
}

/**
 * A -S / -T argument against the archive's bounds: "+interval" after the start, "-interval"
 * before the end (pmParseTimeWindow's offset forms).
 */
export function parseWindowTime(text: string, option: string, start: Timestamp, end: Timestamp): Timestamp {
  const t = text.trim();
  if (t.startsWith('+')) return addNs(start, parseIntervalNs(t.slice(1)));
  if (t.startsWith('-')) return addNs(end, -parseIntervalNs(t.slice(1)));
  throw new UsageError(`${option} ${text}: only +offset (from the start) and -offset (from the end) are supported in this build`);
}

/** Formats table times in a zone: the process's local zone, or an IANA zone name. */
export function zoneFormatter(zone: string | undefined): (t: Timestamp) => string {
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  } catch {
    throw new UsageError(`unknown time zone "${zone ?? ''}"`);
  }
  return (t) => `${fmt.format(new Date(t.sec * 1000))}.${String(Math.floor(t.nsec / 1_000_000)).padStart(3, '0')}`;
}
