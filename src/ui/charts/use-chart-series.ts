// The hook that connects one chart to the series cache: it tells the cache which window the
// chart needs from each of its sources whenever the chart, the sources or the time change,
// and re-renders only when the cache's version for this chart moves. Live streams are not
// started here but for every chart of every tab (live-watches.ts); this reads their rows.
import { useEffect, useLayoutEffect, useMemo, useSyncExternalStore } from 'react';
import type { PlotRequest, SeriesBlock } from '../../workers/engine-types';
import { liveHub } from '../series/live-hub';
import { shiftBlock } from '../sources/time-shift';
import { seriesCache, type SeriesWish } from '../series/series-cache';
import { fetchStep } from '../series/buffered-window';
import type { ChartSpec, SourceEntry } from '../state/model';
import { MAX_POINTS } from '../state/time-slice';
import type { EngineError } from '../../workers/engine-types';
import { dash } from '../store';

/** The engine's code for a corrupt archive record (pmErrSymbol of PM_ERR_LOGREC). */
const PM_ERR_LOGREC_SYMBOL = 'PM_ERR_LOGREC';

export interface ChartWindow {
  readonly t0Ms: number;
  readonly t1Ms: number;
  readonly intervalMs: number;
  readonly anchorMs: number;
}

export interface ChartSeriesState {
  readonly blocks: ReadonlyMap<string, SeriesBlock>;
  readonly errors: readonly { readonly sourceId: string; readonly error: EngineError }[];
  /** Corrupt records met: reported to the store as the source's damage, not per chart. */
  readonly damaged: readonly { readonly sourceId: string; readonly error: EngineError }[];
  readonly loading: boolean;
}

/** Groups a chart's plots by source, in chart order (the order fetchSeries sees them). */
export function plotsBySource(chart: ChartSpec): Map<string, PlotRequest[]> {
  const out = new Map<string, PlotRequest[]>();
  for (const p of chart.plots) {
    let list = out.get(p.sourceId);
    if (!list) out.set(p.sourceId, (list = []));
    list.push(p.expr !== undefined ? { metric: p.metric, expr: p.expr, instances: p.instances } : { metric: p.metric, instances: p.instances });
  }
  return out;
}

/** True when any plot of the chart comes from a live source. */
export function isLiveChart(chart: ChartSpec, sources: readonly SourceEntry[]): boolean {
  return chart.plots.some((p) => sources.find((s) => s.id === p.sourceId)?.origin.kind === 'live');
}

/**
 * What a chart (its plots by source, plotsBySource, and its rate flag) asks of the series cache
 * for window `win`: one wish per ready archive source it plots, in the source's own time.
 */
export function archiveWishes(rate: boolean, groups: ReadonlyMap<string, readonly PlotRequest[]>, sources: readonly SourceEntry[], win: ChartWindow): { sourceId: string; wish: SeriesWish }[] {
  if (!Number.isFinite(win.t1Ms)) return [];
  const stepMs = fetchStep(win.t1Ms - win.t0Ms, win.intervalMs, MAX_POINTS);
  const out: { sourceId: string; wish: SeriesWish }[] = [];
  for (const [sourceId, plots] of groups) {
    const src = sources.find((s) => s.id === sourceId);
    if (!src || src.status !== 'ready' || src.handle === undefined || !src.summary || src.summary.kind !== 'archive') continue;
    // The engine works in the source's own time: a shifted source is asked for the window moved back.
    const off = src.offsetMs ?? 0;
    out.push({
      sourceId,
      wish: {
        handle: src.handle,
        plots,
        rate,
        visible: { t0Ms: win.t0Ms - off, t1Ms: win.t1Ms - off },
        bounds: { startMs: src.summary.startMs, endMs: src.summary.endMs },
        anchorMs: win.anchorMs - off,
        stepMs,
      },
    });
  }
  return out;
}

export function useChartSeries(chart: ChartSpec, sources: readonly SourceEntry[], win: ChartWindow): ChartSeriesState {
  const groups = useMemo(() => plotsBySource(chart), [chart]);

  // A layout effect: every chart of a grid asks before any is drawn (passive effects), and the
  // grid sends the requests at once (chart-grid.tsx), so building the charts overlaps the read.
  useLayoutEffect(() => {
    const at = { t0Ms: win.t0Ms, t1Ms: win.t1Ms, intervalMs: win.intervalMs, anchorMs: win.anchorMs };
    for (const { sourceId, wish } of archiveWishes(chart.rate, groups, sources, at)) seriesCache.want(chart.id, sourceId, wish);
  }, [chart.id, chart.rate, groups, sources, win.t0Ms, win.t1Ms, win.intervalMs, win.anchorMs]);

  useEffect(
    () => () => {
      // Live rows stay (live-watches.ts): the chart may be in a tab shown again later.
      seriesCache.drop(chart.id);
    },
    [chart.id],
  );

  // Both caches' versions only grow, so their sum changes whenever either does.
  const version = useSyncExternalStore(
    (cb) => {
      const a = seriesCache.subscribe(chart.id, cb);
      const b = liveHub.subscribe(chart.id, cb);
      return () => {
        a();
        b();
      };
    },
    () => seriesCache.version(chart.id) + liveHub.version(chart.id),
  );

  const state = useMemo((): ChartSeriesState => {
    const blocks = new Map<string, SeriesBlock>();
    const errors: { sourceId: string; error: EngineError }[] = [];
    const damaged: { sourceId: string; error: EngineError }[] = [];
    let loading = false;
    for (const sourceId of groups.keys()) {
      const l = liveHub.get(chart.id, sourceId);
      const e = l.block || l.error ? { ...l, loading: false } : seriesCache.get(chart.id, sourceId);
      const src = sources.find((x) => x.id === sourceId);
      if (e.block) blocks.set(sourceId, shiftBlock(e.block, src?.offsetMs ?? 0));
      // A source's own trouble (a lost connection) is told once, in the notification area; so
      // is a corrupt record: every chart of the source would meet it.
      if (e.error?.code === PM_ERR_LOGREC_SYMBOL) damaged.push({ sourceId, error: e.error });
      else if (e.error && src?.status === 'ready' && (src.connection === undefined || src.connection.state === 'connected')) errors.push({ sourceId, error: e.error });
      loading ||= e.loading;
    }
    return { blocks, errors, damaged, loading };
    // `version` is the cache's change signal for this chart.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version, groups, chart.id, sources]);

  useEffect(() => {
    for (const d of state.damaged) dash().metDamage(d.sourceId, d.error);
  }, [state.damaged]);
  return state;
}
