// A Transport over a WebSocket to the pmdash bridge (server/bridge.ts), for the browser and
// the worker; Node passes the `ws` package's WebSocket through `create` (src/node). Binary
// messages only: each message is an arbitrary chunk of the pmcd byte stream. The bridge's
// close code and reason (a refused target, an oversized or store PDU) become the PmError.
import { ECONNREFUSED, PmError, PM_ERR_IPC, PM_ERR_TIMEOUT, pmErrStr } from '../errors';
import { TransportEvents, type Transport } from './transport';

/** The subset of the WHATWG WebSocket API used here (the `ws` package provides it too). */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  onclose: ((event: { readonly code: number; readonly reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface WebSocketTransportOptions {
  /** Makes the socket; defaults to the platform's WebSocket. */
  readonly create?: (url: string) => WebSocketLike;
  readonly connectTimeoutMs?: number;
}

const OPEN = 1;

function platformWebSocket(url: string): WebSocketLike {
  const ctor = (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  if (!ctor) throw new PmError(PM_ERR_IPC, 'this platform has no WebSocket; pass options.create', url);
  return new ctor(url);
}

/** Why the bridge or the network ended the socket, as a PmError. */
function closeError(url: string, code: number, reason: string, opened: boolean): PmError {
  if (!opened) {
    // Browsers hide why an upgrade failed (HTTP 403/404/503 all look like 1006).
    return new PmError(ECONNREFUSED, `the bridge refused the connection${reason ? `: ${reason}` : ` (close code ${code})`}`, url);
  }
  return new PmError(PM_ERR_IPC, `${pmErrStr(PM_ERR_IPC)}: the bridge closed the connection (code ${code}${reason ? `: ${reason}` : ''})`, url);
}

export function openWebSocketTransport(url: string, options: WebSocketTransportOptions = {}): Promise<Transport> {
  return new Promise<Transport>((resolve, reject) => {
    let socket: WebSocketLike;
    try {
      socket = (options.create ?? platformWebSocket)(url);
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    socket.binaryType = 'arraybuffer';
    const events = new TransportEvents();
    let opened = false;
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      socket.close();
      reject(new PmError(PM_ERR_TIMEOUT, `${pmErrStr(PM_ERR_TIMEOUT)} (WebSocket did not open within ${options.connectTimeoutMs ?? 10_000} ms)`, url));
    }, options.connectTimeoutMs ?? 10_000);

    const transport: Transport = {
      peer: url,
      send(bytes) {
        if (events.closed || socket.readyState !== OPEN) throw new PmError(PM_ERR_IPC, 'send on a closed connection', url);
        socket.send(bytes);
      },
      onData: (h) => events.setData(h),
      onClose: (h) => events.setClose(h),
      close() {
        events.close(undefined);
        socket.close(1000, 'client closed');
      },
    };

    socket.onopen = () => {
      opened = true;
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(transport);
    };
    socket.onmessage = (event) => {
      const data = event.data;
      if (data instanceof ArrayBuffer) events.data(new Uint8Array(data));
      else if (ArrayBuffer.isView(data)) events.data(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      else {
        events.close(new PmError(PM_ERR_IPC, 'the bridge sent a text message; only binary PDU bytes are expected', url));
        socket.close(1003, 'binary only');
      }
    };
    // Browsers give the error event no detail; Node's `ws` puts e.g. "Unexpected server
    // response: 403" in `message`. The close event follows either way.
    let errorText = '';
    socket.onerror = (event) => {
      const message = (event as { message?: unknown } | null)?.message;
      if (typeof message === 'string') errorText = message;
    };
    socket.onclose = (event) => {
      const error = closeError(url, event.code, event.reason || errorText, opened);
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(error);
        return;
      }
      events.close(error);
    };
  });
}
