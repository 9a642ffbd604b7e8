// pmproxy's PCP relay handshake (pdu-protocol.md §7): over a fresh stream to pmproxy, send
// "pmproxy-client 1\n", wait for "pmproxy-server 1\n", name the pmcd as "<host> <port>\n";
// from then on pmproxy copies bytes both ways and the PDU protocol runs end to end. pmcd's
// hello can arrive in the same chunk as pmproxy's reply, so the rest of that chunk is handed
// on. pmproxy 6.0.3 parses the target as an IPv4 literal only and silently turns anything
// else into 0.0.0.0 (the proxy host itself), so names other than "localhost" are refused
// here rather than reaching the wrong pmcd.
import { EINVAL, PmError, PM_ERR_IPC, PM_ERR_TIMEOUT, pmErrStr } from '../errors';
import { TransportEvents, type Transport } from './transport';

const CLIENT_HELLO = 'pmproxy-client 1\n';
const SERVER_HELLO = 'pmproxy-server 1\n';

/** The target line pmproxy understands for `host`, or a PmError explaining why not. */
export function relayTargetLine(host: string, port: number): string {
  const address = host === 'localhost' ? '127.0.0.1' : host;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!octets || octets.slice(1).some((o) => Number(o) > 255)) {
    throw new PmError(EINVAL, `pmproxy relays only to IPv4 addresses (or localhost), not '${host}'`, 'pmproxy relay');
  }
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new PmError(EINVAL, `bad pmcd port ${port}`, 'pmproxy relay');
  return `${address} ${port}\n`;
}

/**
 * Runs the relay handshake on `proxy` (a stream to pmproxy) and resolves with a Transport
 * that carries the pmcd byte stream. Rejects if pmproxy answers anything else in time.
 */
export function pmproxyRelay(proxy: Transport, host: string, port: number, timeoutMs = 10_000): Promise<Transport> {
  let line: string;
  try {
    line = relayTargetLine(host, port);
  } catch (e) {
    proxy.close();
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
  const peer = `${host}:${port}@${proxy.peer}`;
  const expected = new TextEncoder().encode(SERVER_HELLO);
  return new Promise<Transport>((resolve, reject) => {
    const events = new TransportEvents();
    let got = new Uint8Array(0);
    let done = false;
    const finish = (error: PmError | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error) {
        proxy.close();
        reject(error);
        return;
      }
      proxy.send(new TextEncoder().encode(line));
      resolve({
        peer,
        send: (bytes) => {
          if (events.closed) throw new PmError(PM_ERR_IPC, 'send on a closed connection', peer);
          proxy.send(bytes);
        },
        onData: (h) => events.setData(h),
        onClose: (h) => events.setClose(h),
        close: () => {
          events.close(undefined);
          proxy.close();
        },
      });
    };
    const timer = setTimeout(() => finish(new PmError(PM_ERR_TIMEOUT, `${pmErrStr(PM_ERR_TIMEOUT)} (no pmproxy relay reply)`, proxy.peer)), timeoutMs);
    proxy.onData((chunk) => {
      if (done) {
        events.data(chunk);
        return;
      }
      const joined = new Uint8Array(got.length + chunk.length);
      joined.set(got);
      joined.set(chunk, got.length);
      got = joined;
      const n = Math.min(got.length, expected.length);
      for (let i = 0; i < n; i++) {
        if (got[i] !== expected[i]) {
          const text = new TextDecoder().decode(got.subarray(0, Math.min(got.length, 40))).replace(/[^\x20-\x7e]/g, '.');
          finish(new PmError(PM_ERR_IPC, `not a pmproxy PCP relay: it answered '${text}'`, proxy.peer));
          return;
        }
      }
      if (got.length >= expected.length) {
        const rest = got.subarray(expected.length);
        finish(undefined);
        if (rest.length > 0) events.data(rest);
      }
    });
    proxy.onClose((error) => {
      if (!done) finish(error ?? new PmError(PM_ERR_IPC, 'pmproxy closed the connection during the relay handshake', proxy.peer));
      else events.close(error);
    });
    proxy.send(new TextEncoder().encode(CLIENT_HELLO));
  });
}
