// The legend as a table (issue 14 item 4; pmchart's "Selected Metric Details" as a Grafana
// legend table): one row per series — instance, and host when the chart draws from several —
// with its value at the cursor (the hovered time, else the position) and its min, max, avg
// and last over the visible window (window-stats.ts: time-weighted for rates), sortable by
// any column. The header also sets the chart's top-N filter. Rows keep the legend's test ids
// and clicks: hide/show, and isolate with a double or shift click.
import { useState } from 'react';
import { dash, useHover } from '../store';
import type { ChartSpec } from '../state/model';
import { valueAt, type DisplaySeries } from './chart-series';
import { formatValue } from './unit-scale';
import type { StatKey, WindowStats } from './window-stats';

interface Props {
  readonly chart: ChartSpec;
  readonly series: readonly DisplaySeries[];
  readonly stats: ReadonlyMap<string, WindowStats>;
  readonly positionMs: number;
  readonly percent: boolean;
  /** Series the top-N filter leaves out, counted under the table. */
  readonly filtered: number;
}

const COLUMNS: readonly { readonly key: StatKey; readonly label: string; readonly title: string }[] = [
  { key: 'value', label: 'Value', title: 'At the cursor (or the position)' },
  { key: 'min', label: 'Min', title: 'Smallest over the visible window' },
  { key: 'max', label: 'Max', title: 'Largest over the visible window' },
  { key: 'avg', label: 'Avg', title: 'Average over the visible window (time-weighted for rates)' },
  { key: 'last', label: 'Last', title: 'Last value in the visible window' },
];

const TOP_CHOICES = ['all', '3:avg', '3:max', '5:avg', '5:max', '10:avg', '10:max'] as const;

function topChoice(chart: ChartSpec): string {
  return chart.topN ? `${chart.topN.n}:${chart.topN.by}` : 'all';
}

export function ChartStatsTable({ chart, series, stats, positionMs, percent, filtered }: Props) {
  const hoverMs = useHover((h) => h.timeMs);
  const at = hoverMs ?? positionMs;
  const [sort, setSort] = useState<{ key: StatKey | 'label'; desc: boolean }>({ key: 'label', desc: false });
  const keys = series.map((s) => s.key);
  const rows = series.map((s) => {
    const st = stats.get(s.key);
    const value = valueAt(percent ? { times: s.times, values: s.drawn } : s, at);
    return { s, cells: { value, min: st?.min ?? NaN, max: st?.max ?? NaN, avg: st?.avg ?? NaN, last: st?.last ?? NaN } };
  });
  if (sort.key !== 'label') {
    const k = sort.key;
    // Missing values sort last either way.
    rows.sort((a, b) => {
      const x = a.cells[k];
      const y = b.cells[k];
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
      return sort.desc ? y - x : x - y;
    });
  } else if (sort.desc) rows.reverse();
  const sortBy = (key: StatKey | 'label'): void => setSort((s) => ({ key, desc: s.key === key ? !s.desc : key !== 'label' }));
  const aria = (key: StatKey | 'label'): 'ascending' | 'descending' | 'none' => (sort.key === key ? (sort.desc ? 'descending' : 'ascending') : 'none');
  const suffix = percent ? '%' : '';
  return (
    <div className="legend-table-wrap">
      <table className="legend-table" data-testid="legend-table">
        <thead>
          <tr>
            <th aria-sort={aria('label')}>
              <button type="button" data-testid="sort-label" onClick={() => sortBy('label')}>Series</button>
            </th>
            {COLUMNS.map((c) => (
              <th key={c.key} aria-sort={aria(c.key)} title={c.title}>
                <button type="button" data-testid={`sort-${c.key}`} onClick={() => sortBy(c.key)}>
                  {c.label}
                  {sort.key === c.key ? (sort.desc ? ' ▾' : ' ▴') : ''}
                </button>
              </th>
            ))}
            <th>
              <select aria-label="top instances" data-testid="top-n" value={topChoice(chart)} onChange={(e) => {
                const [n, by] = e.target.value.split(':');
                dash().changedChart(chart.id, { topN: e.target.value === 'all' ? undefined : { n: Number(n), by: by === 'max' ? 'max' : 'avg' } });
              }}>
                {TOP_CHOICES.map((c) => <option key={c} value={c}>{c === 'all' ? 'all instances' : `top ${c.replace(':', ' by ')}`}</option>)}
              </select>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ s, cells }) => (
            <tr key={s.key} className={s.hidden ? 'legend-item hidden' : 'legend-item'} data-testid="legend-item" data-label={s.label}>
              <td>
                <button
                  type="button"
                  className="legend-row-toggle"
                  title="Click: hide/show · Double-click or shift-click: show only this"
                  aria-pressed={!s.hidden}
                  onClick={(e) => {
                    if (e.shiftKey || e.altKey) dash().isolatedSeries(chart.id, s.key, keys);
                    else if (e.detail === 1) dash().toggledSeries(chart.id, s.key);
                  }}
                  onDoubleClick={() => {
                    dash().toggledSeries(chart.id, s.key);
                    dash().isolatedSeries(chart.id, s.key, keys);
                  }}
                >
                  <span className="swatch" style={{ background: s.color }} />
                  <span className="legend-label">{s.label}</span>
                </button>
              </td>
              {COLUMNS.map((c) => {
                const v = cells[c.key];
                return (
                  <td key={c.key} className="num" data-testid={c.key === 'value' ? 'legend-value' : `stat-${c.key}`} data-value={Number.isNaN(v) ? '' : String(v)} data-units={s.units}>
                    {Number.isNaN(v) ? '–' : `${formatValue(v)}${suffix}`}
                  </td>
                );
              })}
              <td className="units">{percent ? '%' : s.units}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {filtered > 0 && <div className="legend-filtered" data-testid="legend-filtered">{filtered} more instance{filtered === 1 ? '' : 's'} not in the top {chart.topN?.n} by {chart.topN?.by} over the window</div>}
    </div>
  );
}
