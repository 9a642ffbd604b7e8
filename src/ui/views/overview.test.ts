// Two live hosts opened together each get a live tab of their own, even when both ask the
// engine for their metrics before either has added its charts (`?host=a&host=b`).
import { describe, expect, it, vi } from 'vitest';
import type { SourceSummary } from '../../workers/engine-types';
import { standardViews } from '../../workers/views-api';

const pending: (() => void)[] = [];
const asked: string[][] = [];
vi.mock('../engine-client', () => ({
  getEngine: () => ({
    standardViews: () => Promise.resolve(standardViews()),
    // The answers arrive only when the test releases them, after both hosts have asked.
    hasMetrics: (_h: number, names: string[]) => {
      asked.push(names);
      return new Promise<boolean[]>((ok) => pending.push(() => ok(names.map((n) => n === 'kernel.all.load' || n === 'hinv.ncpu'))));
    },
  }),
}));

const { overviewCharts, showOverviewFor } = await import('./overview');
const { dash } = await import('../store');

function live(handle: number, hostname: string): SourceSummary {
  return { handle, kind: 'live', name: hostname, hostname, timezone: '', zoneinfo: '', startMs: 0, endMs: 0, intervalMs: 0, metricCount: 2, archives: [], warnings: [] };
}

describe('showOverviewFor with live hosts', () => {
  it('gives each of two hosts opened together its own tab', async () => {
    const empty = dash().tabs.filter((t) => t.chartIds.length === 0).length;
    expect(empty).toBeGreaterThan(0);
    const a = showOverviewFor('s1', live(1, 'a'));
    const b = showOverviewFor('s2', live(2, 'b'));
    await vi.waitFor(() => expect(pending).toHaveLength(2));
    for (const release of pending) release();
    await Promise.all([a, b]);
    const s = dash();
    const tabOf = (sourceId: string) => s.tabs.filter((t) => t.chartIds.some((id) => s.charts[id]?.plots.some((p) => p.sourceId === sourceId)));
    expect(tabOf('s1').map((t) => t.label)).toEqual(['Live a']);
    expect(tabOf('s2').map((t) => t.label)).toEqual(['Live b']);
    for (const t of s.tabs) expect(new Set(t.chartIds.flatMap((id) => s.charts[id]?.plots.map((p) => p.sourceId) ?? [])).size).toBeLessThanOrEqual(1);
  });

  it('asks the engine about the Overview\'s own metric names only, and keeps the plots it has', () => {
    // pmchart's Overview names about twenty metrics; nothing walks the PMNS.
    for (const names of asked) {
      expect(names).toContain('kernel.all.load');
      expect(names.length).toBeLessThan(30);
    }
    const s = dash();
    const charts = Object.values(s.charts).filter((c) => c.plots.some((p) => p.sourceId === 's1'));
    expect(charts.map((c) => c.title)).toEqual(['Average Load [%h]']);
    expect(charts[0]?.plots.map((p) => [p.metric, p.legend])).toEqual([['kernel.all.load', '1 min'], ['hinv.ncpu', '# cpus']]);
  });
});

describe('overviewCharts', () => {
  it('is the core\'s standard Overview: its titles, styles, colours and instance filters', () => {
    const overview = standardViews().find((v) => v.name === 'Overview');
    if (!overview) throw new Error('no Overview');
    const charts = overviewCharts(overview, 's9', 'h', () => true);
    const view = overview.view.tabs.flatMap((t) => t.charts);
    expect(charts.map((c) => c.title)).toEqual(view.map((c) => c.title));
    expect(charts.flatMap((c) => c.plots.map((p) => p.metric))).toEqual(view.flatMap((c) => c.plots.map((p) => p.metric)));
    const cpu = charts[0];
    expect(cpu?.style).toBe('utilization');
    expect(cpu?.plots.find((p) => p.metric === 'kernel.all.cpu.user')?.color).toBe(overview.colors['#2d2de2'] ?? '#2d2de2');
    const net = charts.find((c) => c.title.startsWith('Network'));
    const netView = view.find((c) => c.title?.startsWith('Network'));
    expect(net?.plots[0]?.instances).toEqual(netView?.plots[0]?.instances);
    for (const c of charts) for (const p of c.plots) expect(p.sourceId).toBe('s9');
  });
});
