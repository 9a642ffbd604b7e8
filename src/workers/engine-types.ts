// The vocabulary of the worker boundary: what the UI sends to the engine and what comes back.
// Everything here is structured-clone friendly (plain objects, typed arrays, File objects), so
// the same shapes serve Comlink in the browser and direct calls in tests. The UI imports these
// types only (docs/design.md "Worker API", "Series data").
import type { Units } from '../pcp-core/types';
import type { FolderHandle } from './folder-file-set';

/** A handle the engine gives for an opened source; meaningless after close(). */
export type SourceHandle = number;

/** One dropped or picked file, with its path relative to the drop (folders keep their path). */
export interface DroppedFile {
  readonly path: string;
  readonly file: Blob;
}

/**
 * The archives of one host among dropped files: opened as one source over an archive set
 * (libpcp's comma list). `hostname` is '' when the label could not be read.
 */
export interface DroppedHostArchives {
  readonly hostname: string;
  /** Archive base paths as the drop names them (folder part kept), in name order. */
  readonly bases: readonly string[];
  /** Indices into the drop of every file of these archives. */
  readonly files: readonly number[];
}

/** A drop sorted by the engine (drop-classify.ts): archives per host, views, strays. */
export interface DropClassification {
  readonly archives: readonly DroppedHostArchives[];
  /** Indices of pmchart view files. */
  readonly views: readonly number[];
  /** Indices of derived-metric configuration files (`*.conf`, pmLoadDerivedConfig's format). */
  readonly derivedConfigs: readonly number[];
  /** Files that are none of these, each with the reason. */
  readonly strays: readonly { readonly index: number; readonly error: EngineError }[];
}

/** What loading a user's derived-metric configuration did (pmLoadDerivedConfig). */
export interface DerivedConfigLoad {
  /** The metrics it added to every source, in definition order. */
  readonly names: readonly string[];
  /** libpcp's diagnostics for the file, word for word (`[FILE:LINE] …`); empty when clean. */
  readonly messages: string;
}

/** Where metrics come from (a discriminated union, as Perfetto's TraceSource). */
export type SourceSpec =
  /**
   * `archives`: the base paths among `files` opened as one archive set (default: the only one).
   * `folder`: the dropped or picked folder the files are in (their paths start with its name),
   * where the browser lets it be read again (Chromium's FileSystemDirectoryHandle, which is a
   * FolderHandle): the files
   * are then read from it, and the source follows what pmlogger writes there.
   */
  | { readonly kind: 'files'; readonly files: readonly DroppedFile[]; readonly archives?: readonly string[]; readonly folder?: FolderHandle }
  | { readonly kind: 'url'; readonly url: string }
  /**
   * A live host: through the pmcd bridge (PDUs over a WebSocket), or, with `pmproxyUrl`, through
   * that pmproxy's /pmapi REST API (pmproxy reaches the host; no bridge), e.g. the page's
   * same-origin `/pmproxy` of `pmdash serve --pmproxy`.
   */
  | { readonly kind: 'live'; readonly host: string; readonly bridgeUrl: string; readonly pmproxyUrl?: string };

/** A followed archive source after reading it again (EngineApi.follow). */
export interface FollowedSource {
  /** Its end in epoch ms. */
  readonly endMs: number;
  /** Its archives, as SourceSummary.archives: a new one pmlogger started in a followed folder joins them. */
  readonly archives: readonly string[];
}

/** Progress of a slow step, reported through a Comlink.proxy callback. */
export interface Progress {
  /** What is happening, e.g. "decompressing 20180416.10.00.2.xz". */
  readonly phase: string;
  readonly done: number;
  /** 0 when unknown. */
  readonly total: number;
}
export type ProgressFn = (p: Progress) => void;

/** An error as a plain object: Comlink keeps only an Error's message, so convert at the edge. */
export interface EngineError {
  /** PM_ERR_* spelling (or an errno name, 'EINTERNAL' for a bug, 'pmlogcheck' for that tool's warnings). */
  readonly code: string;
  readonly message: string;
  /** Where: file, host, offset, metric, expression. */
  readonly context: string;
}

/** What the UI learns about a source when it opens. */
export interface SourceSummary {
  readonly handle: SourceHandle;
  readonly kind: 'archive' | 'live';
  /** A short display name: the archive base name or the host. */
  readonly name: string;
  readonly hostname: string;
  /** POSIX TZ of the source host, e.g. "EST-10"; '' when unknown. */
  readonly timezone: string;
  /** Olson zone name when known (v3 archives, or a live host that gave one), else ''. */
  readonly zoneinfo: string;
  /** Archive bounds in epoch milliseconds; for live, the open time (both ends). */
  readonly startMs: number;
  readonly endMs: number;
  /** Typical sampling interval (median gap of the temporal index), 0 when unknown. */
  readonly intervalMs: number;
  readonly metricCount: number;
  /** The archives an archive source spans (one name each, in time order); [] for live. */
  readonly archives: readonly string[];
  /** Per-file problems that did not stop the open (e.g. a stray file in a dropped folder). */
  readonly warnings: readonly EngineError[];
  /** An archive that can be read again as pmlogger grows it (EngineApi.follow): a URL, or files in a folder the browser lets the page read again. */
  readonly followable?: boolean;
}

/** pmchart's instance clauses: every instance, a list, or an extended regex (not) matching. */
export type InstanceSelector =
  | { readonly kind: 'all' }
  | { readonly kind: 'list'; readonly names: readonly string[] }
  | { readonly kind: 'matching'; readonly pattern: string }
  | { readonly kind: 'not-matching'; readonly pattern: string };

/** One plotted metric of a chart: a PMNS name, or a derived expression. */
export interface PlotRequest {
  /** PMNS name, or the expression's label when `expr` is set. */
  readonly metric: string;
  /** A derived-metric expression (pmRegisterDerived syntax); the metric name is its label. */
  readonly expr?: string;
  readonly instances: InstanceSelector;
}

/** A whole window of series for one chart. */
export interface SeriesRequest {
  readonly handle: SourceHandle;
  readonly plots: readonly PlotRequest[];
  /** Grid: t0Ms, t0Ms + stepMs, … ≤ t1Ms (epoch ms, may be fractional). */
  readonly t0Ms: number;
  readonly t1Ms: number;
  readonly stepMs: number;
  /** Counters as rates (pmchart and pmval's default); false plots the raw counter. */
  readonly rate: boolean;
}

/** Units of a column after rate conversion, plus the PCP string for humans. */
export interface ColumnUnits {
  readonly units: Units;
  /** pmUnitsStr-like text ("Kbyte / sec", "count / sec"); '' for none. */
  readonly text: string;
  /** True when a time counter became a time utilization (pmval's "converting to time utilization"). */
  readonly utilization: boolean;
}

/** One metric-instance column of a SeriesBlock. */
export interface SeriesColumn {
  /** Index of the plot in the request. */
  readonly plot: number;
  /** The instance's internal id, or -1 for a singular metric. */
  readonly instId: number;
  /** The instance name, or '' for a singular metric. */
  readonly instName: string;
  /** NaN marks a missing value (no value, first counter sample, counter wrap, error). */
  readonly values: Float64Array;
}

/** Per-plot facts and problems that belong with the data. */
export interface PlotInfo {
  readonly metric: string;
  readonly sem: number;
  readonly type: number;
  readonly units: ColumnUnits;
  /**
   * The values are FLOATs as fetched (a FLOAT metric not rate-converted): single precision,
   * so text shows the shortest form a float32 reads back from (0.45, not 0.44999998807907104).
   */
  readonly float32?: boolean;
  /** Set when the whole plot failed (unknown name, bad expression, non-numeric type). */
  readonly error?: EngineError;
}

/**
 * A window of series: timestamps plus one Float64Array per column, NaN = missing. The
 * buffers are transferred, not copied, across the worker boundary.
 */
export interface SeriesBlock {
  readonly t0Ms: number;
  readonly t1Ms: number;
  readonly stepMs: number;
  /** Epoch milliseconds of each row (exact grid points converted at this boundary). */
  readonly timestamps: Float64Array;
  readonly plots: readonly PlotInfo[];
  readonly columns: readonly SeriesColumn[];
  /** How an archive window was replayed (pcp-core/context/interp-grid.ts); absent for live. */
  readonly replay?: 'sequential' | 'stepped';
}

/** Everything the metric browser shows about one metric. */
export interface MetricDetails {
  readonly name: string;
  readonly pmid: string;
  readonly type: string;
  readonly sem: string;
  readonly units: string;
  readonly indom: string;
  readonly oneline: string;
  readonly help: string;
  /** Instances (current for live, all ever seen for an archive). */
  readonly instances: readonly { readonly id: number; readonly name: string }[];
  readonly error?: EngineError;
}

/** The units a plot is charted in (after the chart's rate conversion), or why it has none. */
export type PlotUnitsAnswer = { readonly ok: true; readonly units: ColumnUnits } | { readonly ok: false; readonly error: EngineError };

/** The outcome of validating a derived expression as the user types. */
export type ExpressionCheck =
  | { readonly ok: true; readonly units: string; readonly sem: string; readonly type: string }
  | { readonly ok: false; readonly message: string; readonly caret: number };

/** A live source's connection, as the UI shows it (the core reconnects by itself). */
export interface ConnectionStatus {
  readonly state: 'connecting' | 'connected' | 'reconnecting' | 'closed';
  /** Why it was lost or why the last attempt failed. */
  readonly error?: EngineError;
  readonly retryInMs?: number;
  readonly attempts?: number;
}

/** Live streaming: a one-row block per tick, or a fetch error, pushed to a callback. */
export type LiveEvent = { readonly kind: 'frame'; readonly block: SeriesBlock } | { readonly kind: 'error'; readonly error: EngineError };
export type LiveListener = (e: LiveEvent) => void;

/**
 * A live event as the batched port carries it (EngineApi.openLivePort): a frame names its
 * plots only when they are not the ones its watch last sent (the first frame, a new stream),
 * so a tick's message is the new values and not the plots' units and names again.
 */
export type LiveWireEvent = { readonly kind: 'frame'; readonly block: Omit<SeriesBlock, 'plots'> & { readonly plots?: SeriesBlock['plots'] } } | { readonly kind: 'error'; readonly error: EngineError };

/** One tick's events of every tagged watch on the port, in one message. */
export interface LiveBatchEntry {
  /** The tag the UI gave watchLiveTagged. */
  readonly tag: number;
  readonly event: LiveWireEvent;
}

/** A live recording as it goes (live-record.ts). */
export interface RecordingStatus {
  readonly id: number;
  /** The pmids recorded (derived metrics as their operands). */
  readonly metrics: number;
  readonly records: number;
  readonly bytes: number;
  readonly capBytes: number;
  /** The cap was reached: nothing more is recorded. */
  readonly capped: boolean;
  /** Why recording stopped early (the archive keeps what came before). */
  readonly error?: EngineError;
  /** Epoch ms of the first and last recorded result; NaN before the first. */
  readonly firstMs: number;
  readonly lastMs: number;
}

export interface RecordedArchive {
  /** Base name of the archive, e.g. "myhost-20231114T221320Z". */
  readonly base: string;
  /** The .tar holding BASE.meta, BASE.index, BASE.0 (and BASE.view when a view was given), in parts (a Blob joins them). */
  readonly tarParts: readonly Uint8Array<ArrayBuffer>[];
  readonly status: RecordingStatus;
}
