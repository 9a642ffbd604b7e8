// The connection behind a LiveContext: one PduClient at a time, replaced by a new one when
// pmcd goes away (reconnect with back-off, pdu-protocol.md §2.11, §5.2), and the events a
// dashboard shows: connection state and pmcd's state-change flags (§5.1). The context above
// asks `ready()` for the client before every request and learns about each new client
// through `onAttach`, so it can re-send what pmcd forgot (the instance profile).
import { PmError, PM_ERR_NOCONTEXT, PM_ERR_NOTCONN, isPmError, pmErrStr } from '../errors';
import { PduClient, type PduClientOptions } from '../pdu/client';
import type { Connector } from '../pdu/transport';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

export interface ConnectionEvent {
  readonly state: ConnectionState;
  /** Why the connection was lost or the last attempt failed. */
  readonly error?: PmError;
  /** While reconnecting: milliseconds until the next attempt. */
  readonly retryInMs?: number;
  /** While reconnecting: attempts made so far. */
  readonly attempts?: number;
}

export interface LiveContextEvents {
  readonly connection: ConnectionEvent;
  /** pmcd's state-change mask (PMCD_ADD_AGENT, …) that preceded a fetch reply. */
  readonly 'state-change': { readonly flags: number };
}

export interface LiveConnectionOptions extends PduClientOptions {
  /** Shown in errors: "localhost:44321" or a bridge URL. */
  readonly target: string;
  /** Opens a fresh Transport to pmcd (the first time and on every reconnect). */
  readonly connect: Connector;
  /**
   * Delays before successive reconnect attempts; the last repeats. libpcp uses 5, 10, 20, 40,
   * 80 s (§2.11); a dashboard wants its first retry sooner, hence the default 1, 2, 5, 10, 20,
   * 40, 80 s (docs/deviations.md). An empty list disables reconnection.
   */
  readonly reconnectDelaysMs?: readonly number[];
}

const DEFAULT_RECONNECT_MS = [1000, 2000, 5000, 10_000, 20_000, 40_000, 80_000];

type Listener<K extends keyof LiveContextEvents> = (event: LiveContextEvents[K]) => void;

export class LiveConnection {
  private client: PduClient | undefined;
  private current: ConnectionState = 'connecting';
  private lastError: PmError | undefined;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private nextAttemptAt = 0;
  private readonly listeners: { [K in keyof LiveContextEvents]: Array<Listener<K>> } = { connection: [], 'state-change': [] };

  /**
   * @param onAttach runs for every new client, before anyone else may use it
   * @param onFlags runs for every state-change mask, before the listeners
   */
  constructor(
    private readonly options: LiveConnectionOptions,
    private readonly onAttach: (client: PduClient) => void,
    private readonly onFlags: (flags: number) => void,
  ) {}

  /** The first connection. It is not retried: a wrong host or a refusal is reported at once. */
  async open(): Promise<void> {
    this.attach(await PduClient.connect(await this.options.connect(), this.options));
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** The hello's feature word on the current connection (0 while down). */
  get features(): number {
    return this.client?.features ?? 0;
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends keyof LiveContextEvents>(type: K, listener: Listener<K>): () => void {
    const list = this.listeners[type] as Array<Listener<K>>;
    list.push(listener);
    return () => {
      const at = list.indexOf(listener);
      if (at >= 0) list.splice(at, 1);
    };
  }

  private emit<K extends keyof LiveContextEvents>(type: K, event: LiveContextEvents[K]): void {
    for (const l of [...(this.listeners[type] as Array<Listener<K>>)]) l(event);
  }

  /** The connected client, or a PmError saying why there is none (and when it retries). */
  ready(): PduClient {
    if (this.client && !this.client.closed) return this.client;
    if (this.current === 'closed') throw new PmError(PM_ERR_NOCONTEXT, pmErrStr(PM_ERR_NOCONTEXT), `${this.options.target}: context closed`);
    const why = this.lastError ?? new PmError(PM_ERR_NOTCONN, pmErrStr(PM_ERR_NOTCONN), this.options.target);
    const wait = Math.max(0, Math.ceil((this.nextAttemptAt - Date.now()) / 1000));
    const next = this.current === 'connecting' ? 'reconnecting now' : `reconnecting in ${wait} s`;
    throw new PmError(why.code, `${why.message} (${next})`, why.context || this.options.target);
  }

  /** No more reconnects; the client is closed. Idempotent. */
  close(): void {
    if (this.current === 'closed') return;
    this.current = 'closed';
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const client = this.client;
    this.client = undefined;
    client?.close();
    this.emit('connection', { state: 'closed' });
  }

  /**
   * While waiting to reconnect: try now instead of when the back-off says (a dashboard's
   * "retry now"). Returns whether an attempt was started.
   */
  retryNow(): boolean {
    if (this.current !== 'reconnecting' || this.retryTimer === undefined) return false;
    clearTimeout(this.retryTimer);
    void this.reconnect();
    return true;
  }

  private attach(client: PduClient): void {
    this.client = client;
    this.attempts = 0;
    this.lastError = undefined;
    this.current = 'connected';
    this.onAttach(client);
    client.onStateChange((flags) => {
      this.onFlags(flags);
      this.emit('state-change', { flags });
    });
    client.onClose((error) => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.isClosed()) return;
      this.lost(error ?? new PmError(PM_ERR_NOTCONN, pmErrStr(PM_ERR_NOTCONN), this.options.target));
    });
    this.emit('connection', { state: 'connected' });
  }

  private isClosed(): boolean {
    return this.current === 'closed';
  }

  private lost(error: PmError): void {
    this.lastError = error;
    const delays = this.options.reconnectDelaysMs ?? DEFAULT_RECONNECT_MS;
    if (delays.length === 0) {
      this.current = 'closed';
      this.emit('connection', { state: 'closed', error });
      return;
    }
    const delay = delays[Math.min(this.attempts, delays.length - 1)] ?? 0;
    this.current = 'reconnecting';
    this.nextAttemptAt = Date.now() + delay;
    this.emit('connection', { state: 'reconnecting', error, retryInMs: delay, attempts: this.attempts });
    this.retryTimer = setTimeout(() => void this.reconnect(), delay);
  }

  private async reconnect(): Promise<void> {
    this.retryTimer = undefined;
    if (this.isClosed()) return;
    this.attempts++;
    this.current = 'connecting';
    this.emit('connection', { state: 'connecting', attempts: this.attempts });
    let client: PduClient;
    try {
      client = await PduClient.connect(await this.options.connect(), this.options);
    } catch (e) {
      if (this.isClosed()) return;
      this.lost(isPmError(e) ? e : new PmError(PM_ERR_NOTCONN, String(e), this.options.target));
      return;
    }
    // close() may have run while the connection was being made.
    if (this.isClosed()) {
      client.close();
      return;
    }
    this.attach(client);
  }
}
