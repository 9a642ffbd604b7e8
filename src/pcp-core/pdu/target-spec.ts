// Names of pmcd targets, shared by the CLI (-h), the bridge's allow-list and its URL scheme:
// `HOST[:PORT][@PROXY[:PORT]]`, libpcp's `pmcdhost@proxyhost` form (pdu-protocol.md §7),
// with pmcd's port defaulting to 44321 and pmproxy's to 44322. IPv6 literals go in brackets.
// The canonical form always carries both ports, so "localhost" and "localhost:44321" name
// the same allow-list entry.
import { EINVAL, PmError } from '../errors';

export const PMCD_PORT = 44321;
export const PMPROXY_PORT = 44322;

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

export interface TargetSpec extends HostPort {
  /** Reach pmcd through this pmproxy's PCP relay. */
  readonly proxy?: HostPort;
}

function parseHostPort(text: string, defaultPort: number, whole: string): HostPort {
  let host: string;
  let portText: string | undefined;
  const bracket = /^\[([0-9A-Fa-f:.]+)\](?::(\d+))?$/.exec(text);
  if (bracket) {
    host = bracket[1] ?? '';
    portText = bracket[2];
  } else {
    const m = /^([A-Za-z0-9._-]+)(?::(\d+))?$/.exec(text);
    if (!m) throw new PmError(EINVAL, `bad host '${text}' (expected HOST[:PORT][@PROXY[:PORT]])`, whole);
    host = m[1] ?? '';
    portText = m[2];
  }
  const port = portText === undefined ? defaultPort : Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new PmError(EINVAL, `bad port '${portText ?? ''}'`, whole);
  return { host, port };
}

/** Parses `HOST[:PORT][@PROXY[:PORT]]`; throws PmError(EINVAL) naming the text. */
export function parseTargetSpec(text: string): TargetSpec {
  const parts = text.trim().split('@');
  if (parts.length > 2 || parts.some((p) => p === '')) throw new PmError(EINVAL, `bad target '${text}' (expected HOST[:PORT][@PROXY[:PORT]])`, text);
  const pmcd = parseHostPort(parts[0] ?? '', PMCD_PORT, text);
  if (parts.length === 1) return pmcd;
  return { ...pmcd, proxy: parseHostPort(parts[1] ?? '', PMPROXY_PORT, text) };
}

/** `host:port`, an IPv6 literal in brackets. */
export function formatHostPort(h: HostPort): string {
  return `${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}`;
}

/** The canonical text: both ports always present. */
export function formatTargetSpec(t: TargetSpec): string {
  return t.proxy ? `${formatHostPort(t)}@${formatHostPort(t.proxy)}` : formatHostPort(t);
}

/** Path of the bridge's WebSocket endpoint and of its target list (server/bridge.ts). */
export const BRIDGE_PATH = '/pmcd';
export const BRIDGE_TARGETS_PATH = '/pmcd/targets';

/**
 * The bridge URL for `target` (canonical or not; undefined = the bridge's default) on the
 * server at `origin` (http(s)://host:port, or ws(s)://…).
 */
export function bridgeUrl(origin: string, target?: string): string {
  const url = new URL(BRIDGE_PATH, origin.replace(/^http/, 'ws'));
  if (target !== undefined) url.searchParams.set('target', formatTargetSpec(parseTargetSpec(target)));
  return url.toString();
}
