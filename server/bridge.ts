// The WebSocket-to-pmcd bridge (pdu-protocol.md §8.5), on the same HTTP server and origin as
// the app. URL scheme: ws[s]://HOST:PORT/pmcd?target=PMCDHOST:PORT[@PROXYHOST:PORT] (`host=`
// is an alias); without it the first allowed target is used; GET /pmcd/targets lists them.
//
// Data path: browser ⇄ WebSocket (binary messages, arbitrary chunks) ⇄ this bridge ⇄ TCP to
// pmcd (or to pmproxy, after the bridge itself runs the relay handshake naming the allowed
// pmcd). Client → pmcd bytes are reassembled into whole PDUs and each is checked by
// bridge-policy.ts before it is written, so pmcd never waits on a partial PDU and never sees
// a store (unless enabled), an oversized PDU or a malformed one. A refused store is answered
// by the bridge with the ERROR(PM_ERR_PERMISSION) pmcd itself sends when its access rules
// deny a store, in the place of the reply stream where pmcd's answer would be
// (bridge-replies.ts), and the connection carries on. pmcd → client bytes are reassembled
// too, for that bookkeeping, and passed on unchanged otherwise. Connections are capped, idle
// ones closed, every connect, refusal, dropped store and disconnect logged.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { DecodeError, isPmError, pmErrSymbol, PM_ERR_TOOBIG } from '../src/pcp-core/errors';
import { PDU_SERVER_MAX_BYTES, pduTypeName } from '../src/pcp-core/pdu/constants';
import type { Pdu } from '../src/pcp-core/pdu/pdu-buffer';
import { PduReassembler } from '../src/pcp-core/pdu/reassembler';
import { BRIDGE_TARGETS_PATH, type TargetSpec } from '../src/pcp-core/pdu/target-spec';
import { pmproxyRelay } from '../src/pcp-core/pdu/pmproxy-relay';
import type { Transport } from '../src/pcp-core/pdu/transport';
import { openTcpTransport } from '../src/node/tcp-transport';
import { ReplyTracker } from './bridge-replies';
import { ConnectGate } from './connect-gate';
import { checkClientPdu, checkOrigin, chooseTarget, CLOSE_POLICY, CLOSE_TOO_BIG, CLOSE_UPSTREAM, defaultTarget, makePolicy, type BridgePolicy, type PduVerdict } from './bridge-policy';

export interface BridgeOptions {
  /** Allowed targets, `HOST[:PORT][@PROXY[:PORT]]`; the first is the default. */
  readonly targets?: readonly string[];
  /** Origins allowed besides the server's own. */
  readonly origins?: readonly string[];
  /** Forward client-sent store PDUs (off by default: answered with PM_ERR_PERMISSION). */
  readonly allowStore?: boolean;
  /** Most simultaneous bridge connections (default 64). */
  readonly maxConnections?: number;
  /** Close a connection after this long without client traffic (default 10 minutes). */
  readonly idleTimeoutMs?: number;
  /** Client PDUs per second per connection before reading is paused (default 5000). */
  readonly maxPdusPerSecond?: number;
  /** pmcd → client bytes queued for a slow client before it is disconnected (default 64 MiB). */
  readonly maxBufferedBytes?: number;
  readonly log: (line: string) => void;
  /** Opens the byte stream to a target; defaults to TCP, with pmproxy's relay for proxies. */
  readonly connectUpstream?: (target: TargetSpec) => Promise<Transport>;
}

export interface Bridge {
  readonly policy: BridgePolicy;
  /** Open bridge connections. */
  readonly connections: number;
  /** Answers GET /pmcd/targets; false when the request is not for it. */
  handleHttp(req: IncomingMessage, res: ServerResponse): boolean;
  /** Closes every connection. */
  close(): void;
}


/** Upstream connection through TCP, and pmproxy's relay when the target names a proxy. */
export async function defaultUpstream(target: TargetSpec): Promise<Transport> {
  if (!target.proxy) return openTcpTransport(target.host, target.port);
  return pmproxyRelay(await openTcpTransport(target.proxy.host, target.proxy.port), target.host, target.port);
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  const text = `${reason}\n`;
  const statusText = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
}

export function attachBridge(server: Server, options: BridgeOptions): Bridge {
  const policy = makePolicy(options);
  const maxConnections = options.maxConnections ?? 64;
  const idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60_000;
  const upstreamOf = options.connectUpstream ?? defaultUpstream;
  const maxPdusPerSecond = options.maxPdusPerSecond ?? 5000;
  const maxBufferedBytes = options.maxBufferedBytes ?? 64 * 1024 * 1024;
  const log = options.log;
  // Frames may carry several PDUs; the per-PDU limit is enforced after reassembly.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * policy.maxPduBytes, perMessageDeflate: false });
  const open = new Set<WebSocket>();
  const gate = new ConnectGate(4, 10_000);
  let nextId = 1;

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const from = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`;
    const chosen = chooseTarget(req, policy);
    const refusal = 'status' in chosen ? chosen : (checkOrigin(req, policy) ?? (open.size >= maxConnections ? { status: 503, reason: `connection limit (${maxConnections}) reached` } : undefined));
    if (refusal) {
      log(`bridge: refused ${from} ${req.url ?? ''} (origin ${req.headers.origin ?? 'none'}): ${refusal.reason}`);
      refuseUpgrade(socket, refusal.status, refusal.reason);
      return;
    }
    if ('status' in chosen) return;
    wss.handleUpgrade(req, socket, head, (ws) => {
      const id = nextId++;
      open.add(ws);
      log(`bridge: connect #${id} from ${from} origin ${req.headers.origin ?? 'none'} → ${chosen.name}`);
      runConnection(ws, id, chosen.target, chosen.name);
    });
  });

  function runConnection(ws: WebSocket, id: number, target: TargetSpec, name: string): void {
    const started = Date.now();
    const reassembler = new PduReassembler(`client #${id}`, policy.maxPduBytes);
    const fromPmcd = new PduReassembler(name, PDU_SERVER_MAX_BYTES);
    const replies = new ReplyTracker();
    let storesDropped = 0;
    let upstream: Transport | undefined;
    let pendingToPmcd: Uint8Array[] = [];
    let first = true;
    let bytesIn = 0;
    let bytesOut = 0;
    let closing = false;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    // Rate cap: each one-second window lets `maxPdusPerSecond` client PDUs through; the rest
    // wait here, in order, and the socket is not read while any wait (the client is slowed
    // down, not cut off). At most one message's worth (maxPayload) is ever held.
    const held: Array<{ readonly pdu: Pdu; readonly verdict: PduVerdict }> = [];
    let budget = maxPdusPerSecond;
    let paused = false;
    let throttleLogged = false;
    const windowTimer = setInterval(() => {
      budget = maxPdusPerSecond;
      pump();
    }, 1000);

    const finish = (code: number, reason: string): void => {
      if (closing) return;
      closing = true;
      if (idleTimer) clearTimeout(idleTimer);
      clearInterval(windowTimer);
      upstream?.close();
      // Close reasons are limited to 123 bytes by the protocol.
      ws.close(code, reason.slice(0, 120));
      log(`bridge: disconnect #${id} → ${name}: ${reason} (${summary()})`);
    };
    const summary = (): string => `${((Date.now() - started) / 1000).toFixed(1)} s, ${bytesIn} bytes in, ${bytesOut} bytes out${storesDropped > 0 ? `, ${storesDropped} store${storesDropped === 1 ? '' : 's'} refused` : ''}`;
    const toClient = (pdus: readonly Uint8Array[]): void => {
      if (pdus.length === 0) return;
      // A browser that stops reading must not make the bridge buffer without bound.
      if (ws.bufferedAmount > maxBufferedBytes) {
        finish(CLOSE_UPSTREAM, `client is not reading (${ws.bufferedAmount} bytes queued)`);
        return;
      }
      ws.send(pdus.length === 1 ? pdus[0] : Buffer.concat(pdus), { binary: true });
    };
    const toPmcd = (bytes: Uint8Array): void => {
      if (upstream) upstream.send(bytes);
      else pendingToPmcd.push(bytes);
    };
    const armIdle = (): void => {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = setTimeout(() => finish(1000, `idle for ${Math.round(idleTimeoutMs / 1000)} s`), idleTimeoutMs);
    };
    armIdle();

    const onMessage = (data: RawData, isBinary: boolean): void => {
      if (closing) return;
      armIdle();
      if (!isBinary) {
        finish(CLOSE_POLICY, 'text messages are not accepted; send PDU bytes as binary messages');
        return;
      }
      const chunk = toBytes(data);
      bytesIn += chunk.length;
      let pdus;
      try {
        pdus = reassembler.push(chunk);
      } catch (e) {
        if (!isPmError(e)) throw e;
        const big = e.code === PM_ERR_TOOBIG;
        finish(big ? CLOSE_TOO_BIG : CLOSE_POLICY, `${big ? 'PDU too large' : 'bad PDU framing'}: ${e instanceof DecodeError ? e.detail : e.message}`);
        return;
      }
      // Every PDU is judged on arrival (a bad one ends the connection at once); the good
      // ones go on in order, as the rate cap allows.
      for (const pdu of pdus) {
        const verdict = checkClientPdu(pdu, first, policy);
        first = false;
        if (verdict.action === 'close') {
          finish(verdict.code, verdict.reason);
          return;
        }
        held.push({ pdu, verdict });
      }
      pump();
    };
    /** Forwards (or answers) held PDUs while this window's budget lasts. */
    const pump = (): void => {
      let next;
      while (!closing && budget > 0 && (next = held.shift()) !== undefined) {
        budget--;
        handle(next.pdu, next.verdict);
      }
      if (closing) return;
      if (held.length > 0 && !paused) {
        paused = true;
        ws.pause();
        if (!throttleLogged) log(`bridge: #${id} → ${name}: over ${maxPdusPerSecond} PDUs per second, slowed down`);
        throttleLogged = true;
      } else if (held.length === 0 && paused) {
        paused = false;
        ws.resume();
      }
    };
    const handle = (pdu: Pdu, verdict: PduVerdict): void => {
      if (verdict.action === 'answer') {
        storesDropped++;
        // The first few are logged one by one; the disconnect line gives the total.
        if (storesDropped <= 10) log(`bridge: #${id} → ${name}: refused a store (${pduTypeName(pdu.type)}, ${pdu.bytes.length} bytes), answered ${pmErrSymbol(verdict.error) ?? verdict.error}: ${verdict.reason}`);
        toClient(replies.answered(verdict.error));
        return;
      }
      for (const bytes of replies.forwarded(pdu)) toPmcd(bytes);
    };
    // Nothing a client sends may take the server down: any failure ends this connection only.
    ws.on('message', (data: RawData, isBinary: boolean) => {
      try {
        onMessage(data, isBinary);
      } catch (e) {
        finish(CLOSE_UPSTREAM, `cannot forward: ${isPmError(e) ? e.describe() : e instanceof Error ? e.message : String(e)}`);
      }
    });
    ws.on('close', (code: number) => {
      if (!closing) {
        closing = true;
        if (idleTimer) clearTimeout(idleTimer);
        clearInterval(windowTimer);
        upstream?.close();
        log(`bridge: disconnect #${id} → ${name}: client closed (code ${code}) (${summary()})`);
      }
      open.delete(ws);
    });
    ws.on('error', (e: Error) => finish(CLOSE_UPSTREAM, `WebSocket error: ${e.message}`));

    // At most a few connections per target may be waiting for pmcd's hello (connect-gate.ts).
    void gate.enter(name).then((release) => {
      if (closing) {
        release();
        return;
      }
      upstreamOf(target).then(
        (t) => {
          if (closing) {
            release();
            t.close();
            return;
          }
          upstream = t;
          t.onData((chunk) => {
            release();
            if (closing) return;
            bytesOut += chunk.length;
            const whole = fromPmcd.pending === 0;
            let pdus: Pdu[];
            try {
              pdus = fromPmcd.push(chunk);
            } catch (e) {
              if (!isPmError(e)) throw e;
              finish(CLOSE_UPSTREAM, `bad PDU framing from ${name}: ${e instanceof DecodeError ? e.detail : e.message}`);
              return;
            }
            const out: Uint8Array[] = [];
            let modified = false;
            for (const pdu of pdus) {
              out.push(...replies.fromPmcd(pdu));
              modified ||= replies.modified;
            }
            // The common case, a chunk of whole PDUs passed on untouched, goes out as it came.
            if (!modified && whole && fromPmcd.pending === 0) toClient([chunk]);
            else toClient(out);
          });
          t.onClose((error) => {
            release();
            finish(CLOSE_UPSTREAM, error ? `pmcd connection ended: ${error.describe()}` : 'pmcd connection closed');
          });
          for (const bytes of pendingToPmcd) t.send(bytes);
          pendingToPmcd = [];
        },
        (e: unknown) => {
          release();
          finish(CLOSE_UPSTREAM, `cannot reach ${name}: ${isPmError(e) ? e.describe() : String(e)}`);
        },
      );
    });
  }

  return {
    policy,
    get connections() {
      return open.size;
    },
    handleHttp(req, res) {
      const path = new URL(req.url ?? '/', 'http://bridge').pathname;
      if (path !== BRIDGE_TARGETS_PATH) return false;
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' });
      res.end(JSON.stringify({ default: defaultTarget(policy) ?? null, targets: policy.targets }));
      return true;
    },
    close() {
      for (const ws of open) ws.close(1001, 'server shutting down');
      wss.close();
    },
  };
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

