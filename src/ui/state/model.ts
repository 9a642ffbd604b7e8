// The dashboard's data model: sources, tabs, charts, plots and the time control, as plain
// serialisable objects. These are what the URL, local storage and pmchart view files carry
// (issue 8), so every field is documented and nothing here holds data series or handles
// that cannot be rebuilt (docs/design.md "Store").
import type { ConnectionStatus, EngineError, InstanceSelector, SourceHandle, SourceSummary } from '../../workers/engine-types';

/** How a source was given, enough to reopen it (files cannot be reopened from a URL). */
export type SourceOrigin =
  | { readonly kind: 'files'; readonly names: readonly string[] }
  | { readonly kind: 'url'; readonly url: string }
  /** `via: 'pmproxy'`: through the serving pmproxy's /pmapi (`pmdash serve --pmproxy`), not the bridge. */
  | { readonly kind: 'live'; readonly host: string; readonly via?: 'pmproxy' };

export type SourceStatus = 'opening' | 'ready' | 'failed' | 'closed';

export interface SourceEntry {
  /** Stable id in the dashboard ("s1"); plots refer to it. */
  readonly id: string;
  readonly origin: SourceOrigin;
  /** Display label until the summary names it. */
  readonly label: string;
  readonly status: SourceStatus;
  /** Progress of a slow open, 0..1, or undefined when unknown/not running. */
  readonly progress?: { readonly phase: string; readonly fraction: number };
  readonly error?: EngineError;
  readonly summary?: SourceSummary;
  readonly handle?: SourceHandle;
  /** Live sources: the connection as last reported (lost, reconnecting, back). */
  readonly connection?: ConnectionStatus;
  /**
   * Archives: a time shift for overlaying (issue 14 item 3): the source's data is drawn at
   * its own time + offsetMs, so two incidents on different days line up. 0 or absent: none.
   */
  readonly offsetMs?: number;
  /**
   * A corrupt record met while reading an open archive (PM_ERR_LOGREC, named by volume and
   * byte offset): the same for every chart of the source, so told once, as a notice.
   */
  readonly damage?: EngineError;
  /**
   * Archives (follow-archive.ts): 'following' while read again as pmlogger writes it;
   * 'snapshot' for files that cannot be read again yet end so recently that they may still
   * be growing (older archives are finished either way, and are told nothing).
   */
  readonly follow?: 'following' | 'snapshot';
}

/** pmchart's chart styles; 'stacked-area' is pmchart's "stacking". */
export type ChartStyle = 'line' | 'area' | 'stacked-area' | 'bar' | 'stacked-bar' | 'utilization' | 'heatmap';
/** The title "+ Chart" gives an empty chart; the metric browser's first metric replaces it. */
export const NEW_CHART_TITLE = 'New chart';

export const CHART_STYLES: readonly ChartStyle[] = ['line', 'area', 'stacked-area', 'bar', 'stacked-bar', 'utilization', 'heatmap'];

export type YScale = { readonly mode: 'auto' } | { readonly mode: 'fixed'; readonly min: number; readonly max: number };

export interface PlotSpec {
  readonly id: string;
  /** Source id; plots of one chart may come from several sources. */
  readonly sourceId: string;
  /** PMNS name, or the label of a derived expression. */
  readonly metric: string;
  /** A derived-metric expression, when the plot is one. */
  readonly expr?: string;
  readonly instances: InstanceSelector;
  /** Legend template (pmchart wildcards %i %I %h %H %m %M); undefined = metric[instance]. */
  readonly legend?: string;
  /** Explicit colour (of the first instance of a multi-instance plot); undefined = next from the chart's palette. */
  readonly color?: string;
  /**
   * Colours the user gave single instances, by instance name (pmchart's Plots tab: every
   * instance is a plot with its own colour); they win over `color`.
   */
  readonly instanceColors?: Readonly<Record<string, string>>;
  /** pmchart's optional-plot: silently absent when the metric is missing. */
  readonly optional?: boolean;
}

export interface ChartSpec {
  readonly id: string;
  /** Title; %h expands to the short host names of the chart's sources. */
  readonly title: string;
  readonly style: ChartStyle;
  readonly yScale: YScale;
  readonly legend: boolean;
  /** Counters as rates (default); false plots raw counter values. */
  readonly rate: boolean;
  readonly plots: readonly PlotSpec[];
  /** Series keys (plot id + instance name) the user hid via the legend. */
  readonly hidden: readonly string[];
  /** Height of the plot area in CSS px, set with the chart's resize handle; undefined = default. */
  readonly heightPx?: number;
  /** The legend as a sortable table of statistics over the visible window (issue 14 item 4). */
  readonly legendTable?: boolean;
  /** Draw only each plot's `n` instances with the largest avg or max over the visible window. */
  readonly topN?: { readonly n: number; readonly by: 'avg' | 'max' };
  /** Heatmap charts: each cell the largest sample in it (default) or their mean. */
  readonly heatmapAgg?: 'avg' | 'max';
}

export interface TabSpec {
  readonly id: string;
  readonly label: string;
  readonly chartIds: readonly string[];
}

export type PlayState = 'stopped' | 'forward' | 'backward';
/** pmtime's archive modes: Normal (paced by speed), Step (one interval per press), Fast. */
export type VcrMode = 'normal' | 'step' | 'fast';
/** Axis and readout zone: the archive host's, the browser's, UTC, or a TZ named by `?Z=` ("tz:EST5EDT"). */
export type ZoneChoice = 'archive' | 'local' | 'utc' | `tz:${string}`;

/** The series key of one plotted column: plot id plus instance name. */
export function seriesKey(plotId: string, instName: string): string {
  return `${plotId}\u0000${instName}`;
}
