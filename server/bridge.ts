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
// ones closed, every connect, refusal, dropped store and disconnect logged (escaped: the
// lines quote what clients sent, log-text.ts).
//
// A hostile client must not hold the bridge's memory or its slots (issue 16):
//   - a request passes the Host rule (host-check.ts) before the Origin rule, both before
//     any upgrade;
//   - a PDU must be complete within a few seconds of its first byte, and only complete PDUs
//     count as activity for the idle timeout;
//   - flow control both ways: while the client's queue of unsent output is over a small
//     threshold, the bridge stops reading from pmcd (its replies wait in pmcd and the
//     kernel), and stops reading from the client (more requests would only add replies);
//     while pmcd has not taken what was sent to it, the client is not read either. pmcd
//     6.0.3 sends with blocking writes: unread replies that fill the kernel's buffers would
//     stall pmcd for every client, so at most a few requests of a connection await their
//     replies at once (their replies fit in the kernel's buffers), and a client whose queue
//     does not drain within a few seconds is closed;
//   - caps on queued output, per connection and across all of them: a client past one is
//     closed (1008 and 1013) and its socket destroyed soon after, releasing its buffers.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { DecodeError, isPmError, pmErrSymbol, PM_ERR_TOOBIG } from '../src/pcp-core/errors';
import { PDU_SERVER_MAX_BYTES, pduTypeName } from '../src/pcp-core/pdu/constants';
import type { Pdu } from '../src/pcp-core/pdu/pdu-buffer';
import { PduReassembler } from '../src/pcp-core/pdu/reassembler';
import { BRIDGE_TARGETS_PATH, type TargetSpec } from '../src/pcp-core/pdu/target-spec';
import { ReplyTracker } from './bridge-replies';
import { ConnectGate } from './connect-gate';
import { checkClientPdu, checkOrigin, chooseTarget, CLOSE_POLICY, CLOSE_TOO_BIG, CLOSE_TRY_AGAIN, CLOSE_UPSTREAM, defaultTarget, makePolicy, type BridgePolicy, type PduVerdict, type Refusal } from './bridge-policy';
import { makeHostCheck } from './host-check';
import { escapeLogText, truncateUtf8 } from './log-text';
import { openUpstream, type Upstream } from './upstream';

export interface BridgeOptions {
  /** Allowed targets, `HOST[:PORT][@PROXY[:PORT]]`; the first is the default. */
  readonly targets?: readonly string[];
  /** Origins allowed besides the server's own; their hosts are names the server answers to. */
  readonly origins?: readonly string[];
  /** More names the server answers to, NAME[:PORT] (host-check.ts). */
  readonly publicHosts?: readonly string[];
  /** The name or address the server listens on (a name it answers to). */
  readonly listenHost?: string;
  /** Forward client-sent store PDUs (off by default: answered with PM_ERR_PERMISSION). */
  readonly allowStore?: boolean;
  /** Most simultaneous bridge connections (default 64). */
  readonly maxConnections?: number;
  /** Close a connection after this long without a complete client PDU (default 10 minutes). */
  readonly idleTimeoutMs?: number;
  /** A client PDU must be complete this long after its first byte (default 5 s). */
  readonly partialPduTimeoutMs?: number;
  /** Client PDUs per second per connection before reading is paused (default 5000). */
  readonly maxPdusPerSecond?: number;
  /** Requests forwarded to pmcd and not yet answered, per connection, before the rest wait (default 8). */
  readonly maxOutstanding?: number;
  /** Output queued for a client above which pmcd and the client are no longer read (default 64 KiB). */
  readonly pauseBufferedBytes?: number;
  /**
   * How long pmcd may stay paused for a client whose queue does not drain before the client
   * is disconnected with 1008 (default 10 s), so that clients that never read do not hold
   * their slots (and what pmcd has queued for them) until the idle timeout.
   */
  readonly pauseTimeoutMs?: number;
  /** Output queued for one client before it is disconnected with 1008 (default 1 MiB). */
  readonly maxBufferedBytes?: number;
  /** Output queued for all clients together before the one adding to it is disconnected with 1013 (default 16 MiB). */
  readonly maxTotalBufferedBytes?: number;
  readonly log: (line: string) => void;
  /** Opens the byte stream to a target; defaults to TCP, with pmproxy's relay for proxies. */
  readonly connectUpstream?: (target: TargetSpec) => Promise<Upstream>;
}

export interface Bridge {
  readonly policy: BridgePolicy;
  /** Open bridge connections. */
  readonly connections: number;
  /** Output queued in the bridge for all its clients, in bytes. */
  readonly bufferedBytes: number;
  /** The Host rule (host-check.ts) for any request to this server; undefined when it passes. */
  checkHost(req: IncomingMessage): Refusal | undefined;
  /** Answers GET /pmcd/targets; false when the request is not for it. */
  handleHttp(req: IncomingMessage, res: ServerResponse): boolean;
  /** Closes every connection. */
  close(): void;
}

/** Upstream connection through TCP, and pmproxy's relay when the target names a proxy. */
export const defaultUpstream = openUpstream;

/** pmcd → bridge writes queued past this pause reading the client until pmcd takes them. */
const UPSTREAM_PAUSE_BYTES = 256 * 1024;
/** A client closed for its queue gets this long to take the close frame before its socket goes. */
const CLOSE_GRACE_MS = 1000;

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  const text = `${reason}\n`;
  const statusText = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
}

/** Why the bridge is not reading a client: each reason is set and cleared on its own. */
type ReadPause = 'held' | 'client-slow' | 'pmcd-slow' | 'connecting';

export function attachBridge(server: Server, options: BridgeOptions): Bridge {
  const policy = makePolicy(options);
  const maxConnections = options.maxConnections ?? 64;
  const idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60_000;
  const partialPduTimeoutMs = options.partialPduTimeoutMs ?? 5000;
  const upstreamOf = options.connectUpstream ?? defaultUpstream;
  const maxPdusPerSecond = options.maxPdusPerSecond ?? 5000;
  const pauseBufferedBytes = options.pauseBufferedBytes ?? 64 * 1024;
  const pauseTimeoutMs = options.pauseTimeoutMs ?? 10_000;
  const maxOutstanding = options.maxOutstanding ?? 8;
  const maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
  const maxTotalBufferedBytes = options.maxTotalBufferedBytes ?? 16 * 1024 * 1024;
  const log = (line: string): void => options.log(escapeLogText(line));
  const checkHost = makeHostCheck({ listenHost: options.listenHost, publicHosts: options.publicHosts, origins: policy.origins }, () => {
    const a = server.address();
    return typeof a === 'object' && a ? a.address : undefined;
  });
  // Frames may carry several PDUs; the per-PDU limit is enforced after reassembly.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * policy.maxPduBytes, perMessageDeflate: false });
  const open = new Set<WebSocket>();
  const gate = new ConnectGate(4, 10_000);
  let nextId = 1;
  const totalBuffered = (): number => {
    let sum = 0;
    for (const ws of open) sum += ws.bufferedAmount;
    return sum;
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const from = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`;
    const hostRefusal = checkHost(req);
    const chosen = hostRefusal ?? chooseTarget(req, policy);
    const refusal = 'status' in chosen ? chosen : (checkOrigin(req, policy) ?? (open.size >= maxConnections ? { status: 503, reason: `connection limit (${maxConnections}) reached` } : undefined));
    if (refusal) {
      log(`bridge: refused ${from} ${req.url ?? ''} (host ${req.headers.host ?? 'none'}, origin ${req.headers.origin ?? 'none'}): ${refusal.reason}`);
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
    let upstream: Upstream | undefined;
    let pendingToPmcd: Uint8Array[] = [];
    let pendingBytes = 0;
    let first = true;
    let bytesIn = 0;
    let bytesOut = 0;
    let closing = false;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    let partialTimer: ReturnType<typeof setTimeout> | undefined;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let stallTimer: ReturnType<typeof setTimeout> | undefined;
    // Rate cap: each one-second window lets `maxPdusPerSecond` client PDUs through, and at
    // most `maxOutstanding` requests await pmcd at once; the rest wait here, in order, and
    // the socket is not read while any wait (the client is slowed down, not cut off). At
    // most one message's worth (maxPayload) is ever held.
    const held: Array<{ readonly pdu: Pdu; readonly verdict: PduVerdict }> = [];
    let budget = maxPdusPerSecond;
    let throttleLogged = false;
    const readPauses = new Set<ReadPause>();
    let wsPaused = false;
    let pmcdPaused = false;
    let slowLogged = false;
    const windowTimer = setInterval(() => {
      budget = maxPdusPerSecond;
      pump();
    }, 1000);

    const stopTimers = (): void => {
      if (idleTimer) clearTimeout(idleTimer);
      if (partialTimer) clearTimeout(partialTimer);
      partialTimer = undefined;
      if (stallTimer) clearTimeout(stallTimer);
      clearInterval(windowTimer);
    };
    const finish = (code: number, reason: string): void => {
      if (closing) return;
      closing = true;
      stopTimers();
      upstream?.close();
      held.length = 0;
      pendingToPmcd = [];
      // The client's answer to the close frame must be read, or the socket lingers.
      if (wsPaused) ws.resume();
      wsPaused = false;
      // Close reasons are limited to 123 bytes by the protocol.
      ws.close(code, truncateUtf8(reason, 123));
      log(`bridge: disconnect #${id} → ${name}: ${reason} (${summary()})`);
    };
    /** Closes a client for what is queued for it: its socket goes soon, whether it reads or not. */
    const dropForQueue = (code: number, reason: string): void => {
      finish(code, reason);
      graceTimer = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
      graceTimer.unref();
    };
    const summary = (): string => `${((Date.now() - started) / 1000).toFixed(1)} s, ${bytesIn} bytes in, ${bytesOut} bytes out${storesDropped > 0 ? `, ${storesDropped} store${storesDropped === 1 ? '' : 's'} refused` : ''}`;

    /** Reads the client, or not, as the pause reasons say; the partial-PDU clock stops while the bridge itself holds the client back. */
    const setReading = (reason: ReadPause, pause: boolean): void => {
      if (pause) readPauses.add(reason);
      else readPauses.delete(reason);
      if (closing) return;
      const want = readPauses.size > 0;
      if (want && !wsPaused) ws.pause();
      else if (!want && wsPaused) ws.resume();
      wsPaused = want;
      armPartial(false);
    };
    /** Whether the bridge (not the client's own behaviour) is what keeps the client from sending. */
    const heldBackByBridge = (): boolean => readPauses.has('held') || readPauses.has('pmcd-slow') || readPauses.has('connecting');
    const armPartial = (restart: boolean): void => {
      if (closing) return;
      if (reassembler.pending === 0 || heldBackByBridge()) {
        if (partialTimer) clearTimeout(partialTimer);
        partialTimer = undefined;
        return;
      }
      if (partialTimer && !restart) return;
      if (partialTimer) clearTimeout(partialTimer);
      partialTimer = setTimeout(() => finish(CLOSE_POLICY, `PDU not complete ${partialPduTimeoutMs / 1000} s after its first byte (${reassembler.pending} bytes received)`), partialPduTimeoutMs);
    };

    const resumePmcdIfDrained = (): void => {
      if (closing || !pmcdPaused || ws.bufferedAmount > pauseBufferedBytes / 2) return;
      pmcdPaused = false;
      if (stallTimer) clearTimeout(stallTimer);
      upstream?.resume?.();
      setReading('client-slow', false);
    };
    const toClient = (pdus: readonly Uint8Array[]): void => {
      if (pdus.length === 0 || closing) return;
      ws.send(pdus.length === 1 ? pdus[0] : Buffer.concat(pdus), { binary: true }, resumePmcdIfDrained);
      const queued = ws.bufferedAmount;
      if (queued <= pauseBufferedBytes) return;
      // A client that does not read must not make the bridge buffer without bound: stop
      // reading pmcd and the client until its queue drains; past the caps, close it.
      if (queued > maxBufferedBytes) {
        dropForQueue(CLOSE_POLICY, `client is not reading (${queued} bytes queued, limit ${maxBufferedBytes})`);
        return;
      }
      const total = totalBuffered();
      if (total > maxTotalBufferedBytes) {
        dropForQueue(CLOSE_TRY_AGAIN, `bridge output buffers full (${total} bytes queued for all clients, limit ${maxTotalBufferedBytes})`);
        return;
      }
      if (!pmcdPaused) {
        pmcdPaused = true;
        upstream?.pause?.();
        stallTimer = setTimeout(() => dropForQueue(CLOSE_POLICY, `client is not reading (${ws.bufferedAmount} bytes queued for ${pauseTimeoutMs / 1000} s)`), pauseTimeoutMs);
        setReading('client-slow', true);
        if (!slowLogged) log(`bridge: #${id} → ${name}: client is not reading (${queued} bytes queued), pmcd paused`);
        slowLogged = true;
      }
    };
    const toPmcd = (bytes: Uint8Array): void => {
      if (upstream) {
        upstream.send(bytes);
        if ((upstream.queuedBytes ?? 0) > UPSTREAM_PAUSE_BYTES) setReading('pmcd-slow', true);
        return;
      }
      pendingToPmcd.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes > UPSTREAM_PAUSE_BYTES) setReading('connecting', true);
    };
    const armIdle = (): void => {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = setTimeout(() => finish(1000, `idle for ${Math.round(idleTimeoutMs / 1000)} s`), idleTimeoutMs);
    };
    armIdle();

    const onMessage = (data: RawData, isBinary: boolean): void => {
      if (closing) return;
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
      // Only whole PDUs are activity: bytes dripped into one that never completes are not.
      if (pdus.length > 0) armIdle();
      // A new partial PDU gets its own deadline from its first byte.
      armPartial(pdus.length > 0);
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
    /**
     * Forwards (or answers) held PDUs while this window's budget lasts and fewer than
     * `maxOutstanding` requests await pmcd's reply (so a client that stops reading has few
     * replies on their way when pmcd is paused).
     */
    const pump = (): void => {
      let next;
      while (!closing && budget > 0 && replies.outstanding < maxOutstanding && (next = held.shift()) !== undefined) {
        budget--;
        handle(next.pdu, next.verdict);
      }
      if (closing) return;
      if (held.length > 0 && budget === 0 && !throttleLogged) {
        log(`bridge: #${id} → ${name}: over ${maxPdusPerSecond} PDUs per second, slowed down`);
        throttleLogged = true;
      }
      if (held.length > 0 !== readPauses.has('held')) setReading('held', held.length > 0);
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
      if (graceTimer) clearTimeout(graceTimer);
      if (!closing) {
        closing = true;
        stopTimers();
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
          if (pmcdPaused) t.pause?.();
          t.onDrain?.(() => setReading('pmcd-slow', false));
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
            // Replies make room for requests held back by the outstanding limit.
            if (held.length > 0 && pdus.length > 0) pump();
          });
          t.onClose((error) => {
            release();
            finish(CLOSE_UPSTREAM, error ? `pmcd connection ended: ${error.describe()}` : 'pmcd connection closed');
          });
          for (const bytes of pendingToPmcd) t.send(bytes);
          pendingToPmcd = [];
          pendingBytes = 0;
          if ((t.queuedBytes ?? 0) > UPSTREAM_PAUSE_BYTES) setReading('pmcd-slow', true);
          setReading('connecting', false);
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
    get bufferedBytes() {
      return totalBuffered();
    },
    checkHost,
    handleHttp(req, res) {
      const path = new URL(req.url ?? '/', 'http://bridge').pathname;
      if (path !== BRIDGE_TARGETS_PATH) return false;
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' });
      res.end(JSON.stringify({ default: defaultTarget(policy) ?? null, targets: policy.targets }));
      return true;
    },
    close() {
      for (const ws of open) {
        ws.resume();
        ws.close(1001, 'server shutting down');
      }
      wss.close();
    },
  };
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

