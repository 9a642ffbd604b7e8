// Every way in — dropped files, picked files, a URL, `?archive=` in the page address, the
// bundled demo — goes through these functions, which own the loading state: the store hears
// beganOpening → reportedProgress → finishedOpening | failedOpening per archive, so one bad
// archive shows its error while the others open and keep working (speedscope's loadProfile).
import { asEngineError, getEngine, progressCallback, remoteCallback } from '../engine-client';
import { dash } from '../store';
import type { ConnectionStatus, DroppedFile, SourceSpec, SourceSummary } from '../../workers/engine-types';
import type { SourceOrigin } from '../state/model';
import { addOverviewIfEmpty } from '../views/overview';
import { isViewBlob, openViewText } from '../views/view-actions';
import { delayedProgress, toOpenProgress } from './delayed-progress';
import { rememberSource } from './recent-sources';

/** Progress is shown only for opens slower than this (the brief's ~200 ms). */
const PROGRESS_DELAY_MS = 200;

async function openOne(spec: SourceSpec, origin: SourceOrigin, label: string): Promise<SourceSummary | undefined> {
  const id = dash().beganOpening(origin, label);
  // The engine reports its phases at the start of an open; dropping those that came before
  // the delay (as this did) left a slow open's bar without its phase, and the bar itself
  // showed from the first instant. Now the bar appears after the delay, with the phase.
  const progress = delayedProgress((p) => dash().reportedProgress(id, p.phase, p.fraction), PROGRESS_DELAY_MS, { phase: 'opening…', fraction: NaN });
  const onProgress = progressCallback((p) => progress.report(toOpenProgress(p)));
  try {
    const summary = await getEngine().open(spec, onProgress);
    progress.stop();
    dash().finishedOpening(id, summary);
    // Archive URLs and live hosts are remembered for the panel's Recent list once they open;
    // files are not (a page cannot reopen them from the user's disk: recent-sources.ts).
    if (origin.kind !== 'files') rememberSource(origin);
    if (summary.kind === 'live') {
      dash().connectionChanged(id, { state: 'connected' });
      await getEngine().watchConnection(summary.handle, remoteCallback((c: ConnectionStatus) => dash().connectionChanged(id, c)));
    }
    await addOverviewIfEmpty(id, summary);
    return summary;
  } catch (e) {
    dash().failedOpening(id, asEngineError(e, label));
    return undefined;
  } finally {
    progress.stop();
  }
}

/** Opens an archive by URL (base name, or any of its files' URLs). */
export function openUrl(url: string): Promise<SourceSummary | undefined> {
  const abs = new URL(url, location.href).href;
  return openOne({ kind: 'url', url: abs }, { kind: 'url', url: abs }, abs.split('/').pop() || abs);
}

/** Opens dropped or picked files: one source per archive, one error per stray file. */
export async function openFiles(files: readonly DroppedFile[]): Promise<void> {
  if (files.length === 0) return;
  const groups = await getEngine().groupFiles(files.map((f) => f.path));
  const views: DroppedFile[] = [];
  for (const i of groups.stray) {
    const f = files[i];
    if (!f) continue;
    // A pmchart view file among the drop: loaded once the archives are open (issue 8).
    if (await isViewBlob(f.file)) {
      views.push(f);
      continue;
    }
    const id = dash().beganOpening({ kind: 'files', names: [f.path] }, f.path);
    dash().failedOpening(id, { code: 'PM_ERR_NOTARCHIVE', message: 'not a file of a PCP archive (expected BASE.meta, BASE.index or BASE.N, optionally compressed) or its archive has no .meta file', context: f.path });
  }
  await Promise.all(
    groups.archives.map((g) => {
      const parts = g.files.map((i) => files[i]).filter((f): f is DroppedFile => f !== undefined);
      return openOne({ kind: 'files', files: parts }, { kind: 'files', names: parts.map((p) => p.path) }, g.base);
    }),
  );
  for (const v of views) await openViewText(v.path, await v.file.text());
}

/** Opens a live host through the bridge. */
export function openLive(host: string, bridgeUrl: string): Promise<SourceSummary | undefined> {
  return openOne({ kind: 'live', host, bridgeUrl }, { kind: 'live', host }, host);
}

/** Closes a source in the engine; its entry stays listed as closed. */
export async function closeSource(id: string): Promise<void> {
  const src = dash().sources.find((s) => s.id === id);
  if (src?.handle !== undefined) await getEngine().close(src.handle).catch(() => undefined);
  dash().closedSource(id);
}
