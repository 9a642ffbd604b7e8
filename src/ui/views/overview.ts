// The startup dashboard: pmchart's Overview view re-expressed (docs/pmchart-reference.md §1c:
// CPU utilization, load average with the CPU count, disk IOPS, network bytes, memory), built
// for one source from the metrics it actually has, so a newcomer sees real charts at once.
import { getEngine } from '../engine-client';
import { dash } from '../store';
import type { ChartSpec, PlotSpec } from '../state/model';
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

/**
 * Adds the Overview for a newly opened source: an archive fills the active tab when it is
 * still empty; a live host gets a tab of its own (pmchart keeps live and archive tabs apart).
 */
export async function addOverviewIfEmpty(sourceId: string, summary: SourceSummary): Promise<void> {
  const s = dash();
  if (summary.kind === 'live') {
    // The metric list first, then the tab and its charts with no await in between: two hosts
    // opened together (`?host=a&host=b`) otherwise both saw the same empty tab and shared it.
    const names = new Set(await getEngine().listMetrics(summary.handle));
    const d = dash();
    const current = d.tabs.find((t) => t.id === d.activeTabId);
    const tabId = current && current.chartIds.length === 0 ? current.id : d.addedTab(`Live ${summary.hostname}`);
    if (current?.id === tabId) d.renamedTab(tabId, `Live ${summary.hostname}`);
    for (const c of overviewCharts(sourceId, (n) => names.has(n))) dash().addedChart(c, tabId);
    dash().selectedTab(tabId);
    return;
  }
  const tab = s.tabs.find((t) => t.id === s.activeTabId);
  if (!tab || tab.chartIds.length > 0) return;
  const names = new Set(await getEngine().listMetrics(summary.handle));
  // Another source may have filled the tab meanwhile.
  const again = dash().tabs.find((t) => t.id === tab.id);
  if (!again || again.chartIds.length > 0) return;
  for (const c of overviewCharts(sourceId, (n) => names.has(n))) dash().addedChart(c, tab.id);
}
