// A chart's legend: one entry per series with its colour, label and value at the hovered
// time (or, when the pointer is elsewhere, at the current position). Click hides or shows a
// series (with its axis's units); double-click, or shift/alt-click, isolates it (pmchart's checkable legend buttons,
// plus isolate); isolating the series already alone shows everything again.
import { useHover } from '../store';
import { dash } from '../store';
import { formatValue } from './unit-scale';
import { valueAt, type DisplaySeries } from './chart-series';

interface Props {
  readonly chartId: string;
  readonly series: readonly DisplaySeries[];
  readonly positionMs: number;
  /** Utilization charts: show each series' share in percent (what is drawn). */
  readonly percent: boolean;
}

export function ChartLegend({ chartId, series, positionMs, percent }: Props) {
  const hoverMs = useHover((h) => h.timeMs);
  const at = hoverMs ?? positionMs;
  const keys = series.map((s) => s.key);
  return (
    <ul className="legend" data-testid="legend">
      {series.map((s) => {
        const v = valueAt(percent ? { times: s.times, values: s.drawn } : s, at);
        return (
          <li key={s.key} className={s.hidden ? 'legend-item hidden' : 'legend-item'} data-testid="legend-item" data-label={s.label}>
            <button
              type="button"
              title="Click: hide/show · Double-click or shift-click: show only this"
              aria-pressed={!s.hidden}
              onClick={(e) => {
                if (e.shiftKey || e.altKey) dash().isolatedSeries(chartId, s.key, keys);
                else if (e.detail === 1) dash().toggledSeries(chartId, s.key);
              }}
              onDoubleClick={() => {
                // The double-click's first click already toggled this series: undo that, so
                // isolating sees the legend as it was (double-clicking the series left alone
                // then shows all again instead of isolating it once more).
                dash().toggledSeries(chartId, s.key);
                dash().isolatedSeries(chartId, s.key, keys);
              }}
            >
              <span className="swatch" style={{ background: s.color }} />
              <span className="legend-label">{s.label}</span>
              <span className="legend-value" data-testid="legend-value" data-value={Number.isNaN(v) ? '' : String(v)} data-units={s.units} title={s.units}>
                {Number.isNaN(v) ? 'no value' : `${formatValue(v)}${percent ? '%' : ''}`}
              </span>
              {/* Every entry says its units (a chart may have two axes); % says it for shares. */}
              {/* Units follow a number; after "no value" they would read as part of it. */}
              {!percent && s.units && !Number.isNaN(v) && <span className="legend-units" data-testid="legend-units">{s.units}</span>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
