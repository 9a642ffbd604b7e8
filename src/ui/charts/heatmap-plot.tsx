// The heatmap chart style (issue 14 item 5): a multi-instance metric as instances × time,
// each cell coloured by the largest (or the mean) sample of that instance in its time column,
// with the scale and the aggregation named under it. Columns are bounded by the pixels of the
// plot area (never narrower than MIN_CELL_PX) and by the samples in the window (one column per
// sample at most), over the same plot area as the other charts, so the tab's time axis and
// the shared crosshair line up. Hovering a cell names its instance, time span and value.
import { useEffect, useMemo, useRef, useState } from 'react';
import { dash } from '../store';
import type { ChartSpec } from '../state/model';
import { formatClock, type DisplayZone } from '../time/zone';
import type { DisplaySeries } from './chart-series';
import { PLOT_LEFT, PLOT_RIGHT, STRIP_BOTTOM, STRIP_TOP } from './chart-option';
import { heatmapRange, heatmapRows, heatShade, type CellAggregation } from './heatmap-cells';
import { formatValue } from './unit-scale';

/** The narrowest cell drawn, in CSS px. */
const MIN_CELL_PX = 4;

interface Props {
  readonly chart: ChartSpec;
  readonly series: readonly DisplaySeries[];
  readonly t0Ms: number;
  readonly t1Ms: number;
  readonly zone: DisplayZone;
}

/** Samples of `times` within [t0, t1]. */
function samplesIn(times: Float64Array, t0: number, t1: number): number {
  let n = 0;
  for (const t of times) if (t >= t0 && t <= t1) n++;
  return n;
}

export function HeatmapPlot({ chart, series, t0Ms, t1Ms, zone }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ w: 0, h: 0 });
  const [hover, setHover] = useState<{ row: number; col: number } | undefined>();
  const agg: CellAggregation = chart.heatmapAgg ?? 'max';
  const shown = useMemo(() => series.filter((s) => !s.hidden), [series]);

  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    setSize({ w: el.clientWidth, h: el.clientHeight });
    return () => ro.disconnect();
  }, []);

  const plotW = Math.max(1, size.w - PLOT_LEFT - PLOT_RIGHT);
  const plotH = Math.max(1, size.h - STRIP_TOP - STRIP_BOTTOM);
  const samples = shown[0] ? samplesIn(shown[0].times, t0Ms, t1Ms) : 0;
  const columns = Math.max(1, Math.min(Math.floor(plotW / MIN_CELL_PX), samples || 1));
  const rows = useMemo(() => heatmapRows(shown.map((s) => ({ host: s.label, lines: [{ timesMs: s.times, values: s.values }] })), t0Ms, t1Ms, columns, agg), [shown, t0Ms, t1Ms, columns, agg]);
  const range = heatmapRange(rows);
  const rowH = rows.length > 0 ? plotH / rows.length : plotH;

  useEffect(() => {
    const c = canvas.current;
    const g = c?.getContext('2d');
    if (!c || !g) return;
    const ratio = window.devicePixelRatio || 1;
    c.width = Math.round(plotW * ratio);
    c.height = Math.round(plotH * ratio);
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, plotW, plotH);
    if (!range) return;
    rows.forEach((r, i) => {
      const n = r.cells.length;
      for (let col = 0; col < n; col++) {
        const v = r.cells[col] ?? NaN;
        if (Number.isNaN(v)) continue;
        g.fillStyle = heatShade(range[1] > range[0] ? (v - range[0]) / (range[1] - range[0]) : 0.5);
        const x0 = Math.floor((col / n) * plotW);
        const x1 = Math.floor(((col + 1) / n) * plotW);
        g.fillRect(x0, Math.floor(i * rowH), Math.max(1, x1 - x0), Math.max(1, Math.ceil(rowH) - 1));
      }
    });
  }, [rows, range, plotW, plotH, rowH]);

  const cellSpan = (col: number): [number, number] => [t0Ms + ((t1Ms - t0Ms) * col) / columns, t0Ms + ((t1Ms - t0Ms) * (col + 1)) / columns];
  const hovered = hover && rows[hover.row] ? { row: rows[hover.row], value: rows[hover.row]?.cells[hover.col] ?? NaN, span: cellSpan(hover.col) } : undefined;
  const units = shown[0]?.units ?? '';

  return (
    <div className="heatmap" data-testid="heatmap" data-columns={columns} data-rows={rows.length} data-agg={agg}>
      <div
        className="heatmap-area"
        ref={wrap}
        onPointerMove={(e) => {
          const r = wrap.current?.getBoundingClientRect();
          if (!r) return;
          const x = e.clientX - r.left - PLOT_LEFT;
          const y = e.clientY - r.top - STRIP_TOP;
          if (x < 0 || x >= plotW || y < 0 || y >= plotH || rows.length === 0) return setHover(undefined);
          setHover({ row: Math.min(rows.length - 1, Math.floor(y / rowH)), col: Math.min(columns - 1, Math.floor((x / plotW) * columns)) });
        }}
        onPointerLeave={() => setHover(undefined)}
      >
        <div className="heatmap-labels" style={{ top: STRIP_TOP, width: PLOT_LEFT - 4, height: plotH }}>
          {rows.map((r, i) => (
            <div key={r.host} className="heatmap-label" data-testid="heatmap-row" data-label={r.host} title={r.host} style={{ height: rowH, lineHeight: `${rowH}px` }}>
              {(shown[i]?.key.split('\u0000')[1] ?? '') || r.host}
            </div>
          ))}
        </div>
        <canvas ref={canvas} className="heatmap-canvas" style={{ left: PLOT_LEFT, top: STRIP_TOP, width: plotW, height: plotH }} />
        {hovered && (
          <div className="chart-tooltip heatmap-tooltip" data-testid="heatmap-tooltip" data-label={hovered.row?.host} data-value={Number.isNaN(hovered.value) ? '' : String(hovered.value)} data-t0={hovered.span[0]} data-t1={hovered.span[1]} style={{ left: PLOT_LEFT + 8, top: STRIP_TOP }}>
            <div>
              <b>{hovered.row?.host}</b>
            </div>
            <div>
              {formatClock(hovered.span[0], zone)} – {formatClock(hovered.span[1], zone)}
            </div>
            <div>
              {agg === 'max' ? 'largest sample' : 'mean of the samples'}: {Number.isNaN(hovered.value) ? 'no value' : `${formatValue(hovered.value)} ${units}`}
            </div>
          </div>
        )}
      </div>
      <div className="heatmap-scale" data-testid="heatmap-scale" data-lo={range ? formatValue(range[0]) : ''} data-hi={range ? formatValue(range[1]) : ''} data-units={units}>
        <label>
          cell:{' '}
          <select aria-label="heatmap cell aggregation" data-testid="heatmap-agg" value={agg} onChange={(e) => dash().changedChart(chart.id, { heatmapAgg: e.target.value === 'avg' ? 'avg' : 'max' })}>
            <option value="max">largest sample</option>
            <option value="avg">mean of the samples</option>
          </select>
        </label>
        <span>
          {' '}in each of {columns} columns{range ? ' · ' : ''}
          {range && (
            <>
              <span className="swatch" style={{ background: heatShade(0) }} /> {formatValue(range[0])} … <span className="swatch" style={{ background: heatShade(1) }} /> {formatValue(range[1])} {units}
            </>
          )}
        </span>
      </div>
    </div>
  );
}
