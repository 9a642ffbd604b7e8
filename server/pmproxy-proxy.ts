// `pmdash serve --pmproxy URL`: pmproxy's REST API (PMWEBAPI(3)) at /pmproxy/… on pmdash's own
// origin, so the page reaches one configured pmproxy without CORS and without credentials of
// its own. pmproxy's /series has no per-user authorization and /series/load makes it read
// server paths, so this is a narrow gate, not a general reverse proxy:
//   - the Host rule of the whole server runs first (serve.ts, host-check.ts); then the
//     bridge's Origin rule (bridge-policy.ts) when the request carries an Origin — browsers
//     send none on same-origin GETs — and a browser's own `Sec-Fetch-Site: cross-site` is
//     refused when it carries none;
//   - only the read endpoints, with the methods pmproxy takes for them (pmproxy-policy.ts);
//   - size caps on the request target, the POST body and the response, a rate limit per
//     client address and for all clients (rate-limit.ts), a cap on requests in flight, and a
//     deadline for the whole exchange with pmproxy;
//   - responses are streamed (piped with backpressure, never held whole); the client going
//     away aborts the request to pmproxy;
//   - request headers are rebuilt from a short list (no Cookie, Authorization, Origin or
//     hop-by-hop header reaches pmproxy), response headers likewise (no CORS grant,
//     Set-Cookie or WWW-Authenticate reaches the page);
//   - every refusal is logged, escaped (log-text.ts), at most a few lines per second.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { checkOrigin, type BridgePolicy } from './bridge-policy';
import { escapeLogText } from './log-text';
import { checkProxyRequest, DEFAULT_REQUEST_LIMITS, FORWARDED_REQUEST_HEADERS, FORWARDED_RESPONSE_HEADERS, isProxyPath, pickHeaders, type RequestLimits } from './pmproxy-policy';
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimits } from './rate-limit';

export interface PmproxyProxyOptions {
  /** The pmproxy, http(s)://HOST[:PORT][/BASE] (parsePmproxyUrl). */
  readonly pmproxy: URL;
  /** The bridge's Origin policy (its configured origins). */
  readonly policy: BridgePolicy;
  readonly log: (line: string) => void;
  readonly requestLimits?: RequestLimits;
  readonly rateLimits?: RateLimits;
  /** Largest response passed on, in bytes (default 64 MiB). */
  readonly maxResponseBytes?: number;
  /** Deadline for one whole exchange with pmproxy, request to last byte (default 60 s). */
  readonly timeoutMs?: number;
  /** Requests to pmproxy in flight at once, over all clients (default 64); beyond, 503. */
  readonly maxInFlight?: number;
}

export interface PmproxyProxy {
  /** Handles a request under /pmproxy; false when the request is not for the proxy. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Requests sent to pmproxy so far (tests: a refused request never reaches it). */
  readonly forwarded: number;
  /** Requests to pmproxy in flight. */
  readonly inFlight: number;
  close(): void;
}

/** pmproxy's default port (PMWEBAPI(3)). */
const PMPROXY_PORT = 44322;

/**
 * The --pmproxy value as a URL: `http(s)://HOST[:PORT][/BASE]`, or `HOST[:PORT]` for plain
 * HTTP (port 44322 when none is given). Throws Error naming the text when it is neither.
 */
export function parsePmproxyUrl(text: string): URL {
  const t = text.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? t : `http://${t}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new Error(`bad pmproxy URL '${text}' (expected http://HOST[:PORT])`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`bad pmproxy URL '${text}': only http and https`);
  if (url.username !== '' || url.password !== '') throw new Error(`bad pmproxy URL '${text}': credentials in the URL are not supported`);
  if (url.search !== '' || url.hash !== '') throw new Error(`bad pmproxy URL '${text}': no query or fragment`);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(t) && url.port === '') url.port = String(PMPROXY_PORT);
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** How many refusals are logged per second before the rest are only counted. */
const LOG_REFUSALS_PER_SECOND = 10;

export function makePmproxyProxy(options: PmproxyProxyOptions): PmproxyProxy {
  const limits = options.requestLimits ?? DEFAULT_REQUEST_LIMITS;
  const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxInFlight = options.maxInFlight ?? 64;
  const rate = new RateLimiter(options.rateLimits ?? DEFAULT_RATE_LIMITS);
  const base = options.pmproxy;
  const https = base.protocol === 'https:';
  // A pmproxy behind a path (a reverse proxy's /pcp): its endpoints sit under that path.
  const basePath = base.pathname.replace(/\/+$/, '');
  // Keep-alive connections to the one pmproxy; at most maxInFlight of them.
  const agent = https ? new HttpsAgent({ keepAlive: true, maxSockets: maxInFlight }) : new HttpAgent({ keepAlive: true, maxSockets: maxInFlight });
  const log = (line: string): void => options.log(escapeLogText(`pmproxy proxy: ${line}`));
  let forwarded = 0;
  let inFlight = 0;
  let logWindow = 0;
  let loggedInWindow = 0;
  let unlogged = 0;

  const refuse = (req: IncomingMessage, res: ServerResponse, status: number, reason: string): void => {
    const second = Math.floor(Date.now() / 1000);
    if (second !== logWindow) {
      if (unlogged > 0) log(`${unlogged} more refusal${unlogged === 1 ? '' : 's'} not logged`);
      logWindow = second;
      loggedInWindow = 0;
      unlogged = 0;
    }
    if (loggedInWindow < LOG_REFUSALS_PER_SECOND) {
      loggedInWindow += 1;
      log(`refused ${req.socket.remoteAddress ?? '?'} ${req.method ?? ''} ${req.url ?? ''} (host ${req.headers.host ?? 'none'}, origin ${req.headers.origin ?? 'none'}): ${status} ${reason}`);
    } else {
      unlogged += 1;
    }
    const headers: Record<string, string> = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
    if (status === 429) headers['Retry-After'] = '1';
    // A refused request's body is not read: close the connection rather than drain it.
    if (req.method !== 'GET' || req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) headers.Connection = 'close';
    res.writeHead(status, headers).end(`${reason}\n`);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '/';
    if (!isProxyPath(url)) return false;
    const method = req.method ?? '';
    if (req.headers.origin !== undefined) {
      const refusal = checkOrigin(req, options.policy);
      if (refusal) {
        refuse(req, res, 403, refusal.reason);
        return true;
      }
    } else if (req.headers['sec-fetch-site'] === 'cross-site') {
      refuse(req, res, 403, 'a cross-site request');
      return true;
    }
    const verdict = checkProxyRequest(method, url, req.headers['content-type'], req.headers['content-length'], limits);
    if (verdict.action === 'refuse') {
      refuse(req, res, verdict.status, verdict.reason);
      return true;
    }
    if (!verdict.hasBody && req.headers['transfer-encoding'] !== undefined) {
      refuse(req, res, 403, 'a GET with a body');
      return true;
    }
    const limited = rate.take(req.socket.remoteAddress ?? '?');
    if (limited) {
      refuse(req, res, 429, limited.reason);
      return true;
    }
    if (inFlight >= maxInFlight) {
      refuse(req, res, 503, `${maxInFlight} requests to pmproxy already in flight`);
      return true;
    }
    inFlight += 1;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      inFlight -= 1;
    };
    res.once('close', finish);
    let upstream: ReturnType<typeof httpRequest> | undefined;
    let upstreamDone = false;
    const deadline = setTimeout(() => {
      log(`${req.method ?? ''} ${url}: pmproxy did not answer within ${timeoutMs} ms`);
      if (!res.headersSent) res.writeHead(504, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' }).end('pmproxy did not answer in time\n');
      else res.destroy();
      upstream?.destroy();
    }, timeoutMs);
    res.once('close', () => {
      clearTimeout(deadline);
      // The page went away before the answer was complete: nothing more is wanted from pmproxy.
      if (!upstreamDone) upstream?.destroy();
    });
    const send = (body: Buffer | undefined): void => {
      if (res.writableEnded || res.destroyed) return;
      forwarded += 1;
      const headers: Record<string, string> = { ...pickHeaders(req.headers, FORWARDED_REQUEST_HEADERS), host: base.host };
      if (body !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        headers['content-length'] = String(body.length);
      }
      const target = new URL(`${base.origin}${basePath}${verdict.upstreamPath}`);
      const start = https ? httpsRequest : httpRequest;
      upstream = start(target, { method: body === undefined ? 'GET' : 'POST', headers, agent });
      upstream.on('response', (answer) => {
        const declared = Number(answer.headers['content-length'] ?? NaN);
        if (declared > maxResponseBytes) {
          log(`${url}: pmproxy's answer of ${declared} bytes is over the ${maxResponseBytes}-byte cap`);
          answer.destroy();
          res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`pmproxy's answer is larger than ${maxResponseBytes} bytes\n`);
          return;
        }
        res.writeHead(answer.statusCode ?? 502, { ...pickHeaders(answer.headers, FORWARDED_RESPONSE_HEADERS), 'x-content-type-options': 'nosniff' });
        let bytes = 0;
        answer.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > maxResponseBytes) {
            log(`${url}: pmproxy's answer passed the ${maxResponseBytes}-byte cap; cut off`);
            answer.destroy();
            // Headers are out: the only honest signal left is an incomplete response.
            res.destroy();
            return;
          }
          if (!res.write(chunk)) {
            answer.pause();
            res.once('drain', () => answer.resume());
          }
        });
        answer.on('end', () => {
          upstreamDone = true;
          res.end();
        });
        answer.on('error', (e) => {
          log(`${url}: pmproxy's answer broke off: ${e.message}`);
          res.destroy();
        });
      });
      upstream.on('error', (e) => {
        if (res.writableEnded || res.destroyed) return;
        log(`${url}: cannot reach pmproxy at ${base.origin}: ${e.message}`);
        if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`cannot reach pmproxy: ${e.message}\n`);
        else res.destroy();
      });
      upstream.end(body);
    };
    if (!verdict.hasBody) {
      send(undefined);
      return true;
    }
    // A POST body is small (capped) and read whole before pmproxy is asked, so a slow client
    // never holds a pmproxy connection open.
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBodyBytes) {
        req.removeAllListeners('data');
        req.pause();
        clearTimeout(deadline);
        refuse(req, res, 413, `request body larger than ${limits.maxBodyBytes} bytes`);
        return;
      }
      parts.push(chunk);
    });
    req.on('end', () => {
      if (size <= limits.maxBodyBytes) send(Buffer.concat(parts));
    });
    req.on('error', () => res.destroy());
    return true;
  };

  return {
    handle,
    get forwarded() {
      return forwarded;
    },
    get inFlight() {
      return inFlight;
    },
    close() {
      agent.destroy();
    },
  };
}
