// The tab bar and the active tab's charts, stacked one per row as pmchart does, all sharing
// one time window, one zone and one crosshair group (ECharts' connect by tab id).
import { useState } from 'react';
import { dash, useDash, useDashShallow } from '../store';
import { useZone } from '../time/use-zone';
import { ChartView } from './chart-view';
import { TimeAxis } from '../time/time-axis';

export function TabBar() {
  const tabs = useDash((s) => s.tabs);
  const active = useDash((s) => s.activeTabId);
  const [renaming, setRenaming] = useState<string | undefined>();
  return (
    <nav className="tabs" data-testid="tabs">
      {tabs.map((t) => (
        <div key={t.id} className={t.id === active ? 'tab active' : 'tab'} data-testid="tab">
          {renaming === t.id ? (
            <input autoFocus defaultValue={t.label} aria-label="tab name" onBlur={(e) => { dash().renamedTab(t.id, e.target.value || t.label); setRenaming(undefined); }} onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()} />
          ) : (
            <button type="button" onClick={() => dash().selectedTab(t.id)} onDoubleClick={() => setRenaming(t.id)} onKeyDown={(e) => e.key === 'F2' && setRenaming(t.id)} title="Double-click or F2 to rename">{t.label}</button>
          )}
          {tabs.length > 1 && <button type="button" className="small" title="Close tab" onClick={() => dash().closedTab(t.id)}>✕</button>}
        </div>
      ))}
      <button type="button" className="tab-add" title="New tab" data-testid="add-tab" onClick={() => dash().addedTab(`Tab ${tabs.length + 1}`)}>+ Tab</button>
      <button type="button" className="tab-add" title="New empty chart" data-testid="add-chart" onClick={() => { const id = dash().addedChart({ title: 'New chart', style: 'line', yScale: { mode: 'auto' }, legend: true, rate: true, plots: [], hidden: [] }); dash().openedEditor(id); }}>+ Chart</button>
    </nav>
  );
}

export function ChartGrid() {
  const tab = useDash((s) => s.tabs.find((t) => t.id === s.activeTabId));
  const charts = useDash((s) => s.charts);
  const current = useDash((s) => s.currentChartId);
  const w = useDashShallow((s) => ({ positionMs: s.positionMs, windowMs: s.windowMs, intervalMs: s.intervalMs, anchorMs: s.anchorMs }));
  const zone = useZone();
  const win = { t0Ms: w.positionMs - w.windowMs, t1Ms: w.positionMs, intervalMs: w.intervalMs, anchorMs: w.anchorMs };
  if (!tab) return null;
  return (
    <>
    <div className="chart-grid" data-testid="chart-grid">
      {tab.chartIds.length === 0 && <div className="empty-tab">No charts in this tab. Pick a metric in the browser, or press “+ Chart”.</div>}
      {tab.chartIds.map((id) => {
        const c = charts[id];
        return c ? <ChartView key={id} chart={c} tabId={tab.id} win={win} zone={zone} current={id === current} /> : null;
      })}
    </div>
    <TimeAxis t0Ms={win.t0Ms} t1Ms={win.t1Ms} zone={zone} />
    </>
  );
}
