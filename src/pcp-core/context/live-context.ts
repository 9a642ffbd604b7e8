// LiveContext: the Context of a live pmcd (PMAPI's PM_CONTEXT_HOST), over a PduClient on any
// Transport. Derived metrics, fetchgroups and rate conversion sit on top unchanged.
//
// What it keeps across reconnects: the name → PMID and descriptor caches, help text, labels
// and the instance profile (re-sent on the new connection before its first fetch, as libpcp
// marks its profile "not sent"; pdu-protocol.md §5.2). When the connection drops it retries
// with back-off and reports its state through `on('connection', …)`; calls made while it is
// down fail at once with the reason. pmcd's state-change flags (§5.1) drop the caches they
// may have made stale and are reported through `on('state-change', …)`.
import { PmError, PM_ERR_IPC, PM_ERR_MODE, PM_ERR_NOCONTEXT, PM_ERR_NOTCONN, PM_ERR_TOOSMALL, isPmError, pmErrStr } from '../errors';
import { PM_ID_NULL, PM_IN_NULL, type Desc, type InDom, type InstanceList, type PmId, type Result } from '../types';
import { PduClient, type PduClientOptions } from '../pdu/client';
import { PDU_FLAG_DESCS, PMCD_AGENT_CHANGE, pad4, PMCD_LABEL_CHANGE, PMCD_NAMES_CHANGE, PM_TEXT_HELP, PM_TEXT_INDOM, PM_TEXT_ONELINE, PM_TEXT_PMID } from '../pdu/constants';
import type { Connector } from '../pdu/transport';
import {
  PM_LABEL_CLUSTER,
  PM_LABEL_CONTEXT,
  PM_LABEL_INSTANCES,
  PM_MODE_LIVE,
  type Context,
  type ContextSource,
  type LabelSet,
  type PmnsChild,
  type ProfileChange,
  type ReplayMode,
  type TextKind,
} from './context';
import { InstanceProfile } from './instance-profile';

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

export interface LiveContextOptions extends PduClientOptions {
  /** Shown in errors and as `source.target`: "localhost:44321" or a bridge URL. */
  readonly target: string;
  /** Opens a fresh Transport to pmcd (the first time and on every reconnect). */
  readonly connect: Connector;
  /**
   * Delays before successive reconnect attempts; the last repeats. libpcp uses 5, 10, 20, 40,
   * 80 s (§2.11); a dashboard wants its first retry sooner, hence the default 1, 2, 5, 10, 20,
   * 40, 80 s. An empty list disables reconnection.
   */
  readonly reconnectDelaysMs?: readonly number[];
}

const DEFAULT_RECONNECT_MS = [1000, 2000, 5000, 10_000, 20_000, 40_000, 80_000];

/** Largest number of PMIDs in one DESC_IDS or FETCH PDU under pmcd's 64 KiB limit. */
const MAX_IDS_PER_PDU = Math.floor((65536 - 28) / 4);

type Listener<K extends keyof LiveContextEvents> = (event: LiveContextEvents[K]) => void;

export class LiveContext implements Context {
  source: ContextSource;
  private client: PduClient | undefined;
  private state: ConnectionState = 'connecting';
  private lastError: PmError | undefined;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private nextAttemptAt = 0;
  private readonly listeners: { [K in keyof LiveContextEvents]: Array<Listener<K>> } = { connection: [], 'state-change': [] };

  private readonly names = new Map<string, PmId>();
  private readonly descs = new Map<PmId, Desc>();
  private readonly texts = new Map<string, string>();
  private readonly labels = new Map<string, LabelSet[]>();
  private readonly profile = new InstanceProfile();
  /** The profile version pmcd holds on the current connection; -1 when none. */
  private profileSent = -1;

  private constructor(private readonly options: LiveContextOptions) {
    this.source = { kind: 'live', target: options.target, hostname: options.target, timezone: '', zoneinfo: '' };
  }

  /**
   * Connects, runs the handshake and reads pmcd's host name and time zone. The first
   * connection is not retried: a wrong host or a refusal is reported at once.
   */
  static async open(options: LiveContextOptions): Promise<LiveContext> {
    const ctx = new LiveContext(options);
    const client = await PduClient.connect(await options.connect(), options);
    ctx.attach(client);
    try {
      await ctx.readHostInfo();
    } catch (e) {
      await ctx.close();
      throw e;
    }
    return ctx;
  }

  /** The connection's current state. */
  get connectionState(): ConnectionState {
    return this.state;
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

  // --- connection ----------------------------------------------------------------------

  private attach(client: PduClient): void {
    this.client = client;
    this.profileSent = -1;
    this.attempts = 0;
    this.lastError = undefined;
    this.state = 'connected';
    client.onStateChange((flags) => this.stateChanged(flags));
    client.onClose((error) => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.state === 'closed') return;
      this.lost(error ?? new PmError(PM_ERR_NOTCONN, pmErrStr(PM_ERR_NOTCONN), this.options.target));
    });
    this.emit('connection', { state: 'connected' });
  }

  private lost(error: PmError): void {
    this.lastError = error;
    const delays = this.options.reconnectDelaysMs ?? DEFAULT_RECONNECT_MS;
    if (delays.length === 0) {
      this.state = 'closed';
      this.emit('connection', { state: 'closed', error });
      return;
    }
    const delay = delays[Math.min(this.attempts, delays.length - 1)] ?? 0;
    this.state = 'reconnecting';
    this.nextAttemptAt = Date.now() + delay;
    this.emit('connection', { state: 'reconnecting', error, retryInMs: delay, attempts: this.attempts });
    this.retryTimer = setTimeout(() => void this.reconnect(), delay);
  }

  private async reconnect(): Promise<void> {
    this.retryTimer = undefined;
    if (this.state === 'closed') return;
    this.attempts++;
    this.state = 'connecting';
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

  private isClosed(): boolean {
    return this.state === 'closed';
  }

  /** The connected client, or a PmError saying why there is none. */
  private ready(): PduClient {
    if (this.client && !this.client.closed) return this.client;
    if (this.state === 'closed') throw new PmError(PM_ERR_NOCONTEXT, pmErrStr(PM_ERR_NOCONTEXT), `${this.options.target}: context closed`);
    const why = this.lastError ?? new PmError(PM_ERR_NOTCONN, pmErrStr(PM_ERR_NOTCONN), this.options.target);
    const wait = Math.max(0, Math.ceil((this.nextAttemptAt - Date.now()) / 1000));
    const next = this.state === 'connecting' ? 'reconnecting now' : `reconnecting in ${wait} s`;
    throw new PmError(why.code, `${why.message} (${next})`, why.context || this.options.target);
  }

  /** pmcd's state-change flags: drop what may be stale, as the flags' meaning implies (§5.1). */
  private stateChanged(flags: number): void {
    if (flags & (PMCD_AGENT_CHANGE | PMCD_NAMES_CHANGE)) {
      // A PMDA came, went or was restarted, or its names changed: names, descriptors and
      // help text held for it may be wrong now. They are asked again on next use.
      this.names.clear();
      this.descs.clear();
      this.texts.clear();
    }
    if (flags & (PMCD_LABEL_CHANGE | PMCD_AGENT_CHANGE)) this.labels.clear();
    this.emit('state-change', { flags });
  }

  private async readHostInfo(): Promise<void> {
    const names = ['pmcd.hostname', 'pmcd.timezone', 'pmcd.zoneinfo'];
    const ids = await this.lookupNames(names);
    const present = ids.filter((id): id is PmId => id >= 0);
    if (present.length === 0) return;
    await this.lookupDescs(present);
    const result = await this.fetch(present);
    const text = (name: string): string | undefined => {
      const id = ids[names.indexOf(name)];
      const set = result.sets.find((s) => s.pmid === id);
      const v = set && set.numval > 0 ? set.values[0] : undefined;
      return typeof v === 'string' ? v : undefined;
    };
    this.source = {
      kind: 'live',
      target: this.options.target,
      hostname: text('pmcd.hostname') ?? this.options.target,
      timezone: text('pmcd.timezone') ?? '',
      zoneinfo: text('pmcd.zoneinfo')?.replace(/^:/, '') ?? '',
    };
  }

  // --- PMNS ------------------------------------------------------------------------------

  async lookupNames(names: readonly string[]): Promise<Array<PmId | number>> {
    const out: Array<PmId | number> = names.map((n) => this.names.get(n) ?? PM_ID_NULL);
    const todo = [...new Set(names.filter((n) => !this.names.has(n)))];
    if (todo.length === 0) return out;
    const client = this.ready();
    const found = new Map<string, PmId | number>();
    const batches = batchNames(todo);
    const failed: string[] = [];
    await Promise.all(
      batches.map(async (batch) => {
        try {
          const reply = await client.lookupNames(batch);
          batch.forEach((n, i) => {
            const id = reply.pmids[i] ?? PM_ID_NULL;
            if (id === PM_ID_NULL) failed.push(n);
            else found.set(n, id);
          });
        } catch (e) {
          // One name: pmcd answers ERROR (PM_ERR_NAME, PM_ERR_NONLEAF) instead of PMNS_IDS.
          if (batch.length !== 1 || !isPmError(e) || client.closed) throw e;
          found.set(batch[0] ?? '', e.code);
        }
      }),
    );
    // Several names: pmcd marks failures PM_ID_NULL without saying why; ask each alone.
    if (failed.length > 0 && todo.length > 1) {
      await Promise.all(
        failed.map((n) =>
          client.lookupNames([n]).then(
            (r) => found.set(n, r.pmids[0] ?? PM_ID_NULL),
            (e: unknown) => {
              if (!isPmError(e) || client.closed) throw e;
              found.set(n, e.code);
            },
          ),
        ),
      );
    }
    for (const [n, id] of found) if (id >= 0 && id !== PM_ID_NULL) this.names.set(n, id as PmId);
    return names.map((n, i) => {
      const v = found.get(n);
      return v === undefined ? (out[i] ?? PM_ID_NULL) : v;
    });
  }

  nameAll(id: PmId): Promise<string[]> {
    return this.ready().nameAll(id);
  }

  async children(name: string): Promise<PmnsChild[]> {
    const list = await this.ready().children(name, true);
    return list.names.map((n, i) => ({ name: n, leaf: (list.statuses?.[i] ?? 0) === 0 }));
  }

  traverse(name: string): Promise<string[]> {
    return this.ready().traverse(name);
  }

  // --- metadata --------------------------------------------------------------------------

  async lookupDescs(ids: readonly PmId[]): Promise<Array<Desc | number>> {
    const todo = [...new Set(ids.filter((id) => !this.descs.has(id)))];
    const codes = new Map<PmId, number>();
    if (todo.length > 0) {
      const client = this.ready();
      const single = async (id: PmId): Promise<void> => {
        try {
          this.descs.set(id, await client.desc(id));
        } catch (e) {
          if (!isPmError(e) || client.closed) throw e;
          codes.set(id, e.code);
        }
      };
      if (todo.length > 1 && (client.features & PDU_FLAG_DESCS) !== 0) {
        const retry: PmId[] = [];
        await Promise.all(
          chunk(todo, MAX_IDS_PER_PDU).map(async (batch) => {
            const descs = await client.descs(batch);
            descs.forEach((d, i) => {
              const id = batch[i] ?? PM_ID_NULL;
              if (d.pmid === PM_ID_NULL) retry.push(id);
              else if (d.pmid !== id) throw new PmError(PM_ERR_IPC, `DESCS entry ${i} is for ${d.pmid}, asked ${id}`, client.peer);
              else this.descs.set(id, d);
            });
          }),
        );
        // Failed entries carry no reason (§3.8); DESC_REQ gives pmcd's error code.
        await Promise.all(retry.map(single));
      } else {
        await Promise.all(todo.map(single));
      }
    }
    return ids.map((id) => this.descs.get(id) ?? codes.get(id) ?? PM_ID_NULL);
  }

  async getInDom(id: InDom): Promise<InstanceList> {
    const reply = await this.ready().instances({ indom: id, inst: PM_IN_NULL, name: '' });
    const order = [...reply.instances.keys()].sort((a, b) => (reply.instances[a] ?? 0) - (reply.instances[b] ?? 0));
    return { instances: Int32Array.from(order, (i) => reply.instances[i] ?? 0), names: order.map((i) => reply.names[i] ?? '') };
  }

  async lookupText(target: { readonly pmid: PmId } | { readonly indom: InDom }, kind: TextKind): Promise<string> {
    const [ident, identBit] = 'pmid' in target ? [target.pmid, PM_TEXT_PMID] : [target.indom, PM_TEXT_INDOM];
    const key = `${identBit}:${ident}:${kind}`;
    const cached = this.texts.get(key);
    if (cached !== undefined) return cached;
    const client = this.ready();
    let text: string;
    if (kind === 'help') {
      // libpcp falls back to the one-line text when full help fails or is empty (help.c).
      try {
        text = await client.text(ident, PM_TEXT_HELP | identBit);
      } catch (e) {
        if (!isPmError(e) || client.closed) throw e;
        text = '';
      }
      if (text === '') text = await client.text(ident, PM_TEXT_ONELINE | identBit);
    } else {
      text = await client.text(ident, PM_TEXT_ONELINE | identBit);
    }
    this.texts.set(key, text);
    return text;
  }

  async lookupLabels(level: number, ident: number): Promise<LabelSet[]> {
    const client = this.ready();
    // The identifier each level is asked with (p_label.c): none for the context, item 0 for
    // a cluster.
    const id = level === PM_LABEL_CONTEXT ? PM_ID_NULL : level === PM_LABEL_CLUSTER ? (ident & ~0x3ff) >>> 0 : ident >>> 0;
    const key = `${level}:${id}`;
    const cached = this.labels.get(key);
    if (cached) return cached;
    // Instance labels depend on the profile; libpcp sends it first if it is not current.
    const profile = level === PM_LABEL_INSTANCES ? this.sendProfile(client) : undefined;
    const reply = client.labels(id, level);
    await profile;
    const all = (await reply).sets;
    // libpcp's pmGet*Labels answers 0 sets when the one set of a single-set level is empty
    // (pmcd sends it with no labels and no JSON); instance sets are returned as they come.
    const sets = level !== PM_LABEL_INSTANCES && all.length === 1 && all[0]?.nlabels === 0 ? [] : all;
    // Instances come and go: their labels are not kept.
    if (level !== PM_LABEL_INSTANCES) this.labels.set(key, sets);
    return sets;
  }

  // --- fetching --------------------------------------------------------------------------

  setMode(mode: ReplayMode): void {
    if (mode !== PM_MODE_LIVE) throw new PmError(PM_ERR_MODE, pmErrStr(PM_ERR_MODE), `${this.options.target}: a live context only has mode LIVE`);
  }

  changeProfile(change: ProfileChange): void {
    this.profile.apply(change);
  }

  /** Sends the profile unless pmcd already holds this version; resolves when confirmed. */
  private sendProfile(client: PduClient): Promise<void> | undefined {
    if (this.profileSent === this.profile.version) return undefined;
    const version = this.profile.version;
    this.profileSent = version;
    return client.profile(this.profile.snapshot()).catch((e: unknown) => {
      if (this.client === client && this.profileSent === version) this.profileSent = -1;
      throw e;
    });
  }

  async fetch(ids: readonly PmId[]): Promise<Result> {
    if (ids.length === 0) throw new PmError(PM_ERR_TOOSMALL, pmErrStr(PM_ERR_TOOSMALL), `${this.options.target}: fetch`);
    // In-situ words are typed by the descriptor (§3.13), so every PMID needs one first.
    const unknown = ids.filter((id) => !this.descs.has(id));
    if (unknown.length > 0) await this.lookupDescs(unknown);
    const types = new Map<PmId, number>();
    for (const id of ids) {
      const d = this.descs.get(id);
      if (d) types.set(id, d.type);
    }
    const client = this.ready();
    // Profile and fetch go out back to back; the profile's confirmation arrives first.
    const profile = this.sendProfile(client);
    const reply = client.fetch(ids, (id) => types.get(id));
    if (profile) {
      try {
        await profile;
      } catch (e) {
        // pmcd refused the profile, so the fetch reply (if any) would use a stale one: the
        // caller gets the profile's error, which explains the fetch's failure too.
        void reply.then(undefined, () => undefined);
        throw e;
      }
    }
    return (await reply).result;
  }

  /** Ends the context: no more reconnects, every call afterwards fails with PM_ERR_NOCONTEXT. */
  close(): Promise<void> {
    if (this.state !== 'closed') {
      this.state = 'closed';
      if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      const client = this.client;
      this.client = undefined;
      client?.close();
      this.emit('connection', { state: 'closed' });
    }
    return Promise.resolve();
  }
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Splits names into PMNS_NAMES requests that fit pmcd's 64 KiB limit (24-byte preamble). */
function batchNames(names: readonly string[]): string[][] {
  const encoder = new TextEncoder();
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 24;
  for (const n of names) {
    const size = 4 + pad4(encoder.encode(n).length);
    if (batch.length > 0 && bytes + size > 65536) {
      batches.push(batch);
      batch = [];
      bytes = 24;
    }
    batch.push(n);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
