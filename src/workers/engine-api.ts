// The engine's API: what the UI may ask of the worker that owns every context. Plain
// TypeScript over pcp-core, so it also runs in-process (unit tests, benchmarks). Coarse and
// bulk by design (docs/design.md "Worker API"): whole windows of series per call, PMNS and
// metric details by name lists, never one call per sample. Every failure leaves as a plain
// EngineError (engine-error.ts).
import type { Context } from '../pcp-core/context/context';
import { LiveContext, type ConnectionEvent } from '../pcp-core/context/live-context';
import { DerivedContext } from '../pcp-core/derived/derived-context';
import { loadDerivedConfigText } from '../pcp-core/derived/config';
import type { DerivedRegistry } from '../pcp-core/derived/registry';
import { standardDerivedRegistry } from '../pcp-core/derived/standard';
import { PM_ERR_MODE, PM_ERR_NOCONTEXT, PmError, pmErrSymbol } from '../pcp-core/errors';
import { formatInDom, formatPmId, formatSem, formatType, PM_INDOM_NULL, type PmId } from '../pcp-core/types';
import { classifyDrop } from './drop-classify';
import { boundary, toEngineError } from './engine-error';
import type { ConnectionStatus, DerivedConfigLoad, DropClassification, DroppedFile, EngineError, ExpressionCheck, FollowedSource, LiveBatchEntry, LiveEvent, MetricDetails, PlotRequest, PlotUnitsAnswer, ProgressFn, SeriesBlock, SeriesRequest, SourceHandle, SourceSpec, SourceSummary } from './engine-types';
import { chartUnits } from './column-set';
import { resolvePlots } from './plot-resolve';
import { LiveFeed, type LiveListener, type LiveWatchSpec } from './live-watch';
import { blockBuffers, fetchSeries, timestampToMs } from './series-fetch';
import { describeSpec, openSource, type OpenedSource } from './source-open';
import { formatUnits } from '../pcp-core/units';
import { exportArchiveWindow, type ExportedArchive } from './archive-export';
import { LiveRecording, type RecordedArchive, type RecordingStatus } from './live-record';
import { readView, standardViews, writeView, type ReadView, type StandardViewEntry } from './views-api';
import type { ViewFile } from '../pcp-core/views';
import type { TimeWindowArgs } from '../pcp-core/time';
import { PmapiContext } from '../pcp-core/context/pmapi-context';
import { FleetApi, type FleetChartAnswer, type FleetChartRequest } from './fleet-api';
import type { FleetHost } from '../pcp-core/fleet';
import { parsePageInterval, parsePageTimeWindow, type IntervalAnswer, type TimeWindowAnswer } from './time-window';

interface Entry {
  readonly opened: OpenedSource;
  /** The source's context with per-context derived metrics on top (libpcp's model). */
  readonly ctx: DerivedContext;
  /** Expression text → the name it is registered under in `ctx`. */
  readonly expressions: Map<string, Promise<{ readonly name: string } | { readonly error: EngineError }>>;
  /** Replay state lives in the context, so calls on one source run one at a time. */
  queue: Promise<unknown>;
  /** The archive end in epoch ms, as last read (a followed archive's grows). */
  endMs: number;
}

export type SourceOpener = (spec: SourceSpec, progress: ProgressFn, options: EngineOptions) => Promise<OpenedSource>;

/** What libpcp takes from the environment, which a browser does not have. */
export interface EngineOptions {
  /** PCP_COUNTER_WRAP: a counter's decrease is a wrap (interpolation and rates), not "no value". */
  readonly counterWrap?: boolean;
}

/**
 * After this long with no call running on any source, the contexts drop what they keep only to
 * make the next reads cheaper (Context.releaseMemory: read-ahead chunks, decoded xz volumes,
 * records): a drawn view then holds its series, not the archive's bytes. Long enough that the
 * calls of one view (a window, then its padding) and of playback keep their caches.
 */
export const IDLE_RELEASE_MS = 1000;

export class EngineApi {
  private readonly sources = new Map<SourceHandle, Entry>();
  /** Calls running or queued on any source, and the timer that releases memory when idle. */
  private busy = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private nextHandle = 1;
  /** Live feeds by source handle and interval: all charts of a source share one fetch per tick. */
  private readonly feeds = new Map<string, { handle: SourceHandle; feed: LiveFeed }>();
  /** Watch id → the key of its feed. */
  private readonly watches = new Map<number, string>();
  private nextWatch = 1;
  /** The UI's port for tagged watches, the tick's events not yet posted, and each tag's last plots sent. */
  private livePort: MessagePort | undefined;
  private liveBatch: LiveBatchEntry[] = [];
  private liveBuffers: ArrayBuffer[] = [];
  private readonly livePlotsSent = new Map<number, SeriesBlock['plots']>();
  /** Watch id → its tag, for tagged watches. */
  private readonly watchTags = new Map<number, number>();
  /** Live recordings by id, and the feed (key) each reads, if any is running. */
  private readonly recordings = new Map<number, { handle: SourceHandle; rec: LiveRecording; feed: string | undefined }>();
  private nextRecording = 1;
  /** pmproxy's /series store, many hosts at once (fleet-api.ts). */
  private readonly fleet = new FleetApi();

  /**
   * `opener` is replaceable so unit tests can open in-memory contexts. `registry` holds the
   * global derived metrics every source gets, as libpcp's default configuration gives every
   * context: by default pmdash's own statement of PCP's standard set (derived/standard.ts),
   * since /etc/pcp is out of the browser's reach.
   */
  constructor(
    private readonly opener: SourceOpener = openSource,
    readonly registry: DerivedRegistry = standardDerivedRegistry(),
    readonly options: EngineOptions = {},
  ) {}

  /** Sorts a drop into archives (grouped per host: one source each), view files and strays. */
  classifyDrop(files: readonly DroppedFile[]): Promise<DropClassification> {
    return boundary('dropped files', () => classifyDrop(files));
  }

  /**
   * pmLoadDerivedConfig over a configuration the user dropped or picked: its metrics join the
   * global set, which every source sees (contexts refresh from the registry, as libpcp's do).
   */
  loadDerivedConfig(file: string, text: string): Promise<DerivedConfigLoad> {
    return boundary(file, () => {
      this.registry.initialize();
      const before = this.registry.definitions.length;
      const { messages } = loadDerivedConfigText(this.registry, file, text);
      return Promise.resolve({ names: this.registry.definitions.slice(before).map((d) => d.name), messages });
    });
  }

  /** Opens a source; progress is reported for anything slow (decompression, index). */
  open(spec: SourceSpec, progress?: ProgressFn): Promise<SourceSummary> {
    return boundary(describeSpec(spec), async () => {
      const opened = await this.opener(spec, progress ?? (() => undefined), this.options);
      const handle = this.nextHandle++;
      this.sources.set(handle, { opened, ctx: new DerivedContext(opened.ctx, { registry: this.registry }), expressions: new Map(), queue: Promise.resolve(), endMs: opened.endMs });
      const src = opened.ctx.source;
      const metricCount = (await opened.ctx.traverse('')).length;
      const startMs = src.kind === 'archive' ? timestampToMs(src.start) : Date.now();
      return {
        handle,
        kind: src.kind,
        name: opened.name,
        hostname: src.hostname,
        timezone: src.timezone,
        zoneinfo: src.kind === 'archive' ? src.zoneinfo : '',
        startMs,
        endMs: Number.isFinite(opened.endMs) ? opened.endMs : startMs,
        intervalMs: opened.intervalMs,
        metricCount,
        archives: opened.archives,
        warnings: opened.warnings.map((w) => toEngineError(w)),
        followable: opened.follow !== undefined,
      };
    });
  }

  /** Closes a source; its handle answers nothing afterwards. */
  close(handle: SourceHandle): Promise<void> {
    return boundary(`source ${handle}`, async () => {
      const entry = this.sources.get(handle);
      if (!entry) return;
      this.sources.delete(handle);
      for (const [key, f] of this.feeds) {
        if (f.handle !== handle) continue;
        f.feed.stop();
        this.feeds.delete(key);
      }
      for (const [id, key] of this.watches) if (!this.feeds.has(key)) this.watches.delete(id);
      await entry.queue.catch(() => undefined);
      await entry.ctx.close();
    });
  }

  /** Every leaf name of the PMNS, in PMNS order: the metric browser builds its tree from it. */
  listMetrics(handle: SourceHandle): Promise<string[]> {
    return this.run(handle, 'PMNS', (ctx) => ctx.traverse(''));
  }

  /** Whether each name is a metric of the source (pmLookupName, derived names included). */
  hasMetrics(handle: SourceHandle, names: readonly string[]): Promise<boolean[]> {
    return this.run(handle, 'metric names', async (ctx) => (await ctx.lookupNames(names)).map((id) => id >= 0));
  }

  /** Descriptor, help text and instances of each named metric; errors stay per metric. */
  details(handle: SourceHandle, names: readonly string[]): Promise<MetricDetails[]> {
    return this.run(handle, 'metric details', async (ctx) => {
      const ids = await ctx.lookupNames(names);
      const out: MetricDetails[] = [];
      for (const [i, name] of names.entries()) {
        out.push(await describeMetric(ctx, name, ids[i]));
      }
      return out;
    });
  }

  /**
   * Reads an archive pmlogger is still writing again (a URL or folder source): its new end in
   * epoch ms and its archives (a new one pmlogger started in a followed folder joins them), or
   * undefined for a source that cannot be followed. Series asked for afterwards reach it.
   */
  follow(handle: SourceHandle): Promise<FollowedSource | undefined> {
    const entry = this.sources.get(handle);
    const follow = entry?.opened.follow;
    if (!entry || !follow) return Promise.resolve(undefined);
    return this.run(handle, 'follow', async () => {
      const { endMs, archives } = await follow();
      entry.endMs = Math.max(entry.endMs, endMs);
      return { endMs: entry.endMs, archives };
    });
  }

  /** A whole window of series for one chart (see series-fetch.ts for the semantics). */
  fetchSeries(req: SeriesRequest): Promise<SeriesBlock> {
    const entry = this.sources.get(req.handle);
    const endMs = entry?.endMs;
    const define = entry ? (expr: string) => defineExpression(entry, expr) : undefined;
    return this.run(req.handle, 'series', (ctx) => fetchSeries(ctx, req, endMs !== undefined && Number.isFinite(endMs) ? endMs : Infinity, define, entry?.opened.intervalMs ?? 0, this.options.counterWrap));
  }

  /**
   * The units each plot would be charted in, with the chart's rate conversion, as the series
   * carry them (column-set.ts chartUnits): the chart editor checks them before adding a plot.
   */
  plotUnits(handle: SourceHandle, plots: readonly PlotRequest[], rate: boolean): Promise<PlotUnitsAnswer[]> {
    const entry = this.sources.get(handle);
    const define = entry ? (expr: string) => defineExpression(entry, expr) : undefined;
    return this.run(handle, 'plot units', async (ctx) => (await resolvePlots(ctx, plots, define)).map((p): PlotUnitsAnswer => (p.ok ? { ok: true, units: chartUnits(p.desc, rate) } : { ok: false, error: p.error })));
  }

  /**
   * Streams a chart's metrics from a live source every interval to `listener` until
   * unwatch(id). Every watch of a source at one interval shares that source's one fetch per
   * tick (live-watch.ts). Archive sources are refused: they are read by fetchSeries windows.
   */
  watchLive(handle: SourceHandle, spec: LiveWatchSpec, listener: LiveListener): Promise<number> {
    return boundary('live', () => {
      const entry = this.sources.get(handle);
      if (!entry) return Promise.reject(new PmError(PM_ERR_NOCONTEXT, undefined, `source ${handle}`));
      if (entry.opened.ctx.source.kind !== 'live') return Promise.reject(new PmError(PM_ERR_MODE, 'not a live source', entry.opened.name));
      const id = this.nextWatch++;
      const key = `${handle}|${spec.intervalMs}`;
      let f = this.feeds.get(key);
      if (!f) {
        f = { handle, feed: new LiveFeed(entry.ctx, spec.intervalMs, (body) => this.run(handle, 'live fetch', () => body()), (expr) => defineExpression(entry, expr)) };
        this.feeds.set(key, f);
      }
      this.watches.set(id, key);
      f.feed.add(id, spec, listener);
      this.attachRecordings(handle);
      return Promise.resolve(id);
    });
  }

  /**
   * The port tagged watches post to (once per page). A comlink callback per chart costs two
   * messages per chart and tick (the call and its reply), each a task on both threads; a
   * feed hands its charts' frames over in one synchronous loop, so here they leave as one
   * message per tick, with no reply and their buffers transferred.
   */
  openLivePort(port: MessagePort): void {
    this.livePort?.close();
    this.livePort = port;
  }

  /** watchLive whose events go to the live port as `{tag, event}` (openLivePort), batched per tick. */
  async watchLiveTagged(handle: SourceHandle, spec: LiveWatchSpec, tag: number): Promise<number> {
    this.livePlotsSent.delete(tag);
    const id = await this.watchLive(handle, spec, (e) => this.queueLive(tag, e));
    this.watchTags.set(id, tag);
    return id;
  }

  private queueLive(tag: number, e: LiveEvent): void {
    if (this.liveBatch.length === 0) queueMicrotask(() => this.postLive());
    if (e.kind !== 'frame') {
      this.liveBatch.push({ tag, event: e });
      return;
    }
    const { plots, ...rest } = e.block;
    const same = this.livePlotsSent.get(tag) === plots;
    this.livePlotsSent.set(tag, plots);
    this.liveBatch.push({ tag, event: { kind: 'frame', block: same ? rest : e.block } });
    this.liveBuffers.push(...blockBuffers(e.block));
  }

  private postLive(): void {
    const batch = this.liveBatch;
    const buffers = this.liveBuffers;
    this.liveBatch = [];
    this.liveBuffers = [];
    if (batch.length > 0) this.livePort?.postMessage(batch, buffers);
  }

  unwatchLive(id: number): Promise<void> {
    const tag = this.watchTags.get(id);
    this.watchTags.delete(id);
    if (tag !== undefined) this.livePlotsSent.delete(tag);
    const key = this.watches.get(id);
    this.watches.delete(id);
    const f = key === undefined ? undefined : this.feeds.get(key);
    if (key !== undefined && f) {
      f.feed.remove(id);
      if (f.feed.size === 0) {
        this.feeds.delete(key);
        this.attachRecordings(f.handle);
      }
    }
    return Promise.resolve();
  }

  /**
   * Reports a live source's connection state changes (lost, reconnecting with back-off,
   * back) to `listener`; returns at once for archives, which have no connection.
   */
  watchConnection(handle: SourceHandle, listener: (s: ConnectionStatus) => void): Promise<void> {
    return boundary('connection', () => {
      const ctx = this.sources.get(handle)?.opened.ctx;
      // Both live contexts, the PDU one and the /pmapi one, report their connection alike.
      const report = (e: ConnectionEvent): void => listener({ state: e.state, error: e.error ? toEngineError(e.error) : undefined, retryInMs: e.retryInMs, attempts: e.attempts });
      if (ctx instanceof LiveContext) ctx.on('connection', report);
      else if (ctx instanceof PmapiContext) ctx.on('connection', report);
      return Promise.resolve();
    });
  }

  /** A live source waiting to reconnect tries at once ("retry now"); false when not waiting. */
  retryNow(handle: SourceHandle): Promise<boolean> {
    return boundary('retry', () => {
      const ctx = this.sources.get(handle)?.opened.ctx;
      return Promise.resolve(ctx instanceof LiveContext ? ctx.retryNow() : false);
    });
  }

  /** Validates a derived-metric expression against a source, for the chart editor. */
  checkExpression(handle: SourceHandle, expr: string): Promise<ExpressionCheck> {
    return this.run(handle, expr, async () => {
      const entry = this.sources.get(handle);
      if (!entry) throw new PmError(PM_ERR_NOCONTEXT, undefined, `source ${handle}`);
      const c = await entry.ctx.checkExpression(expr);
      if (!c.ok) return { ok: false, message: c.problem.message, caret: Math.max(0, c.problem.span.start) };
      return { ok: true, units: formatUnits(c.desc.units), sem: formatSem(c.desc.sem), type: formatType(c.desc.type) };
    });
  }

  /** Parses a pmchart view file (views-api.ts): the model, pmchart's messages, resolved colours. */
  readView(name: string, text: string): Promise<ReadView> {
    return boundary(name, () => Promise.resolve(readView(name, text)));
  }

  /** Writes a view model as view file text pmchart reads back. */
  writeView(view: ViewFile): Promise<string> {
    return boundary('view', () => Promise.resolve(writeView(view)));
  }

  /** pmchart's standard views, re-expressed by pmdash (pcp-core/views). */
  standardViews(): Promise<StandardViewEntry[]> {
    return boundary('standard views', () => Promise.resolve(standardViews()));
  }

  /** The records of [t0Ms, t1Ms] of an archive source as a new V3 archive, in a .tar (archive-export.ts). */
  exportArchive(handle: SourceHandle, t0Ms: number, t1Ms: number): Promise<ExportedArchive> {
    const name = this.sources.get(handle)?.opened.name ?? 'archive';
    return this.run(handle, `export of ${name}`, (ctx) => exportArchiveWindow(ctx, name, t0Ms, t1Ms));
  }

  /**
   * Starts recording `plots` of a live source into a V3 archive (live-record.ts): the
   * recording reads the results of the source's live feed (no fetch of its own), so it
   * records while charts of the source are watching, at their interval.
   */
  startRecording(handle: SourceHandle, plots: readonly PlotRequest[]): Promise<RecordingStatus> {
    const entry = this.sources.get(handle);
    const name = entry?.opened.name ?? `source ${handle}`;
    return this.run(handle, `recording of ${name}`, async () => {
      if (!entry) throw new PmError(PM_ERR_NOCONTEXT, undefined, `source ${handle}`);
      if (entry.opened.ctx.source.kind !== 'live') throw new PmError(PM_ERR_MODE, 'only live sources can be recorded', name);
      const rec = await LiveRecording.start(this.nextRecording++, entry.ctx, plots, (expr) => defineExpression(entry, expr));
      this.recordings.set(rec.id, { handle, rec, feed: undefined });
      this.attachRecordings(handle);
      return rec.status();
    });
  }

  /** Progress of a recording: records, bytes, whether the cap was reached or it failed. */
  recordingStatus(id: number): Promise<RecordingStatus> {
    return boundary(`recording ${id}`, () => {
      const r = this.recordings.get(id);
      if (!r) return Promise.reject(new PmError(PM_ERR_NOCONTEXT, 'no such recording', `recording ${id}`));
      return Promise.resolve(r.rec.status());
    });
  }

  /** Stops a recording: its archive as a .tar, with `view` (view file text) as BASE.view. */
  stopRecording(id: number, view?: string): Promise<RecordedArchive> {
    return boundary(`recording ${id}`, async () => {
      const r = this.recordings.get(id);
      if (!r) throw new PmError(PM_ERR_NOCONTEXT, 'no such recording', `recording ${id}`);
      this.recordings.delete(id);
      this.feeds.get(r.feed ?? '')?.feed.removeTap(r.rec);
      // A fetch of the source may be writing into it: finish behind it.
      await this.sources.get(r.handle)?.queue;
      return r.rec.finish(view);
    });
  }

  /** Each recording of `handle` reads one running feed of the source (the first there is). */
  private attachRecordings(handle: SourceHandle): void {
    for (const r of this.recordings.values()) {
      if (r.handle !== handle || (r.feed !== undefined && this.feeds.has(r.feed))) continue;
      r.feed = undefined;
      for (const [key, f] of this.feeds) {
        if (f.handle !== handle) continue;
        f.feed.addTap(r.rec);
        r.feed = key;
        break;
      }
    }
  }

  /** PCP time syntax (-S/-T/-O) against [startMs, endMs] in zone `tz` (time-window.ts). */
  parseTimeWindow(args: TimeWindowArgs, startMs: number, endMs: number, tz: string): Promise<TimeWindowAnswer> {
    return boundary('time window', () => Promise.resolve(parsePageTimeWindow(args, startMs, endMs, tz)));
  }

  /** Resolves when `pmproxyBase` answers /series/ping (fleet-api.ts). */
  fleetPing(pmproxyBase: string): Promise<void> {
    return this.fleet.ping(pmproxyBase);
  }

  /** The store's hosts with their labels and sources. */
  fleetHosts(pmproxyBase: string): Promise<FleetHost[]> {
    return this.fleet.hosts(pmproxyBase);
  }

  /** Metric names across the store matching a glob. */
  fleetMetrics(pmproxyBase: string, glob: string): Promise<string[]> {
    return this.fleet.metrics(pmproxyBase, glob);
  }

  /** The stored history of some hosts in epoch ms (fleet-api.ts). */
  fleetSpan(pmproxyBase: string, hosts: readonly string[]): Promise<{ startMs: number; endMs: number } | undefined> {
    return this.fleet.span(pmproxyBase, hosts);
  }

  /** One metric across hosts over a window: stored samples, one line per host (or instance). */
  fleetChart(pmproxyBase: string, request: FleetChartRequest): Promise<FleetChartAnswer> {
    return this.fleet.chart(pmproxyBase, request);
  }

  /** pmParseInterval text in ms, for `?t=`. */
  parseInterval(text: string): Promise<IntervalAnswer> {
    return boundary('interval', () => Promise.resolve(parsePageInterval(text)));
  }

  /** Queues `body` behind earlier calls on the same source; errors leave as EngineError. */
  private run<T>(handle: SourceHandle, what: string, body: (ctx: Context) => Promise<T>): Promise<T> {
    return boundary(what, () => {
      const entry = this.sources.get(handle);
      if (!entry) return Promise.reject(new PmError(PM_ERR_NOCONTEXT, undefined, `source ${handle}`));
      this.busy++;
      if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
      this.idleTimer = undefined;
      const next = entry.queue.then(() => body(entry.ctx));
      entry.queue = next
        .catch(() => undefined)
        .finally(() => {
          if (--this.busy === 0) this.idleTimer = setTimeout(() => this.releaseIdle(), IDLE_RELEASE_MS);
        });
      return next;
    });
  }

  private releaseIdle(): void {
    this.idleTimer = undefined;
    if (this.busy > 0) return;
    for (const entry of this.sources.values()) entry.ctx.releaseMemory();
    this.releaseIdleExtras();
    nudgeCollector();
  }

  /** What else the host lets go once idle (the worker: xz decoding workers no decode used). */
  protected releaseIdleExtras(): void {}
}

/**
 * Released bytes are ArrayBuffers, whose memory V8 returns only when a full collection finds
 * them dead, and an idle worker allocates nothing that would start one: the page's renderer
 * kept ~100 MB of dead read buffers after the whole-archive view. One large, never-touched
 * allocation (its pages are not resident) reports external memory pressure, which starts that
 * collection.
 */
function nudgeCollector(): void {
  const pressure = new ArrayBuffer(NUDGE_BYTES);
  if (pressure.byteLength !== NUDGE_BYTES) throw new Error('ArrayBuffer allocation failed');
}
const NUDGE_BYTES = 256 * 1024 * 1024;

/** Registers an expression once per source (pmAddDerivedMetric) under a generated name. */
function defineExpression(entry: Entry, expr: string): Promise<{ readonly name: string } | { readonly error: EngineError }> {
  let p = entry.expressions.get(expr);
  if (!p) {
    const name = `pmdash.expr.e${entry.expressions.size + 1}`;
    p = entry.ctx.addDerived(name, expr).then((r) =>
      r.status === 0 ? { name } : { error: { code: pmErrSymbol(r.status) ?? 'PM_ERR_BADDERIVE', message: 'message' in r ? r.message.trim() : '', context: expr } },
    );
    entry.expressions.set(expr, p);
  }
  return p;
}

async function describeMetric(ctx: Context, name: string, id: PmId | number | undefined): Promise<MetricDetails> {
  const base = { name, pmid: '', type: '', sem: '', units: '', indom: '', oneline: '', help: '', instances: [] };
  if (id === undefined || id < 0) return { ...base, error: toEngineError(new PmError(id ?? PM_ERR_NOCONTEXT, undefined, name)) };
  const pmid = id as PmId;
  const [desc] = await ctx.lookupDescs([pmid]);
  if (desc === undefined || typeof desc === 'number') return { ...base, pmid: formatPmId(pmid), error: toEngineError(new PmError(desc ?? PM_ERR_NOCONTEXT, undefined, name)) };
  const text = (kind: 'oneline' | 'help'): Promise<string> => ctx.lookupText({ pmid }, kind).catch(() => '');
  const [oneline, help] = await Promise.all([text('oneline'), text('help')]);
  let instances: { id: number; name: string }[] = [];
  if (desc.indom !== PM_INDOM_NULL) {
    const list = await ctx.getInDom(desc.indom);
    instances = list.names.map((n, k) => ({ id: list.instances[k] ?? -1, name: n }));
  }
  return {
    name,
    pmid: formatPmId(pmid),
    type: formatType(desc.type),
    sem: formatSem(desc.sem),
    units: formatUnits(desc.units) || 'none',
    indom: formatInDom(desc.indom),
    oneline,
    help,
    instances,
  };
}
