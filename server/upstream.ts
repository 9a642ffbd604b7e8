// The bridge's connection to pmcd (or to pmproxy, through its PCP relay), with the flow
// control the bridge needs on top of a Transport: it stops reading pmcd while its client is
// not reading (so pmcd's replies wait in pmcd and the kernel, not in the bridge), and it
// knows how much it has written that pmcd has not taken yet (so a client cannot queue
// requests without bound when pmcd falls behind).
import type { Socket } from 'node:net';
import { pmproxyRelay } from '../src/pcp-core/pdu/pmproxy-relay';
import type { TargetSpec } from '../src/pcp-core/pdu/target-spec';
import type { Transport } from '../src/pcp-core/pdu/transport';
import { connectTcpSocket, socketTransport } from '../src/node/tcp-transport';

/** A Transport to pmcd; the flow-control members are optional (test doubles may lack them). */
export interface Upstream extends Transport {
  /** Stops delivering data (and reading the socket) until resume(). */
  pause?(): void;
  resume?(): void;
  /** Bytes sent but not yet handed to the kernel. */
  readonly queuedBytes?: number;
  /** Called each time the queued bytes have been written out. */
  onDrain?(handler: () => void): void;
}

/** Wraps `transport`, whose bytes travel on `socket`, with flow control over that socket. */
export function withFlowControl(transport: Transport, socket: Socket): Upstream {
  return {
    peer: transport.peer,
    send: (bytes) => transport.send(bytes),
    onData: (h) => transport.onData(h),
    onClose: (h) => transport.onClose(h),
    close: () => transport.close(),
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    get queuedBytes() {
      return socket.writableLength;
    },
    onDrain: (h) => void socket.on('drain', h),
  };
}

/** Upstream connection through TCP, and pmproxy's relay when the target names a proxy. */
export async function openUpstream(target: TargetSpec): Promise<Upstream> {
  const first = target.proxy ?? target;
  const socket = await connectTcpSocket(first.host, first.port);
  const tcp = socketTransport(socket, `${first.host}:${first.port}`);
  return withFlowControl(target.proxy ? await pmproxyRelay(tcp, target.host, target.port) : tcp, socket);
}
