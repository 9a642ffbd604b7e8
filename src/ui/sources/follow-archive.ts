// Follows an archive pmlogger is still writing (a URL source, or files in a folder the browser
// lets the page read again, which the engine can read again: EngineApi.follow): while its end keeps growing, the engine reads it again every logging
// interval (1–10 s), the source's end grows, and a window that showed the end moves with it,
// as a live source's charts do. A window moved back stays where it was put.
import { describeError, asEngineError, getEngine } from '../engine-client';
import { notify } from '../menu/notices';
import { dash } from '../store';
import type { FollowedSource, SourceSummary } from '../../workers/engine-types';
import type { SourceOrigin } from '../state/model';

/** An archive whose end is older than this (or stops growing for this long) is finished:
 *  it is not read again (reading its index and metadata again would be work for nothing). */
export const FOLLOW_QUIET_MS = 5 * 60_000;

export function followArchive(id: string, summary: SourceSummary, origin: SourceOrigin): void {
  if (summary.kind !== 'archive' || Date.now() - summary.endMs > FOLLOW_QUIET_MS) return;
  if (!summary.followable) {
    // Files the browser will not give again (plain File drops, other browsers): said once.
    if (origin.kind === 'files') dash().followChanged(id, 'snapshot');
    return;
  }
  const periodMs = Math.min(10_000, Math.max(1000, summary.intervalMs || 1000));
  let grewAt = Date.now();
  const stop = (): void => dash().followChanged(id, undefined);
  const tick = async (): Promise<void> => {
    const s = dash().sources.find((x) => x.id === id);
    // Closed or replaced: following ends with it.
    if (s?.status !== 'ready' || s.handle !== summary.handle) return;
    let followed: FollowedSource | undefined;
    try {
      followed = await getEngine().follow(summary.handle);
    } catch (e) {
      stop();
      notify('warning', `${summary.name}: stopped following the archive as it grows: ${describeError(asEngineError(e, summary.name))}`);
      return;
    }
    if (followed === undefined) return stop();
    if (followed.endMs > (s.summary?.endMs ?? -Infinity)) {
      grewAt = Date.now();
      dash().grewSource(id, followed.endMs, followed.archives);
    }
    if (Date.now() - grewAt > FOLLOW_QUIET_MS) return stop();
    setTimeout(() => void tick(), periodMs);
  };
  dash().followChanged(id, 'following');
  setTimeout(() => void tick(), periodMs);
}
