// Dashboard ↔ view: a dashboard written as a view (through the engine's writer) and read back
// (through its parser) is the same dashboard — styles pmchart lacks, raw counters, hidden
// series, derived plots and instance lists included; a pmchart view binds to sources by host.
import { describe, expect, it } from 'vitest';
import { EngineApi } from '../../workers/engine-api';
import type { ChartSpec, SourceEntry, TabSpec } from '../state/model';
import { seriesKey } from '../state/model';
import { bindHidden, dashboardToView, viewToDashboard } from './view-mapping';

const summary = (hostname: string) => ({ handle: 1, kind: 'archive' as const, name: hostname, hostname, timezone: 'UTC', zoneinfo: '', startMs: 0, endMs: 1, intervalMs: 1000, metricCount: 1, archives: [hostname], warnings: [] });
const sources: SourceEntry[] = [
  { id: 's1', origin: { kind: 'url', url: 'http://x/a' }, label: 'a', status: 'ready', summary: summary('alpha.example.com') },
  { id: 's2', origin: { kind: 'url', url: 'http://x/b' }, label: 'b', status: 'ready', summary: summary('beta') },
];
const charts: Record<string, ChartSpec> = {
  c1: {
    id: 'c1', title: 'CPU [%h]', style: 'utilization', yScale: { mode: 'auto' }, legend: true, rate: true, hidden: [seriesKey('p2', '')],
    plots: [
      { id: 'p1', sourceId: 's1', metric: 'kernel.all.cpu.user', instances: { kind: 'all' }, legend: 'User', color: '#2d2de2' },
      { id: 'p2', sourceId: 's2', metric: 'kernel.all.cpu.idle', instances: { kind: 'all' }, optional: true },
    ],
  },
  c2: {
    id: 'c2', title: 'IOPS', style: 'stacked-bar', yScale: { mode: 'fixed', min: 0, max: 500 }, legend: false, rate: false, hidden: [seriesKey('p3', 'sda')],
    plots: [
      { id: 'p3', sourceId: 's1', metric: 'disk.dev.read', instances: { kind: 'list', names: ['sda', 'nvme0n1 (x.y)'] }, legend: '%i' },
      { id: 'p4', sourceId: 's1', metric: 'busy', expr: 'disk.all.avactive / 1000', instances: { kind: 'all' } },
      { id: 'p5', sourceId: 's1', metric: 'kernel.all.load', instances: { kind: 'list', names: ['1 minute'] }, color: 'violet' },
      { id: 'p6', sourceId: 's1', metric: 'network.interface.in.bytes', instances: { kind: 'not-matching', pattern: '^lo' }, instanceColors: { eth0: '#112233', 'wlan 1': '#abcdef' } },
    ],
  },
};
const tabs: TabSpec[] = [{ id: 't0', label: 'Overview', chartIds: ['c1'] }, { id: 't2', label: 'Empty', chartIds: [] }, { id: 't3', label: 'Disks', chartIds: ['c2'] }];
const stripIds = (c: ChartSpec) => ({ ...c, id: undefined, plots: c.plots.map((p) => ({ ...p, id: undefined })), hidden: c.hidden.map((k) => {
  const cut = k.indexOf('\u0000');
  return `${c.plots.findIndex((p) => p.id === k.slice(0, cut))}${k.slice(cut)}`;
}) });

describe('view mapping', () => {
  it('writes every tab and reads the same dashboard back', async () => {
    const api = new EngineApi();
    const { view, warnings } = dashboardToView(tabs, charts, sources);
    expect(warnings).toEqual(['tab "Empty" has no charts and is not saved']);
    const text = await api.writeView(view);
    expect(text).toContain('tab "Overview"');
    expect(text).toContain('host alpha.example.com metric kernel.all.cpu.user');
    expect(text).toContain('matching "^(sda|nvme0n1 \\(x\\.y\\))$"');
    const read = await api.readView('saved', text);
    expect(read.errors).toEqual([]);
    const back = viewToDashboard(read.view, { defaultSourceId: 's1', sources: sources.map((s) => ({ id: s.id, hostname: s.summary?.hostname ?? '' })), colors: read.colors });
    expect(back.warnings).toEqual([]);
    expect(back.tabs.map((t) => t.label)).toEqual(['Overview', 'Disks']);
    const rebuilt = back.tabs.flatMap((t) => t.charts).map((c, i) => {
      const ids = c.plots.map((_, k) => `q${i}${k}`);
      return { ...c, id: `x${i}`, plots: c.plots.map((p, k) => ({ ...p, id: ids[k] ?? '' })), hidden: bindHidden(c.hidden, ids) };
    });
    // Colours come back as the engine resolves them.
    const expected = [charts.c1, charts.c2].map((c) => c && stripIds({ ...c, plots: c.plots.map((p) => (p.color === 'violet' ? { ...p, color: '#ee82ee' } : p)) }));
    expect(rebuilt.map(stripIds)).toEqual(expected);
  });

  it('binds a pmchart view to sources by host and uses scheme colours', () => {
    const view = {
      format: 'kmchart' as const, version: '1', globals: {},
      schemes: [{ name: 'Fire', colors: ['#f2b600', '#ede200'], beforeTab: 0 }],
      tabs: [{ charts: [{ style: 'stacking' as const, legend: true, antialiasing: true, scale: { min: 0, max: 10 }, plots: [
        { optional: false, metric: 'a', instances: { kind: 'all' as const } },
        { optional: false, host: 'beta.example.org', metric: 'b', instances: { kind: 'instance' as const, name: '1 minute' } },
        { optional: true, host: 'gamma', color: 'Fire', metric: 'c', instances: { kind: 'all' as const } },
        { optional: false, color: 'bogus', metric: 'd', instances: { kind: 'all' as const } },
      ] }] }],
    };
    const r = viewToDashboard(view, { defaultSourceId: 's1', sources: [{ id: 's1', hostname: 'alpha' }, { id: 's2', hostname: 'beta' }], colors: { '#f2b600': '#f2b600', '#ede200': '#ede200' } });
    expect(r.tabs[0]?.label).toBeUndefined();
    const c = r.tabs[0]?.charts[0];
    expect(c).toMatchObject({ style: 'stacked-area', yScale: { mode: 'fixed', min: 0, max: 10 }, rate: true });
    expect(c?.plots.map((p) => [p.sourceId, p.color, p.instances])).toEqual([
      ['s1', '#f2b600', { kind: 'all' }],
      ['s2', '#ede200', { kind: 'list', names: ['1 minute'] }],
      ['s1', '#f2b600', { kind: 'all' }],
      ['s1', undefined, { kind: 'all' }],
    ]);
    expect(r.warnings).toEqual(['no open source is host "gamma": its plots use the current source', 'colour "bogus" is not a colour: the default palette is used']);
  });
});
