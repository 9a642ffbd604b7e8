// PCP host specifications for the CLI's -h (and its default: pmval with neither -a nor -h
// asks the local pmcd, "local:"), read as libpcp's __pmParseHostAttrsSpec and
// __pmConnectPMCD read them, and the environment that shapes those connections:
//   HOST[:PORT[,PORT...]]     pmcd over TCP: the ports in turn, else $PMCD_PORT's list, else 44321
//   HOST[:PORTS]@PROXY[:PORT] through that pmproxy's relay (its port, else 44322)
//   pcp://HOST[:PORTS][@PROXY[:PORT]]  the same as a URL
//   local:[PATH], local://PATH  pmcd's Unix socket, and when that fails localhost over TCP
//   unix:[PATH], unix://PATH    pmcd's Unix socket only
// The socket defaults to $PMCD_SOCKET, else $PCP_RUN_DIR/pmcd.socket (PCP_RUN_DIR from the
// environment or pcp.conf). $PMPROXY_HOST sends a plain TCP host through that pmproxy
// ($PMPROXY_PORT, else 44322). $PMCD_CONNECT_TIMEOUT and $PMCD_REQUEST_TIMEOUT are seconds
// (defaults 5 and 10; libpcp ignores a malformed or negative value, with a warning).
// Attributes (?user=...) and pcps:// are not supported: refused with the spec named.
import { readFileSync } from 'node:fs';
import { EINVAL, PmError } from '../pcp-core/errors';
import { PMCD_PORT, PMPROXY_PORT, type HostPort } from '../pcp-core/pdu/target-spec';

export type HostSpec =
  | { readonly kind: 'tcp'; readonly host: string; readonly ports: readonly number[]; readonly proxy?: HostPort }
  | { readonly kind: 'local' | 'unix'; readonly path: string };

export type Env = Readonly<Record<string, string | undefined>>;

/** __pmAddPorts: a comma list of strtol(…, 0) numbers; undefined when any is malformed. */
function portList(text: string): number[] | undefined {
  const out: number[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*([+-]?)(0x[0-9a-f]+|0[0-7]*|[1-9]\d*)$/i.exec(part);
    if (!m) return undefined;
    const n = (m[1] === '-' ? -1 : 1) * Number(m[2].toLowerCase().startsWith('0x') ? m[2] : /^0\d/.test(m[2]) ? parseInt(m[2], 8) : m[2]);
    if (n < 0 || n > 65535) return undefined;
    out.push(n);
  }
  return out;
}

/** pmcd's ports when a spec names none: $PMCD_PORT, else (unset or malformed) 44321. */
export function pmcdPorts(env: Env): number[] {
  const v = env.PMCD_PORT;
  return (v !== undefined ? portList(v) : undefined) ?? [PMCD_PORT];
}

/** $PMPROXY_HOST and its port ($PMPROXY_PORT's first, else 44322), when set. */
export function envProxy(env: Env): HostPort | undefined {
  const host = env.PMPROXY_HOST;
  if (host === undefined) return undefined;
  const v = env.PMPROXY_PORT;
  return { host, port: ((v !== undefined ? portList(v) : undefined) ?? [PMPROXY_PORT])[0] };
}

/** PCP_RUN_DIR as pmGetConfig finds it: the environment, else $PCP_CONF or /etc/pcp.conf. */
function pcpRunDir(env: Env): string {
  if (env.PCP_RUN_DIR) return env.PCP_RUN_DIR;
  const conf = env.PCP_CONF ?? '/etc/pcp.conf';
  let text: string;
  try {
    text = readFileSync(conf, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return '/run/pcp';
    throw e;
  }
  return /^PCP_RUN_DIR=(.*)$/m.exec(text)?.[1]?.trim() || '/run/pcp';
}

/** __pmPMCDLocalSocketDefault: $PMCD_SOCKET, else $PCP_RUN_DIR/pmcd.socket. */
export function defaultPmcdSocket(env: Env): string {
  return env.PMCD_SOCKET ?? `${pcpRunDir(env)}/pmcd.socket`;
}

function bad(spec: string, why: string): PmError {
  return new PmError(EINVAL, `bad host specification '${spec}': ${why}`, spec);
}

function parseHost(text: string, spec: string, defaultPorts: readonly number[]): { host: string; ports: number[] } {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._-]+))(?::(.*))?$/.exec(text);
  if (!m) throw bad(spec, `'${text}' is not HOST[:PORT]`);
  const host = m[1] ?? m[2] ?? '';
  if (m[3] === undefined) return { host, ports: [...defaultPorts] };
  if (!/^\d+(,\d+)*$/.test(m[3])) throw bad(spec, 'non-numeric port');
  const ports = m[3].split(',').map(Number);
  if (ports.some((p) => p < 1 || p > 65535)) throw bad(spec, 'port out of range');
  return { host, ports };
}

/** Parses a -h spec (throws PmError EINVAL naming it). */
export function parseHostSpec(spec: string, env: Env): HostSpec {
  const proto = /^([A-Za-z]+):(\/\/)?/.exec(spec);
  let rest = spec;
  let kind: 'tcp' | 'local' | 'unix' = 'tcp';
  if (proto && /^(pcp|pcps|local|unix)$/i.test(proto[1])) {
    const p = proto[1].toLowerCase();
    if (p === 'pcps') throw bad(spec, 'secure connections (pcps://) are not supported');
    if (p === 'pcp' && proto[2] === undefined) throw bad(spec, 'expected pcp://HOST');
    kind = p === 'pcp' ? 'tcp' : (p as 'local' | 'unix');
    rest = spec.slice(proto[0].length);
    // local://some/path: the "//" goes, the path is made absolute (parseSocketPath).
  }
  const q = rest.indexOf('?');
  if (q >= 0) {
    if (rest.slice(q + 1) !== '') throw bad(spec, 'connection attributes are not supported');
    rest = rest.slice(0, q);
  }
  if (kind !== 'tcp') {
    // A path runs to the first ':' (a "local:" spec may end with one).
    const path = rest.split(':')[0] ?? '';
    if (rest.slice(path.length).replace(/^:/, '') !== '') throw bad(spec, 'unexpected text after the socket path');
    return { kind, path: path === '' ? defaultPmcdSocket(env) : path.startsWith('/') ? path : `/${path}` };
  }
  rest = rest.replace(/\/$/, '');
  const parts = rest.split('@');
  if (parts.length > 2 || parts.some((p) => p === '')) throw bad(spec, 'expected HOST[:PORT][@PROXY[:PORT]]');
  const pmcd = parseHost(parts[0], spec, pmcdPorts(env));
  if (parts.length === 1) {
    const proxy = envProxy(env);
    return { kind, ...pmcd, ...(proxy ? { proxy } : {}) };
  }
  const proxy = parseHost(parts[1], spec, [PMPROXY_PORT]);
  return { kind, ...pmcd, proxy: { host: proxy.host, port: proxy.ports[0] ?? PMPROXY_PORT } };
}

/** A timeout in seconds from the environment as libpcp reads it (strtod, ≥ 0), in ms. */
export function envTimeoutMs(env: Env, name: 'PMCD_CONNECT_TIMEOUT' | 'PMCD_REQUEST_TIMEOUT', defaultMs: number, warn: (text: string) => void): number {
  const v = env[name];
  if (v === undefined) return defaultMs;
  // strtod's whole string: leading space allowed, nothing after the number.
  const ok = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(v) || /^\s*[+-]?(inf|infinity)$/i.test(v);
  const s = ok ? Number(v.trim().replace(/^([+-]?)inf(inity)?$/i, '$1Infinity')) : NaN;
  if (!ok || s < 0) {
    warn(`ignored bad ${name} = '${v}'`);
    return defaultMs;
  }
  // libpcp keeps it as a timeval (whole microseconds); a timer holds at most 2^31 - 1 ms.
  return Math.min(Math.floor(s * 1e6) / 1e3, 2 ** 31 - 1);
}
