// The engine's fleet calls: pmproxy's /series store through the fleet client (pcp-core/fleet),
// one client per pmproxy base URL (so its series-id caches and newest-wins keys live as long
// as the worker). Answers are plain data for the worker boundary: FleetErrors become
// EngineErrors (the page shows code, message and URL), per-host failures stay per host.
import { FleetClient, isFleetCancel, type Aggregate, type ChartResult, type FleetFetch, type FleetHost } from '../pcp-core/fleet';
import { boundary, toEngineError } from './engine-error';
import type { EngineError } from './engine-types';

export interface FleetChartRequest {
  /** Newest wins per key (a fleet tab's chart). */
  readonly key: string;
  readonly metric: string;
  readonly hosts: readonly string[];
  readonly startMs: number;
  readonly finishMs: number;
  readonly widthPx: number;
  /** Stored samples asked per pixel where pmproxy subsamples (the fleet client's default: 2). */
  readonly pointsPerPx?: number;
  /** Instances folded per host at each sample, or the top N instances at each sample. */
  readonly aggregate: Aggregate;
}

export interface FleetChartLine {
  readonly name: string;
  readonly timesMs: Float64Array;
  readonly values: Float64Array;
}

export interface FleetChartHost {
  readonly host: string;
  readonly expr: string;
  readonly semantics: string;
  readonly units: string;
  readonly lines: readonly FleetChartLine[];
  readonly decimated: boolean;
  /** A counter drawn as its rate, by pmproxy's rate() or worked out here between subsampled samples. */
  readonly rated: boolean;
  readonly error?: EngineError;
}

export interface FleetChartAnswer {
  readonly metric: string;
  readonly hosts: readonly FleetChartHost[];
  /** Set when the request was overtaken by a newer one of the same key (nothing to draw). */
  readonly cancelled?: boolean;
}

function plainChart(r: ChartResult): FleetChartAnswer {
  return {
    metric: r.metric,
    hosts: r.hosts.map((h) => ({
      host: h.host,
      expr: h.expr,
      semantics: h.desc?.semantics ?? '',
      units: h.desc?.units ?? '',
      lines: h.lines.map((l) => ({ name: l.name, timesMs: l.timesMs, values: l.values })),
      decimated: h.decimated,
      rated: h.rateHere === true || h.expr.includes('rate('),
      ...(h.error ? { error: toEngineError(h.error, h.host) } : {}),
    })),
  };
}

export class FleetApi {
  private readonly clients = new Map<string, FleetClient>();

  constructor(private readonly fetchFn: FleetFetch = (url, init) => fetch(url, init)) {}

  private client(baseUrl: string): FleetClient {
    let c = this.clients.get(baseUrl);
    if (!c) {
      c = new FleetClient({ baseUrl, fetch: this.fetchFn });
      this.clients.set(baseUrl, c);
    }
    return c;
  }

  /** Resolves when `baseUrl` answers pmproxy's /series/ping (the page's "is a store there?"). */
  ping(baseUrl: string): Promise<void> {
    return boundary(`pmproxy ${baseUrl}`, () => this.client(baseUrl).ping());
  }

  hosts(baseUrl: string): Promise<FleetHost[]> {
    return boundary(`pmproxy ${baseUrl} hosts`, () => this.client(baseUrl).hosts());
  }

  /** Metric names across the whole store matching a glob (`kernel.*`). */
  metrics(baseUrl: string, glob: string): Promise<string[]> {
    return boundary(`pmproxy ${baseUrl} metrics ${glob}`, () => this.client(baseUrl).metrics(glob));
  }

  /** The stored history of `hosts` in epoch ms (earliest and newest stored sample), if any. */
  span(baseUrl: string, hosts: readonly string[]): Promise<{ startMs: number; endMs: number } | undefined> {
    return boundary(`pmproxy ${baseUrl} history of ${hosts.join(', ')}`, async () => {
      const s = await this.client(baseUrl).span(hosts);
      return s && { startMs: s.startSec * 1000, endMs: s.finishSec * 1000 };
    });
  }

  chart(baseUrl: string, req: FleetChartRequest): Promise<FleetChartAnswer> {
    return boundary(`pmproxy ${baseUrl} ${req.metric}`, async () => {
      try {
        const r = await this.client(baseUrl).chart({
          key: req.key,
          metric: req.metric,
          hosts: req.hosts,
          startSec: req.startMs / 1000,
          finishSec: req.finishMs / 1000,
          widthPx: req.widthPx,
          ...(req.pointsPerPx !== undefined && { pointsPerPx: req.pointsPerPx }),
          aggregate: req.aggregate,
        });
        return plainChart(r);
      } catch (e) {
        if (isFleetCancel(e)) return { metric: req.metric, hosts: [], cancelled: true };
        throw e;
      }
    });
  }
}
