// One chart on screen: title bar, the ECharts canvas, drag-to-zoom, "no data" and error
// states, and the legend. Data comes from the series cache (use-chart-series.ts); full
// options are rebuilt only when data, style or zone change, while playing only the window
// moves (ChartCanvas.setWindow), which keeps frame times low with many charts.
import { useEffect, useMemo, useRef, useState } from 'react';
import { dash, setHover, useDash, useDashShallow } from '../store';
import type { ChartSpec } from '../state/model';
import type { DisplayZone } from '../time/zone';
import { shiftMs } from '../time/zone';
import { describeError } from '../engine-client';
import { ChartLegend } from './chart-legend';
import { buildOption } from './chart-option';
import { chartData } from './chart-series';
import { ChartCanvas } from './echarts';
import { isLiveChart, useChartSeries, type ChartWindow } from './use-chart-series';
import { liveHub } from '../series/live-hub';
import { chartColors, useTheme } from '../theme/theme';

interface Props {
  readonly chart: ChartSpec;
  readonly tabId: string;
  readonly win: ChartWindow;
  readonly zone: DisplayZone;
  readonly current: boolean;
}

function unshift(x: number, zone: DisplayZone): number {
  return x - zone.offsetMinutes(x) * 60_000;
}

export function ChartView({ chart, tabId, win: archiveWin, zone, current }: Props) {
  const sources = useDash((s) => s.sources);
  const live = useDashShallow((s) => ({ intervalMs: s.liveIntervalMs, historyMs: s.liveHistoryMs, paused: s.livePaused }));
  const isLive = isLiveChart(chart, sources);
  const { blocks, errors, loading } = useChartSeries(chart, sources, archiveWin, live);
  // A live chart ends at the newest frame and shows the chosen history.
  const liveEnd = liveHub.latestMs;
  const win = isLive ? { ...archiveWin, t0Ms: liveEnd - live.historyMs, t1Ms: liveEnd } : archiveWin;
  const hosts = useMemo(() => new Map(sources.map((s) => [s.id, s.summary?.hostname ?? ''])), [sources]);
  const data = useMemo(() => chartData(chart, blocks, hosts), [chart, blocks, hosts]);
  const el = useRef<HTMLDivElement>(null);
  const canvas = useRef<ChartCanvas | null>(null);
  const winRef = useRef(win);
  useEffect(() => {
    winRef.current = win;
  });
  const [drag, setDrag] = useState<{ x0: number; x1: number } | null>(null);

  useEffect(() => {
    if (!el.current) return;
    const c = new ChartCanvas(el.current, tabId);
    canvas.current = c;
    c.onPointer((x) => setHover(x === undefined ? { timeMs: undefined, chartId: undefined } : { timeMs: unshift(x, zone), chartId: chart.id }));
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      c.dispose();
      canvas.current = null;
    };
    // The canvas lives as long as the chart; zone changes rebuild options below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tabId, chart.id]);

  const theme = useTheme();
  useEffect(() => {
    const w = winRef.current;
    canvas.current?.setOption(buildOption({ data, style: chart.style, yScale: chart.yScale, zone, t0Ms: w.t0Ms, t1Ms: w.t1Ms, colors: chartColors(theme) }));
  }, [data, chart.style, chart.yScale, zone, theme]);

  useEffect(() => {
    canvas.current?.setWindow(shiftMs(win.t0Ms, zone), shiftMs(win.t1Ms, zone));
  }, [win.t0Ms, win.t1Ms, zone]);

  const title = chart.title.replace(/%h/g, [...new Set(chart.plots.map((p) => (hosts.get(p.sourceId) ?? '').split('.')[0]))].filter(Boolean).join(','));
  const visibleData = data.series.some((s) => !s.hidden && hasValueIn(s.times, s.values, win.t0Ms, win.t1Ms));
  const overlay = chart.plots.length === 0
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

  return (
    <section className={current ? 'chart current' : 'chart'} data-testid="chart" data-chart-id={chart.id} data-title={title} onPointerDownCapture={() => dash().selectedChart(chart.id)}>
      <header className="chart-head">
        <h3 data-testid="chart-title">{title || 'Untitled chart'}</h3>
        <div className="chart-tools">
          {loading && <span className="spinner" aria-label="loading" />}
          <button type="button" title="Move up" onClick={() => dash().movedChart(chart.id, -1)}>↑</button>
          <button type="button" title="Move down" onClick={() => dash().movedChart(chart.id, 1)}>↓</button>
          <button type="button" title="Edit chart" data-testid="edit-chart" onClick={() => dash().openedEditor(chart.id)}>Edit</button>
          <button type="button" title="Close chart" data-testid="close-chart" onClick={() => dash().removedChart(chart.id)}>✕</button>
        </div>
      </header>
      <div
        className="chart-body"
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          const x = pointerX(e);
          setDrag({ x0: x, x1: x });
        }}
        onPointerMove={(e) => drag && setDrag({ ...drag, x1: pointerX(e) })}
        onPointerUp={(e) => {
          if (!drag || !canvas.current) return setDrag(null);
          const x1 = pointerX(e);
          setDrag(null);
          if (Math.abs(x1 - drag.x0) < 5) return;
          const y = (el.current?.clientHeight ?? 0) / 2;
          const a = canvas.current.pixelToX(Math.min(drag.x0, x1), y);
          const b = canvas.current.pixelToX(Math.max(drag.x0, x1), y);
          if (Number.isFinite(a) && Number.isFinite(b)) dash().zoomedTo(unshift(a, zone), unshift(b, zone));
        }}
        onPointerLeave={() => setDrag(null)}
      >
        <div className="chart-canvas" ref={el} data-testid="chart-canvas" />
        {drag && Math.abs(drag.x1 - drag.x0) >= 5 && <div className="zoom-band" style={{ left: Math.min(drag.x0, drag.x1), width: Math.abs(drag.x1 - drag.x0) }} />}
        {overlay && <div className="chart-overlay" data-testid="chart-overlay">{overlay}</div>}
      </div>
      {(data.problems.length > 0 || errors.length > 0) && (
        <ul className="chart-problems" data-testid="chart-problems">
          {data.problems.map((p) => <li key={p.plotId}>{p.text}</li>)}
          {errors.map((e) => <li key={e.sourceId}>{describeError(e.error)}</li>)}
        </ul>
      )}
      {chart.legend && <ChartLegend chartId={chart.id} series={data.series} positionMs={win.t1Ms} units={data.scale.label} percent={chart.style === 'utilization'} />}
    </section>
  );
}

function hasValueIn(times: Float64Array, values: Float64Array, t0: number, t1: number): boolean {
  for (let i = 0; i < times.length; i++) {
    const t = times[i] ?? NaN;
    if (t >= t0 && t <= t1 && !Number.isNaN(values[i] ?? NaN)) return true;
  }
  return false;
}
