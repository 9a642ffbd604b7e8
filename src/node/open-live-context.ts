// Opens a LiveContext from a `-h` host specification, as the CLI takes it:
//   HOST[:PORT]                 direct TCP to pmcd (default port 44321)
//   HOST[:PORT]@PROXY[:PORT]    through pmproxy's PCP relay (default port 44322)
//   ws://… or wss://…           through a pmdash bridge (server/bridge.ts URL scheme)
import { LiveContext, type LiveContextOptions } from '../pcp-core/context/live-context';
import { pmproxyRelay } from '../pcp-core/pdu/pmproxy-relay';
import { parseTargetSpec } from '../pcp-core/pdu/target-spec';
import type { Connector } from '../pcp-core/pdu/transport';
import { openTcpTransport } from './tcp-transport';
import { openNodeWebSocketTransport } from './websocket-transport';

/** The connector for a host specification (throws PmError EINVAL for a malformed one). */
export function connectorFor(spec: string): Connector {
  if (/^wss?:\/\//i.test(spec)) return () => openNodeWebSocketTransport(spec);
  const target = parseTargetSpec(spec);
  const proxy = target.proxy;
  if (!proxy) return () => openTcpTransport(target.host, target.port);
  return async () => pmproxyRelay(await openTcpTransport(proxy.host, proxy.port), target.host, target.port);
}

export function openLiveContext(spec: string, options: Partial<Omit<LiveContextOptions, 'target' | 'connect'>> = {}): Promise<LiveContext> {
  return LiveContext.open({ ...options, target: spec, connect: connectorFor(spec) });
}
