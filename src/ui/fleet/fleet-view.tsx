// A fleet tab: one metric across the picked hosts from pmproxy's /series store — one line per
// host (multi-instance metrics folded per host by sum/avg/max/min at each sample, one line per
// instance, or the top N instances at each sample), counters as rate(), over the time bar's
// window. It says plainly that these are stored samples, not libpcp-interpolated values, and
// lists the samples themselves under the chart. A host drilled into shows its Overview from
// the store instead (fleet-host-view.tsx).
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { StripCanvas, type ChartOption } from '../charts/echarts';
import { cycleColor } from '../charts/palette';
import { asEngineError, describeError, getEngine } from '../engine-client';
import type { EngineError } from '../../workers/engine-types';
import type { FleetChartAnswer } from '../../workers/fleet-api';
import { dash, useDash } from '../store';
import { PX_PER_SAMPLE } from '../state/time-slice';
import { fleetBase } from './fleet-panel';
import { FleetHeatmap } from './fleet-heatmap';
import { FleetHostView } from './fleet-host-view';
import { closeFleetTab } from './fleet-panel';
import { formatUtc, parseUtc, setFleet, useFleet, type FleetAggregate, type FleetTab } from './fleet-state';

/** Most sample rows listed per line under the chart (the chart has them all). */
const SAMPLE_ROWS = 200;

function lineLabel(host: string, name: string, hostsWithMany: boolean): string {
  return hostsWithMany && name !== '' ? `${host} ${name}` : host;
}

/** Line colours in drawing order: host by host, line by line (the legend uses the same). */
function lineColors(answer: FleetChartAnswer): string[][] {
  let n = 0;
  return answer.hosts.map((h) => h.lines.map(() => cycleColor(n++)));
}

/** The unit of what is drawn: a counter under rate() is per second. */
export function drawnUnits(h: FleetChartAnswer['hosts'][number]): string {
  const units = h.units === 'none' ? '' : h.units;
  return h.rated ? `${units || 'count'} / sec` : units;
}

/** The window a chart answers: the time bar's when the chart was asked. */
export interface FleetWindow {
  readonly startMs: number;
  readonly finishMs: number;
}

/** Whether a host's lines are named by instance (several lines, or one instance each). */
function namesInstances(h: FleetChartAnswer['hosts'][number], aggregate: FleetAggregate): boolean {
  return h.lines.length > 1 || aggregate === 'none' || aggregate === 'top';
}

function chartOption(answer: FleetChartAnswer, aggregate: FleetAggregate, win: FleetWindow, label?: (host: string, line: string) => string): ChartOption {
  const series: NonNullable<ChartOption['series']> = [];
  const colors = lineColors(answer);
  for (const [k, h] of answer.hosts.entries()) {
    const many = namesInstances(h, aggregate);
    for (const [j, l] of h.lines.entries()) {
      const data: Array<[number, number | null]> = [];
      for (let i = 0; i < l.timesMs.length; i++) data.push([l.timesMs[i], Number.isNaN(l.values[i]) ? null : l.values[i]]);
      series.push({ type: 'line', name: label ? label(h.host, l.name) : lineLabel(h.host, l.name, many), data, showSymbol: data.length < 60, symbolSize: 4, lineStyle: { width: 1.5 }, color: colors[k][j], animation: false });
    }
  }
  return {
    animation: false,
    grid: { left: 64, right: 16, top: 12, bottom: 28 },
    xAxis: { type: 'time', min: win.startMs, max: win.finishMs, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', scale: true },
    series,
  };
}

export function FleetChart({ answer, aggregate, win, label, height }: { answer: FleetChartAnswer; aggregate: FleetAggregate; win: FleetWindow; label?: (host: string, line: string) => string; height?: number }) {
  const el = useRef<HTMLDivElement>(null);
  const canvas = useRef<StripCanvas | null>(null);
  useEffect(() => {
    const div = el.current;
    if (!div) return;
    canvas.current = new StripCanvas(div);
    return () => {
      canvas.current?.dispose();
      canvas.current = null;
    };
  }, []);
  useEffect(() => {
    const div = el.current;
    if (!div || !canvas.current) return;
    canvas.current.render(chartOption(answer, aggregate, win, label), div.clientWidth, div.clientHeight);
  }, [answer, aggregate, win, label]);
  return <div ref={el} className="fleet-chart" data-testid="fleet-chart" style={height !== undefined ? { height } : undefined} />;
}

export function SamplesTable({ answer, aggregate, label }: { answer: FleetChartAnswer; aggregate: FleetAggregate; label?: (host: string, line: string) => string }) {
  return (
    <div className="fleet-samples">
      {answer.hosts.map((h) => (
        <details key={h.host} data-testid="fleet-samples" data-host={h.host} data-metric={answer.metric}>
          <summary>
            Stored samples of <b>{h.host}</b> {h.expr && <code>{h.expr}</code>} {h.rated && !h.expr.includes('rate(') && '(as rates between the samples pmproxy kept)'} {h.decimated && '(thinned to 2 per pixel)'}
          </summary>
          {h.lines.map((l) => (
            <table key={l.name}>
              <thead>
                <tr><th>time (UTC)</th><th>{label ? label(h.host, l.name) : lineLabel(h.host, l.name, namesInstances(h, aggregate))}</th></tr>
              </thead>
              <tbody>
                {Array.from({ length: Math.min(l.timesMs.length, SAMPLE_ROWS) }, (_, i) => (
                  <tr key={i} data-testid="fleet-sample" data-line={l.name} data-time-ms={l.timesMs[i]} data-value={l.values[i]}>
                    <td>{new Date(l.timesMs[i]).toISOString().slice(0, 23).replace('T', ' ')}</td>
                    <td>{l.values[i]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
        </details>
      ))}
    </div>
  );
}

export function FleetView() {
  const tab = useFleet((s) => s.tab);
  if (!tab) return null;
  return tab.drill !== undefined ? <FleetHostView tab={tab} host={tab.drill} /> : <FleetMetricView tab={tab} />;
}

/** The time bar's window (the fleet tab follows the app's one time control). */
export function useFleetWindow(): FleetWindow | undefined {
  const positionMs = useDash((s) => s.positionMs);
  const windowMs = useDash((s) => s.windowMs);
  return useMemo(() => (Number.isFinite(positionMs) && windowMs > 0 ? { startMs: positionMs - windowMs, finishMs: positionMs } : undefined), [positionMs, windowMs]);
}

/**
 * The time bar's window in UTC text, editable: a typed range is shown through the time bar
 * (dash().showedRange, within the stored history's bounds), like the range picker's.
 */
export function FleetWindowForm({ win, busy }: { win: FleetWindow | undefined; busy: boolean }) {
  // Typed text lasts until the window changes; then the fields show the new window.
  const [typed, setTyped] = useState<{ readonly win: FleetWindow | undefined; readonly from?: string; readonly to?: string }>();
  const [error, setError] = useState<EngineError>();
  const ids = { from: useId(), to: useId() };
  const own = typed?.win === win ? typed : undefined;
  const fromText = own?.from ?? (win ? formatUtc(win.startMs) : '');
  const toText = own?.to ?? (win ? formatUtc(win.finishMs) : '');
  const setFromText = (from: string): void => setTyped({ ...own, win, from });
  const setToText = (to: string): void => setTyped({ ...own, win, to });
  const apply = (): void => {
    const startMs = parseUtc(fromText);
    const finishMs = parseUtc(toText);
    if (Number.isNaN(startMs) || Number.isNaN(finishMs) || !(finishMs > startMs)) {
      setError({ code: 'EINVAL', message: `window "${fromText}" – "${toText}" is not two UTC times (YYYY-MM-DD HH:MM:SS), the first before the second`, context: 'fleet window' });
      return;
    }
    setError(undefined);
    dash().showedRange(startMs, finishMs);
  };
  return (
    <>
      <form className="fleet-bar" onSubmit={(e) => { e.preventDefault(); apply(); }}>
        <span className="muted" title="The fleet tab shows the time bar's window; the time bar's bounds are the hosts' stored history">Time bar's window:</span>
        <label htmlFor={ids.from}>From (UTC)</label>
        <input id={ids.from} type="text" data-testid="fleet-from" value={fromText} onChange={(e) => setFromText(e.target.value)} />
        <label htmlFor={ids.to}>To (UTC)</label>
        <input id={ids.to} type="text" data-testid="fleet-to" value={toText} onChange={(e) => setToText(e.target.value)} />
        <button type="submit" data-testid="fleet-apply">Show window</button>
        {busy && <span className="muted" data-testid="fleet-busy">querying pmproxy…</span>}
      </form>
      {error && <div className="fleet-error" role="alert" data-testid="fleet-window-error">{describeError(error)}</div>}
    </>
  );
}

function FleetMetricView({ tab }: { tab: FleetTab }) {
  const [glob, setGlob] = useState('');
  const [matches, setMatches] = useState<readonly string[]>([]);
  const [searchError, setSearchError] = useState<EngineError>();
  // The newest answer and what it answers: busy while the tab or window has changed since.
  const [result, setResult] = useState<{ readonly tab: FleetTab; readonly win: FleetWindow; readonly answer?: FleetChartAnswer; readonly error?: EngineError }>();
  const bodyRef = useRef<HTMLDivElement>(null);
  const win = useFleetWindow();
  const ids = { glob: useId(), agg: useId(), top: useId() };

  useEffect(() => {
    if (tab.metric === '' || !win) return;
    let live = true;
    const widthPx = Math.max(100, (bodyRef.current?.clientWidth ?? 1000) - 80);
    const aggregate = tab.aggregate === 'top' ? { topk: tab.topN } : tab.aggregate;
    getEngine()
      .fleetChart(fleetBase(), { key: 'fleet-tab', metric: tab.metric, hosts: tab.hosts, startMs: win.startMs, finishMs: win.finishMs, widthPx, pointsPerPx: 1 / PX_PER_SAMPLE, aggregate })
      .then((a) => {
        if (!live || a.cancelled) return;
        setResult({ tab, win, answer: a });
      })
      .catch((e: unknown) => {
        if (live) setResult({ tab, win, error: asEngineError(e, tab.metric) });
      });
    return () => {
      live = false;
    };
  }, [tab, win]);

  const busy = tab.metric !== '' && (result?.tab !== tab || result.win !== win);
  const answer = result?.answer;
  const update = (patch: Partial<FleetTab>): void => setFleet((s) => (s.tab ? { tab: { ...s.tab, ...patch } } : {}));
  const search = (): void => {
    setSearchError(undefined);
    const pattern = glob.includes('*') || glob.includes('?') ? glob : `*${glob}*`;
    getEngine()
      .fleetMetrics(fleetBase(), pattern)
      .then(setMatches)
      .catch((e: unknown) => setSearchError(asEngineError(e, pattern)));
  };
  const shownAggregate = result?.tab.aggregate ?? tab.aggregate;

  return (
    <div className="fleet-view" data-testid="fleet-view" ref={bodyRef}>
      <div className="fleet-bar">
        <b data-testid="fleet-tab-title">Fleet: {tab.metric || 'pick a metric'} on {tab.hosts.join(', ')}</b>
        <button type="button" className="small" data-testid="fleet-close" title="Close the fleet tab (back to the chart tabs)" onClick={closeFleetTab}>✕</button>
      </div>
      <div className="fleet-note" data-testid="fleet-note">
        Stored samples from pmproxy's series store (as pmlogger recorded them; counters as rate() between stored samples) — not values interpolated by libpcp like the archive charts.
      </div>
      <form className="fleet-bar" onSubmit={(e) => { e.preventDefault(); search(); }}>
        <label htmlFor={ids.glob}>Metric search</label>
        <input id={ids.glob} type="text" className="fleet-metric-input" data-testid="fleet-metric-search" placeholder="kernel.all.* or part of a name" value={glob} onChange={(e) => setGlob(e.target.value)} />
        <button type="submit">Search the fleet</button>
        <label htmlFor={ids.agg}>Instances per host</label>
        <select id={ids.agg} data-testid="fleet-aggregate" value={tab.aggregate} onChange={(e) => update({ aggregate: e.target.value as FleetAggregate })}>
          <option value="sum">sum</option>
          <option value="avg">avg</option>
          <option value="max">max</option>
          <option value="min">min</option>
          <option value="top">top N at each sample</option>
          <option value="none">each instance</option>
        </select>
        {tab.aggregate === 'top' && (
          <>
            <label htmlFor={ids.top}>N</label>
            <input id={ids.top} type="number" min={1} max={100} className="fleet-top-n" data-testid="fleet-top-n" value={tab.topN} onChange={(e) => { const n = Math.round(Number(e.target.value)); if (n >= 1 && n <= 100) update({ topN: n }); }} />
          </>
        )}
      </form>
      {searchError && <div className="fleet-error" role="alert">{describeError(searchError)}</div>}
      {matches.length > 0 && (
        <div className="fleet-matches" data-testid="fleet-metric-matches">
          {matches.slice(0, 200).map((m) => (
            <button key={m} type="button" className={`small${m === tab.metric ? ' current' : ''}`} data-testid="fleet-metric" data-metric={m} onClick={() => update({ metric: m })}>{m}</button>
          ))}
          {matches.length > 200 && <span className="muted">… {matches.length - 200} more: narrow the search</span>}
        </div>
      )}
      <FleetWindowForm win={win} busy={busy} />
      {result?.error && <div className="fleet-error" role="alert" data-testid="fleet-chart-error">{describeError(result.error)}</div>}
      {answer && result && tab.metric !== '' && (
        <>
          <div className="fleet-legend" data-testid="fleet-legend">
            {answer.hosts.map((h, k) => (
              <span key={h.host} data-testid="fleet-legend-host" data-host={h.host}>
                {lineColors(answer)[k].map((c, j) => <span key={j} className="fleet-swatch" style={{ background: c }} />)}
                <button type="button" className="link" data-testid="fleet-legend-drill" title={`${h.host}'s Overview from the store`} onClick={() => update({ drill: h.host })}><b>{h.host}</b></button>: {h.error ? <span className="fleet-error">{describeError(h.error)}</span> : `${h.lines.reduce((n, l) => n + l.timesMs.length, 0)} samples${h.semantics ? ` · ${h.semantics}` : ''}${drawnUnits(h) ? ` · ${drawnUnits(h)}` : ''}`}
              </span>
            ))}
          </div>
          <FleetChart answer={answer} aggregate={shownAggregate} win={result.win} />
          <FleetHeatmap answer={answer} startMs={result.win.startMs} finishMs={result.win.finishMs} />
          <SamplesTable answer={answer} aggregate={shownAggregate} />
        </>
      )}
    </div>
  );
}
