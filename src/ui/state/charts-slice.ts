// Tabs and charts: the layout the user builds. Charts live in a map by id, tabs list their
// chart ids in order. Actions are named for what the user did; ids are serial so a saved or
// shared dashboard reproduces exactly (docs/design.md "Store").
import type { ChartSpec, PlotSpec, TabSpec } from './model';
import type { SliceCreator } from './slice';

export interface ChartsSlice {
  readonly tabs: readonly TabSpec[];
  readonly activeTabId: string;
  readonly charts: Readonly<Record<string, ChartSpec>>;
  /** Serial for chart, plot and tab ids. */
  readonly idSerial: number;
  /** The chart whose editor is open. */
  readonly editing: string | undefined;
  /** The chart last clicked (pmchart's "current chart"): the metric browser adds to it. */
  readonly currentChartId: string | undefined;

  addedTab(label: string): string;
  renamedTab(tabId: string, label: string): void;
  closedTab(tabId: string): void;
  selectedTab(tabId: string): void;
  /** Adds a chart to a tab (the active one by default); plot ids are assigned here. */
  addedChart(chart: Omit<ChartSpec, 'id' | 'plots'> & { plots: readonly Omit<PlotSpec, 'id'>[] }, tabId?: string): string;
  changedChart(chartId: string, change: Partial<Omit<ChartSpec, 'id' | 'plots'>>): void;
  addedPlots(chartId: string, plots: readonly Omit<PlotSpec, 'id'>[]): void;
  changedPlot(chartId: string, plotId: string, change: Partial<Omit<PlotSpec, 'id'>>): void;
  removedPlot(chartId: string, plotId: string): void;
  removedChart(chartId: string): void;
  /**
   * A source closed: its plots go, charts left without plots go, and tabs left without
   * charts go (the last tab stays), so nothing on screen shows the closed source as current.
   */
  removedSourcePlots(sourceId: string): void;
  movedChart(chartId: string, delta: number): void;
  /** The chart's resize handle was dragged or keyed to a new plot height (CSS px). */
  resizedChart(chartId: string, heightPx: number): void;
  /** Legend click: hide or show one series. */
  toggledSeries(chartId: string, key: string): void;
  /** Legend double-click: show only this series, or everything if it already is alone. */
  isolatedSeries(chartId: string, key: string, allKeys: readonly string[]): void;
  selectedChart(chartId: string): void;
  openedEditor(chartId: string): void;
  closedEditor(): void;
  /** Replaces the whole layout (startup overview, views, URL state). */
  replacedLayout(tabs: readonly TabSpec[], charts: Readonly<Record<string, ChartSpec>>, idSerial: number): void;
}

/**
 * `label` made distinct from the other tabs' labels (those of `tabs` but `exceptId`): first by
 * `qualifier` (the source's host, when the same view is opened for another source), then by a
 * number, so the strip never shows two tabs a user cannot tell apart.
 */
export function distinctTabLabel(tabs: readonly TabSpec[], label: string, qualifier?: string, exceptId?: string): string {
  const taken = new Set(tabs.filter((t) => t.id !== exceptId).map((t) => t.label));
  if (!taken.has(label)) return label;
  const base = qualifier ? `${label} · ${qualifier}` : label;
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base} (${n})`)) n++;
  return `${base} (${n})`;
}

/** The edited chart if the active tab holds it: the editor never edits a chart out of sight. */
function editingOn(tabs: readonly TabSpec[], activeTabId: string, editing: string | undefined): string | undefined {
  return editing !== undefined && tabs.some((t) => t.id === activeTabId && t.chartIds.includes(editing)) ? editing : undefined;
}

export const createChartsSlice: SliceCreator<ChartsSlice> = (set, get) => {
  const nextId = (prefix: string): string => {
    const n = get().idSerial + 1;
    set({ idSerial: n });
    return `${prefix}${n}`;
  };
  const updateChart = (chartId: string, f: (c: ChartSpec) => ChartSpec): void => {
    const c = get().charts[chartId];
    if (c) set((s) => ({ charts: { ...s.charts, [chartId]: f(c) } }));
  };
  return {
    tabs: [{ id: 't0', label: 'Overview', chartIds: [] }],
    activeTabId: 't0',
    charts: {},
    idSerial: 0,
    editing: undefined,
    currentChartId: undefined,

    addedTab(label) {
      const id = nextId('t');
      // The new tab holds no chart yet, so none of its charts can be in the editor.
      set((s) => ({ tabs: [...s.tabs, { id, label, chartIds: [] }], activeTabId: id, editing: undefined }));
      return id;
    },
    renamedTab(tabId, label) {
      set((s) => ({ tabs: s.tabs.map((t) => (t.id === tabId ? { ...t, label } : t)) }));
    },
    closedTab(tabId) {
      const s = get();
      if (s.tabs.length <= 1) return;
      const tab = s.tabs.find((t) => t.id === tabId);
      const charts = { ...s.charts };
      for (const id of tab?.chartIds ?? []) delete charts[id];
      const tabs = s.tabs.filter((t) => t.id !== tabId);
      const activeTabId = s.activeTabId === tabId ? (tabs[0]?.id ?? '') : s.activeTabId;
      set({ tabs, charts, activeTabId, editing: editingOn(tabs, activeTabId, s.editing) });
    },
    selectedTab(tabId) {
      set((s) => ({ activeTabId: tabId, editing: editingOn(s.tabs, tabId, s.editing) }));
    },
    addedChart(chart, tabId) {
      const id = nextId('c');
      const plots = chart.plots.map((p) => ({ ...p, id: nextId('p') }));
      const target = tabId ?? get().activeTabId;
      set((s) => ({
        charts: { ...s.charts, [id]: { ...chart, id, plots } },
        tabs: s.tabs.map((t) => (t.id === target ? { ...t, chartIds: [...t.chartIds, id] } : t)),
        currentChartId: id,
      }));
      return id;
    },
    changedChart(chartId, change) {
      updateChart(chartId, (c) => ({ ...c, ...change }));
    },
    addedPlots(chartId, plots) {
      const withIds = plots.map((p) => ({ ...p, id: nextId('p') }));
      updateChart(chartId, (c) => ({ ...c, plots: [...c.plots, ...withIds] }));
    },
    changedPlot(chartId, plotId, change) {
      updateChart(chartId, (c) => ({ ...c, plots: c.plots.map((p) => (p.id === plotId ? { ...p, ...change } : p)) }));
    },
    removedPlot(chartId, plotId) {
      updateChart(chartId, (c) => ({ ...c, plots: c.plots.filter((p) => p.id !== plotId) }));
    },
    removedChart(chartId) {
      set((s) => {
        const charts = { ...s.charts };
        delete charts[chartId];
        return { charts, tabs: s.tabs.map((t) => ({ ...t, chartIds: t.chartIds.filter((c) => c !== chartId) })), editing: s.editing === chartId ? undefined : s.editing, currentChartId: s.currentChartId === chartId ? undefined : s.currentChartId };
      });
    },
    removedSourcePlots(sourceId) {
      set((s) => {
        const charts: Record<string, ChartSpec> = {};
        for (const [id, c] of Object.entries(s.charts)) {
          const plots = c.plots.filter((p) => p.sourceId !== sourceId);
          if (plots.length === 0 && c.plots.length > 0) continue;
          charts[id] = plots.length === c.plots.length ? c : { ...c, plots };
        }
        const kept = s.tabs.map((t) => ({ ...t, chartIds: t.chartIds.filter((id) => id in charts) }));
        // A tab that only held the source's charts goes with them; one that was empty stays.
        let tabs = kept.filter((t, i) => t.chartIds.length > 0 || (s.tabs[i]?.chartIds.length ?? 0) === 0);
        if (tabs.length === 0) tabs = [{ ...(kept[0] ?? { id: 't0', label: 'Overview', chartIds: [] }), chartIds: [] }];
        const activeTabId = tabs.some((t) => t.id === s.activeTabId) ? s.activeTabId : (tabs[0]?.id ?? 't0');
        const gone = (id: string | undefined): boolean => id !== undefined && !(id in charts);
        return { charts, tabs, activeTabId, editing: editingOn(tabs, activeTabId, s.editing), currentChartId: gone(s.currentChartId) ? undefined : s.currentChartId };
      });
    },
    movedChart(chartId, delta) {
      set((s) => ({
        tabs: s.tabs.map((t) => {
          const i = t.chartIds.indexOf(chartId);
          const j = i + delta;
          if (i < 0 || j < 0 || j >= t.chartIds.length) return t;
          const ids = [...t.chartIds];
          ids.splice(i, 1);
          ids.splice(j, 0, chartId);
          return { ...t, chartIds: ids };
        }),
      }));
    },
    resizedChart(chartId, heightPx) {
      updateChart(chartId, (c) => (c.heightPx === heightPx ? c : { ...c, heightPx }));
    },
    toggledSeries(chartId, key) {
      updateChart(chartId, (c) => ({ ...c, hidden: c.hidden.includes(key) ? c.hidden.filter((k) => k !== key) : [...c.hidden, key] }));
    },
    isolatedSeries(chartId, key, allKeys) {
      updateChart(chartId, (c) => {
        const alone = !c.hidden.includes(key) && allKeys.every((k) => k === key || c.hidden.includes(k));
        return { ...c, hidden: alone ? [] : allKeys.filter((k) => k !== key) };
      });
    },
    selectedChart(chartId) {
      if (get().currentChartId !== chartId) set({ currentChartId: chartId });
    },
    openedEditor(chartId) {
      set({ editing: chartId });
    },
    closedEditor() {
      set({ editing: undefined });
    },
    replacedLayout(tabs, charts, idSerial) {
      set({ tabs, charts, idSerial, activeTabId: tabs[0]?.id ?? 't0', editing: undefined });
    },
  };
};
