// A fleet tab: one metric across the picked hosts from pmproxy's /series store — one line per
// host (multi-instance metrics folded per host by sum/avg/max/min at each sample, or one line
// per instance), counters as rate(), over a window typed in UTC (prefilled from the time
// bar). It says plainly that these are stored samples, not libpcp-interpolated values, and
// lists the samples themselves under the chart.
import { useEffect, useId, useRef, useState } from 'react';
import { StripCanvas, type ChartOption } from '../charts/echarts';
import { cycleColor } from '../charts/palette';
import { asEngineError, describeError, getEngine } from '../engine-client';
import type { EngineError } from '../../workers/engine-types';
import type { FleetChartAnswer } from '../../workers/fleet-api';
import { useDash } from '../store';
import { fleetBase } from './fleet-panel';
import { FleetHeatmap } from './fleet-heatmap';
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
function drawnUnits(h: FleetChartAnswer['hosts'][number]): string {
  const units = h.units === 'none' ? '' : h.units;
  return h.expr.includes('rate(') ? `${units || 'count'} / sec` : units;
}

function chartOption(answer: FleetChartAnswer, tab: FleetTab): ChartOption {
  const series: NonNullable<ChartOption['series']> = [];
  const colors = lineColors(answer);
  for (const [k, h] of answer.hosts.entries()) {
    const many = h.lines.length > 1 || tab.aggregate === 'none';
    for (const [j, l] of h.lines.entries()) {
      const data: Array<[number, number | null]> = [];
      for (let i = 0; i < l.timesMs.length; i++) data.push([l.timesMs[i], Number.isNaN(l.values[i]) ? null : l.values[i]]);
      series.push({ type: 'line', name: lineLabel(h.host, l.name, many), data, showSymbol: data.length < 60, symbolSize: 4, lineStyle: { width: 1.5 }, color: colors[k][j], animation: false });
    }
  }
  return {
    animation: false,
    grid: { left: 64, right: 16, top: 12, bottom: 28 },
    xAxis: { type: 'time', min: tab.startMs, max: tab.finishMs, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', scale: true },
    series,
  };
}

function FleetChart({ answer, tab }: { answer: FleetChartAnswer; tab: FleetTab }) {
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
    canvas.current.render(chartOption(answer, tab), div.clientWidth, div.clientHeight);
  }, [answer, tab]);
  return <div ref={el} className="fleet-chart" data-testid="fleet-chart" />;
}

function SamplesTable({ answer, tab }: { answer: FleetChartAnswer; tab: FleetTab }) {
  return (
    <div className="fleet-samples">
      {answer.hosts.map((h) => (
        <details key={h.host} data-testid="fleet-samples" data-host={h.host}>
          <summary>
            Stored samples of <b>{h.host}</b> {h.expr && <code>{h.expr}</code>} {h.decimated && '(thinned to 2 per pixel)'}
          </summary>
          {h.lines.map((l) => (
            <table key={l.name}>
              <thead>
                <tr><th>time (UTC)</th><th>{lineLabel(h.host, l.name, h.lines.length > 1 || tab.aggregate === 'none')}</th></tr>
              </thead>
              <tbody>
                {Array.from({ length: Math.min(l.timesMs.length, SAMPLE_ROWS) }, (_, i) => (
                  <tr key={i} data-testid="fleet-sample" data-time-ms={l.timesMs[i]} data-value={l.values[i]}>
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
  const [glob, setGlob] = useState('');
  const [matches, setMatches] = useState<readonly string[]>([]);
  const [searchError, setSearchError] = useState<EngineError>();
  // The newest answer and the tab it answers: busy while the tab has changed since.
  const [result, setResult] = useState<{ readonly tab: FleetTab; readonly answer?: FleetChartAnswer; readonly error?: EngineError }>();
  const [windowError, setWindowError] = useState<EngineError>();
  const [fromText, setFromText] = useState(() => (tab ? formatUtc(tab.startMs) : ''));
  const [toText, setToText] = useState(() => (tab ? formatUtc(tab.finishMs) : ''));
  const bodyRef = useRef<HTMLDivElement>(null);
  const positionMs = useDash((s) => s.positionMs);
  const windowMs = useDash((s) => s.windowMs);
  const timeBarWindow = Number.isFinite(positionMs) && windowMs > 0 ? { startMs: positionMs - windowMs, finishMs: positionMs } : undefined;
  const ids = { glob: useId(), agg: useId(), from: useId(), to: useId() };

  useEffect(() => {
    if (!tab || tab.metric === '') return;
    let live = true;
    const widthPx = Math.max(100, (bodyRef.current?.clientWidth ?? 1000) - 80);
    getEngine()
      .fleetChart(fleetBase(), { key: 'fleet-tab', metric: tab.metric, hosts: tab.hosts, startMs: tab.startMs, finishMs: tab.finishMs, widthPx, aggregate: tab.aggregate })
      .then((a) => {
        if (!live || a.cancelled) return;
        setResult({ tab, answer: a });
      })
      .catch((e: unknown) => {
        if (live) setResult({ tab, error: asEngineError(e, tab.metric) });
      });
    return () => {
      live = false;
    };
  }, [tab]);

  if (!tab) return null;
  const busy = tab.metric !== '' && result?.tab !== tab;
  const answer = result?.answer;
  const chartError = windowError ?? result?.error;
  const update = (patch: Partial<FleetTab>): void => setFleet((s) => (s.tab ? { tab: { ...s.tab, ...patch } } : {}));
  const search = (): void => {
    setSearchError(undefined);
    const pattern = glob.includes('*') || glob.includes('?') ? glob : `*${glob}*`;
    getEngine()
      .fleetMetrics(fleetBase(), pattern)
      .then(setMatches)
      .catch((e: unknown) => setSearchError(asEngineError(e, pattern)));
  };
  const applyWindow = (): void => {
    const startMs = parseUtc(fromText);
    const finishMs = parseUtc(toText);
    if (Number.isNaN(startMs) || Number.isNaN(finishMs) || !(finishMs > startMs)) {
      setWindowError({ code: 'EINVAL', message: `window "${fromText}" – "${toText}" is not two UTC times (YYYY-MM-DD HH:MM:SS), the first before the second`, context: 'fleet window' });
      return;
    }
    setWindowError(undefined);
    update({ startMs, finishMs });
  };

  return (
    <div className="fleet-view" data-testid="fleet-view" ref={bodyRef}>
      <div className="fleet-bar">
        <b data-testid="fleet-tab-title">Fleet: {tab.metric || 'pick a metric'} on {tab.hosts.join(', ')}</b>
        <button type="button" className="small" data-testid="fleet-close" title="Close the fleet tab (back to the chart tabs)" onClick={() => setFleet({ tab: undefined })}>✕</button>
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
          <option value="none">each instance</option>
        </select>
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
      <form className="fleet-bar" onSubmit={(e) => { e.preventDefault(); applyWindow(); }}>
        <label htmlFor={ids.from}>From (UTC)</label>
        <input id={ids.from} type="text" data-testid="fleet-from" value={fromText} onChange={(e) => setFromText(e.target.value)} />
        <label htmlFor={ids.to}>To (UTC)</label>
        <input id={ids.to} type="text" data-testid="fleet-to" value={toText} onChange={(e) => setToText(e.target.value)} />
        <button type="submit" data-testid="fleet-apply">Show window</button>
        {timeBarWindow && (
          <button type="button" title="The window of the time bar below (the open archive's)" onClick={() => { setFromText(formatUtc(timeBarWindow.startMs)); setToText(formatUtc(timeBarWindow.finishMs)); setWindowError(undefined); update(timeBarWindow); }}>
            Time bar's window
          </button>
        )}
        {busy && <span className="muted" data-testid="fleet-busy">querying pmproxy…</span>}
      </form>
      {chartError && <div className="fleet-error" role="alert" data-testid="fleet-chart-error">{describeError(chartError)}</div>}
      {answer && tab.metric !== '' && (
        <>
          <div className="fleet-legend" data-testid="fleet-legend">
            {answer.hosts.map((h, k) => (
              <span key={h.host} data-testid="fleet-legend-host" data-host={h.host}>
                {lineColors(answer)[k].map((c, j) => <span key={j} className="fleet-swatch" style={{ background: c }} />)}
                <b>{h.host}</b>: {h.error ? <span className="fleet-error">{describeError(h.error)}</span> : `${h.lines.reduce((n, l) => n + l.timesMs.length, 0)} samples${h.semantics ? ` · ${h.semantics}` : ''}${drawnUnits(h) ? ` · ${drawnUnits(h)}` : ''}`}
              </span>
            ))}
          </div>
          <FleetChart answer={answer} tab={result?.tab ?? tab} />
          <FleetHeatmap answer={answer} startMs={(result?.tab ?? tab).startMs} finishMs={(result?.tab ?? tab).finishMs} />
          <SamplesTable answer={answer} tab={result?.tab ?? tab} />
        </>
      )}
    </div>
  );
}
