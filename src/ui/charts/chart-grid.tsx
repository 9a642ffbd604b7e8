// The tab bar and the active tab's charts, stacked one per row as pmchart does, all sharing
// one x range (the tab's: the live window when any chart of the tab plots a live source,
// the archive window otherwise; empty charts too), one zone, one crosshair group and the
// one time axis underneath, placed exactly under the charts' plot area.
import { useCallback, useLayoutEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { dash, useDash, useDashShallow } from '../store';
import { useZone } from '../time/use-zone';
import { ChartView } from './chart-view';
import { TimeAxis, type AxisPlacement } from '../time/time-axis';
import { archiveWishes, isLiveChart, plotsBySource, type ChartWindow } from './use-chart-series';
import { liveHub } from '../series/live-hub';
import { seriesCache } from '../series/series-cache';
import { PLOT_LEFT, PLOT_RIGHT } from './chart-option';
import { NEW_CHART_TITLE, type ChartSpec, type SourceEntry } from '../state/model';
import { revealChart } from './reveal';
import { selectTab } from '../sources/open-sources';

export function TabBar() {
  const tabs = useDash((s) => s.tabs);
  const active = useDash((s) => s.activeTabId);
  const [renaming, setRenaming] = useState<string | undefined>();
  // The strip scrolls sideways when the tabs outgrow it: the tab on screen is kept in view
  // (a newly opened source's tab is the last one, past the strip's edge).
  const nav = useRef<HTMLElement>(null);
  // Which ends hide tabs: the strip fades there, so a user sees there is more to scroll to.
  const [more, setMore] = useState({ left: false, right: false });
  const measure = useCallback((): void => {
    const n = nav.current;
    if (!n) return;
    const left = n.scrollLeft > 1;
    const right = n.scrollLeft + n.clientWidth < n.scrollWidth - 1;
    setMore((m) => (m.left === left && m.right === right ? m : { left, right }));
  }, []);
  useLayoutEffect(() => {
    nav.current?.querySelector('.tab.active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    measure();
  }, [active, tabs.length, measure]);
  useLayoutEffect(() => {
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [measure]);
  return (
    <nav className="tabs" data-testid="tabs" ref={nav} onScroll={measure} data-more-left={more.left} data-more-right={more.right}>
      {tabs.map((t) => (
        <div key={t.id} className={t.id === active ? 'tab active' : 'tab'} data-testid="tab">
          {renaming === t.id ? (
            <input autoFocus defaultValue={t.label} aria-label="tab name" onBlur={(e) => { dash().renamedTab(t.id, e.target.value || t.label); setRenaming(undefined); }} onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()} />
          ) : (
            <button type="button" onClick={() => selectTab(t.id)} onDoubleClick={() => setRenaming(t.id)} onKeyDown={(e) => e.key === 'F2' && setRenaming(t.id)} title={`${t.label} (double-click or F2 to rename)`}>{t.label}</button>
          )}
          {tabs.length > 1 && <button type="button" className="small" title="Close tab" onClick={() => dash().closedTab(t.id)}>✕</button>}
        </div>
      ))}
      <button type="button" className="tab-add" title="New tab" data-testid="add-tab" onClick={() => dash().addedTab(`Tab ${tabs.length + 1}`)}>+ Tab</button>
      <button type="button" className="tab-add" title="New empty chart" data-testid="add-chart" onClick={() => { const id = dash().addedChart({ title: NEW_CHART_TITLE, style: 'line', yScale: { mode: 'auto' }, legend: true, rate: true, plots: [], hidden: [] }); revealChart(id); dash().openedEditor(id); }}>+ Chart</button>
    </nav>
  );
}

/** The newest live frame's time, re-rendering when any of these charts gets a frame. */
function useLiveEnd(chartIds: readonly string[], on: boolean): number {
  const subscribe = useCallback(
    (cb: () => void) => {
      if (!on) return () => undefined;
      const stops = chartIds.map((id) => liveHub.subscribe(id, cb));
      return () => stops.forEach((s) => s());
    },
    [chartIds, on],
  );
  return useSyncExternalStore(subscribe, () => (on ? liveHub.latestMs : NaN));
}

// Chart padding and border plus the grid's padding: where the plot area sits before anything
// is measured (no chart yet).
const FALLBACK: AxisPlacement = { boxPx: 0, leftPx: 10 + 1 + 6 + PLOT_LEFT, rightPx: 10 + 1 + 6 + PLOT_RIGHT };

/** Measures the first chart's plot area against the axis box, whenever either resizes. */
function usePlacement(grid: RefObject<HTMLDivElement | null>, axis: React.RefObject<HTMLDivElement | null>, key: string): AxisPlacement {
  const [place, setPlace] = useState<AxisPlacement>(FALLBACK);
  useLayoutEffect(() => {
    const g = grid.current;
    const a = axis.current;
    if (!g || !a) return;
    const measure = (): void => {
      const box = a.getBoundingClientRect();
      const plot = g.querySelector('.plot-viewport')?.getBoundingClientRect();
      const next = plot && plot.width > 0
        ? { boxPx: box.width, leftPx: plot.left - box.left, rightPx: box.right - plot.right }
        : { ...FALLBACK, boxPx: box.width };
      setPlace((p) => (Math.abs(p.boxPx - next.boxPx) < 0.5 && Math.abs(p.leftPx - next.leftPx) < 0.5 && Math.abs(p.rightPx - next.rightPx) < 0.5 ? p : next));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(g);
    ro.observe(a);
    const first = g.querySelector('.chart-canvas');
    if (first) ro.observe(first);
    return () => ro.disconnect();
  }, [grid, axis, key]);
  return place;
}

/**
 * Follows the width of the tab's plots, so the interval can follow the window (one sample per
 * 2 px): observed on the grid itself, which appears only once a tab exists (a page opened
 * empty measured the page instead, and kept that width after the first drop).
 */
function useViewWidth(grid: RefObject<HTMLDivElement | null>, hasTab: boolean): void {
  useLayoutEffect(() => {
    const g = grid.current;
    if (!g) return;
    // The plot is the grid less the y axis and padding of a chart.
    const measure = (): void => {
      const w = g.clientWidth - 80;
      if (w > 0) dash().resizedView(w);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(g);
    return () => ro.disconnect();
  }, [grid, hasTab]);
}

/** Re-renders whenever the series cache's entries of any of these charts change. */
function useCacheVersion(chartIds: readonly string[]): number {
  const subscribe = useCallback(
    (cb: () => void) => {
      const stops = chartIds.map((id) => seriesCache.subscribe(id, cb));
      return () => stops.forEach((s) => s());
    },
    [chartIds],
  );
  return useSyncExternalStore(subscribe, () => chartIds.reduce((n, id) => n + seriesCache.version(id), 0));
}

/** True while a chart of the tab has data drawn but waits for that of window `win`. */
function tabWaiting(chartIds: readonly string[], charts: Readonly<Record<string, ChartSpec>>, sources: readonly SourceEntry[], win: ChartWindow): boolean {
  return chartIds.some((id) => {
    const chart = charts[id];
    return chart !== undefined && archiveWishes(chart.rate, plotsBySource(chart), sources, win).some(({ sourceId, wish }) => seriesCache.waiting(id, sourceId, wish));
  });
}

/** The window each tab's charts showed at the last commit (no state: playing re-renders nothing more). */
const lastShown = new Map<string, ChartWindow>();

/**
 * The window a tab's archive charts and axis show: the dashboard's, except that while the
 * data of a new window is read the last one shown stays (Grafana keeps a panel's series until
 * the new query answers), so a jump (whole archive, Home, a typed time, a new interval)
 * never flashes empty charts or "no value" legends; the charts' loading bars say it comes.
 * Small moves (play, steps) find their data in the padded blocks and are shown at once.
 */
function useShownWindow(tabId: string | undefined, chartIds: readonly string[], charts: Readonly<Record<string, ChartSpec>>, sources: readonly SourceEntry[], win: ChartWindow, live: boolean): ChartWindow {
  useCacheVersion(chartIds);
  const held = tabId === undefined ? undefined : lastShown.get(tabId);
  const shown = !live && held !== undefined && tabWaiting(chartIds, charts, sources, win) ? held : win;
  useLayoutEffect(() => {
    if (tabId !== undefined) lastShown.set(tabId, shown);
  });
  return shown;
}

/** The window every archive chart of a tab fetches: the dashboard's time. */
function archiveWindow(w: { readonly positionMs: number; readonly windowMs: number; readonly intervalMs: number; readonly anchorMs: number }): ChartWindow {
  return { t0Ms: w.positionMs - w.windowMs, t1Ms: w.positionMs, intervalMs: w.intervalMs, anchorMs: w.anchorMs };
}

/**
 * Asks the series cache now for what the active tab's charts will ask once drawn (the same
 * wishes, so their own asks then find them under way): the engine reads the first window
 * while the page renders the new charts.
 */
export function askForActiveTab(): void {
  const d = dash();
  const tab = d.tabs.find((t) => t.id === d.activeTabId);
  const win = archiveWindow(d);
  for (const id of tab?.chartIds ?? []) {
    const chart = d.charts[id];
    if (!chart) continue;
    for (const { sourceId, wish } of archiveWishes(chart.rate, plotsBySource(chart), d.sources, win)) seriesCache.want(chart.id, sourceId, wish);
  }
  seriesCache.flush();
}

export function ChartGrid() {
  const tab = useDash((s) => s.tabs.find((t) => t.id === s.activeTabId));
  const charts = useDash((s) => s.charts);
  const sources = useDash((s) => s.sources);
  const current = useDash((s) => s.currentChartId);
  const w = useDashShallow((s) => ({ positionMs: s.positionMs, windowMs: s.windowMs, intervalMs: s.intervalMs, anchorMs: s.anchorMs, liveHistoryMs: s.liveHistoryMs }));
  const zone = useZone();
  const gridEl = useRef<HTMLDivElement>(null);
  const axisEl = useRef<HTMLDivElement>(null);
  const chartIds = tab?.chartIds ?? [];
  const live = chartIds.some((id) => {
    const c = charts[id];
    return c !== undefined && isLiveChart(c, sources);
  });
  const liveEnd = useLiveEnd(chartIds, live);
  // Before the first live frame the window ends at the time the grid was first drawn.
  const [opened] = useState(() => Date.now());
  useViewWidth(gridEl, tab !== undefined);
  const place = usePlacement(gridEl, axisEl, `${tab?.id ?? ''}:${chartIds.length > 0 ? chartIds[0] : ''}`);
  const archiveWin = archiveWindow(w);
  // A live tab ends at the newest frame (now, before the first) and shows the chosen history.
  const end = Number.isFinite(liveEnd) ? liveEnd : opened;
  const target: ChartWindow = live ? { ...archiveWin, t0Ms: end - w.liveHistoryMs, t1Ms: end } : archiveWin;
  const win = useShownWindow(tab?.id, chartIds, charts, sources, target, live);
  // After every chart's layout effect has asked for its window (children's run first), before
  // any chart is drawn: the worker reads while the charts are built.
  useLayoutEffect(() => seriesCache.flush());
  if (!tab) return null;
  return (
    <>
      <div className="chart-grid" data-testid="chart-grid" ref={gridEl}>
        {tab.chartIds.length === 0 && <div className="empty-tab">No charts in this tab. Pick a metric in the browser, or press “+ Chart”.</div>}
        {tab.chartIds.map((id) => {
          const c = charts[id];
          return c ? <ChartView key={id} chart={c} tabId={tab.id} win={win} fetchWin={archiveWin} zone={zone} current={id === current} /> : null;
        })}
      </div>
      <div ref={axisEl} className="time-axis-box">
        <TimeAxis t0Ms={win.t0Ms} t1Ms={win.t1Ms} zone={zone} place={place} kind={live ? 'live' : 'archive'} />
      </div>
    </>
  );
}
