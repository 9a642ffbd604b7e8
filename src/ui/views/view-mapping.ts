// pmchart view files ↔ the dashboard (issue 8). A view's tabs, charts and plots become
// dashboard tabs and chart specs bound to open sources (a plot's `host` picks the source with
// that host name, else the current one, as pmchart binds views to its default source); the
// dashboard becomes a view with every tab. What a view file cannot say in pmchart's grammar —
// stacked bars, raw counters, hidden series, derived expressions, instance lists — rides in
// `# pmdash …: {json}` comments that pmchart ignores and view-parser.ts keeps, so our own
// round trip loses nothing. Pure: parsing and writing the text happen in the engine worker
// (pcp-core/views), the actions in view-actions.ts.
import type { ViewChart, ViewChartStyle, ViewFile, ViewInstances, ViewPlot, ViewScheme, ViewTab } from '../../pcp-core/views';
import type { InstanceSelector } from '../../workers/engine-types';
import type { ChartSpec, ChartStyle, PlotSpec, SourceEntry, TabSpec } from '../state/model';
import { seriesKey } from '../state/model';

/** A chart ready for the store's addedChart (ids are assigned there). */
export type NewPlot = Omit<PlotSpec, 'id'>;
export type NewChart = Omit<ChartSpec, 'id' | 'plots'> & { plots: NewPlot[] };

export interface MappedTab {
  /** Undefined for charts before any `tab` line: they go to the current tab. */
  readonly label?: string;
  readonly charts: NewChart[];
}

const CHART_DIRECTIVE = '# pmdash chart: ';
const PLOT_DIRECTIVE = '# pmdash plot: ';

interface ChartExtras {
  style?: ChartStyle;
  rate?: boolean;
  /** [plot index, instance name] of series hidden in the legend. */
  hidden?: [number, string][];
}
interface PlotExtras {
  expr?: string;
  list?: string[];
  /** A derived plot is written as optional-plot; this is whether it really was optional. */
  optional?: boolean;
  /** Colours of single instances (pmchart would write each instance as its own plot line). */
  colors?: Record<string, string>;
}

function directive<T>(comments: readonly string[] | undefined, prefix: string): T | undefined {
  const line = comments?.find((c) => c.startsWith(prefix));
  if (!line) return undefined;
  try {
    const v: unknown = JSON.parse(line.slice(prefix.length));
    return typeof v === 'object' && v !== null ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}

const STYLE_FROM_VIEW: Readonly<Record<ViewChartStyle, ChartStyle>> = {
  line: 'line', bar: 'bar', stacking: 'stacked-area', area: 'area', utilization: 'utilization', event: 'line',
};
const STYLE_TO_VIEW: Readonly<Record<ChartStyle, ViewChartStyle>> = {
  line: 'line', bar: 'bar', 'stacked-area': 'stacking', 'stacked-bar': 'stacking', area: 'area', utilization: 'utilization',
  // pmchart has no heatmap: a line chart for pmchart, the style kept in pmdash's comment.
  heatmap: 'line',
};

function instancesFromView(i: ViewInstances, extras: PlotExtras | undefined): InstanceSelector {
  if (extras?.list && Array.isArray(extras.list) && extras.list.every((n) => typeof n === 'string')) return { kind: 'list', names: extras.list };
  switch (i.kind) {
    case 'all': return { kind: 'all' };
    case 'instance': return { kind: 'list', names: [i.name] };
    case 'matching': return { kind: 'matching', pattern: i.pattern };
    case 'not-matching': return { kind: 'not-matching', pattern: i.pattern };
  }
}

/** An extended regular expression matching exactly these names. */
function exactNames(names: readonly string[]): string {
  return `^(${names.map((n) => n.replace(/[.[\]()*+?{}|^$\\]/g, '\\$&')).join('|')})$`;
}

function instancesToView(i: InstanceSelector): { instances: ViewInstances; list?: string[] } {
  switch (i.kind) {
    case 'all': return { instances: { kind: 'all' } };
    case 'list': {
      const [only] = i.names;
      if (i.names.length === 1 && only !== undefined) return { instances: { kind: 'instance', name: only } };
      // pmchart plots one instance per line; a list is a pattern it understands, and the list
      // itself travels in a directive.
      return { instances: { kind: 'matching', pattern: exactNames(i.names) }, list: [...i.names] };
    }
    case 'matching': return { instances: { kind: 'matching', pattern: i.pattern } };
    case 'not-matching': return { instances: { kind: 'not-matching', pattern: i.pattern } };
  }
}

/** A directive's instance colours, only well-formed '#rrggbb' entries. */
function instanceColorsOf(px: PlotExtras | undefined): Record<string, string> | undefined {
  const c = px?.colors;
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return undefined;
  const out = Object.fromEntries(Object.entries(c).filter((e): e is [string, string] => typeof e[1] === 'string' && /^#[0-9a-f]{6}$/i.test(e[1])));
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Where a view's plots go: the current source, and the sources by host name. */
export interface BindContext {
  readonly defaultSourceId: string;
  readonly sources: readonly { readonly id: string; readonly hostname: string }[];
  /** '#rrggbb' for every colour specification of the view (resolved by the engine). */
  readonly colors: Readonly<Record<string, string>>;
}

function sourceFor(host: string | undefined, ctx: BindContext, warn: (w: string) => void): string {
  if (host === undefined) return ctx.defaultSourceId;
  const short = (h: string): string => h.split('.')[0] ?? h;
  const hit = ctx.sources.find((s) => s.hostname === host) ?? ctx.sources.find((s) => short(s.hostname) === short(host));
  if (!hit) warn(`no open source is host "${host}": its plots use the current source`);
  return hit?.id ?? ctx.defaultSourceId;
}

/** A view's tabs as dashboard charts bound to sources; `warnings` says what was approximated. */
export function viewToDashboard(view: ViewFile, ctx: BindContext): { tabs: MappedTab[]; warnings: string[] } {
  const warnings: string[] = [];
  const warn = (w: string): void => {
    if (!warnings.includes(w)) warnings.push(w);
  };
  const schemeOf = (tabIndex: number): ViewScheme | undefined => {
    let found: ViewScheme | undefined;
    for (const s of view.schemes) if (s.beforeTab <= tabIndex) found = s;
    return found;
  };
  const tabs = view.tabs.map((tab: ViewTab, ti): MappedTab => {
    const scheme = schemeOf(ti);
    const charts = tab.charts.map((c: ViewChart): NewChart => {
      const extras = directive<ChartExtras>(c.comments, CHART_DIRECTIVE);
      if (c.style === 'event') warn('event charts are drawn as line charts');
      let sequence = 0;
      const nextFrom = (name: string): string | undefined => {
        const colors = view.schemes.find((s) => s.name === name)?.colors ?? [];
        const spec = colors[sequence++ % Math.max(1, colors.length)];
        return spec === undefined ? undefined : ctx.colors[spec];
      };
      const plots = c.plots.map((p: ViewPlot): NewPlot => {
        const px = directive<PlotExtras>(p.comments, PLOT_DIRECTIVE);
        let color: string | undefined;
        if (p.color === undefined || p.color === '#-cycle') color = scheme ? nextFrom(scheme.name) : undefined;
        else if (view.schemes.some((s) => s.name === p.color)) color = nextFrom(p.color);
        else {
          color = ctx.colors[p.color];
          if (color === undefined) warn(`colour "${p.color}" is not a colour: the default palette is used`);
        }
        return {
          sourceId: sourceFor(p.host, ctx, warn),
          metric: p.metric,
          ...(typeof px?.expr === 'string' && { expr: px.expr }),
          instances: instancesFromView(p.instances, px),
          ...(p.legend !== undefined && { legend: p.legend }),
          ...(color !== undefined && { color }),
          ...(instanceColorsOf(px) !== undefined && { instanceColors: instanceColorsOf(px) }),
          ...((typeof px?.optional === 'boolean' ? px.optional : p.optional) && { optional: true }),
        };
      });
      const hidden = (Array.isArray(extras?.hidden) ? extras.hidden : []).flatMap(([i, inst]) => (typeof i === 'number' && typeof inst === 'string' && i >= 0 && i < plots.length ? [`${i}\u0000${inst}`] : []));
      return {
        title: c.title ?? '',
        style: extras?.style && extras.style in STYLE_TO_VIEW && STYLE_TO_VIEW[extras.style] === c.style ? extras.style : STYLE_FROM_VIEW[c.style],
        yScale: c.scale && c.scale.min < c.scale.max ? { mode: 'fixed', min: c.scale.min, max: c.scale.max } : { mode: 'auto' },
        legend: c.legend,
        rate: typeof extras?.rate === 'boolean' ? extras.rate : true,
        plots,
        // Plot ids are assigned by the store: hidden keys use the plot's index until then.
        hidden,
      };
    });
    return { ...(tab.label !== undefined && { label: tab.label }), charts };
  });
  return { tabs, warnings };
}

/** Hidden keys of a mapped chart ("index\0instance") as the store's keys once plots have ids. */
export function bindHidden(hidden: readonly string[], plotIds: readonly string[]): string[] {
  return hidden.flatMap((k) => {
    const cut = k.indexOf('\u0000');
    const id = plotIds[Number(k.slice(0, cut))];
    return id === undefined ? [] : [seriesKey(id, k.slice(cut + 1))];
  });
}

/** The dashboard as a view: every non-empty tab, hosts written when several sources are charted. */
export function dashboardToView(tabs: readonly TabSpec[], charts: Readonly<Record<string, ChartSpec>>, sources: readonly SourceEntry[]): { view: ViewFile; warnings: string[] } {
  const warnings: string[] = [];
  const used = new Set(tabs.flatMap((t) => t.chartIds.flatMap((id) => charts[id]?.plots.map((p) => p.sourceId) ?? [])));
  const hostOf = (id: string): string => sources.find((s) => s.id === id)?.summary?.hostname ?? '';
  const withHosts = new Set([...used].map(hostOf)).size > 1;
  const viewTabs: ViewTab[] = [];
  for (const t of tabs) {
    const list = t.chartIds.flatMap((id) => (charts[id] ? [charts[id]] : []));
    if (list.length === 0) {
      warnings.push(`tab "${t.label}" has no charts and is not saved`);
      continue;
    }
    viewTabs.push({ label: t.label, charts: list.map((c) => chartToView(c, withHosts, hostOf)) });
  }
  return { view: { format: 'kmchart', version: '1', globals: {}, schemes: [], tabs: viewTabs }, warnings };
}

function chartToView(c: ChartSpec, withHosts: boolean, hostOf: (id: string) => string): ViewChart {
  const extras: ChartExtras = {};
  if (c.style === 'stacked-bar' || c.style === 'heatmap') extras.style = c.style;
  if (!c.rate) extras.rate = false;
  const hidden = c.plots.flatMap((p, i) => c.hidden.filter((k) => k.startsWith(seriesKey(p.id, ''))).map((k): [number, string] => [i, k.slice(seriesKey(p.id, '').length)]));
  if (hidden.length > 0) extras.hidden = hidden;
  const plots = c.plots.map((p): ViewPlot => {
    const { instances, list } = instancesToView(p.instances);
    const px: PlotExtras = { ...(p.expr !== undefined && { expr: p.expr, optional: p.optional === true }), ...(list && { list }), ...(p.instanceColors && { colors: { ...p.instanceColors } }) };
    const host = withHosts ? hostOf(p.sourceId) : '';
    return {
      // A derived plot has no metric pmchart could find: optional, so pmchart skips it quietly.
      optional: p.optional === true || p.expr !== undefined,
      ...(p.legend !== undefined && { legend: p.legend }),
      ...(p.color !== undefined && { color: p.color }),
      ...(host !== '' && { host }),
      metric: p.metric,
      instances,
      ...(Object.keys(px).length > 0 && { comments: [PLOT_DIRECTIVE + JSON.stringify(px)] }),
    };
  });
  return {
    ...(c.title !== '' && { title: c.title }),
    style: STYLE_TO_VIEW[c.style],
    ...(c.yScale.mode === 'fixed' && { scale: { min: c.yScale.min, max: c.yScale.max } }),
    legend: c.legend,
    antialiasing: true,
    plots,
    ...(Object.keys(extras).length > 0 && { comments: [CHART_DIRECTIVE + JSON.stringify(extras)] }),
  };
}
