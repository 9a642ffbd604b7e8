// The model of a pmchart view file: global settings, colour schemes, and tabs → charts →
// plots, keeping every tab and every instance pattern (pmchart's own Save View keeps only the
// current tab and turns patterns into instance lists; docs/pmchart-reference.md §1a "Views").
// view-parser.ts builds it from text, view-serializer.ts writes it back; the UI maps it to and
// from its dashboard. Plain serialisable data: no classes, no handles.

/** pmchart's chart styles as view files spell them ("plot" is read as "line"). */
export type ViewChartStyle = 'line' | 'bar' | 'stacking' | 'area' | 'utilization' | 'event';
export const VIEW_CHART_STYLES: readonly ViewChartStyle[] = ['line', 'bar', 'stacking', 'area', 'utilization', 'event'];

/** Which instances a plot line selects; `all` = every instance present when the view loads. */
export type ViewInstances =
  | { readonly kind: 'all' }
  | { readonly kind: 'instance'; readonly name: string }
  | { readonly kind: 'matching'; readonly pattern: string }
  | { readonly kind: 'not-matching'; readonly pattern: string };

export interface ViewPlot {
  /** `optional-plot`: dropped silently when the metric or instance is missing. */
  readonly optional: boolean;
  /** Legend text with the wildcards %i %I %h %H %m %M; undefined = pmchart's default label. */
  readonly legend?: string;
  /** As written: `#-cycle`, a scheme name, `#rgb`…, `rgbi:r/g/b` or a colour name; undefined = `#-cycle`. */
  readonly color?: string;
  /** Source host (or archive host) name; undefined = `host *`, the current default source. */
  readonly host?: string;
  readonly metric: string;
  readonly instances: ViewInstances;
  /** Whole-line comments that preceded this plot line (text after the `#`). */
  readonly comments?: readonly string[];
}

export interface ViewChart {
  readonly title?: string;
  readonly style: ViewChartStyle;
  /** `scale [from] MIN [to] MAX`; undefined = autoscale. */
  readonly scale?: { readonly min: number; readonly max: number };
  /** `legend off` → false. */
  readonly legend: boolean;
  /** `antialiasing off` → false. */
  readonly antialiasing: boolean;
  readonly plots: readonly ViewPlot[];
  readonly comments?: readonly string[];
}

export interface ViewTab {
  /** Undefined only for the first tab when the file has charts before any `tab` line. */
  readonly label?: string;
  /** `host H`: the tab's default source. */
  readonly host?: string;
  /** `points N`: visible points. */
  readonly points?: number;
  /** `samples M`: samples kept. */
  readonly samples?: number;
  readonly charts: readonly ViewChart[];
  readonly comments?: readonly string[];
}

export interface ViewScheme {
  readonly name: string;
  /** At least two colour specifications, as written. */
  readonly colors: readonly string[];
  /**
   * The tab whose charts follow this definition in the file. Charts take the scheme defined
   * last before them, so where a scheme is defined is part of its meaning.
   */
  readonly beforeTab: number;
  readonly comments?: readonly string[];
}

/** `global` attributes; several views loaded together keep the largest value of each. */
export interface ViewGlobals {
  readonly width?: number;
  readonly height?: number;
  readonly points?: number;
  readonly xpos?: number;
  readonly ypos?: number;
}
export const VIEW_GLOBAL_KEYS: readonly (keyof ViewGlobals)[] = ['width', 'height', 'points', 'xpos', 'ypos'];

export interface ViewFile {
  /** `#kmchart` (current) or `#pmchart` (legacy: color and host on every plot). */
  readonly format: 'kmchart' | 'pmchart';
  /** "1" for kmchart; "1.1", "1.2", "2.0" or "2.1" for pmchart. */
  readonly version: string;
  /** The header's `host literal|dynamic` (mandatory in legacy files, parsed and unused). */
  readonly hostMode?: 'literal' | 'dynamic';
  readonly globals: ViewGlobals;
  readonly schemes: readonly ViewScheme[];
  readonly tabs: readonly ViewTab[];
  /** Comments before the `version` line, after global lines, and at the end of the file. */
  readonly headerComments?: readonly string[];
  readonly globalComments?: readonly string[];
  readonly trailingComments?: readonly string[];
}

/** An empty current-format view. */
export function emptyView(): ViewFile {
  return { format: 'kmchart', version: '1', globals: {}, schemes: [], tabs: [] };
}

/** The scheme a chart of tab `tabIndex` takes its `#-cycle` colours from, or undefined (default). */
export function schemeForTab(view: ViewFile, tabIndex: number): ViewScheme | undefined {
  let found: ViewScheme | undefined;
  for (const s of view.schemes) if (s.beforeTab <= tabIndex) found = s;
  return found;
}
