// Opens a LiveContext from a `-h` host specification, as the CLI takes it: PCP's host specs
// (host-spec.ts: HOST[:PORTS], HOST@PROXY, pcp://…, local:, unix:) with libpcp's environment
// (PMCD_PORT, PMPROXY_HOST/PORT, PMCD_CONNECT_TIMEOUT, PMCD_REQUEST_TIMEOUT), or
// ws://… / wss://… through a pmdash bridge (server/bridge.ts URL scheme).
import { LiveContext, type LiveContextOptions } from '../pcp-core/context/live-context';
import { isPmError, type PmError } from '../pcp-core/errors';
import { pmproxyRelay } from '../pcp-core/pdu/pmproxy-relay';
import type { Connector } from '../pcp-core/pdu/transport';
import { envTimeoutMs, parseHostSpec, pmcdPorts, type Env, type HostSpec } from './host-spec';
import { openTcpTransport, openUnixTransport, type TcpOptions } from './tcp-transport';
import { openNodeWebSocketTransport } from './websocket-transport';

/** Tries each attempt in turn (libpcp's port list); the last failure is the answer. */
async function firstOf(attempts: ReadonlyArray<() => Promise<Awaited<ReturnType<Connector>>>>): ReturnType<Connector> {
  let last: PmError | undefined;
  for (const attempt of attempts) {
    try {
      return await attempt();
    } catch (e) {
      if (!isPmError(e)) throw e;
      last = e;
    }
  }
  if (last) throw last;
  throw new Error('firstOf: no connection attempts');
}

function hostConnector(spec: HostSpec, env: Env, tcp: TcpOptions): Connector {
  if (spec.kind !== 'tcp') {
    if (spec.kind === 'unix') return () => openUnixTransport(spec.path, tcp);
    // local: (__pmConnectPMCD) the socket first, then localhost on pmcd's default port(s).
    return () => firstOf([() => openUnixTransport(spec.path, tcp), ...pmcdPorts(env).map((port) => () => openTcpTransport('localhost', port, tcp))]);
  }
  const proxy = spec.proxy;
  if (!proxy) return () => firstOf(spec.ports.map((port) => () => openTcpTransport(spec.host, port, tcp)));
  return () => firstOf(spec.ports.map((port) => async () => pmproxyRelay(await openTcpTransport(proxy.host, proxy.port, tcp), spec.host, port)));
}

/** The connector for a host specification (throws PmError EINVAL for a malformed one). */
export function connectorFor(spec: string, env: Env = process.env, tcp: TcpOptions = {}): Connector {
  if (/^wss?:\/\//i.test(spec)) return () => openNodeWebSocketTransport(spec);
  return hostConnector(parseHostSpec(spec, env), env, tcp);
}

/**
 * Opens the context; the environment's timeouts apply unless `options` sets them (a bad
 * value is ignored with `warn`'s warning, as libpcp's pmNotifyErr).
 */
export function openLiveContext(spec: string, options: Partial<Omit<LiveContextOptions, 'target' | 'connect'>> = {}, env: Env = process.env, warn: (text: string) => void = (t) => process.stderr.write(`Warning: ${t}\n`)): Promise<LiveContext> {
  const connectTimeoutMs = envTimeoutMs(env, 'PMCD_CONNECT_TIMEOUT', 5000, warn);
  const requestTimeoutMs = options.requestTimeoutMs ?? envTimeoutMs(env, 'PMCD_REQUEST_TIMEOUT', 10_000, warn);
  // The hello waits libpcp's built-in 10 s (it reads PMCD_REQUEST_TIMEOUT only afterwards).
  return LiveContext.open({ helloTimeoutMs: 10_000, ...options, requestTimeoutMs, target: spec, connect: connectorFor(spec, env, { connectTimeoutMs }) });
}
