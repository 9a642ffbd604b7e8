// The fleet client's one door to pmproxy's REST API (PMWEBAPI(3)): a GET or POST with
// URL-encoded parameters over an injected `fetch`, answered by JSON. pmproxy is a network
// peer like any other, so every answer is bounded: a time limit per request, a byte limit per
// body (read as a stream, cut off as soon as it is passed), and a concurrency limit shared by
// all requests of one client. Every failure is a FleetError naming the URL.
import { ECONNREFUSED, EPROTO, PM_ERR_TIMEOUT, PM_ERR_TOOBIG, PmError } from '../errors';
import { Limiter } from './limiter';

/** What the client needs of a fetch Response; the platform's Response satisfies it. */
export interface FleetResponse {
  readonly status: number;
  readonly statusText: string;
  readonly body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
}

/** The platform's fetch, or a test's: injected so pcp-core needs neither DOM nor Node. */
export type FleetFetch = (
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; signal: AbortSignal },
) => Promise<FleetResponse>;

/** The request was abandoned by its caller (a newer request of the same chart, or a close). */
export const ECANCELED = -125;

export class FleetError extends PmError {
  override readonly name = 'FleetError';
  constructor(
    code: number,
    message: string,
    /** The request's URL (parameters of a POST are not part of it). */
    readonly url: string,
    /** HTTP status when pmproxy answered; 0 when it did not. */
    readonly status = 0,
  ) {
    super(code, message, url.length > 300 ? `${url.slice(0, 300)}…` : url);
  }
}

/** True when `e` only says that its request was superseded or cancelled: not a failure to report. */
export function isFleetCancel(e: unknown): boolean {
  return e instanceof FleetError && e.code === ECANCELED;
}

export interface TransportOptions {
  /** pmproxy's URL, e.g. `http://localhost:44322`, or a same-origin prefix such as `/pmproxy`. */
  readonly baseUrl: string;
  readonly fetch: FleetFetch;
  /** Requests in flight at once (default 6, the browsers' per-host connection count). */
  readonly maxConcurrent?: number;
  /** Largest answer body taken (default 32 MiB). */
  readonly maxBodyBytes?: number;
  /** Time allowed per request, from its start to the end of its body (default 30 s). */
  readonly timeoutMs?: number;
}

export type Params = Readonly<Record<string, string | undefined>>;

/** Parameters longer than this go in a POST body (pmproxy takes either; URLs have limits). */
const MAX_GET_QUERY = 2000;

function encodeParams(params: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return q.toString();
}

function snippet(text: string): string {
  // eslint-disable-next-line no-control-regex -- a peer's bytes, shown in one line of an error
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

/** pmproxy's words when it answers {"success":false,"message":…} (with HTTP 200 or 400), given the answer or its text. */
function refusal(answer: unknown): string | undefined {
  let value = answer;
  if (typeof answer === 'string') {
    try {
      value = JSON.parse(answer);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (value as { success?: unknown }).success !== false) return undefined;
  const message = (value as { message?: unknown }).message;
  return `pmproxy: ${typeof message === 'string' ? snippet(message) : 'request failed'}`;
}

/** `"timestamp":123.45` → `"timestamp":"123.45"`. A member name can only be unescaped quotes, never inside a string. */
function quoteTimestamps(text: string): string {
  return text.replace(/"timestamp"(\s*):(\s*)(-?[0-9][0-9.eE+-]*)/g, '"timestamp"$1:$2"$3"');
}

export class FleetTransport {
  readonly baseUrl: string;
  private readonly fetchImpl: FleetFetch;
  private readonly limiter: Limiter;
  private readonly maxBodyBytes: number;
  private readonly timeoutMs: number;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch;
    this.limiter = new Limiter(options.maxConcurrent ?? 6);
    this.maxBodyBytes = options.maxBodyBytes ?? 32 * 1024 * 1024;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /**
   * GET (or, for long parameter lists, POST) `path` and parse the JSON answer. With
   * `rawTimestamps`, every `"timestamp":NUMBER` member arrives as the number's text
   * (answers.ts parseSeriesTimestamp says why).
   */
  async getJson(path: string, params: Params, signal?: AbortSignal, rawTimestamps = false): Promise<unknown> {
    let value: unknown;
    await this.exchange(path, params, signal, (text, url, status) => (value = this.parse(rawTimestamps ? quoteTimestamps(text) : text, url, status)));
    return value;
  }

  private async exchange(path: string, params: Params, signal: AbortSignal | undefined, take: (text: string, url: string, status: number) => void): Promise<void> {
    const query = encodeParams(params);
    const post = query.length > MAX_GET_QUERY;
    const url = `${this.baseUrl}${path}${!post && query !== '' ? `?${query}` : ''}`;
    const cancelled = (): FleetError => new FleetError(ECANCELED, 'request cancelled', url);
    if (signal?.aborted) throw cancelled();
    const release = await this.limiter.acquire(signal).catch(() => {
      throw cancelled();
    });
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort);
    const fail = (e: unknown): never => {
      if (e instanceof FleetError) throw e;
      if (timedOut) throw new FleetError(PM_ERR_TIMEOUT, `no complete answer within ${this.timeoutMs} ms`, url);
      if (signal?.aborted) throw cancelled();
      throw new FleetError(ECONNREFUSED, `cannot reach pmproxy: ${e instanceof Error ? e.message : String(e)}`, url);
    };
    try {
      const response = await this.fetchImpl(url, {
        method: post ? 'POST' : 'GET',
        ...(post ? { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: query } : {}),
        signal: controller.signal,
      }).catch(fail);
      const text = await this.readBody(response, url).catch(fail);
      if (response.status < 200 || response.status > 299) {
        throw new FleetError(EPROTO, `HTTP ${response.status} ${response.statusText}: ${refusal(text) ?? (snippet(text) || 'no text')}`, url, response.status);
      }
      // Refusals in a 200 answer are pmproxy's too.
      const refused = refusal(text);
      if (refused !== undefined) throw new FleetError(EPROTO, refused, url, response.status);
      take(text, url, response.status);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      release();
    }
  }

  /** GET `path` and return the body's text after the same checks as getJson (for callers that parse it themselves). */
  async getText(path: string, params: Params, signal?: AbortSignal): Promise<string> {
    let text = '';
    await this.exchange(path, params, signal, (t) => (text = t));
    return text;
  }

  private async readBody(response: FleetResponse, url: string): Promise<string> {
    const tooBig = (): FleetError => new FleetError(PM_ERR_TOOBIG, `answer larger than ${this.maxBodyBytes} bytes`, url, response.status);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const decode = (bytes?: Uint8Array, stream = false): string => {
      try {
        return decoder.decode(bytes, { stream });
      } catch {
        throw new FleetError(EPROTO, 'answer is not UTF-8 text', url, response.status);
      }
    };
    if (!response.body) {
      const text = await response.text();
      if (text.length > this.maxBodyBytes) throw tooBig();
      return text;
    }
    const reader = response.body.getReader();
    let total = 0;
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > this.maxBodyBytes) {
        await reader.cancel();
        throw tooBig();
      }
      text += decode(value, true);
    }
    return text + decode();
  }

  private parse(text: string, url: string, status: number): unknown {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new FleetError(EPROTO, text === '' ? 'empty answer (is pmproxy connected to its key-value store?)' : `answer is not JSON: ${snippet(text)}`, url, status);
    }
    const refused = refusal(value);
    if (refused !== undefined) throw new FleetError(EPROTO, refused, url, status);
    return value;
  }
}
