// Live series, outside the store like the archive cache: one watch per chart and live source
// in the engine, streaming one-row frames that are appended here up to the visible history.
// A pause (or any gap longer than two intervals) inserts a missing row so the line breaks
// instead of bridging the gap. Charts subscribe to a per-chart version, as with SeriesCache.
// A new live interval restarts the stream but keeps the rows collected so far (pmchart
// punches them out, §1d D3); rows leave only when older than the visible history.
// Frames are appended as they arrive, but charts hear of them once per tick: the engine
// fetches once per source and tick and posts every chart's frame of that tick in one message
// on the hub's port (EngineApi.openLivePort: no reply, no per-chart callback), a frame's
// plots only when they changed; the first frame of a burst (several sources) still waits
// COALESCE_MS for the rest and then every chart is told at once
// (one React render, whose redraw requests the frame loop serves in the next animation frame
// together with the DOM changes: one frame per tick). While the page is hidden nothing is
// told; the rows collected meanwhile are drawn at once when it shows again.
import { asEngineError, getEngine, portForEngine } from '../engine-client';
import type { EngineError, LiveBatchEntry, LiveWireEvent, PlotRequest, SeriesBlock, SourceHandle } from '../../workers/engine-types';

/** Bound on the rows one chart keeps, whatever the history and interval. */
const MAX_ROWS = 100_000;

/** How long the first frame of a tick waits for the other charts' frames of that tick (ms). */
const COALESCE_MS = 20;

interface LiveSeries {
  key: string;
  watchId: Promise<number> | undefined;
  /** The tag its frames come under on the hub's port (with watchId). */
  tag: number;
  times: number[];
  columns: { plot: number; instId: number; instName: string; values: number[] }[];
  plots: SeriesBlock['plots'];
  error: EngineError | undefined;
  /** Rows older than the newest minus this leave. */
  historyMs: number;
  intervalMs: number;
  snapshot: SeriesBlock | undefined;
}

export class LiveHub {
  private readonly series = new Map<string, LiveSeries>();
  private readonly versions = new Map<string, number>();
  private readonly listeners = new Map<string, Set<() => void>>();
  /** Charts with news not yet told, and the pending animation frame that tells them. */
  private readonly dirty = new Set<string>();
  private flushPending = false;
  /** Time of the newest frame of any live source (the right edge of live charts). */
  latestMs = NaN;
  /** Where each running watch's events go, by tag; the port they come on, opened at the first watch. */
  private readonly tagged = new Map<number, (e: LiveWireEvent) => void>();
  private nextTag = 1;
  private port: MessagePort | undefined;

  private openPort(): void {
    if (this.port) return;
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (m: MessageEvent<LiveBatchEntry[]>) => {
      for (const { tag, event } of m.data) this.tagged.get(tag)?.(event);
    };
    void getEngine().openLivePort(portForEngine(channel.port2));
  }

  version(chartId: string): number {
    return this.versions.get(chartId) ?? 0;
  }

  subscribe(chartId: string, fn: () => void): () => void {
    let set = this.listeners.get(chartId);
    if (!set) this.listeners.set(chartId, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  get(chartId: string, sourceId: string): { block: SeriesBlock | undefined; error: EngineError | undefined } {
    const s = this.series.get(`${chartId}|${sourceId}`);
    if (!s) return { block: undefined, error: undefined };
    s.snapshot ??= toBlock(s);
    return { block: s.snapshot, error: s.error };
  }

  /** Starts (or restarts, when anything changed) streaming for a chart's plots of one source. */
  watch(chartId: string, sourceId: string, handle: SourceHandle, plots: readonly PlotRequest[], rate: boolean, intervalMs: number, historyMs: number): () => void {
    const id = `${chartId}|${sourceId}`;
    const key = JSON.stringify([handle, plots, rate]);
    let s = this.series.get(id);
    if (s && s.key !== key) {
      this.stop(s);
      this.series.delete(id);
      s = undefined;
    }
    if (!s) {
      s = { key, watchId: undefined, tag: 0, times: [], columns: [], plots: [], error: undefined, historyMs, intervalMs, snapshot: undefined };
      this.series.set(id, s);
    }
    const live = s;
    if (live.intervalMs !== intervalMs) {
      // Same plots at a new pace: a new stream, the collected rows stay.
      this.stop(live);
      live.intervalMs = intervalMs;
    }
    live.historyMs = historyMs;
    if (!live.watchId) {
      // A resumed stream starts after a gap: break the line there.
      if (live.times.length > 0) this.append(live, { t: live.times[live.times.length - 1] ?? 0, gap: true });
      this.openPort();
      const tag = this.nextTag++;
      live.tag = tag;
      this.tagged.set(tag, (e) => this.onEvent(chartId, live, e));
      live.watchId = getEngine().watchLiveTagged(handle, { plots, rate, intervalMs }, tag);
      live.watchId.catch((e: unknown) => {
        live.error = asEngineError(e, 'live');
        this.bump(chartId);
      });
    }
    return () => this.stop(live);
  }

  /** Forgets a chart's live data (chart removed). */
  drop(chartId: string): void {
    for (const [k, s] of this.series) {
      if (!k.startsWith(`${chartId}|`)) continue;
      this.stop(s);
      this.series.delete(k);
    }
  }

  private stop(s: LiveSeries): void {
    const w = s.watchId;
    s.watchId = undefined;
    this.tagged.delete(s.tag);
    if (w) void w.then((id) => getEngine().unwatchLive(id), () => undefined);
  }

  private onEvent(chartId: string, s: LiveSeries, e: LiveWireEvent): void {
    if (e.kind === 'error') {
      s.error = e.error;
    } else {
      const b = e.block;
      s.error = undefined;
      if (b.plots) s.plots = b.plots;
      if (s.columns.length === 0 || s.columns.length !== b.columns.length) s.columns = b.columns.map((c) => ({ plot: c.plot, instId: c.instId, instName: c.instName, values: s.times.map(() => NaN) }));
      const t = b.timestamps[0] ?? Date.now();
      const last = s.times[s.times.length - 1];
      if (last !== undefined && t - last > 2 * s.intervalMs) this.append(s, { t: last + s.intervalMs, gap: true });
      s.times.push(t);
      b.columns.forEach((c, i) => s.columns[i]?.values.push(c.values[0] ?? NaN));
      this.trim(s);
      if (!(t <= this.latestMs)) this.latestMs = t;
    }
    s.snapshot = undefined;
    this.bump(chartId);
  }

  private append(s: LiveSeries, row: { t: number; gap: boolean }): void {
    s.times.push(row.t);
    for (const c of s.columns) c.values.push(NaN);
    this.trim(s);
  }

  private trim(s: LiveSeries): void {
    const newest = s.times[s.times.length - 1] ?? 0;
    const oldest = newest - s.historyMs - 2 * s.intervalMs;
    let extra = Math.max(0, s.times.length - MAX_ROWS);
    while (extra < s.times.length && (s.times[extra] ?? 0) < oldest) extra++;
    if (extra <= 0) return;
    s.times.splice(0, extra);
    for (const c of s.columns) c.values.splice(0, extra);
  }

  private bump(chartId: string): void {
    this.versions.set(chartId, this.version(chartId) + 1);
    this.dirty.add(chartId);
    if (this.flushPending) return;
    this.flushPending = true;
    setTimeout(() => this.flush(), COALESCE_MS);
  }

  private flush(): void {
    if (document.hidden) {
      document.addEventListener('visibilitychange', () => this.flush(), { once: true });
      return;
    }
    this.flushPending = false;
    const charts = [...this.dirty];
    this.dirty.clear();
    for (const id of charts) for (const fn of this.listeners.get(id) ?? []) fn();
  }
}

function toBlock(s: LiveSeries): SeriesBlock {
  const timestamps = Float64Array.from(s.times);
  return {
    t0Ms: timestamps[0] ?? NaN,
    t1Ms: timestamps[timestamps.length - 1] ?? NaN,
    stepMs: s.intervalMs,
    timestamps,
    plots: s.plots,
    columns: s.columns.map((c) => ({ plot: c.plot, instId: c.instId, instName: c.instName, values: Float64Array.from(c.values) })),
  };
}

export const liveHub = new LiveHub();
