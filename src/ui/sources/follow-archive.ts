// Follows an archive pmlogger is still writing (a URL source the engine can read again,
// EngineApi.follow): while its end keeps growing, the engine reads it again every logging
// interval (1–10 s), the source's end grows, and a window that showed the end moves with it,
// as a live source's charts do. A window moved back stays where it was put.
import { describeError, asEngineError, getEngine } from '../engine-client';
import { notify } from '../menu/notices';
import { dash } from '../store';
import type { SourceSummary } from '../../workers/engine-types';

/** An archive whose end is older than this (or stops growing for this long) is finished:
 *  it is not read again (reading its index and metadata again would be work for nothing). */
export const FOLLOW_QUIET_MS = 5 * 60_000;

export function followArchive(id: string, summary: SourceSummary): void {
  if (summary.kind !== 'archive' || !summary.followable) return;
  if (Date.now() - summary.endMs > FOLLOW_QUIET_MS) return;
  const periodMs = Math.min(10_000, Math.max(1000, summary.intervalMs || 1000));
  let grewAt = Date.now();
  const tick = async (): Promise<void> => {
    const s = dash().sources.find((x) => x.id === id);
    // Closed or replaced: following ends with it.
    if (s?.status !== 'ready' || s.handle !== summary.handle) return;
    let endMs: number | undefined;
    try {
      endMs = await getEngine().follow(summary.handle);
    } catch (e) {
      notify('warning', `${summary.name}: stopped following the archive as it grows: ${describeError(asEngineError(e, summary.name))}`);
      return;
    }
    if (endMs === undefined) return;
    if (endMs > (s.summary?.endMs ?? -Infinity)) {
      grewAt = Date.now();
      dash().grewSource(id, endMs);
    }
    if (Date.now() - grewAt > FOLLOW_QUIET_MS) return;
    setTimeout(() => void tick(), periodMs);
  };
  setTimeout(() => void tick(), periodMs);
}
