// WebSocket Transport for Node (CLI `-h ws://…`, tests, benchmarks): Node 20 has no global
// WebSocket, so the core's openWebSocketTransport gets the `ws` package's socket through its
// `create` hook. Node sends an Origin like a browser would — the bridge's own http(s) origin
// by default — because the bridge refuses upgrades without one.
import { WebSocket } from 'ws';
import { openWebSocketTransport, type WebSocketLike } from '../pcp-core/pdu/websocket-transport';
import type { Transport } from '../pcp-core/pdu/transport';

export interface NodeWebSocketOptions {
  /** Origin header to send; defaults to the URL's own origin (http ↔ ws, https ↔ wss). */
  readonly origin?: string;
  readonly connectTimeoutMs?: number;
}

/** The http(s) origin a browser page served by the bridge would have. */
export function bridgeOrigin(url: string): string {
  const u = new URL(url);
  return `${u.protocol === 'wss:' ? 'https:' : 'http:'}//${u.host}`;
}

export function openNodeWebSocketTransport(url: string, options: NodeWebSocketOptions = {}): Promise<Transport> {
  const origin = options.origin ?? bridgeOrigin(url);
  return openWebSocketTransport(url, {
    connectTimeoutMs: options.connectTimeoutMs,
    // `ws` implements the onopen/onmessage/onclose/onerror/binaryType subset the core uses.
    create: (u) => new WebSocket(u, { origin, perMessageDeflate: false }) as unknown as WebSocketLike,
  });
}
