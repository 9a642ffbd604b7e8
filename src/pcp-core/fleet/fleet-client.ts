// The fleet client: what pmdash needs of pmproxy's /series store (PMWEBAPI(3), pmseries(1))
// for many hosts at once — hosts with their labels, metric search, descriptors and instances
// per series, and chart lines over [t0, t1] with no more than about 2 points per pixel.
// Pure TypeScript over an injected fetch (transport.ts): the worker, the CLI and the tests
// use it alike. Values are pmproxy's stored samples, never interpolated.
import { EPROTO } from '../errors';
import {
  decodeDescs,
  decodeIds,
  decodeInstances,
  decodeLabelValues,
  decodeNames,
  decodeSeriesLabels,
  decodeSourceNames,
  decodeValues,
  type Labels,
  type SeriesDesc,
  type SeriesInstance,
  type SeriesValue,
} from './answers';
import { decimateLine } from './decimate';
import { chartExpr, checkMetricPattern, formatSeconds, hostSeriesExpr, quoteLabelValue, type Aggregate, type TimeSpec } from './query-expr';
import { SeriesCache } from './series-cache';
import { ECANCELED, FleetError, FleetTransport, isFleetCancel, type TransportOptions } from './transport';

export interface FleetClientOptions extends TransportOptions {
  /** Series whose metadata is kept (descriptors, instances, labels each; default 20000). */
  readonly cacheEntries?: number;
  /** Series of each host read to find its sources and common labels (default 8). */
  readonly hostSampleSeries?: number;
}

/** One host of the store: its hostname label, the labels all its sampled series share, its sources. */
export interface FleetHost {
  readonly hostname: string;
  readonly labels: Labels;
  /** Source ids with their context names (archive paths, host names), from the sampled series. */
  readonly sources: ReadonlyArray<{ readonly source: string; readonly names: readonly string[] }>;
}

export interface ChartRequest {
  /** Newest wins: a request with the key of one still running cancels that one. */
  readonly key?: string;
  readonly metric: string;
  readonly hosts: readonly string[];
  readonly startSec: number;
  readonly finishSec: number;
  /** The chart's plot width: at most about 2 points per pixel come back per line. */
  readonly widthPx: number;
  /**
   * Stored samples asked per pixel when pmproxy may subsample (default 2, the most a line may
   * have; the app asks 0.5, its time bar's one sample per 2 px). Never below one a second.
   */
  readonly pointsPerPx?: number;
  readonly aggregate?: Aggregate;
  /** Counters through rate() (default true); false draws the raw counter. */
  readonly rate?: boolean;
  readonly signal?: AbortSignal;
}

export interface ChartLine {
  /** Instance name, or the aggregate's name ('sum' …) for a folded line, or '' for no instances. */
  readonly name: string;
  /** The instance's series id when the line is one instance. */
  readonly instance?: string;
  readonly timesMs: Float64Array;
  readonly values: Float64Array;
}

export interface ChartHost {
  readonly host: string;
  /** The pmseries expression this host's lines answer (empty when the metric is not there). */
  readonly expr: string;
  readonly desc?: SeriesDesc;
  readonly lines: readonly ChartLine[];
  /** Lines thinned here to 2 points per pixel (pmproxy cannot subsample under a function). */
  readonly decimated: boolean;
  /**
   * A counter whose rate is worked out here, between the stored samples pmproxy kept when it
   * subsampled the raw counter (`expr` is that plain query): rate() cannot be subsampled.
   */
  readonly rateHere?: boolean;
  /** Why this host has no lines (others still have theirs). */
  readonly error?: FleetError;
}

export interface ChartResult {
  readonly metric: string;
  readonly hosts: readonly ChartHost[];
  /** The subsampling interval asked of pmproxy for plain metrics, if any. */
  readonly intervalSec?: number;
}

const ID_CHUNK = 200;

/**
 * An AbortSignal that aborts when any of `signals` does, and a detach that removes its
 * listeners: a caller's long-lived signal (one per panel) must not gather one per chart.
 */
function anySignal(signals: ReadonlyArray<AbortSignal | undefined>): { signal: AbortSignal; detach: () => void } {
  const c = new AbortController();
  const abort = (): void => c.abort();
  const live = signals.filter((s): s is AbortSignal => s !== undefined);
  for (const s of live) {
    if (s.aborted) c.abort();
    else s.addEventListener('abort', abort, { once: true });
  }
  return { signal: c.signal, detach: () => live.forEach((s) => s.removeEventListener('abort', abort)) };
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export class FleetClient {
  readonly transport: FleetTransport;
  private readonly descCache: SeriesCache<SeriesDesc>;
  private readonly instanceCache: SeriesCache<readonly SeriesInstance[]>;
  private readonly labelCache: SeriesCache<Labels>;
  private readonly hostSampleSeries: number;
  private readonly running = new Map<string, AbortController>();

  constructor(options: FleetClientOptions) {
    this.transport = new FleetTransport(options);
    const n = options.cacheEntries ?? 20_000;
    this.descCache = new SeriesCache(n);
    this.instanceCache = new SeriesCache(n);
    this.labelCache = new SeriesCache(n);
    this.hostSampleSeries = options.hostSampleSeries ?? 8;
  }

  private url(path: string): string {
    return `${this.transport.baseUrl}${path}`;
  }

  /** /series/ping: resolves when pmproxy answers with its /series API. */
  async ping(signal?: AbortSignal): Promise<void> {
    const v = await this.transport.getJson('/series/ping', {}, signal);
    if (typeof v !== 'object' || v === null || (v as { success?: unknown }).success !== true) throw new FleetError(EPROTO, 'unexpected answer to ping', this.url('/series/ping'));
  }

  /** The series ids a pmseries expression without a time spec matches. */
  async seriesIds(expr: string, signal?: AbortSignal): Promise<string[]> {
    return decodeIds(await this.transport.getJson('/series/query', { expr }, signal), this.url('/series/query'));
  }

  /** The values of a pmseries expression with a time spec, as pmproxy returns them. */
  async queryValues(expr: string, signal?: AbortSignal): Promise<SeriesValue[]> {
    return decodeValues(await this.transport.getJson('/series/query', { expr }, signal, true), this.url('/series/query'));
  }

  /** /series/values: stored samples of series ids over a window (subsampled with `intervalSec`). */
  async values(ids: readonly string[], window: TimeSpec, signal?: AbortSignal): Promise<SeriesValue[]> {
    const out: SeriesValue[] = [];
    for (const part of chunks(ids, ID_CHUNK)) {
      const params = { series: part.join(','), start: formatSeconds(window.startSec), finish: formatSeconds(window.finishSec), interval: window.intervalSec !== undefined ? formatSeconds(window.intervalSec) : undefined };
      out.push(...decodeValues(await this.transport.getJson('/series/values', params, signal, true), this.url('/series/values')));
    }
    return out;
  }

  /** Metric names in the store matching a glob (`kernel.*`), sorted. */
  async metrics(glob: string, signal?: AbortSignal): Promise<string[]> {
    checkMetricPattern(glob);
    const names = decodeNames(await this.transport.getJson('/series/metrics', { match: glob }, signal), this.url('/series/metrics'));
    return [...new Set(names)].sort();
  }

  /** Descriptors of series ids (cached by id); ids pmproxy does not know are absent. */
  async descs(ids: readonly string[], signal?: AbortSignal): Promise<Map<string, SeriesDesc>> {
    return this.cached(ids, this.descCache, '/series/descs', signal, (v, url, put) => {
      for (const d of decodeDescs(v, url)) put(d.series, d);
    });
  }

  /** Instances of series ids (cached by id); a series without instances maps to []. */
  async instances(ids: readonly string[], signal?: AbortSignal): Promise<Map<string, readonly SeriesInstance[]>> {
    return this.cached(ids, this.instanceCache, '/series/instances', signal, (v, url, put, asked) => {
      const by = new Map<string, SeriesInstance[]>(asked.map((id) => [id, []]));
      for (const i of decodeInstances(v, url)) by.get(i.series)?.push(i);
      for (const [id, list] of by) put(id, list);
    });
  }

  /** Labels of series ids (cached by id); a series without labels maps to {}. */
  async labels(ids: readonly string[], signal?: AbortSignal): Promise<Map<string, Labels>> {
    return this.cached(ids, this.labelCache, '/series/labels', signal, (v, url, put, asked) => {
      const by = new Map<string, Labels>(asked.map((id) => [id, {}]));
      for (const l of decodeSeriesLabels(v, url)) if (by.has(l.series)) by.set(l.series, l.labels);
      for (const [id, labels] of by) put(id, labels);
    });
  }

  private async cached<V>(
    ids: readonly string[],
    cache: SeriesCache<V>,
    path: string,
    signal: AbortSignal | undefined,
    store: (answer: unknown, url: string, put: (id: string, v: V) => void, asked: readonly string[]) => void,
  ): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const v = cache.get(id);
      if (v !== undefined) out.set(id, v);
      else missing.push(id);
    }
    await Promise.all(
      chunks(missing, ID_CHUNK).map(async (part) => {
        const answer = await this.transport.getJson(path, { series: part.join(',') }, signal);
        store(answer, this.url(path), (id, v) => {
          cache.set(id, v);
          out.set(id, v);
        }, part);
      }),
    );
    return out;
  }

  /**
   * The store's hosts (values of the `hostname` label), each with the labels every one of
   * its sampled series carries (the context's labels: hostname, machineid, …) and the
   * sources those series come from.
   */
  async hosts(signal?: AbortSignal): Promise<FleetHost[]> {
    const url = this.url('/series/labels');
    const names = decodeLabelValues(await this.transport.getJson('/series/labels', { names: 'hostname' }, signal), url).get('hostname') ?? [];
    const hostnames = [...new Set(names)].sort();
    const samples = await Promise.all(
      hostnames.map(async (h) => {
        const ids = await this.seriesIds(`{hostname:${quoteLabelValue(h)}}`, signal);
        return [...ids].sort().slice(0, this.hostSampleSeries);
      }),
    );
    const all = samples.flat();
    const [labels, descs] = await Promise.all([this.labels(all, signal), this.descs(all, signal)]);
    const sourceIds = [...new Set(all.map((id) => descs.get(id)?.source).filter((s): s is string => s !== undefined))].sort();
    const sourceNames = new Map<string, string[]>(sourceIds.map((s) => [s, []]));
    for (const part of chunks(sourceIds, ID_CHUNK)) {
      for (const { source, name } of decodeSourceNames(await this.transport.getJson('/series/sources', { source: part.join(',') }, signal), this.url('/series/sources'))) {
        sourceNames.get(source)?.push(name);
      }
    }
    for (const list of sourceNames.values()) list.sort();
    return hostnames.map((hostname, i) => {
      const ids = samples[i];
      const common = commonLabels(ids.map((id) => labels.get(id) ?? {}));
      const sources = [...new Set(ids.map((id) => descs.get(id)?.source).filter((s): s is string => s !== undefined))].sort();
      return { hostname, labels: { hostname, ...common }, sources: sources.map((source) => ({ source, names: sourceNames.get(source) ?? [] })) };
    });
  }

  /**
   * The stored history of `hosts`: the earliest and the newest stored sample among a few of
   * each host's series (the first `spanSeries` ids; a metric logged once would end early,
   * so several are read). /series/values with `samples=1` answers the newest sample of each
   * series, with `start` and `samples=1` the first after start. Undefined when none has a sample.
   */
  async span(hosts: readonly string[], signal?: AbortSignal, spanSeries = 32): Promise<{ startSec: number; finishSec: number } | undefined> {
    const ids = (
      await Promise.all(hosts.map(async (h) => [...(await this.seriesIds(`{hostname:${quoteLabelValue(h)}}`, signal))].sort().slice(0, spanSeries)))
    ).flat();
    let first = Infinity;
    let last = -Infinity;
    for (const part of chunks(ids, ID_CHUNK)) {
      const series = part.join(',');
      const [oldest, newest] = await Promise.all([
        this.transport.getJson('/series/values', { series, start: '1', samples: '1' }, signal, true),
        this.transport.getJson('/series/values', { series, samples: '1' }, signal, true),
      ]);
      for (const v of decodeValues(oldest, this.url('/series/values'))) first = Math.min(first, v.timestampMs);
      for (const v of decodeValues(newest, this.url('/series/values'))) last = Math.max(last, v.timestampMs);
    }
    return Number.isFinite(first) && Number.isFinite(last) ? { startSec: first / 1000, finishSec: last / 1000 } : undefined;
  }

  /**
   * One chart: `metric` on each of `hosts` over [startSec, finishSec], one line per instance
   * (or per host when `aggregate` folds the instances), counters through rate(). A host that
   * fails has its error in its entry; the others still have their lines. A newer request with
   * the same `key` cancels this one (it then rejects with a cancel: isFleetCancel).
   */
  async chart(request: ChartRequest): Promise<ChartResult> {
    const own = new AbortController();
    if (request.key !== undefined) {
      this.running.get(request.key)?.abort();
      this.running.set(request.key, own);
    }
    const { signal, detach } = anySignal([own.signal, request.signal]);
    try {
      const span = request.finishSec - request.startSec;
      if (!(span > 0) || !(request.widthPx >= 1)) throw new FleetError(EPROTO, `empty chart window (${request.startSec}..${request.finishSec}, ${request.widthPx} px)`, this.url('/series/query'));
      // pmproxy keeps at most one sample per interval; below a second its subsampling resets
      // on every sample (query.c compares whole seconds), so it is asked only from 1 s up.
      const step = span / (Math.min(2, request.pointsPerPx ?? 2) * Math.floor(request.widthPx));
      const intervalSec = step >= 1 ? step : undefined;
      const window: TimeSpec = { startSec: request.startSec, finishSec: request.finishSec, intervalSec };
      // Series ids per host first, then descriptors and instances of all of them in a few
      // batched requests (chunks of ID_CHUNK), which chartHost then finds cached: 2 requests
      // per host instead of 4. A host whose ids fail is asked again (and fails) in chartHost.
      const idsByHost = await Promise.all(request.hosts.map((host) => this.perHost(() => this.seriesIds(hostSeriesExpr(request.metric, host), signal), signal)));
      const all = idsByHost.flatMap((ids) => ids ?? []);
      await this.perHost(() => Promise.all([this.descs(all, signal), this.instances(all, signal)]), signal);
      const hosts = await Promise.all(request.hosts.map((host, i) => this.chartHost(request, host, window, signal, idsByHost[i])));
      if (signal.aborted) throw new FleetError(ECANCELED, 'request cancelled', this.url('/series/query'));
      return { metric: request.metric, hosts, intervalSec };
    } finally {
      detach();
      if (request.key !== undefined && this.running.get(request.key) === own) this.running.delete(request.key);
    }
  }

  /**
   * A batched step ahead of the per-host work: a FleetError is left for chartHost, which asks
   * again for its own host and reports the error there (so one host's failure stays its own);
   * cancels and other errors go up.
   */
  private async perHost<T>(step: () => Promise<T>, signal: AbortSignal): Promise<T | undefined> {
    try {
      return await step();
    } catch (e) {
      if (isFleetCancel(e) || signal.aborted || !(e instanceof FleetError)) throw e;
      return undefined;
    }
  }

  private async chartHost(request: ChartRequest, host: string, window: TimeSpec, signal: AbortSignal, knownIds?: readonly string[]): Promise<ChartHost> {
    const aggregate = request.aggregate ?? 'none';
    try {
      const ids = knownIds ?? (await this.seriesIds(hostSeriesExpr(request.metric, host), signal));
      if (ids.length === 0) return { host, expr: '', lines: [], decimated: false, error: new FleetError(EPROTO, `no series of ${request.metric} for host ${host}`, this.url('/series/query')) };
      const [descs, instances] = await Promise.all([this.descs(ids, signal), this.instances(ids, signal)]);
      const desc = descs.get(ids[0]);
      const counter = (request.rate ?? true) && desc?.semantics === 'counter';
      // A counter's rate over a subsampled window: the raw counter subsampled by pmproxy (a
      // function's operand cannot be), its rate taken here between the samples kept.
      const rateHere = counter && aggregate === 'none' && window.intervalSec !== undefined;
      const expr = chartExpr(request.metric, host, window, counter && !rateHere, aggregate);
      // rate() of a metric without instances names the metric's own series as the instance.
      const values = (await this.queryValues(expr, signal)).map((v) => (v.instance !== undefined && ids.includes(v.instance) ? { ...v, instance: undefined } : v));
      const names = new Map<string, string>();
      for (const list of instances.values()) for (const i of list) names.set(i.instance, i.name);
      const folded = aggregate !== 'none' && typeof aggregate !== 'object';
      const stored = linesOf(values, (instance) => (folded ? aggregate : instance !== undefined ? (names.get(instance) ?? instance) : ''));
      const raw = rateHere ? stored.map(rateLine) : stored;
      const t0Ms = window.startSec * 1000;
      const t1Ms = window.finishSec * 1000;
      let decimated = false;
      const lines = raw.map((l) => {
        const d = decimateLine(l, t0Ms, t1Ms, request.widthPx);
        if (d !== l) decimated = true;
        return { ...l, ...d };
      });
      return { host, expr, desc, lines, decimated, ...(rateHere && { rateHere: true }) };
    } catch (e) {
      if (isFleetCancel(e) || signal.aborted) throw e;
      if (e instanceof FleetError) return { host, expr: '', lines: [], decimated: false, error: e };
      throw e;
    }
  }
}

/** Labels present, with equal values, in every set (none when there are no sets). */
function commonLabels(sets: readonly Labels[]): Record<string, unknown> {
  if (sets.length === 0) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(sets[0])) {
    const text = JSON.stringify(v);
    if (sets.every((s) => k in s && JSON.stringify(s[k]) === text)) out[k] = v;
  }
  return out;
}

/**
 * A counter line as rates between consecutive stored samples, at the later one's time, as
 * pmseries rate() pairs them; a decrease (a counter reset or wrap) or a repeated time is a gap.
 */
function rateLine(l: ChartLine): ChartLine {
  const n = Math.max(0, l.timesMs.length - 1);
  const timesMs = new Float64Array(n);
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const dt = (l.timesMs[i + 1] - l.timesMs[i]) / 1000;
    const dv = l.values[i + 1] - l.values[i];
    timesMs[i] = l.timesMs[i + 1];
    values[i] = dt > 0 && dv >= 0 ? dv / dt : NaN;
  }
  return { ...l, timesMs, values };
}

/** Groups values into time-ordered lines, one per (series, instance), in first-seen order. */
function linesOf(values: readonly SeriesValue[], nameOf: (instance: string | undefined) => string): ChartLine[] {
  const groups = new Map<string, { instance?: string; points: Array<[number, number]> }>();
  for (const v of values) {
    const key = `${v.series}/${v.instance ?? ''}`;
    let g = groups.get(key);
    if (!g) {
      g = { ...(v.instance !== undefined ? { instance: v.instance } : {}), points: [] };
      groups.set(key, g);
    }
    // Non-numeric values (string metrics) are gaps in a chart.
    g.points.push([v.timestampMs, v.value.trim() === '' ? NaN : Number(v.value)]);
  }
  return [...groups.values()].map((g) => {
    g.points.sort((a, b) => a[0] - b[0]);
    return {
      name: nameOf(g.instance),
      ...(g.instance !== undefined ? { instance: g.instance } : {}),
      timesMs: Float64Array.from(g.points, (p) => p[0]),
      values: Float64Array.from(g.points, (p) => p[1]),
    };
  });
}
