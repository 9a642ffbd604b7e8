// The startup dashboard: pmchart's Overview view (CPU utilization, load average with the CPU
// count, disk IOPS, network bytes, memory) exactly as the core's STANDARD_VIEWS re-expresses
// it — one definition, the one the Views menu offers too — bound to one source and kept to the
// metrics that source has (asked by name, not by walking its PMNS), so a newcomer sees real
// charts at once; and where a newly opened source's Overview goes.
import { getEngine } from '../engine-client';
import { dash } from '../store';
import type { ChartSpec, TabSpec } from '../state/model';
import type { SourceSummary } from '../../workers/engine-types';
import type { StandardViewEntry } from '../../workers/views-api';
import { viewToDashboard, type NewChart } from './view-mapping';

/**
 * The Overview charts for a source: the standard view's charts bound to it, each plot kept
 * only where `has` says the source has its metric (every plot is then optional, as the
 * Overview of an arbitrary host must be), charts left empty dropped.
 */
export function overviewCharts(overview: Pick<StandardViewEntry, 'view' | 'colors'>, sourceId: string, hostname: string, has: (name: string) => boolean): NewChart[] {
  const { tabs } = viewToDashboard(overview.view, { defaultSourceId: sourceId, sources: [{ id: sourceId, hostname }], colors: overview.colors });
  return tabs
    .flatMap((t) => t.charts)
    .map((c) => ({ ...c, plots: c.plots.filter((p) => has(p.metric)).map((p) => ({ ...p, optional: true })) }))
    .filter((c) => c.plots.length > 0);
}

/** The metric names a view's plots use, once each. */
function viewMetrics(overview: Pick<StandardViewEntry, 'view'>): string[] {
  return [...new Set(overview.view.tabs.flatMap((t) => t.charts.flatMap((c) => c.plots.map((p) => p.metric))))];
}

/** The engine's Overview view, asked once (the page asks while idle, before the first open). */
let overviewView: Promise<StandardViewEntry> | undefined;

/**
 * The standard Overview view, asked of the engine on first use. A failed ask is forgotten, so
 * the next open asks again and reports what went wrong then.
 */
export function standardOverview(): Promise<StandardViewEntry> {
  if (overviewView) return overviewView;
  const asked = getEngine()
    .standardViews()
    .then((views) => {
      const overview = views.find((v) => v.name === 'Overview');
      if (!overview) throw new Error('the standard views have no Overview');
      return overview;
    });
  overviewView = asked;
  asked.catch(() => {
    if (overviewView === asked) overviewView = undefined;
  });
  return asked;
}

/** The Overview charts of a source, asking the engine about the view's own names only. */
export async function overviewFor(sourceId: string, summary: SourceSummary): Promise<NewChart[]> {
  const overview = await standardOverview();
  const names = viewMetrics(overview);
  const present = await getEngine().hasMetrics(summary.handle, names);
  const has = new Set(names.filter((_, i) => present[i] === true));
  return overviewCharts(overview, sourceId, summary.hostname, (n) => has.has(n));
}

/** The source the page opened by default (the bundled demo), and the layout its Overview was built as. */
let defaultSource: { readonly id: string; layout: string | undefined } | undefined;

function layoutKey(d: { tabs: readonly TabSpec[]; charts: Readonly<Record<string, ChartSpec>> }): string {
  return JSON.stringify([d.tabs, d.charts]);
}

/** The default source whose untouched Overview is all the dashboard shows, if any. */
export function untouchedDemo(): string | undefined {
  const d = dash();
  const demo = defaultSource;
  if (!demo || !d.sources.some((x) => x.id === demo.id && x.status === 'ready')) return undefined;
  return demo.layout !== undefined && demo.layout === layoutKey(d) ? demo.id : undefined;
}

/**
 * Puts a newly opened source on screen (issue 13 "what you open is what you see") and returns
 * the tab it shows in, plus the demo source it replaced, if any. An untouched demo dashboard
 * is replaced by the source's Overview; a dashboard without charts takes it in its active tab;
 * otherwise the source gets a tab of its own. A source the layout already plots (a restored
 * link) gets no Overview: its tab is brought forward.
 */
export async function showOverviewFor(sourceId: string, summary: SourceSummary, opts: { readonly isDefault?: boolean } = {}): Promise<{ tabId: string; replaced: string | undefined }> {
  return placeOverview(sourceId, summary, await overviewFor(sourceId, summary), opts);
}

/**
 * showOverviewFor with the charts already worked out (overviewFor): synchronous, so two sources
 * opened together (`?host=a&host=b`, a drop of two hosts) each see the other's tab, not both
 * the same empty one.
 */
export function placeOverview(sourceId: string, summary: SourceSummary, charts: readonly NewChart[], opts: { readonly isDefault?: boolean } = {}): { tabId: string; replaced: string | undefined } {
  const d = dash();
  const own = tabsOf(sourceId);
  if (own[0]) return { tabId: own[0], replaced: undefined };
  // The first archive's tab is pmchart's "Overview"; a source beside others is named by its
  // tab (the archive's name), a live host always (pmchart keeps live and archive tabs apart).
  const live = summary.kind === 'live' ? `Live ${summary.hostname}` : undefined;
  const replaced = untouchedDemo();
  let tabId: string;
  if (replaced !== undefined) {
    const first = d.tabs[0]?.id ?? 't0';
    d.replacedLayout([{ id: first, label: live ?? 'Overview', chartIds: [] }], {}, d.idSerial);
    tabId = first;
  } else if (d.tabs.every((t) => t.chartIds.length === 0)) {
    tabId = d.activeTabId;
    if (live) d.renamedTab(tabId, live);
  } else {
    tabId = d.addedTab(live ?? summary.name);
  }
  for (const c of charts) dash().addedChart(c, tabId);
  dash().selectedTab(tabId);
  // The page's own choice (the demo) gives way to the first thing the user opens, as long as
  // the user has not changed its dashboard.
  if (opts.isDefault) defaultSource = { id: sourceId, layout: layoutKey(dash()) };
  return { tabId, replaced };
}

/** The tabs that plot `sourceId`, those plotting nothing else first. */
export function tabsOf(sourceId: string): string[] {
  const d = dash();
  const sourcesOf = (t: TabSpec): Set<string> => new Set(t.chartIds.flatMap((id) => d.charts[id]?.plots.map((p) => p.sourceId) ?? []));
  const withIt = d.tabs.filter((t) => sourcesOf(t).has(sourceId));
  return [...withIt.filter((t) => sourcesOf(t).size === 1), ...withIt.filter((t) => sourcesOf(t).size > 1)].map((t) => t.id);
}
