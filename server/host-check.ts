// The Host rule of `pmdash serve`, ahead of everything else (the bridge's upgrade, GET
// /pmcd/targets, static files). The Origin check alone cannot stop DNS rebinding: a page at
// http://evil.example:8044 whose name is rebound to 127.0.0.1 sends Host and Origin that
// agree with each other. Its Host, though, is a name this server does not answer to. So a
// request passes only when its Host is one of:
//   - a loopback name or address: localhost, 127.0.0.0/8, [::1] (any port: the Vite dev
//     server proxies with the browser's Host, which names the dev server's port);
//   - the address the server is bound to (every interface address when bound to a wildcard),
//     and the name given to --host (any port);
//   - the host of an --origin (with that origin's port, default ports implied);
//   - a --public-host NAME[:PORT] (the name a reverse proxy forwards; any port if none given).
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { isIP } from 'node:net';

export interface HostRules {
  /** The --host the server listens on (a name or an address). */
  readonly listenHost?: string;
  /** --public-host entries, NAME[:PORT]. */
  readonly publicHosts?: readonly string[];
  /** Origins allowed besides the server's own (scheme://host[:port]). */
  readonly origins?: readonly string[];
}

/** Why a request is refused: the HTTP status and a short reason (also logged). */
export interface HostRefusal {
  readonly status: 403;
  readonly reason: string;
}

/** A Host header: a name or IPv4 address, or a bracketed IPv6 address, then an optional port. */
const HOST_SYNTAX = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

interface ParsedHost {
  /** Lowercase, IPv6 in brackets, IPv4 in dotted-quad form (as the URL parser gives them). */
  readonly hostname: string;
  /** '' when the header names no port. */
  readonly port: string;
}

function parseHost(text: string): ParsedHost | undefined {
  if (!HOST_SYNTAX.test(text)) return undefined;
  try {
    const url = new URL(`http://${text}`);
    return { hostname: url.hostname.replace(/\.$/, ''), port: /:(\d+)$/.exec(text)?.[1] ?? '' };
  } catch {
    return undefined;
  }
}

/** A --public-host value in canonical form; throws Error naming the text when malformed. */
export function parsePublicHost(text: string): ParsedHost {
  const parsed = parseHost(text.trim());
  if (!parsed || (parsed.port !== '' && (Number(parsed.port) < 1 || Number(parsed.port) > 65535))) throw new Error(`bad public host '${text}' (expected NAME[:PORT])`);
  return parsed;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** The hostname form parseHost gives for an address or name from elsewhere (bind address, --host). */
function canonicalName(name: string): string | undefined {
  return parseHost(isIP(name) === 6 ? `[${name}]` : name)?.hostname;
}

/**
 * The check for one server. `boundAddress` gives the address the server listens on (known
 * only once it listens); it is read at each request, as interface addresses may change.
 */
export function makeHostCheck(rules: HostRules, boundAddress: () => string | undefined): (req: IncomingMessage) => HostRefusal | undefined {
  const anyPort = new Set<string>();
  const withPort = new Set<string>();
  for (const entry of rules.publicHosts ?? []) {
    const p = parsePublicHost(entry);
    if (p.port === '') anyPort.add(p.hostname);
    else withPort.add(`${p.hostname}:${p.port}`);
  }
  const listen = rules.listenHost === undefined ? undefined : canonicalName(rules.listenHost);
  if (listen !== undefined) anyPort.add(listen);
  const origins = (rules.origins ?? []).map((o) => new URL(o));

  const boundNames = (): string[] => {
    const address = boundAddress();
    if (address === undefined) return [];
    if (address !== '::' && address !== '0.0.0.0') return [canonicalName(address) ?? address];
    return Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .filter((i) => address === '::' || i.family === 'IPv4')
      .map((i) => canonicalName(i.address.replace(/%.*$/, '')) ?? i.address);
  };

  return (req) => {
    const header = req.headers.host;
    if (header === undefined || header === '') return { status: 403, reason: 'missing Host header' };
    const host = parseHost(header);
    const refused: HostRefusal = { status: 403, reason: `Host '${header}' is not a name this server answers to (see --public-host)` };
    if (!host) return refused;
    if (isLoopback(host.hostname) || anyPort.has(host.hostname)) return undefined;
    // A Host without a port came through the scheme's default port (a reverse proxy on 80/443).
    if (host.port === '' ? withPort.has(`${host.hostname}:80`) || withPort.has(`${host.hostname}:443`) : withPort.has(`${host.hostname}:${host.port}`)) return undefined;
    for (const o of origins) {
      if ((o.protocol === 'http:' || o.protocol === 'https:') && new URL(`${o.protocol}//${header}`).host === o.host) return undefined;
    }
    if (boundNames().includes(host.hostname)) return undefined;
    return refused;
  };
}
