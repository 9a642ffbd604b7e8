// One chart on screen: title bar, the plot (plot-surface.ts: a sliding ECharts strip with a
// DOM y axis), the shared crosshair and the tooltip (chart-hover.tsx), drag-to-zoom, "no
// data" and error states, and the legend. Data comes from the series cache
// (use-chart-series.ts). Content changes redraw the strip through the frame loop; moving the
// window only slides it, which keeps frame times low with many charts while playing.
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { dash, setHover, useDash } from '../store';
import type { ChartSpec } from '../state/model';
import type { DisplayZone } from '../time/zone';
import { describeError } from '../engine-client';
import { ChartLegend } from './chart-legend';
import { ChartStatsTable } from './chart-stats-table';
import { HeatmapPlot } from './heatmap-plot';
import { EMPTY_STATS, seriesStats, topSeriesKeys } from './window-stats';
import { chartData, hasValueIn, nearestIndex, sourceFacts } from './chart-series';
import { reportShownColors } from './shown-colors';
import { ChartTooltip, Crosshair } from './chart-hover';
import { PlotSurface } from './plot-surface';
import { isLiveChart, useChartSeries, type ChartWindow } from './use-chart-series';
import { ChartResizer, DEFAULT_CHART_PX } from './chart-resizer';
import { takeReveal } from './reveal';
import { chartColors, useTheme } from '../theme/theme';
import type { SeriesBlock } from '../../workers/engine-types';
import './charts.css';

interface Props {
  readonly chart: ChartSpec;
  readonly tabId: string;
  /** The tab's x range (every chart of a tab shows the same one). */
  readonly win: ChartWindow;
  /** The archive window to fetch for archive plots. */
  readonly fetchWin: ChartWindow;
  readonly zone: DisplayZone;
  readonly current: boolean;
}

/** The time range the blocks cover (epoch ms); NaN when there are none. */
function blocksRange(blocks: ReadonlyMap<string, SeriesBlock>): { t0Ms: number; t1Ms: number } {
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const b of blocks.values()) {
    const n = b.timestamps.length;
    if (n === 0) continue;
    t0 = Math.min(t0, b.timestamps[0] ?? Infinity);
    t1 = Math.max(t1, b.timestamps[n - 1] ?? -Infinity);
  }
  return t0 <= t1 ? { t0Ms: t0, t1Ms: t1 } : { t0Ms: NaN, t1Ms: NaN };
}

/** The title bar, memoized: a live sample changes nothing in it, so its buttons are not rendered again. */
const ChartHead = memo(function ChartHead({ chartId, title, legendTable }: { chartId: string; title: string; legendTable: boolean }) {
  return (
    <header className="chart-head">
      <h3 data-testid="chart-title">{title || 'Untitled chart'}</h3>
      <div className="chart-tools">
        <button type="button" title="Move up" onClick={() => dash().movedChart(chartId, -1)}>↑</button>
        <button type="button" title="Move down" onClick={() => dash().movedChart(chartId, 1)}>↓</button>
        <button type="button" title={legendTable ? 'Legend as a list' : 'Legend as a table: min, max, avg and last over the window, sortable'} data-testid="legend-table-toggle" aria-pressed={legendTable} onClick={() => dash().changedChart(chartId, { legendTable: !legendTable, legend: true })}>Σ</button>
        <button type="button" title="Edit chart" data-testid="edit-chart" onClick={() => dash().openedEditor(chartId)}>Edit</button>
        <button type="button" title="Close chart" data-testid="close-chart" onClick={() => dash().removedChart(chartId)}>✕</button>
      </div>
    </header>
  );
});

export function ChartView({ chart, win, fetchWin, zone, current }: Props) {
  const sources = useDash((s) => s.sources);
  const { blocks, errors, loading } = useChartSeries(chart, sources, fetchWin);
  const hosts = useMemo(() => new Map(sources.map((s) => [s.id, s.summary?.hostname ?? ''])), [sources]);
  const facts = useMemo(() => sourceFacts(chart, sources), [chart, sources]);
  const full = useMemo(() => chartData(chart, blocks, hosts, facts), [chart, blocks, hosts, facts]);
  const percent = chart.style === 'utilization';
  const heatmap = chart.style === 'heatmap';
  // Statistics over the visible window, only when the table or the top-N filter needs them.
  const stats = useMemo(() => (chart.legendTable || chart.topN ? seriesStats(full.series, win.t0Ms, win.t1Ms, percent) : EMPTY_STATS), [chart.legendTable, chart.topN, full, win.t0Ms, win.t1Ms, percent]);
  const kept = useMemo(() => (chart.topN ? topSeriesKeys(full.series, stats, chart.topN) : undefined), [chart.topN, full, stats]);
  // The same object while the top N stay the same, so moving the window redraws nothing new.
  const keptSignature = kept ? [...kept].sort().join('\0') : '';
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const data = useMemo(() => (kept ? { ...full, series: full.series.filter((x) => kept.has(x.key)) } : full), [full, keptSignature]);
  useEffect(() => {
    reportShownColors(chart.id, full.series.map((x) => ({ plotId: x.plotId, inst: x.key.slice(x.key.indexOf('\u0000') + 1), color: x.color })));
  }, [chart.id, full.series]);
  useEffect(() => () => reportShownColors(chart.id, []), [chart.id]);
  const range = useMemo(() => blocksRange(blocks), [blocks]);
  const el = useRef<HTMLDivElement>(null);
  const [surface, setSurface] = useState<PlotSurface | null>(null);
  const [drag, setDrag] = useState<{ x0: number; x1: number } | null>(null);
  /** The height while the resize handle is dragged (committed to the chart on release). */
  const [height, setHeight] = useState<number | undefined>();
  const theme = useTheme();
  const colors = chartColors(theme);

  useEffect(() => {
    if (!el.current) return;
    const s = new PlotSurface(el.current);
    setSurface(s);
    const ro = new ResizeObserver(() => s.resize());
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      s.dispose();
      setSurface(null);
    };
  }, []);

  // A chart the user just made (reveal.ts) is brought into view.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (takeReveal(chart.id)) section.current?.scrollIntoView({ block: 'nearest' });
  });

  const liveChart = useMemo(() => isLiveChart(chart, sources), [chart, sources]);
  const empty = chart.plots.length === 0;
  const visibleData = data.series.some((s) => !s.hidden && hasValueIn(s, win.t0Ms, win.t1Ms));
  // No values to scale (no metrics, or none in the window under an automatic scale): no y axis
  // made up for them (a 0–1 scale with grid lines); a fixed or percent scale is the user's, kept.
  const bare = empty || (!visibleData && !heatmap && !percent && chart.yScale.mode === 'auto');
  useEffect(() => {
    // A heatmap draws itself (heatmap-plot.tsx); the strip under it stays empty.
    surface?.setContent({ data: heatmap ? { ...data, series: [] } : data, style: heatmap ? 'line' : chart.style, yScale: chart.yScale, zone, colors, dataT0Ms: range.t0Ms, dataT1Ms: range.t1Ms, live: liveChart, empty: bare });
  }, [surface, data, heatmap, chart.style, chart.yScale, zone, colors, range, liveChart, bare]);

  // Layout effect: the strip slides in the same frame as the position changes.
  useLayoutEffect(() => {
    surface?.setWindow(win.t0Ms, win.t1Ms);
  }, [surface, win.t0Ms, win.t1Ms]);

  const title = chart.title.replace(/%h/g, [...new Set(chart.plots.map((p) => (hosts.get(p.sourceId) ?? '').split('.')[0]))].filter(Boolean).join(','));
  const overlay = empty
    ? 'No metrics yet: add some from the metric browser'
    : !visibleData && !loading && blocks.size > 0
      ? 'No data in this time window'
      : !visibleData && loading
        ? 'Loading…'
        : undefined;

  const pointerX = (e: React.PointerEvent): number => {
    const r = el.current?.getBoundingClientRect();
    return r ? e.clientX - r.left : 0;
  };
  /** The hovered time, snapped to the nearest sample of the chart's first visible series. */
  const hoverAt = (x: number): number | undefined => {
    const t = surface?.timeAt(x) ?? NaN;
    if (!Number.isFinite(t)) return undefined;
    const s = data.series.find((x) => !x.hidden);
    const i = s ? nearestIndex(s.times, t) : -1;
    const snapped = s && i >= 0 ? (s.times[i] ?? t) : t;
    return snapped >= win.t0Ms && snapped <= win.t1Ms ? snapped : t;
  };

  // data-window-start/end: the visible window (epoch ms) in the DOM, as the time bar's
  // data-position is; a live tab has no DOM time axis to read it from.
  return (
    <section ref={section} className={current ? 'chart current' : 'chart'} data-testid="chart" data-chart-id={chart.id} data-title={title} data-style={chart.style} data-window-start={win.t0Ms} data-window-end={win.t1Ms} onPointerDownCapture={() => dash().selectedChart(chart.id)} onFocusCapture={() => dash().selectedChart(chart.id)}>
      <ChartHead chartId={chart.id} title={title} legendTable={chart.legendTable === true} />
      <div
        className="chart-body"
        data-testid="chart-body"
        style={{ height: height ?? chart.heightPx ?? DEFAULT_CHART_PX }}
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          const x = pointerX(e);
          setDrag({ x0: x, x1: x });
        }}
        onPointerMove={(e) => {
          const x = pointerX(e);
          if (drag) setDrag({ ...drag, x1: x });
          const t = hoverAt(x);
          setHover(t === undefined ? { timeMs: undefined, chartId: undefined } : { timeMs: t, chartId: chart.id });
        }}
        onPointerUp={(e) => {
          if (!drag || !surface) return setDrag(null);
          const x1 = pointerX(e);
          setDrag(null);
          if (Math.abs(x1 - drag.x0) < 5) return;
          const area = surface.plotArea();
          const clamp = (x: number): number => Math.min(area.left + area.width, Math.max(area.left, x));
          const a = surface.timeAt(clamp(Math.min(drag.x0, x1)));
          const b = surface.timeAt(clamp(Math.max(drag.x0, x1)));
          if (!Number.isFinite(a) || !Number.isFinite(b)) return;
          dash().zoomedTo(a, b);
          // The time under the pointer was the old window's: it is read again at the next move.
          setHover({ timeMs: undefined, chartId: undefined });
        }}
        onPointerLeave={() => {
          setDrag(null);
          setHover({ timeMs: undefined, chartId: undefined });
        }}
      >
        <div className="chart-canvas" ref={el} data-testid="chart-canvas" />
        <Crosshair surface={surface} t0Ms={win.t0Ms} t1Ms={win.t1Ms} color={colors.pointer} />
        {drag && Math.abs(drag.x1 - drag.x0) >= 5 && <div className="zoom-band" data-testid="zoom-band" style={{ left: Math.min(drag.x0, drag.x1), width: Math.abs(drag.x1 - drag.x0) }} />}
        {loading && <div className="spinner" role="progressbar" aria-label="loading" data-testid="chart-loading" />}
        {overlay && <div className={empty ? 'chart-overlay empty' : 'chart-overlay'} data-testid="chart-overlay"><span className="chart-overlay-text">{overlay}</span></div>}
        {heatmap && <HeatmapPlot chart={chart} series={data.series} t0Ms={win.t0Ms} t1Ms={win.t1Ms} zone={zone} />}
        {!heatmap && <ChartTooltip chartId={chart.id} surface={surface} series={data.series} percent={chart.style === 'utilization'} zone={zone} t0Ms={win.t0Ms} t1Ms={win.t1Ms} />}
      </div>
      {(data.problems.length > 0 || errors.length > 0) && (
        <ul className="chart-problems" data-testid="chart-problems">
          {data.problems.map((p) => <li key={p.plotId}>{p.text}</li>)}
          {errors.map((e) => <li key={e.sourceId}>{describeError(e.error)}</li>)}
        </ul>
      )}
      {chart.legend && !heatmap && !chart.legendTable && <ChartLegend chartId={chart.id} series={data.series} positionMs={win.t1Ms} percent={percent} />}
      {chart.legend && !heatmap && chart.legendTable && <ChartStatsTable chart={chart} series={data.series} stats={stats} positionMs={win.t1Ms} percent={percent} filtered={full.series.length - data.series.length} />}
      <ChartResizer chartId={chart.id} title={title || 'Untitled chart'} heightPx={chart.heightPx ?? DEFAULT_CHART_PX} onDrag={setHeight} />
    </section>
  );
}
