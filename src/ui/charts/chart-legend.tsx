// A chart's legend: one entry per series with its colour, label and value at the hovered
// time (or, when the pointer is elsewhere, at the current position). Click hides or shows a
// series (with its axis's units); double-click, or shift/alt-click, isolates it (pmchart's checkable legend buttons,
// plus isolate); isolating the series already alone shows everything again.
import { memo } from 'react';
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
  // One string, the same while the series are: entries re-render only when what they show changes.
  const keys = JSON.stringify(series.map((s) => s.key));
  return (
    <ul className="legend" data-testid="legend">
      {series.map((s) => {
        const v = valueAt(percent ? { times: s.times, values: s.drawn } : s, at);
        return <LegendEntry key={s.key} chartId={chartId} seriesKey={s.key} allKeys={keys} label={s.label} color={s.color} hidden={s.hidden} units={s.units} value={v} percent={percent} />;
      })}
    </ul>
  );
}

interface EntryProps {
  readonly chartId: string;
  readonly seriesKey: string;
  /** Every series key of the chart, as JSON (isolating reads them). */
  readonly allKeys: string;
  readonly label: string;
  readonly color: string;
  readonly hidden: boolean;
  readonly units: string;
  readonly value: number;
  readonly percent: boolean;
}

/**
 * One entry, memoized on what it shows: a live sample re-renders the entries whose value
 * changed, not every entry's button and handlers of every chart.
 */
const LegendEntry = memo(function LegendEntry({ chartId, seriesKey, allKeys, label, color, hidden, units, value: v, percent }: EntryProps) {
  const keys = (): string[] => JSON.parse(allKeys) as string[];
  return (
    <li className={hidden ? 'legend-item hidden' : 'legend-item'} data-testid="legend-item" data-label={label}>
      <button
        type="button"
        title="Click: hide/show · Double-click or shift-click: show only this"
        aria-pressed={!hidden}
        onClick={(e) => {
          if (e.shiftKey || e.altKey) dash().isolatedSeries(chartId, seriesKey, keys());
          else if (e.detail === 1) dash().toggledSeries(chartId, seriesKey);
        }}
        onDoubleClick={() => {
          // The double-click's first click already toggled this series: undo that, so
          // isolating sees the legend as it was (double-clicking the series left alone
          // then shows all again instead of isolating it once more).
          dash().toggledSeries(chartId, seriesKey);
          dash().isolatedSeries(chartId, seriesKey, keys());
        }}
      >
        <span className="swatch" style={{ background: color }} />
        <span className="legend-label">{label}</span>
        <span className="legend-value" data-testid="legend-value" data-value={Number.isNaN(v) ? '' : String(v)} data-units={units} title={units}>
          {Number.isNaN(v) ? 'no value' : `${formatValue(v)}${percent ? '%' : ''}`}
        </span>
        {/* Every entry says its units (a chart may have two axes); % says it for shares. */}
        {/* Units follow a number; after "no value" they would read as part of it. */}
        {!percent && units && !Number.isNaN(v) && <span className="legend-units" data-testid="legend-units">{units}</span>}
      </button>
    </li>
  );
});
