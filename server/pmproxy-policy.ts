// Which requests the same-origin pmproxy proxy (pmproxy-proxy.ts) forwards: only pmproxy's
// read endpoints (PMWEBAPI(3)), each with the methods pmproxy itself accepts for it (its
// servlet tables: /series reads take GET, or POST with the parameters URL-encoded in the body;
// /series/ping and every /pmapi read take GET only). Everything else is refused before pmproxy
// is contacted: /series/load (makes pmproxy read server paths), /pmapi/store, /pmapi/derive,
// /search, /logger, /metrics, unknown paths, other methods. Pure decisions, testable alone.

/** Where the proxy is mounted on the pmdash server. */
export const PMPROXY_PREFIX = '/pmproxy';

const SERIES_READS = new Set(['query', 'values', 'descs', 'labels', 'metrics', 'instances', 'sources']);
const PMAPI_READS = new Set(['context', 'metric', 'fetch', 'indom', 'children', 'profile']);

/**
 * The path is matched on the raw request text (never decoded): no percent-escapes, dot
 * segments, doubled or trailing slashes can reach pmproxy. /pmapi also takes a context
 * number in the path (`/pmapi/[number]/fetch`, PMWEBAPI(3)).
 */
const PATH_SYNTAX = /^\/pmproxy\/(series\/([a-z]+)|pmapi\/(?:[0-9]{1,10}\/)?([a-z]+))$/;

/** Size limits of a forwarded request. */
export interface RequestLimits {
  /** Longest request target (path and query) in bytes. */
  readonly maxUrlBytes: number;
  /** Largest POST body in bytes. */
  readonly maxBodyBytes: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = { maxUrlBytes: 8192, maxBodyBytes: 64 * 1024 };

export type ProxyVerdict =
  | {
      readonly action: 'forward';
      /** The path and query to ask pmproxy for (the mount prefix removed). */
      readonly upstreamPath: string;
      /** Whether the request carries a body to forward (a /series POST). */
      readonly hasBody: boolean;
    }
  | { readonly action: 'refuse'; readonly status: 403 | 413 | 414 | 415; readonly reason: string };

/** Whether a request target belongs to the proxy at all (else it is the static files' or the bridge's). */
export function isProxyPath(url: string): boolean {
  return url === PMPROXY_PREFIX || url.startsWith(`${PMPROXY_PREFIX}/`) || url.startsWith(`${PMPROXY_PREFIX}?`);
}

/**
 * The verdict on one request to the proxy from its method, raw target (req.url), and the
 * Content-Type and Content-Length headers. The Host and Origin rules are checked apart (they
 * are the bridge's, host-check.ts and bridge-policy.ts).
 */
export function checkProxyRequest(method: string, url: string, contentType: string | undefined, contentLength: string | undefined, limits: RequestLimits = DEFAULT_REQUEST_LIMITS): ProxyVerdict {
  if (Buffer.byteLength(url) > limits.maxUrlBytes) return { action: 'refuse', status: 414, reason: `request target longer than ${limits.maxUrlBytes} bytes` };
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  const m = PATH_SYNTAX.exec(path);
  const series = m?.[2];
  const pmapi = m?.[3];
  const known = (series !== undefined && (SERIES_READS.has(series) || series === 'ping')) || (pmapi !== undefined && PMAPI_READS.has(pmapi));
  if (!m || !known) return { action: 'refuse', status: 403, reason: `${path} is not a pmproxy read endpoint this proxy forwards` };
  const postable = series !== undefined && SERIES_READS.has(series);
  if (method === 'POST' && postable) {
    const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    // pmproxy reads a POST body as URL-encoded parameters; anything else is not a read it knows.
    if (type !== '' && type !== 'application/x-www-form-urlencoded') return { action: 'refuse', status: 415, reason: `POST body of type '${contentType ?? ''}' (pmproxy takes application/x-www-form-urlencoded)` };
    if (contentLength !== undefined && !(/^\d+$/.test(contentLength) && Number(contentLength) <= limits.maxBodyBytes)) return { action: 'refuse', status: 413, reason: `request body larger than ${limits.maxBodyBytes} bytes` };
    return { action: 'forward', upstreamPath: path.slice(PMPROXY_PREFIX.length) + query, hasBody: true };
  }
  if (method !== 'GET') return { action: 'refuse', status: 403, reason: `method ${method} is not allowed for ${path} (${postable ? 'GET or POST' : 'GET only'})` };
  // A GET carries no body; one announced anyway is not forwarded, so refuse it outright.
  if (contentLength !== undefined && contentLength !== '0') return { action: 'refuse', status: 403, reason: 'a GET with a body' };
  return { action: 'forward', upstreamPath: path.slice(PMPROXY_PREFIX.length) + query, hasBody: false };
}

/**
 * Request headers sent to pmproxy: only what a read needs. Everything else — Cookie,
 * Authorization, Proxy-Authorization, Origin, Referer, hop-by-hop headers (Connection,
 * Keep-Alive, TE, Upgrade, Transfer-Encoding, …) and whatever Connection names — stays here:
 * the proxy never hands the page's credentials to pmproxy.
 */
export const FORWARDED_REQUEST_HEADERS: readonly string[] = ['accept', 'accept-language'];

/**
 * Response headers passed back to the page. pmproxy's `Access-Control-Allow-*` (it answers
 * `*`) is dropped so other sites cannot read pmproxy through this origin; Set-Cookie and
 * WWW-Authenticate (a pmproxy with authentication would make the browser ask for a password
 * meant for pmproxy) and hop-by-hop headers are dropped too.
 */
export const FORWARDED_RESPONSE_HEADERS: readonly string[] = ['content-type', 'content-length', 'content-encoding', 'cache-control', 'last-modified', 'etag', 'expires', 'date'];

/** Picks the listed headers from a header object (names lowercase, as Node gives them). */
export function pickHeaders(headers: Readonly<Record<string, string | string[] | undefined>>, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = headers[name];
    if (typeof v === 'string') out[name] = v;
  }
  return out;
}
