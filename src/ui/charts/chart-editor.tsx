// The chart editor (pmchart's Edit Chart dialog, in a side sheet): title, style, legend,
// y-axis auto or fixed, rate conversion, and the plots — each with its instance selection
// (all, a typed list, or a regex matching / not matching, plus a pick list of the metric's
// instances as checkboxes showing what the selection takes) and legend. A derived-metric
// expression can be typed and is validated as you type against the source, showing libpcp's
// message with a caret under the offending position. Colour swatches show the colours drawn;
// a multi-instance plot has one per instance.
import { useEffect, useState } from 'react';
import { asEngineError, getEngine } from '../engine-client';
import { dash, useDash } from '../store';
import { CHART_STYLES, type ChartSpec, type PlotSpec } from '../state/model';
import type { ExpressionCheck, InstanceSelector } from '../../workers/engine-types';
import { selectedNames, toggledSelector } from './instance-picks';
import { instancePatternError } from '../../workers/instance-pattern';
import { cycleColor } from './palette';
import { useShownColors, type ShownColor } from './shown-colors';
import { addPlotsChecked } from './add-plots';

const NO_INSTANCES: readonly string[] = [];

function selectorText(sel: InstanceSelector): string {
  switch (sel.kind) {
    case 'all': return '';
    case 'list': return sel.names.join(', ');
    case 'matching':
    case 'not-matching': return sel.pattern;
  }
}

function makeSelector(kind: InstanceSelector['kind'], text: string): InstanceSelector {
  switch (kind) {
    case 'all': return { kind };
    case 'list': return { kind, names: text.split(',').map((s) => s.trim()).filter(Boolean) };
    case 'matching':
    case 'not-matching': return { kind, pattern: text };
  }
}

/**
 * The instance names of a plot's metric, as the metric browser's details give them (none for
 * a singular metric, a derived expression, a source not ready, or a failure).
 */
function useInstanceNames(plot: PlotSpec): readonly string[] {
  const handle = useDash((s) => s.sources.find((x) => x.id === plot.sourceId && x.status === 'ready')?.handle);
  const metric = plot.expr === undefined ? plot.metric : undefined;
  /** Answers are tagged with the question so a stale one is never shown. */
  const [got, setGot] = useState<{ key: string; names: readonly string[] } | undefined>();
  const key = `${handle}|${metric}`;
  useEffect(() => {
    if (handle === undefined || metric === undefined) return;
    let live = true;
    const asked = `${handle}|${metric}`;
    getEngine().details(handle, [metric]).then(
      ([d]) => live && setGot({ key: asked, names: d && !d.error ? [...new Set(d.instances.map((i) => i.name))] : NO_INSTANCES }),
      () => live && setGot({ key: asked, names: NO_INSTANCES }),
    );
    return () => {
      live = false;
    };
  }, [handle, metric]);
  return got?.key === key ? got.names : NO_INSTANCES;
}

/**
 * The plot's colours as drawn: one swatch for a singular plot, one per instance for a
 * multi-instance one (pmchart's Plots tab gives every instance its own colour).
 */
function PlotColors({ chart, plot, shown }: { chart: ChartSpec; plot: PlotSpec; shown: readonly ShownColor[] }) {
  if (shown.length <= 1) {
    // Before anything is drawn, the plot's own colour or the scheme's first.
    const value = shown[0]?.color ?? plot.color ?? cycleColor(0);
    return <input type="color" aria-label="colour" data-testid="plot-colour" value={value} onChange={(e) => dash().changedPlot(chart.id, plot.id, { color: e.target.value })} />;
  }
  return (
    <div className="inst-colours" role="group" aria-label={`colours of ${plot.metric}`} data-testid="instance-colours">
      {shown.map((x) => (
        <label key={x.inst} title={x.inst}>
          <input
            type="color"
            aria-label={`colour of ${x.inst}`}
            data-testid="instance-colour"
            data-instance={x.inst}
            value={x.color}
            onChange={(e) => dash().changedPlot(chart.id, plot.id, { instanceColors: { ...plot.instanceColors, [x.inst]: e.target.value } })}
          />
          {x.inst}
        </label>
      ))}
    </div>
  );
}

function PlotRow({ chart, plot, shown }: { chart: ChartSpec; plot: PlotSpec; shown: readonly ShownColor[] }) {
  const [text, setText] = useState(selectorText(plot.instances));
  const bad = (plot.instances.kind === 'matching' || plot.instances.kind === 'not-matching') && !validRegex(plot.instances.pattern);
  const names = useInstanceNames(plot);
  const picked = selectedNames(plot.instances, names);
  const pick = (name: string, on: boolean): void => {
    const next = toggledSelector(plot.instances, names, name, on);
    setText(selectorText(next));
    dash().changedPlot(chart.id, plot.id, { instances: next });
  };
  return (
    <li className="plot-row" data-testid="plot-row">
      <code title={plot.expr ?? plot.metric}>{plot.expr ? `${plot.metric} = ${plot.expr}` : plot.metric}</code>
      <select aria-label="instances" value={plot.instances.kind} onChange={(e) => dash().changedPlot(chart.id, plot.id, { instances: makeSelector(e.target.value as InstanceSelector['kind'], text) })}>
        <option value="all">all instances</option>
        <option value="list">instances</option>
        <option value="matching">matching</option>
        <option value="not-matching">not matching</option>
      </select>
      {plot.instances.kind !== 'all' && (
        <input className={bad ? 'bad' : ''} aria-label="instance names or regex" value={text} onChange={(e) => { setText(e.target.value); dash().changedPlot(chart.id, plot.id, { instances: makeSelector(plot.instances.kind, e.target.value) }); }} />
      )}
      {names.length > 0 && (
        <div className="picks" role="group" aria-label={`pick instances of ${plot.metric}`} data-testid="instance-picks">
          {names.map((n) => (
            <label key={n} title={n}>
              <input type="checkbox" checked={picked.has(n)} onChange={(e) => pick(n, e.target.checked)} />
              {n}
            </label>
          ))}
        </div>
      )}
      <input aria-label="legend" placeholder="legend" title="Legend text, as pmchart's: %i short instance, %I instance, %h/%H host, %m/%M metric" value={plot.legend ?? ''} onChange={(e) => dash().changedPlot(chart.id, plot.id, { legend: e.target.value || undefined })} />
      <PlotColors chart={chart} plot={plot} shown={shown} />
      <button type="button" title="Remove plot" onClick={() => dash().removedPlot(chart.id, plot.id)}>✕</button>
    </li>
  );
}

function validRegex(p: string): boolean {
  return instancePatternError(p) === undefined;
}

function DerivedInput({ chart }: { chart: ChartSpec }) {
  const source = useDash((s) => s.sources.find((x) => x.id === (chart.plots[0]?.sourceId ?? s.currentSourceId) && x.status === 'ready'));
  const [expr, setExpr] = useState('');
  const [name, setName] = useState('');
  /** The latest verdict and the expression it is about (stale verdicts are not shown). */
  const [verdict, setVerdict] = useState<{ expr: string; check: ExpressionCheck } | undefined>();
  const check = verdict?.expr === expr ? verdict.check : undefined;
  /** Why the last "Add expression" was refused (units fitting neither axis), for that expression. */
  const [refused, setRefused] = useState<{ expr: string; text: string } | undefined>();
  useEffect(() => {
    if (!expr.trim() || source?.handle === undefined) return;
    let live = true;
    const h = source.handle;
    const timer = setTimeout(() => {
      getEngine().checkExpression(h, expr).then(
        (c) => live && setVerdict({ expr, check: c }),
        (e: unknown) => live && setVerdict({ expr, check: { ok: false, message: asEngineError(e).message, caret: -1 } }),
      );
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [expr, source?.handle]);
  return (
    <div className="derived" data-testid="derived">
      <div className="panel-title">Derived metric</div>
      <input aria-label="derived name" placeholder="name (e.g. my.busy)" value={name} onChange={(e) => setName(e.target.value)} />
      <input aria-label="derived expression" data-testid="derived-expr" className="mono" placeholder="e.g. kernel.all.cpu.user / hinv.ncpu" title="A derived metric expression, in pmRegisterDerived's language" value={expr} onChange={(e) => setExpr(e.target.value)} />
      {check && !check.ok && (
        // The caret lines keep their columns (and may scroll); the message wraps below them, so a
        // narrow editor never cuts it off.
        <div className="derived-error" data-testid="derived-error">
          {check.caret >= 0 && <pre className="caret">{`${expr}\n${' '.repeat(check.caret)}^`}</pre>}
          <div className="caret-message" data-testid="derived-error-message">{check.message}</div>
        </div>
      )}
      {check?.ok && <div className="ok" data-testid="derived-ok">✓ {check.type} {check.sem}{check.units ? `, ${check.units}` : ''}</div>}
      {refused?.expr === expr && <div className="units-refused" role="alert" data-testid="units-refused">{refused.text}</div>}
      <button
        type="button"
        data-testid="add-derived"
        disabled={!check?.ok || !source}
        onClick={() => {
          if (!source) return;
          const asked = expr;
          void addPlotsChecked(chart, [{ sourceId: source.id, metric: name.trim() || expr, expr, instances: { kind: 'all' } }]).then((text) => {
            if (text) return setRefused({ expr: asked, text });
            setRefused(undefined);
            setExpr('');
            setName('');
          });
        }}
      >
        Add expression
      </button>
    </div>
  );
}

export function ChartEditor({ chartId }: { chartId: string }) {
  const chart = useDash((s) => s.charts[chartId]);
  const shown = useShownColors(chartId);
  const [min, setMin] = useState(chart?.yScale.mode === 'fixed' ? String(chart.yScale.min) : '0');
  const [max, setMax] = useState(chart?.yScale.mode === 'fixed' ? String(chart.yScale.max) : '100');
  if (!chart) return null;
  const fixed = chart.yScale.mode === 'fixed';
  const applyScale = (lo: string, hi: string): void => {
    const a = Number(lo);
    const b = Number(hi);
    if (Number.isFinite(a) && Number.isFinite(b) && a < b) dash().changedChart(chart.id, { yScale: { mode: 'fixed', min: a, max: b } });
  };
  const scaleBad = fixed && !(Number(min) < Number(max));
  return (
    <aside className="editor" data-testid="chart-editor" aria-label="chart editor">
      <div className="panel-title">
        Edit chart
        <button type="button" className="small" data-testid="editor-close" onClick={() => dash().closedEditor()}>Done</button>
      </div>
      <label>Title <input data-testid="editor-title" value={chart.title} onChange={(e) => dash().changedChart(chart.id, { title: e.target.value })} /></label>
      <label>
        Style
        <select data-testid="editor-style" value={chart.style} onChange={(e) => dash().changedChart(chart.id, { style: e.target.value as ChartSpec['style'] })}>
          {CHART_STYLES.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
      </label>
      <label><input type="checkbox" checked={chart.legend} onChange={(e) => dash().changedChart(chart.id, { legend: e.target.checked })} /> Legend</label>
      <label><input type="checkbox" data-testid="editor-rate" checked={chart.rate} onChange={(e) => dash().changedChart(chart.id, { rate: e.target.checked })} /> Rate-convert counters</label>
      <fieldset disabled={chart.style === 'utilization'}>
        <legend>Y axis {chart.style === 'utilization' && '(0–100%)'}</legend>
        <label><input type="radio" checked={!fixed} onChange={() => dash().changedChart(chart.id, { yScale: { mode: 'auto' } })} /> Auto</label>
        <label><input type="radio" data-testid="editor-fixed" checked={fixed} onChange={() => applyScale(min, max)} /> Fixed</label>
        <input aria-label="minimum" data-testid="editor-min" className={scaleBad ? 'bad' : ''} value={min} onChange={(e) => { setMin(e.target.value); if (fixed) applyScale(e.target.value, max); }} />
        <input aria-label="maximum" data-testid="editor-max" className={scaleBad ? 'bad' : ''} value={max} onChange={(e) => { setMax(e.target.value); if (fixed) applyScale(min, e.target.value); }} />
      </fieldset>
      <div className="panel-title">Plots</div>
      <ul className="plots">{chart.plots.map((p) => <PlotRow key={p.id} chart={chart} plot={p} shown={shown.filter((x) => x.plotId === p.id)} />)}</ul>
      <DerivedInput chart={chart} />
    </aside>
  );
}
