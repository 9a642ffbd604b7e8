// The handle under a chart that sets its height, as pmchart's splitter handles do: drag it
// with the pointer, or focus it and press ↑/↓ (Shift: bigger steps), Home/End for the
// smallest/largest. The height is the chart's (ChartSpec.heightPx), so it is saved with the
// dashboard in the address and restored by a reload or a link. While dragging only the
// chart's own state changes; the store gets the final height on release.
import { useRef } from 'react';
import { dash } from '../store';

/** The plot area's default height and its limits (pmchart's minimum chart is 80 px). */
export const DEFAULT_CHART_PX = 160;
export const MIN_CHART_PX = 80;
export const MAX_CHART_PX = 900;

const clamp = (px: number): number => Math.round(Math.min(MAX_CHART_PX, Math.max(MIN_CHART_PX, px)));

interface Props {
  readonly chartId: string;
  readonly title: string;
  readonly heightPx: number;
  /** The height while dragging; undefined when the drag ends. */
  readonly onDrag: (px: number | undefined) => void;
}

export function ChartResizer({ chartId, title, heightPx, onDrag }: Props) {
  const start = useRef<{ y: number; h: number; last: number } | undefined>(undefined);
  const commit = (px: number): void => dash().resizedChart(chartId, clamp(px));
  return (
    <div
      className="chart-resizer"
      role="separator"
      aria-orientation="horizontal"
      aria-label={`height of ${title}`}
      aria-valuemin={MIN_CHART_PX}
      aria-valuemax={MAX_CHART_PX}
      aria-valuenow={heightPx}
      tabIndex={0}
      title="Drag, or focus and press ↑/↓, to change the chart's height"
      data-testid="chart-resizer"
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.currentTarget.setPointerCapture(e.pointerId);
        start.current = { y: e.clientY, h: heightPx, last: heightPx };
        e.preventDefault();
      }}
      onPointerMove={(e) => {
        const s = start.current;
        if (!s) return;
        s.last = clamp(s.h + e.clientY - s.y);
        onDrag(s.last);
      }}
      onPointerUp={() => {
        const s = start.current;
        start.current = undefined;
        if (s) commit(s.last);
        onDrag(undefined);
      }}
      onPointerCancel={() => {
        start.current = undefined;
        onDrag(undefined);
      }}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 40 : 10;
        const next = e.key === 'ArrowUp' ? heightPx - step : e.key === 'ArrowDown' ? heightPx + step : e.key === 'Home' ? MIN_CHART_PX : e.key === 'End' ? MAX_CHART_PX : undefined;
        if (next === undefined) return;
        // Home/End and arrows are also time-bar keys page-wide; here they size the chart.
        e.preventDefault();
        e.stopPropagation();
        commit(next);
      }}
    />
  );
}
