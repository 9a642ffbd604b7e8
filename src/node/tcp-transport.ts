// The Node TCP Transport (CLI, tests, the bridge's upstream side): a net.Socket to pmcd or
// pmproxy, or to pmcd's Unix domain socket, moving bytes only (pdu-protocol.md §1.1). Socket
// errors become PmErrors carrying the negated errno, as libpcp reports them (ECONNREFUSED →
// −111 "Connection refused").
import { connect, type Socket } from 'node:net';
import { constants } from 'node:os';
import { ECONNREFUSED, ETIMEDOUT, PmError, PM_ERR_EOF, PM_ERR_IPC, pmErrStr } from '../pcp-core/errors';
import { TransportEvents, type Transport } from '../pcp-core/pdu/transport';

export interface TcpOptions {
  /** libpcp's PMCD_CONNECT_TIMEOUT default is 5 s (§2.11). */
  readonly connectTimeoutMs?: number;
}

/** A socket error as a PmError with the negated errno where Node names one. */
export function socketError(e: unknown, peer: string): PmError {
  const err = e as NodeJS.ErrnoException;
  // A name that does not resolve: libpcp reports EHOSTUNREACH ("No route to host").
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' || err.code === 'EAI_NONAME') {
    return new PmError(-113, `${pmErrStr(-113)} (cannot resolve the host name)`, peer);
  }
  const errno = typeof err.code === 'string' ? (constants.errno as Record<string, number | undefined>)[err.code] : undefined;
  if (errno !== undefined) return new PmError(-errno, pmErrStr(-errno), peer);
  return new PmError(PM_ERR_IPC, err instanceof Error ? err.message : String(e), peer);
}

/** Wraps a connected socket. */
export function socketTransport(socket: Socket, peer: string): Transport {
  const events = new TransportEvents();
  socket.setNoDelay(true);
  socket.on('data', (chunk: Buffer) => events.data(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
  socket.on('error', (e) => events.close(socketError(e, peer)));
  socket.on('close', () => events.close(new PmError(PM_ERR_EOF, `${pmErrStr(PM_ERR_EOF)} (closed by the other end)`, peer)));
  return {
    peer,
    send(bytes) {
      if (events.closed || socket.destroyed) throw new PmError(PM_ERR_IPC, 'send on a closed connection', peer);
      socket.write(bytes);
    },
    onData: (h) => events.setData(h),
    onClose: (h) => events.setClose(h),
    close() {
      events.close(undefined);
      socket.destroy();
    },
  };
}

/** Opens a TCP connection; rejects with a PmError naming host:port. */
/** Opens a TCP connection; rejects with a PmError naming host:port. */
export async function openTcpTransport(host: string, port: number, options: TcpOptions = {}): Promise<Transport> {
  return socketTransport(await connectTcpSocket(host, port, options), `${host}:${port}`);
}

/** Opens a connection to pmcd's Unix domain socket; rejects with a PmError naming the path. */
export async function openUnixTransport(path: string, options: TcpOptions = {}): Promise<Transport> {
  return socketTransport(await connectSocket({ path }, path, options), path);
}

/**
 * The connected socket itself, for a caller that also needs flow control over it (the
 * bridge pauses pmcd's socket while its client is not reading); errors as openTcpTransport.
 */
export function connectTcpSocket(host: string, port: number, options: TcpOptions = {}): Promise<Socket> {
  return connectSocket({ host, port }, `${host}:${port}`, options);
}

function connectSocket(where: { host: string; port: number } | { path: string }, peer: string, options: TcpOptions): Promise<Socket> {
  const timeoutMs = options.connectTimeoutMs ?? 5000;
  return new Promise<Socket>((resolve, reject) => {
    const socket = connect(where);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new PmError(ETIMEDOUT, `${pmErrStr(ETIMEDOUT)} (connecting for ${timeoutMs} ms)`, peer));
    }, timeoutMs);
    const onError = (e: Error): void => {
      clearTimeout(timer);
      const error = socketError(e, peer);
      reject(error.code === ECONNREFUSED ? new PmError(ECONNREFUSED, `${pmErrStr(ECONNREFUSED)} (is pmcd running?)`, peer) : error);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(socket);
    });
  });
}
