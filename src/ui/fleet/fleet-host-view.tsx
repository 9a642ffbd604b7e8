// A host drilled into from the fleet: its Overview (pmchart's Overview view, as the core's
// standard views define it — the one the app lays out for an opened source) drawn from the
// store's stored samples over the time bar's window, one chart per Overview chart, one line
// per metric instance, counters as rate(). Metrics the store has no series of for the host
// are named, not drawn. Values are pmproxy's stored samples, never interpolated.
import { useEffect, useRef, useState } from 'react';
import { cycleColor } from '../charts/palette';
import { asEngineError, describeError, getEngine } from '../engine-client';
import type { ViewInstances } from '../../pcp-core/views/view-model';
import type { EngineError } from '../../workers/engine-types';
import type { FleetChartAnswer, FleetChartHost } from '../../workers/fleet-api';
import { PX_PER_SAMPLE } from '../state/time-slice';
import { fleetBase } from './fleet-panel';
import { setFleet, type FleetTab } from './fleet-state';
import { FleetChart, FleetWindowForm, SamplesTable, drawnUnits, useFleetWindow, type FleetWindow } from './fleet-view';

/** One Overview chart: its title and each plot's metric with the legend pmchart gives it. */
interface OverviewPlot {
  readonly metric: string;
  readonly legend?: string;
  readonly instances: ViewInstances;
}

interface OverviewChart {
  readonly title: string;
  readonly plots: readonly OverviewPlot[];
}

/** One drawn chart: the answers of its plots merged (one host, lines named by plot). */
interface DrawnChart {
  readonly chart: OverviewChart;
  readonly answer: FleetChartAnswer;
  /** Plots the store has no series of for this host. */
  readonly missing: readonly string[];
  readonly errors: readonly EngineError[];
}

async function overviewCharts(): Promise<OverviewChart[]> {
  const overview = (await getEngine().standardViews()).find((v) => v.name === 'Overview');
  if (!overview) throw new Error('the standard views have no Overview');
  return overview.view.tabs.flatMap((t) => t.charts.map((c) => ({ title: c.title ?? '', plots: c.plots.map((p) => ({ metric: p.metric, instances: p.instances, ...(p.legend !== undefined && { legend: p.legend }) })) })));
}

/** Whether a plot's instance selection (the view's, as pmchart reads it) takes an instance. */
function selects(plot: OverviewPlot, instance: string): boolean {
  const sel = plot.instances;
  switch (sel.kind) {
    case 'all':
      return true;
    case 'instance':
      return instance === sel.name;
    case 'matching':
      return new RegExp(sel.pattern).test(instance);
    case 'not-matching':
      return !new RegExp(sel.pattern).test(instance);
  }
}

/** A line's name in a host's Overview chart: the plot's legend (or metric) and the instance. */
function plotLineName(plot: OverviewPlot, instance: string): string {
  if (plot.instances.kind === 'instance' && plot.legend !== undefined) return plot.legend;
  const base = plot.legend ?? plot.metric;
  return instance === '' ? base : `${base}[${instance}]`;
}

async function drawChart(host: string, chart: OverviewChart, index: number, win: FleetWindow, widthPx: number): Promise<DrawnChart | undefined> {
  const parts = await Promise.all(
    chart.plots.map((p, j) =>
      getEngine().fleetChart(fleetBase(), { key: `fleet-host-${index}-${j}`, metric: p.metric, hosts: [host], startMs: win.startMs, finishMs: win.finishMs, widthPx, pointsPerPx: 1 / PX_PER_SAMPLE, aggregate: 'none' }),
    ),
  );
  if (parts.some((p) => p.cancelled)) return undefined;
  const missing: string[] = [];
  const errors: EngineError[] = [];
  const lines: Array<FleetChartHost['lines'][number]> = [];
  const exprs: string[] = [];
  let first: FleetChartHost | undefined;
  parts.forEach((part, j) => {
    const plot = chart.plots[j];
    const h = part.hosts[0];
    if (!plot || !h) return;
    if (h.error) {
      // The store has no series of this metric for the host: named, not an error.
      if (h.expr === '' && /no series of/.test(h.error.message)) missing.push(plot.metric);
      else errors.push(h.error);
      return;
    }
    first ??= h;
    exprs.push(h.expr);
    for (const l of h.lines) if (selects(plot, l.name)) lines.push({ ...l, name: plotLineName(plot, l.name) });
  });
  const merged: FleetChartHost | undefined = first && { ...first, expr: exprs.join(' ; '), lines, decimated: parts.some((p) => p.hosts[0]?.decimated === true), rated: parts.some((p) => p.hosts[0]?.rated === true) };
  return { chart, answer: { metric: chart.title, hosts: merged ? [merged] : [] }, missing, errors };
}

const sameName = (_host: string, line: string): string => line;

export function FleetHostView({ tab, host }: { tab: FleetTab; host: string }) {
  const win = useFleetWindow();
  const bodyRef = useRef<HTMLDivElement>(null);
  const [charts, setCharts] = useState<readonly OverviewChart[]>();
  const [result, setResult] = useState<{ readonly win: FleetWindow; readonly host: string; readonly drawn: readonly DrawnChart[] }>();
  const [error, setError] = useState<EngineError>();

  useEffect(() => {
    overviewCharts().then(setCharts, (e: unknown) => setError(asEngineError(e, 'Overview')));
  }, []);

  useEffect(() => {
    if (!charts || !win) return;
    let live = true;
    const widthPx = Math.max(100, (bodyRef.current?.clientWidth ?? 1000) - 80);
    Promise.all(charts.map((c, i) => drawChart(host, c, i, win, widthPx)))
      .then((drawn) => {
        if (!live || drawn.some((d) => d === undefined)) return;
        setError(undefined);
        setResult({ win, host, drawn: drawn.filter((d): d is DrawnChart => d !== undefined) });
      })
      .catch((e: unknown) => {
        if (live) setError(asEngineError(e, `${host} Overview`));
      });
    return () => {
      live = false;
    };
  }, [charts, win, host]);

  const busy = !result || result.win !== win || result.host !== host;
  return (
    <div className="fleet-view" data-testid="fleet-host-view" data-host={host} ref={bodyRef}>
      <div className="fleet-bar">
        {tab.hosts.length > 1 || tab.metric !== '' ? (
          <button type="button" className="small" data-testid="fleet-drill-back" title="Back to the fleet chart" onClick={() => setFleet((s) => (s.tab ? { tab: { ...s.tab, drill: undefined } } : {}))}>← fleet</button>
        ) : null}
        <b data-testid="fleet-tab-title">Overview of {host} from the store</b>
      </div>
      <div className="fleet-note" data-testid="fleet-note">
        Stored samples from pmproxy's series store (as pmlogger recorded them; counters as rate() between stored samples) — not values interpolated by libpcp like the archive charts.
      </div>
      <FleetWindowForm win={win} busy={busy} />
      {error && <div className="fleet-error" role="alert">{describeError(error)}</div>}
      {result?.drawn.map((d) => {
        const h = d.answer.hosts[0];
        // pmchart's title template: %h and %H name the host.
        const title = d.chart.title.replace(/%[hH]/g, host);
        return (
          <section key={d.chart.title} className="fleet-host-chart" data-testid="fleet-host-chart" data-title={title}>
            <div className="fleet-bar">
              <b>{title}</b>
              {h && <span className="muted">{h.semantics}{drawnUnits(h) ? ` · ${drawnUnits(h)}` : ''}</span>}
              {d.missing.length > 0 && <span className="muted" data-testid="fleet-host-missing">not in the store for {host}: {d.missing.join(', ')}</span>}
            </div>
            {d.errors.map((e, i) => <div key={i} className="fleet-error" role="alert">{describeError(e)}</div>)}
            {h && (
              <>
                <div className="fleet-legend" data-testid="fleet-host-legend">
                  {h.lines.map((l, i) => (
                    <span key={l.name}><span className="fleet-swatch" style={{ background: cycleColor(i) }} />{l.name}</span>
                  ))}
                </div>
                <FleetChart answer={d.answer} aggregate="none" win={result.win} label={sameName} height={200} />
                <SamplesTable answer={d.answer} aggregate="none" label={sameName} />
              </>
            )}
          </section>
        );
      })}
    </div>
  );
}
