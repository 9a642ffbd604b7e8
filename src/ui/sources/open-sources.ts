// Every way in — dropped files, picked files, a URL, `?archive=` in the page address, the
// bundled demo — goes through these functions, which own the loading state: the store hears
// beganOpening → reportedProgress → finishedOpening | failedOpening per archive, so one bad
// archive shows its error while the others open and keep working (speedscope's loadProfile).
import { asEngineError, describeError, getEngine, progressCallback, remoteCallback } from '../engine-client';
import { askForActiveTab } from '../charts/chart-grid';
import { notify } from '../menu/notices';
import { dash } from '../store';
import type { ConnectionStatus, DropClassification, DroppedFile, SourceSpec, SourceSummary } from '../../workers/engine-types';
import type { SourceOrigin } from '../state/model';
import { overviewFor, placeOverview, showOverviewFor, tabsOf } from '../views/overview';
import type { NewChart } from '../views/view-mapping';
import { openViewText } from '../views/view-actions';
import { delayedProgress, toOpenProgress } from './delayed-progress';
import { followArchive } from './follow-archive';
import { directoryPicker, readFolder, type DroppedItems } from './read-drop';
import { loadDerivedConfig } from './derived-configs';
import { rememberSource } from './recent-sources';
import { pmcdTarget } from './bridge-url';

/** Progress is shown only for opens slower than this (the brief's ~200 ms). */
const PROGRESS_DELAY_MS = 200;

async function openOne(spec: SourceSpec, origin: SourceOrigin, label: string, opts: OpenOptions = {}): Promise<SourceSummary | undefined> {
  const id = dash().beganOpening(origin, label);
  // The engine reports its phases at the start of an open; dropping those that came before
  // the delay (as this did) left a slow open's bar without its phase, and the bar itself
  // showed from the first instant. Now the bar appears after the delay, with the phase.
  const progress = delayedProgress((p) => dash().reportedProgress(id, p.phase, p.fraction), PROGRESS_DELAY_MS, { phase: 'opening…', fraction: NaN });
  const onProgress = progressCallback((p) => progress.report(toOpenProgress(p)));
  let summary: SourceSummary;
  let prepared: PreparedOverview | undefined;
  try {
    summary = await getEngine().open(spec, onProgress);
    // The page's demo, still opening when the user opened something of their own, gives way
    // before it is ever shown: the user's source is what they see (issue 13 item 1).
    if (opts.isDefault && userOpenedMeanwhile(id)) {
      progress.stop();
      await getEngine().close(summary.handle);
      dash().forgotSource(id);
      return undefined;
    }
    // An archive's Overview is worked out before the source shows as open: the engine answers
    // it before what the panels then ask, and the dashboard changes once, not twice.
    prepared = summary.kind === 'archive' ? await overviewFor(id, summary).then((charts) => ({ charts }), (error: unknown) => ({ error })) : undefined;
    progress.stop();
    dash().finishedOpening(id, summary);
    // Archive URLs and live hosts are remembered for the panel's Recent list once they open;
    // files are not (a page cannot reopen them from the user's disk: recent-sources.ts).
    // (A host through pmproxy's /pmapi is not: the Recent list reopens hosts through the bridge.)
    if (origin.kind === 'url' || (origin.kind === 'live' && origin.via === undefined)) rememberSource(origin);
    followArchive(id, summary, origin);
    if (summary.kind === 'live') {
      dash().connectionChanged(id, { state: 'connected' });
      await getEngine().watchConnection(summary.handle, remoteCallback((c: ConnectionStatus) => dash().connectionChanged(id, c)));
    }
  } catch (e) {
    dash().failedOpening(id, asEngineError(e, label));
    progress.stop();
    return undefined;
  }
  // The source is open: a failure while laying out its Overview (a live host that went away
  // meanwhile) is told as such and leaves the source open, never as a failed open.
  try {
    if (claimedElsewhere(id)) dash().choseSource(id);
    else await becameCurrent(id, summary, opts, prepared);
  } catch (e) {
    notify('warning', `${label} opened, but its Overview could not be laid out: ${describeError(asEngineError(e, label))}`);
  }
  return summary;
}

/** Whether another source than `id` is open or opening (what the user opened meanwhile). */
function userOpenedMeanwhile(id: string): boolean {
  return dash().sources.some((x) => x.id !== id && (x.status === 'ready' || x.status === 'opening'));
}

/** A source's Overview charts worked out as it opened, or why they could not be. */
type PreparedOverview = { readonly charts: readonly NewChart[] } | { readonly error: unknown };

function preparedCharts(p: PreparedOverview): readonly NewChart[] {
  if ('error' in p) throw p.error;
  return p.charts;
}

/** Answers, once a source has opened, whether something else lays the dashboard out for it. */
export type OpenClaim = (id: string) => boolean;

const claims = new Set<OpenClaim>();

/**
 * A share link waiting for dropped files claims the drop that binds it (url-sync.ts): the
 * link restores tabs, charts and time, so that open gets no Overview and no move to its
 * archive's first hour, which would undo the link's position. Returns the release.
 */
export function claimOpens(claim: OpenClaim): () => void {
  claims.add(claim);
  return () => claims.delete(claim);
}

function claimedElsewhere(id: string): boolean {
  return [...claims].some((c) => c(id));
}

/** How a source came to be opened. */
export interface OpenOptions {
  /**
   * The page opened it by itself (the bundled demo): the first source the user opens then
   * replaces its dashboard, unless the user has changed it.
   */
  readonly isDefault?: boolean;
}

/** Opens an archive by URL (base name, or any of its files' URLs). */
export function openUrl(url: string, opts: OpenOptions = {}): Promise<SourceSummary | undefined> {
  const abs = new URL(url, location.href).href;
  return openOne({ kind: 'url', url: abs }, { kind: 'url', url: abs }, abs.split('/').pop() || abs, opts);
}

/**
 * Opens dropped or picked files as the engine sorts them (drop-classify.ts): derived-metric
 * configurations first, one source per host (an archive set when the host has several
 * archives), pmchart views once the archives are open, one error per stray file. Archives
 * inside one of `folders` (handles the browser lets the page read again; their files' paths
 * start with their names) are read from the folder and followed as pmlogger writes them.
 */
export async function openFiles(files: readonly DroppedFile[], folders: readonly FileSystemDirectoryHandle[] = []): Promise<void> {
  if (files.length === 0) return;
  let sorted: DropClassification;
  try {
    sorted = await getEngine().classifyDrop(files);
  } catch (e) {
    notify('error', describeError(asEngineError(e, `${files.length} dropped files`)));
    return;
  }
  for (const { index, error } of sorted.strays) {
    const f = files[index];
    if (!f) continue;
    const id = dash().beganOpening({ kind: 'files', names: [f.path] }, f.path);
    dash().failedOpening(id, error);
  }
  // Configurations first, so the archives' views and charts find their metrics.
  for (const i of sorted.derivedConfigs) {
    const c = files[i];
    if (c) await loadDerivedConfig(c.path, await c.file.text());
  }
  await Promise.all(
    sorted.archives.map((g) => {
      const parts = g.files.map((i) => files[i]).filter((f): f is DroppedFile => f !== undefined);
      const label = g.bases.length === 1 ? (g.bases[0] ?? '').split('/').pop() ?? '' : `${g.bases.length} archives of ${g.hostname}`;
      const folder = folderOf(parts, folders);
      return openOne({ kind: 'files', files: parts, archives: g.bases, ...(folder ? { folder } : {}) }, { kind: 'files', names: parts.map((p) => p.path) }, label);
    }),
  );
  for (const i of sorted.views) {
    const v = files[i];
    if (v) await openViewText(v.path, await v.file.text());
  }
}

/** The one folder all of `parts` lie in (by its name, their paths' first part), if it was given as a handle. */
function folderOf(parts: readonly DroppedFile[], folders: readonly FileSystemDirectoryHandle[]): FileSystemDirectoryHandle | undefined {
  const tops = new Set(parts.map((p) => p.path.split('/')[0]));
  if (tops.size !== 1 || !parts.every((p) => p.path.includes('/'))) return undefined;
  const [top] = tops;
  const named = folders.filter((f) => f.name === top);
  // Two dropped folders of one name cannot be told apart by path: read as dropped.
  return named.length === 1 ? named[0] : undefined;
}

/**
 * "Open folder…": Chromium's folder picker, whose folder the page can read again (followed
 * as pmlogger writes it); elsewhere `fallback` (the file input's folder picker: a snapshot).
 */
export async function pickFolder(fallback: () => void): Promise<void> {
  const pick = directoryPicker();
  if (!pick) return fallback();
  let folder: FileSystemDirectoryHandle;
  try {
    folder = await pick();
  } catch (e) {
    // The user closed the picker: nothing to open, nothing to tell.
    if (e instanceof DOMException && e.name === 'AbortError') return;
    notify('error', `Open folder: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  let items: DroppedItems;
  try {
    items = await readFolder(folder);
  } catch (e) {
    notify('error', `${folder.name}: the folder could not be read: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  await openFiles(items.files, items.folders);
}

/**
 * What the user opened becomes current: the metric browser shows it, its Overview is on
 * screen (views/overview.ts decides where) and the time moves into an archive's span. A
 * replaced demo is closed and leaves the list.
 */
async function becameCurrent(id: string, summary: SourceSummary, opts: OpenOptions, prepared: PreparedOverview | undefined): Promise<void> {
  const { replaced } = prepared === undefined ? await showOverviewFor(id, summary, opts) : placeOverview(id, summary, preparedCharts(prepared), opts);
  dash().choseSource(id);
  if (summary.kind === 'archive') dash().enteredArchive(summary.startMs, summary.endMs);
  // The first window is read while the new charts are rendered, not after.
  askForActiveTab();
  if (replaced !== undefined) {
    await closeSource(replaced);
    dash().forgotSource(replaced);
  }
}

/** The user picked a source in the panel: it becomes current and its tab comes forward. */
export function selectSource(id: string): void {
  const s = dash().sources.find((x) => x.id === id);
  if (s?.status !== 'ready') return;
  dash().choseSource(id);
  const tab = tabsOf(id)[0];
  // Its own time comes with it: choseSource moves the window there when it shows none of it.
  if (tab) dash().selectedTab(tab);
}

/**
 * The user picked a tab: the header, the metric browser and the time bar follow a source it
 * charts (the header named one host over another's charts). A tab that charts the current
 * source, or none, leaves the current source as it is.
 */
export function selectTab(tabId: string): void {
  const d = dash();
  d.selectedTab(tabId);
  const tab = d.tabs.find((t) => t.id === tabId);
  const charted = new Set(tab?.chartIds.flatMap((id) => d.charts[id]?.plots.map((p) => p.sourceId) ?? []) ?? []);
  if (charted.size === 0 || (d.currentSourceId !== undefined && charted.has(d.currentSourceId))) return;
  const next = d.sources.find((x) => charted.has(x.id) && x.status === 'ready');
  if (next) d.choseSource(next.id);
}

/**
 * Opens a live host through the bridge. A pmcd already open (or opening) through the bridge,
 * under any spelling of the same target ("localhost" is "localhost:44321"), is shown instead
 * of connected a second time: two identical sources and tabs told the user nothing.
 */
export function openLive(host: string, bridgeUrl: string): Promise<SourceSummary | undefined> {
  const same = dash().sources.find((x) => x.origin.kind === 'live' && x.origin.via === undefined && (x.status === 'ready' || x.status === 'opening') && pmcdTarget(x.origin.host) === pmcdTarget(host));
  if (same) {
    selectSource(same.id);
    return Promise.resolve(same.summary);
  }
  return openOne({ kind: 'live', host, bridgeUrl }, { kind: 'live', host }, host);
}

/** `pmdash serve --pmproxy URL` forwards pmproxy's read endpoints here (same origin): /pmapi for live hosts, /series for the Fleet panel. */
export const PMPROXY_BASE_PATH = '/pmproxy';

/** Opens a live host through the serving pmproxy's /pmapi REST API (no bridge). */
export function openLiveViaPmproxy(host: string): Promise<SourceSummary | undefined> {
  return openOne({ kind: 'live', host, bridgeUrl: '', pmproxyUrl: `${location.origin}${PMPROXY_BASE_PATH}` }, { kind: 'live', host, via: 'pmproxy' }, `${host} via pmproxy`);
}

/**
 * Closes a source in the engine; its entry stays listed as closed, its plots go (charts and
 * tabs left empty with them), and the next open source becomes current.
 */
export async function closeSource(id: string): Promise<void> {
  const src = dash().sources.find((s) => s.id === id);
  // A failed close is reported, but the source is closed on screen either way.
  if (src?.handle !== undefined) await getEngine().close(src.handle).catch((e: unknown) => notify('warning', describeError(asEngineError(e, src.label))));
  const wasCurrent = dash().currentSourceId === id;
  dash().closedSource(id);
  dash().removedSourcePlots(id);
  const next = dash().currentSourceId;
  if (wasCurrent && next !== undefined) selectSource(next);
}
