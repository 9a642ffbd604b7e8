// The startup dashboard: pmchart's Overview view re-expressed (docs/pmchart-reference.md §1c:
// CPU utilization, load average with the CPU count, disk IOPS, network bytes, memory), built
// for one source from the metrics it actually has, so a newcomer sees real charts at once; and
// where a newly opened source's Overview goes.
import { getEngine } from '../engine-client';
import { dash } from '../store';
import type { ChartSpec, PlotSpec, TabSpec } from '../state/model';
import type { SourceSummary } from '../../workers/engine-types';

type NewPlot = Omit<PlotSpec, 'id'>;
type NewChart = Omit<ChartSpec, 'id' | 'plots'> & { plots: NewPlot[] };

const chart = (title: string, style: ChartSpec['style'], plots: NewPlot[]): NewChart => ({ title, style, yScale: { mode: 'auto' }, legend: true, rate: true, plots, hidden: [] });

/** The Overview charts for a source; `has` says which metrics it has. */
export function overviewCharts(sourceId: string, has: (name: string) => boolean): NewChart[] {
  const p = (metric: string, legend: string, color?: string, extra: Partial<NewPlot> = {}): NewPlot | undefined =>
    has(metric) ? { sourceId, metric, legend, color, instances: { kind: 'all' }, optional: true, ...extra } : undefined;
  const keep = (plots: (NewPlot | undefined)[]): NewPlot[] => plots.filter((x): x is NewPlot => x !== undefined);
  const charts: NewChart[] = [
    chart('CPU Utilization [%h]', 'utilization', keep([
      p('kernel.all.cpu.user', 'User', '#2d2dd6'),
      p('kernel.all.cpu.sys', 'Sys', '#e01010'),
      p('kernel.all.cpu.nice', 'Nice', '#b7e8b0'),
      p('kernel.all.cpu.intr', 'Intr', '#c8b400'),
      p('kernel.all.cpu.wait.total', 'Wait', '#00c8c8'),
      p('kernel.all.cpu.steal', 'Steal', '#f0a0f0'),
      p('kernel.all.cpu.idle', 'Idle', '#18c818'),
    ])),
    chart('Average Load [%h]', 'line', keep([
      p('kernel.all.load', '1 min', '#c8a800', { instances: { kind: 'list', names: ['1 minute'] } }),
      p('hinv.ncpu', '# cpus', '#0000ff'),
    ])),
    chart('IOPS over all Disks [%h]', 'stacked-bar', keep([p('disk.all.read', 'Reads'), p('disk.all.write', 'Writes', '#ee82ee')])),
    chart('Network Interface Bytes [%h]', 'stacked-area', keep([
      p('network.interface.in.bytes', 'in %i', undefined, { instances: { kind: 'not-matching', pattern: '^(lo|bond|virbr|vnet|tun|docker|veth|br-)' } }),
      p('network.interface.out.bytes', 'out %i', undefined, { instances: { kind: 'not-matching', pattern: '^(lo|bond|virbr|vnet|tun|docker|veth|br-)' } }),
    ])),
    chart('Real Memory Usage [%h]', 'stacked-area', keep([
      p('mem.util.cached', 'cached', '#a0f0a0'),
      p('mem.util.bufmem', 'bufmem', '#f060a0'),
      p('mem.util.other', 'other', '#f8a830'),
      p('mem.util.free', 'free', '#10d010'),
    ])),
  ];
  return charts.filter((c) => c.plots.length > 0);
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
  const names = new Set(await getEngine().listMetrics(summary.handle));
  // From here on no await: two sources opened together (`?host=a&host=b`, a drop of two
  // hosts) must each see the other's tab, not both the same empty one.
  const d = dash();
  const own = tabsOf(sourceId);
  if (own[0]) return { tabId: own[0], replaced: undefined };
  // The first archive's tab is pmchart's "Overview"; a source beside others is named by its
  // tab (the archive's name), a live host always (pmchart keeps live and archive tabs apart).
  const live = summary.kind === 'live' ? `Live ${summary.hostname}` : undefined;
  const charts = overviewCharts(sourceId, (n) => names.has(n));
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
