// Overlaying sources from different days or hosts (issue 14 item 3): an archive source may be
// shifted in time, by an offset the user types (PCP interval syntax with a sign, "-2days",
// "+1h30m") or by aligning its start with another source's. The engine always works in the
// source's own time; the shift is applied at this boundary: windows asked for move back by
// the offset and the blocks that come back move forward by it, so charts, the time bar and
// the tab's axis all see drawn time, and tooltips can still name each series' own time.
import { tryParseIntervalSeconds } from '../../pcp-core/time/interval';
import type { SeriesBlock } from '../../workers/engine-types';
import type { SourceEntry } from '../state/model';

const shifted = new WeakMap<SeriesBlock, { offsetMs: number; block: SeriesBlock }>();

/** A block as drawn for a source shifted by `offsetMs` (the same block when 0); one copy per block and offset. */
export function shiftBlock(block: SeriesBlock, offsetMs: number): SeriesBlock {
  if (!offsetMs) return block;
  const hit = shifted.get(block);
  if (hit?.offsetMs === offsetMs) return hit.block;
  const timestamps = new Float64Array(block.timestamps.length);
  for (let i = 0; i < timestamps.length; i++) timestamps[i] = (block.timestamps[i] ?? NaN) + offsetMs;
  const out: SeriesBlock = { ...block, t0Ms: block.t0Ms + offsetMs, t1Ms: block.t1Ms + offsetMs, timestamps };
  shifted.set(block, { offsetMs, block: out });
  return out;
}

/**
 * An offset typed by the user: optional sign, then a PCP interval ("2 days", "1h30m", "90");
 * milliseconds, or the parser's message.
 */
export function parseOffset(text: string): { ok: true; offsetMs: number } | { ok: false; error: string } {
  const t = text.trim();
  if (t === '' || t === '0') return { ok: true, offsetMs: 0 };
  const sign = t.startsWith('-') ? -1 : 1;
  const body = t.replace(/^[+-]\s*/, '');
  const r = tryParseIntervalSeconds(body);
  if (!r.ok) return { ok: false, error: r.error.message };
  return { ok: true, offsetMs: sign * r.seconds * 1000 };
}

/** The offset that puts `source`'s start on `target`'s start as drawn (target's own shift kept). */
export function alignStartOffset(source: SourceEntry, target: SourceEntry): number | undefined {
  if (!source.summary || !target.summary) return undefined;
  return target.summary.startMs + (target.offsetMs ?? 0) - source.summary.startMs;
}

/** "+2 d 03:00:00", "-1:30:00", "+45.5 s": a shift for people. */
export function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  let s = Math.abs(offsetMs) / 1000;
  const days = Math.floor(s / 86_400);
  s -= days * 86_400;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s - h * 3600) / 60);
  const sec = s - h * 3600 - m * 60;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const secText = Number.isInteger(sec) ? pad(sec) : sec.toFixed(3).padStart(6, '0');
  if (days === 0 && h === 0 && m === 0) return `${sign}${Number.isInteger(sec) ? sec : sec.toFixed(3)} s`;
  return `${sign}${days > 0 ? `${days} d ` : ''}${pad(h)}:${pad(m)}:${secText}`;
}

/** An offset in the form parseOffset reads back: "+2days 3hours 15min", "-90sec", "0". */
export function offsetText(offsetMs: number): string {
  if (!offsetMs) return '0';
  let s = Math.abs(offsetMs) / 1000;
  const parts: string[] = [];
  for (const [unit, size] of [['days', 86_400], ['hours', 3600], ['min', 60]] as const) {
    const n = Math.floor(s / size);
    if (n > 0) parts.push(`${n}${unit}`);
    s -= n * size;
  }
  if (s > 0) parts.push(`${Number(s.toFixed(6))}sec`);
  return `${offsetMs < 0 ? '-' : '+'}${parts.join(' ')}`;
}
