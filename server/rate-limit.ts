// Request rate limits of the pmproxy proxy: a token bucket per client address and one for all
// clients together, so neither one client nor many can turn pmdash into a pmproxy flood. The
// per-client table is bounded: buckets that have refilled are forgotten, and when the table
// is full of active clients a new client is refused rather than memory growing.

export interface RateLimits {
  /** Requests per second one client address may sustain. */
  readonly perClientPerSecond: number;
  /** Requests one client may make at once after being idle. */
  readonly perClientBurst: number;
  /** Requests per second across all clients. */
  readonly globalPerSecond: number;
  readonly globalBurst: number;
  /** Most client addresses tracked at once. */
  readonly maxClients: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { perClientPerSecond: 50, perClientBurst: 200, globalPerSecond: 500, globalBurst: 1000, maxClients: 10_000 };

interface Bucket {
  tokens: number;
  at: number;
}

export type RateVerdict = undefined | { readonly scope: 'client' | 'global'; readonly reason: string };

export class RateLimiter {
  private readonly clients = new Map<string, Bucket>();
  private readonly global: Bucket;

  constructor(
    private readonly limits: RateLimits = DEFAULT_RATE_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.global = { tokens: limits.globalBurst, at: now() };
  }

  /** Takes one request for `client` (its address); undefined when it may go ahead. */
  take(client: string): RateVerdict {
    const t = this.now();
    refill(this.global, t, this.limits.globalPerSecond, this.limits.globalBurst);
    let bucket = this.clients.get(client);
    if (bucket === undefined) {
      if (this.clients.size >= this.limits.maxClients) this.forgetFull(t);
      if (this.clients.size >= this.limits.maxClients) return { scope: 'global', reason: `more than ${this.limits.maxClients} clients active` };
      bucket = { tokens: this.limits.perClientBurst, at: t };
      this.clients.set(client, bucket);
    }
    refill(bucket, t, this.limits.perClientPerSecond, this.limits.perClientBurst);
    if (bucket.tokens < 1) return { scope: 'client', reason: `more than ${this.limits.perClientPerSecond} requests per second from this client` };
    if (this.global.tokens < 1) return { scope: 'global', reason: `more than ${this.limits.globalPerSecond} requests per second in all` };
    bucket.tokens -= 1;
    this.global.tokens -= 1;
    return undefined;
  }

  /** Client addresses tracked. */
  get size(): number {
    return this.clients.size;
  }

  /** Drops the buckets that are full again: their clients are as if never seen. */
  private forgetFull(t: number): void {
    for (const [client, bucket] of this.clients) {
      refill(bucket, t, this.limits.perClientPerSecond, this.limits.perClientBurst);
      if (bucket.tokens >= this.limits.perClientBurst) this.clients.delete(client);
    }
  }
}

function refill(bucket: Bucket, t: number, perSecond: number, burst: number): void {
  bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * perSecond);
  bucket.at = t;
}
