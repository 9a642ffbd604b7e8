// pmPrintValue's text for one value, without its padding (minwidth 1): integers in decimal,
// FLOAT as "%.8g" and DOUBLE as "%.16g" (glibc-exact, c-numeric.ts), a string inside double
// quotes as it is (no escaping), an aggregate as libpcp guesses at it (8 bytes: the U64 and,
// unless NaN, the double; 4 bytes: the float unless NaN; printable bytes as a quoted string;
// then always the hex bytes in brackets), an event array as libpcp's summary: "[N event
// records (M missed) timestamps FIRST...LAST]" with times of day in `zone` (milliseconds,
// nanoseconds for high-resolution events).
import { formatGC } from './c-numeric';
import { formatTimeOfDay, type Zone } from './time';
import { PM_EVENT_FLAG_MISSED, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, type AtomValue, type EventArray } from './types';

function aggregateText(b: Uint8Array): string {
  const parts: string[] = [];
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length === 8) {
    parts.push(view.getBigUint64(0, true).toString());
    const d = view.getFloat64(0, true);
    if (!Number.isNaN(d)) parts.push(formatGC(d, 16));
  }
  if (b.length === 4) {
    const f = view.getFloat32(0, true);
    if (!Number.isNaN(f)) parts.push(formatGC(f, 8));
  }
  // isprint in the C locale: 0x20..0x7e.
  if (b.every((c) => c >= 0x20 && c <= 0x7e)) parts.push(`"${String.fromCharCode(...b)}"`);
  parts.push(`[${Array.from(b, (c) => c.toString(16).padStart(2, '0')).join('')}]`);
  return parts.join(' ');
}

/** print_event_summary: the records' count, missed events (all records but the last), times. */
function eventSummary(ea: EventArray, zone: Zone): string {
  const n = ea.records.length;
  let missed = 0;
  for (let r = 0; r < n - 1; r++) if ((ea.records[r].flags & PM_EVENT_FLAG_MISSED) !== 0) missed += ea.records[r].nparams;
  let out = `[${n} event record${n === 1 ? '' : 's'}`;
  if (missed > 0) out += ` (${missed} missed)`;
  if (n > 0) {
    const time = (i: number): string => formatTimeOfDay(zone, ea.records[i].time, ea.highres ? 9 : 3);
    out += ` timestamp${n > 1 ? 's' : ''} ${time(0)}${n > 1 ? `...${time(n - 1)}` : ''}`;
  }
  return `${out}]`;
}

/** pmPrintValue(f, valfmt, type, value, 1)'s text; event times are printed in `zone`. */
export function printValueText(type: number, v: AtomValue, zone: Zone): string {
  if (v instanceof Uint8Array) return aggregateText(v);
  if (typeof v === 'object') return eventSummary(v, zone);
  if (typeof v === 'string') return `"${v}"`;
  if (typeof v === 'bigint') return v.toString();
  // Numbers: the 32-bit integers in decimal, FLOAT "%.8g", DOUBLE "%.16g".
  if (type === PM_TYPE_FLOAT) return formatGC(v, 8);
  if (type === PM_TYPE_DOUBLE) return formatGC(v, 16);
  return String(v);
}
