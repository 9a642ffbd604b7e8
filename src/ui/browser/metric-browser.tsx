// The metric browser: the current source's PMNS as an expandable tree with search, and the
// selected metric's details (help text, type, semantics, units, instance domain with its
// instances). From here a metric — all instances or the ones ticked — goes to a new chart or
// to the current chart.
import { useEffect, useMemo, useState } from 'react';
import { asEngineError, describeError, getEngine } from '../engine-client';
import { dash, useDash } from '../store';
import type { EngineError, MetricDetails } from '../../workers/engine-types';
import { buildTree, searchRows, visibleRows, type Row } from './pmns-tree';
import { VirtualList } from './virtual-list';
import { addPlotsChecked } from '../charts/add-plots';
import { NEW_CHART_TITLE } from '../state/model';
import { revealChart } from '../charts/reveal';

const ROW = 22;
const NO_NAMES: readonly string[] = [];
const NO_PICKS: ReadonlySet<string> = new Set();

export function MetricBrowser() {
  const source = useDash((s) => s.sources.find((x) => x.id === s.currentSourceId && x.status === 'ready'));
  // A loaded derived configuration adds names to every source's PMNS: list again.
  const derivedConfigCount = useDash((s) => s.derivedConfigs.length);
  const currentChart = useDash((s) => (s.currentChartId ? s.charts[s.currentChartId] : undefined));
  /** Answers are tagged with the question (handle, metric) so stale ones are never shown. */
  const [listing, setListing] = useState<{ handle: number; names: readonly string[] } | undefined>();
  const [failure, setFailure] = useState<{ key: string; error: EngineError } | undefined>();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [query, setQuery] = useState('');
  const [selection, setSelection] = useState<{ handle: number | undefined; name: string } | undefined>();
  const [described, setDescribed] = useState<{ key: string; details: MetricDetails } | undefined>();
  const [picks, setPicks] = useState<{ key: string; names: ReadonlySet<string> } | undefined>();
  const handle = source?.handle;
  const names = listing?.handle === handle && listing ? listing.names : NO_NAMES;
  const selected = selection?.handle === handle ? selection?.name : undefined;
  const detailKey = `${handle}|${selected}`;
  const details = described?.key === detailKey ? described.details : undefined;
  const picked = picks?.key === detailKey ? picks.names : NO_PICKS;
  const setPicked = (n: ReadonlySet<string>): void => setPicks({ key: detailKey, names: n });
  const setSelected = (name: string): void => setSelection({ handle, name });
  const error = failure && (failure.key === `${handle}` || failure.key === detailKey) ? failure.error : undefined;

  useEffect(() => {
    if (handle === undefined) return;
    let live = true;
    getEngine().listMetrics(handle).then(
      (n) => live && setListing({ handle, names: n }),
      (e: unknown) => live && setFailure({ key: `${handle}`, error: asEngineError(e, 'PMNS') }),
    );
    return () => {
      live = false;
    };
  }, [handle, derivedConfigCount]);

  useEffect(() => {
    if (handle === undefined || !selected) return;
    let live = true;
    const key = `${handle}|${selected}`;
    getEngine().details(handle, [selected]).then(
      ([d]) => live && d && setDescribed({ key, details: d }),
      (e: unknown) => live && setFailure({ key, error: asEngineError(e, selected) }),
    );
    return () => {
      live = false;
    };
  }, [handle, selected]);

  const tree = useMemo(() => buildTree(names), [names]);
  const rows = useMemo(() => (query.trim() ? searchRows(names, query) : visibleRows(tree, expanded)), [names, query, tree, expanded]);

  const toggle = (r: Row): void => {
    if (r.leaf) {
      setSelected(r.path);
      return;
    }
    const next = new Set(expanded);
    if (next.has(r.path)) next.delete(r.path);
    else next.add(r.path);
    setExpanded(next);
  };

  const plotFor = (name: string) => ({
    sourceId: source?.id ?? '',
    metric: name,
    instances: picked.size > 0 ? { kind: 'list' as const, names: [...picked] } : { kind: 'all' as const },
  });

  // A chart of its own for the metric; the current chart when it is still empty (just made by
  // "+ Chart"), which would otherwise stay behind with "No metrics yet".
  const newChart = (name: string): void => {
    const plot = plotFor(name);
    if (currentChart && currentChart.plots.length === 0) {
      if (currentChart.title === NEW_CHART_TITLE || currentChart.title === '') dash().changedChart(currentChart.id, { title: name });
      dash().addedPlots(currentChart.id, [plot]);
      revealChart(currentChart.id);
      return;
    }
    revealChart(dash().addedChart({ title: name, style: 'line', yScale: { mode: 'auto' }, legend: true, rate: true, plots: [plot], hidden: [] }));
  };

  if (!source) return <div className="browser empty" data-testid="metric-browser">Open an archive or host to browse its metrics.</div>;
  return (
    <div className="browser" data-testid="metric-browser">
      <div className="panel-title">Metrics <span className="muted">({names.length})</span></div>
      <input type="search" placeholder="search metrics…" aria-label="search metrics" data-testid="metric-search" value={query} onChange={(e) => setQuery(e.target.value)} />
      {error && <div className="source-error">{describeError(error)}</div>}
      <VirtualList
        items={rows}
        rowHeight={ROW}
        height={260}
        testid="pmns-tree"
        render={(r) => (
          <button
            type="button"
            className={`pmns-row${r.path === selected ? ' selected' : ''}`}
            style={{ paddingLeft: 6 + r.depth * 14 }}
            data-testid="pmns-row"
            data-path={r.path}
            onClick={() => toggle(r)}
            onDoubleClick={() => r.leaf && newChart(r.path)}
          >
            {r.leaf ? '•' : r.expanded ? '▾' : '▸'} {r.label}
          </button>
        )}
      />
      {details && (
        <div className="details" data-testid="metric-details">
          <div className="details-name">{details.name}</div>
          {details.error ? (
            <div className="source-error">{describeError(details.error)}</div>
          ) : (
            <>
              <div className="details-oneline">{details.oneline}</div>
              <table>
                <tbody>
                  <tr><th>type</th><td>{details.type}</td><th>sem</th><td>{details.sem}</td></tr>
                  <tr><th>units</th><td>{details.units}</td><th>pmid</th><td>{details.pmid}</td></tr>
                  <tr><th>indom</th><td colSpan={3}>{details.indom}</td></tr>
                </tbody>
              </table>
              {details.instances.length > 0 && (
                <div className="instances" data-testid="instances">
                  {details.instances.map((i) => (
                    <label key={i.id}>
                      <input type="checkbox" checked={picked.has(i.name)} onChange={() => { const n = new Set(picked); if (n.has(i.name)) n.delete(i.name); else n.add(i.name); setPicked(n); }} />
                      {i.name}
                    </label>
                  ))}
                </div>
              )}
              {details.help && <pre className="help">{details.help}</pre>}
              <div className="open-row">
                <button type="button" data-testid="add-new-chart" onClick={() => newChart(details.name)}>
                  New chart
                </button>
                <button type="button" data-testid="add-to-chart" disabled={!currentChart} title={currentChart ? `Add to “${currentChart.title}”` : 'Click a chart first'} onClick={() => { if (!currentChart) return; revealChart(currentChart.id); void addPlotsChecked(currentChart, [plotFor(details.name)]); }}>
                  Add to current chart
                </button>
              </div>
            </>
          )}
        </div>
      )}
    </div>
  );
}
