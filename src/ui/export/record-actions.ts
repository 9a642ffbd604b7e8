// Record (pmchart's Record, issue 14 item 6): the live charts of the current tab (or of every
// tab) are recorded by the engine into a V3 archive per live host, from the same fetches the
// charts use, while the charts keep running. Stop downloads one .tar per host: BASE.meta,
// BASE.index, BASE.0 and BASE.view — a view file of the recorded charts (their plots of that
// host) that reopens them on the archive. The engine caps a recording's size; reaching the
// cap or failing is told once, and what was recorded until then is still downloaded.
import { useSyncExternalStore } from 'react';
import type { PlotRequest, RecordingStatus } from '../../workers/engine-types';
import { plotsBySource } from '../charts/use-chart-series';
import { asEngineError, describeError, getEngine } from '../engine-client';
import { notify } from '../menu/notices';
import type { ChartSpec, TabSpec } from '../state/model';
import { dash } from '../store';
import { dashboardToView } from '../views/view-mapping';
import { downloadBlob } from './download';

export interface ActiveRecording {
  readonly sourceId: string;
  readonly host: string;
  readonly tabIds: readonly string[];
  readonly status: RecordingStatus;
}

let recordings: readonly ActiveRecording[] = [];
const listeners = new Set<() => void>();
let poll: ReturnType<typeof setInterval> | undefined;
/** Recordings whose cap or failure has been told (once each). */
const told = new Set<number>();

function set(next: readonly ActiveRecording[]): void {
  recordings = next;
  for (const l of listeners) l();
}

export function useRecordings(): readonly ActiveRecording[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => recordings,
  );
}

const mb = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

async function refresh(): Promise<void> {
  const next = await Promise.all(recordings.map(async (r) => ({ ...r, status: await getEngine().recordingStatus(r.status.id).catch((e: unknown): RecordingStatus => ({ ...r.status, error: asEngineError(e, `recording of ${r.host}`) })) })));
  // A stop may have come while the statuses were asked for.
  set(next.filter((r) => recordings.some((x) => x.status.id === r.status.id)));
  for (const r of recordings) {
    if (told.has(r.status.id)) continue;
    if (r.status.capped) notify('warning', `Recording of ${r.host} reached its ${mb(r.status.capBytes)} cap after ${r.status.records} samples: nothing more is recorded. Stop recording to download what was recorded.`);
    else if (r.status.error) notify('error', `Recording of ${r.host} stopped after ${r.status.records} samples: ${describeError(r.status.error)}`);
    else continue;
    told.add(r.status.id);
  }
}

function tabsInScope(scope: 'tab' | 'all'): TabSpec[] {
  const s = dash();
  return scope === 'all' ? [...s.tabs] : s.tabs.filter((t) => t.id === s.activeTabId);
}

/** Starts recording every live host the charts of the tab (or all tabs) plot. */
export async function startRecording(scope: 'tab' | 'all'): Promise<number> {
  const s = dash();
  const tabs = tabsInScope(scope);
  const charts = tabs.flatMap((t) => t.chartIds.flatMap((id) => (s.charts[id] ? [s.charts[id]] : [])));
  const bySource = new Map<string, PlotRequest[]>();
  for (const c of charts) {
    for (const [sourceId, plots] of plotsBySource(c)) {
      const list = bySource.get(sourceId) ?? [];
      for (const p of plots) if (!list.some((x) => JSON.stringify(x) === JSON.stringify(p))) list.push(p);
      bySource.set(sourceId, list);
    }
  }
  let started = 0;
  let tried = 0;
  const added: ActiveRecording[] = [];
  for (const [sourceId, plots] of bySource) {
    const src = s.sources.find((x) => x.id === sourceId);
    if (!src || src.status !== 'ready' || src.handle === undefined || src.summary?.kind !== 'live') continue;
    if (recordings.some((r) => r.sourceId === sourceId)) continue;
    const host = src.summary.hostname || src.label;
    tried++;
    try {
      const status = await getEngine().startRecording(src.handle, plots);
      added.push({ sourceId, host, tabIds: tabs.map((t) => t.id), status });
      started++;
    } catch (e) {
      notify('error', `Recording of ${host} could not start: ${describeError(asEngineError(e))}`);
    }
  }
  if (tried === 0) {
    notify('error', `Record: no live host is charted in ${scope === 'all' ? 'any tab' : 'this tab'} (archives are recorded already)`);
    return 0;
  }
  if (started === 0) return 0;
  set([...recordings, ...added]);
  poll ??= setInterval(() => void refresh(), 1000);
  return started;
}

/** The view file text of the recorded tabs, with only the plots of one source. */
async function viewOf(r: ActiveRecording): Promise<string | undefined> {
  const s = dash();
  const tabs = s.tabs.filter((t) => r.tabIds.includes(t.id));
  const charts: Record<string, ChartSpec> = {};
  for (const t of tabs) {
    for (const id of t.chartIds) {
      const c = s.charts[id];
      const plots = c?.plots.filter((p) => p.sourceId === r.sourceId) ?? [];
      if (c && plots.length > 0) charts[id] = { ...c, plots };
    }
  }
  const kept = tabs.map((t) => ({ ...t, chartIds: t.chartIds.filter((id) => charts[id] !== undefined) })).filter((t) => t.chartIds.length > 0);
  if (kept.length === 0) return undefined;
  return getEngine().writeView(dashboardToView(kept, charts, s.sources).view);
}

/** Stops every recording; each host's archive (and view file) downloads as one .tar. */
export async function stopRecordings(): Promise<number> {
  const all = recordings;
  set([]);
  if (poll !== undefined) clearInterval(poll);
  poll = undefined;
  let done = 0;
  for (const r of all) {
    try {
      const view = await viewOf(r).catch((e: unknown) => {
        notify('warning', `Recording of ${r.host}: no view file (${describeError(asEngineError(e))})`);
        return undefined;
      });
      const out = await getEngine().stopRecording(r.status.id, view);
      downloadBlob(new Blob([...out.tarParts], { type: 'application/x-tar' }), `${out.base}.tar`);
      const capped = out.status.capped ? ` (stopped at the ${mb(out.status.capBytes)} cap)` : '';
      notify('info', `${out.base}.tar: ${out.status.records} samples of ${r.host}${capped} (unpack with "tar xf ${out.base}.tar", then drop the files here or e.g. "pmdumplog -a ${out.base}")`);
      done++;
    } catch (e) {
      notify('error', `Recording of ${r.host} could not be saved: ${describeError(asEngineError(e))}`);
    }
  }
  return done;
}
