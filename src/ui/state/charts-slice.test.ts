// Closing a source takes its plots away (issue 13): charts left without plots go, tabs left
// without charts go (an empty tab the user made stays), the last tab always stays.
import { describe, expect, it } from 'vitest';
import { dash } from '../store';
import { distinctTabLabel } from './charts-slice';
import type { ChartSpec, PlotSpec } from './model';

const chart = (title: string, sources: string[]): Omit<ChartSpec, 'id' | 'plots'> & { plots: Omit<PlotSpec, 'id'>[] } => ({
  title,
  style: 'line',
  yScale: { mode: 'auto' },
  legend: true,
  rate: true,
  hidden: [],
  plots: sources.map((sourceId) => ({ sourceId, metric: 'kernel.all.load', instances: { kind: 'all' } })),
});

describe('removedSourcePlots', () => {
  it('removes the source from every chart, and charts and tabs it alone filled', () => {
    const d = dash();
    const t0 = d.activeTabId;
    const mixed = d.addedChart(chart('both', ['s1', 's2']), t0);
    const only1 = d.addedChart(chart('s1 only', ['s1']), t0);
    const t1 = d.addedTab('s1 tab');
    d.addedChart(chart('s1 again', ['s1']), t1);
    const t2 = d.addedTab('empty by the user');
    d.selectedTab(t1);
    dash().removedSourcePlots('s1');
    const s = dash();
    expect(s.tabs.map((t) => t.id)).toEqual([t0, t2]);
    expect(s.tabs[0]?.chartIds).toEqual([mixed]);
    expect(s.charts[mixed]?.plots.map((p) => p.sourceId)).toEqual(['s2']);
    expect(s.charts[only1]).toBeUndefined();
    expect(s.activeTabId).toBe(t0);
    dash().removedSourcePlots('s2');
    expect(dash().tabs.map((t) => t.id)).toEqual([t2]);
    expect(Object.keys(dash().charts)).toEqual([]);
  });
});

describe('the chart editor and the active tab', () => {
  it('closes when the active tab changes to one without the edited chart, and stays on a tab that holds it', () => {
    const d = dash();
    const t0 = d.activeTabId;
    const c = d.addedChart(chart('edited', ['s9']), t0);
    d.openedEditor(c);
    d.selectedTab(t0);
    expect(dash().editing).toBe(c);
    const t1 = d.addedTab('another');
    expect(dash().editing).toBeUndefined();
    d.selectedTab(t0);
    d.openedEditor(c);
    d.selectedTab(t1);
    expect(dash().editing).toBeUndefined();
    d.selectedTab(t0);
    d.openedEditor(c);
    d.closedTab(t1);
    expect(dash().editing).toBe(c);
  });
});

describe('distinctTabLabel', () => {
  const tabs = [
    { id: 't1', label: 'Overview', chartIds: [] },
    { id: 't2', label: 'Overview · vm', chartIds: [] },
    { id: 't3', label: 'CPU', chartIds: [] },
  ];
  it('keeps a free label, names the host for a taken one, then numbers it', () => {
    expect(distinctTabLabel(tabs, 'Disk', 'vm')).toBe('Disk');
    expect(distinctTabLabel(tabs, 'CPU', 'vm')).toBe('CPU · vm');
    expect(distinctTabLabel(tabs, 'Overview', 'vm')).toBe('Overview · vm (2)');
    expect(distinctTabLabel(tabs, 'CPU')).toBe('CPU (2)');
  });
  it('does not count the tab being renamed', () => {
    expect(distinctTabLabel(tabs, 'CPU', 'vm', 't3')).toBe('CPU');
  });
});
