// What the Views menu does (issue 8): open a view file (picked or dropped) or one of
// pmchart's standard views into the dashboard, and save the whole dashboard as a view file.
// Parsing and writing happen in the engine (pcp-core/views); view-mapping.ts binds the view
// to the open sources. A view with errors is refused with pmchart's own messages and nothing
// already on screen changes (pmchart keeps half a view and pops up a dialog).
import type { ViewFile } from '../../pcp-core/views';
import { asEngineError, describeError, getEngine } from '../engine-client';
import { downloadBlob, safeFileName } from '../export/download';
import { notify } from '../menu/notices';
import { dash } from '../store';
import { distinctTabLabel } from '../state/charts-slice';
import { bindHidden, dashboardToView, viewToDashboard } from './view-mapping';

/** Adds a parsed view's tabs and charts to the dashboard, bound to the open sources. */
export function applyView(view: ViewFile, colors: Readonly<Record<string, string>>, name: string): boolean {
  const s = dash();
  const ready = s.sources.filter((x) => x.status === 'ready' && x.summary);
  const current = ready.find((x) => x.id === s.currentSourceId) ?? ready[0];
  if (!current) {
    notify('error', `${name}: open an archive or a host first — a view names metrics, the source gives them`);
    return false;
  }
  const mapped = viewToDashboard(view, { defaultSourceId: current.id, sources: ready.map((x) => ({ id: x.id, hostname: x.summary?.hostname ?? '' })), colors });
  if (mapped.tabs.length === 0) {
    notify('info', `${name}: the view has no charts${view.schemes.length > 0 ? ` (it defines the colour schemes ${view.schemes.map((x) => x.name).join(', ')})` : ''}`);
    return false;
  }
  let first = true;
  for (const t of mapped.tabs) {
    const st = dash();
    const active = st.tabs.find((x) => x.id === st.activeTabId);
    // As pmchart: the first tab of a view takes over the current tab while it is empty.
    const reuse = first && active && active.chartIds.length === 0 ? active.id : undefined;
    const label = distinctTabLabel(st.tabs, t.label ?? name, current.summary?.hostname, reuse);
    let tabId: string;
    if (reuse !== undefined) {
      tabId = reuse;
      st.renamedTab(tabId, label);
    } else {
      tabId = st.addedTab(label);
    }
    first = false;
    for (const c of t.charts) {
      const id = dash().addedChart({ ...c, hidden: [] }, tabId);
      const plotIds = dash().charts[id]?.plots.map((p) => p.id) ?? [];
      if (c.hidden.length > 0) dash().changedChart(id, { hidden: bindHidden(c.hidden, plotIds) });
    }
  }
  // `global points N`: pmchart's visible points.
  const points = view.globals.points;
  if (points !== undefined && points >= 2) dash().changedWindow(points * dash().intervalMs);
  if (mapped.warnings.length > 0) notify('warning', `${name}:\n${mapped.warnings.join('\n')}`);
  return true;
}

/** Parses view file text in the engine and applies it; errors are shown in pmchart's words. */
export async function openViewText(name: string, text: string): Promise<boolean> {
  try {
    const r = await getEngine().readView(name, text);
    if (r.errors.length > 0) {
      notify('error', `${name} is not a view pmdash can load:\n${r.errors.join('\n')}`);
      return false;
    }
    if (r.warnings.length > 0) notify('warning', r.warnings.join('\n'));
    return applyView(r.view, r.colors, name);
  } catch (e) {
    notify('error', describeError(asEngineError(e, name)));
    return false;
  }
}

export async function openViewFile(file: File): Promise<boolean> {
  return openViewText(file.name, await file.text());
}

/** One of pmchart's standard views, re-expressed by pmdash (the engine lists them). */
export async function loadStandardView(name: string): Promise<boolean> {
  const all = await getEngine().standardViews();
  const v = all.find((x) => x.name === name);
  if (!v) {
    notify('error', `no standard view is called ${name}`);
    return false;
  }
  return applyView(v.view, v.colors, v.name);
}

/** The dashboard's view file text (every tab). */
export async function currentViewText(): Promise<string> {
  const s = dash();
  const { view, warnings } = dashboardToView(s.tabs, s.charts, s.sources);
  if (warnings.length > 0) notify('info', warnings.join('\n'));
  return getEngine().writeView(view);
}

/** Saves the dashboard as a pmchart view file (downloaded). */
export async function saveView(): Promise<void> {
  try {
    const text = await currentViewText();
    const s = dash();
    const name = safeFileName(s.sources.find((x) => x.id === s.currentSourceId)?.summary?.name ?? 'dashboard', 'dashboard');
    downloadBlob(new Blob([text], { type: 'text/plain' }), `${name}.view`);
  } catch (e) {
    notify('error', `the view could not be saved: ${describeError(asEngineError(e, 'view'))}`);
  }
}
