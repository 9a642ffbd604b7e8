// LiveContext: the Context of a live pmcd (PMAPI's PM_CONTEXT_HOST), over a PduClient on any
// Transport. Derived metrics, fetchgroups and rate conversion sit on top unchanged.
//
// What it keeps across reconnects: the name → PMID and descriptor caches, help text, labels
// and the instance profile (re-sent on the new connection before its first fetch, as libpcp
// marks its profile "not sent"; pdu-protocol.md §5.2). When the connection drops it retries
// with back-off and reports its state through `on('connection', …)`; calls made while it is
// down fail at once with the reason. Every result carries the connection's epoch (1, then one
// more per reconnect, Result.epoch) so that rates never pair values from two connections:
// libpcp tools never see that case, because their fetch fails before they reconnect. pmcd's
// state-change flags (§5.1) drop the caches they may have made stale and are reported
// through `on('state-change', …)`; libpcp keeps no such caches, so between a change and the
// fetch that reports it, cached answers may be stale.
import { PmError, PM_ERR_IPC, PM_ERR_MODE, PM_ERR_TOOSMALL, isPmError, pmErrStr } from '../errors';
import { PM_ID_NULL, PM_IN_NULL, type Desc, type InDom, type InstanceList, type PmId, type Result } from '../types';
import type { PduClient } from '../pdu/client';
import { PDU_FLAG_DESCS, PMCD_AGENT_CHANGE, pad4, PMCD_LABEL_CHANGE, PMCD_NAMES_CHANGE, PM_TEXT_HELP, PM_TEXT_INDOM, PM_TEXT_ONELINE, PM_TEXT_PMID } from '../pdu/constants';
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
import { InstanceProfile } from '../replay/instance-profile';
import { LiveConnection, type ConnectionState, type LiveContextEvents, type LiveConnectionOptions } from './live-connection';

export type { ConnectionEvent, ConnectionState, LiveContextEvents } from './live-connection';

export type LiveContextOptions = LiveConnectionOptions;

/** Largest number of PMIDs in one DESC_IDS or FETCH PDU under pmcd's 64 KiB limit. */
const MAX_IDS_PER_PDU = Math.floor((65536 - 28) / 4);

export class LiveContext implements Context {
  source: ContextSource;
  private readonly connection: LiveConnection;
  private readonly names = new Map<string, PmId>();
  private readonly descs = new Map<PmId, Desc>();
  private readonly texts = new Map<string, string>();
  private readonly labels = new Map<string, LabelSet[]>();
  private readonly profile = new InstanceProfile();
  /** The profile version pmcd holds on the current connection; -1 when none. */
  private profileSent = -1;
  /** The client the profile bookkeeping refers to. */
  private attached: PduClient | undefined;
  /** Connections attached so far: the epoch of results from the current one. */
  private connections = 0;
  private readonly target: string;

  private constructor(options: LiveContextOptions) {
    this.target = options.target;
    this.source = { kind: 'live', target: options.target, hostname: options.target, timezone: '', zoneinfo: '' };
    this.connection = new LiveConnection(
      options,
      (client) => {
        // A new pmcd connection holds no profile (§5.2).
        this.attached = client;
        this.profileSent = -1;
        this.connections++;
      },
      (flags) => this.stateChanged(flags),
    );
  }

  /**
   * Connects, runs the handshake and reads pmcd's host name and time zone. The first
   * connection is not retried: a wrong host or a refusal is reported at once.
   */
  static async open(options: LiveContextOptions): Promise<LiveContext> {
    const ctx = new LiveContext(options);
    await ctx.connection.open();
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
    return this.connection.state;
  }

  /** While waiting to reconnect, tries at once; false when not waiting. */
  retryNow(): boolean {
    return this.connection.retryNow();
  }

  /** The hello's feature word on the current connection (0 while down). */
  get features(): number {
    return this.connection.features;
  }

  /** The current connection's epoch: 1 after open, one more after each reconnect. */
  get epoch(): number {
    return this.connections;
  }

  /** Subscribes to 'connection' or 'state-change' events; returns the unsubscribe function. */
  on<K extends keyof LiveContextEvents>(type: K, listener: (event: LiveContextEvents[K]) => void): () => void {
    return this.connection.on(type, listener);
  }

  /** The connected client, or a PmError saying why there is none. */
  private ready(): PduClient {
    return this.connection.ready();
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
      target: this.target,
      hostname: text('pmcd.hostname') ?? this.target,
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
    if (mode !== PM_MODE_LIVE) throw new PmError(PM_ERR_MODE, pmErrStr(PM_ERR_MODE), `${this.target}: a live context only has mode LIVE`);
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
      // Refused: send it again before the next fetch (unless a new connection already reset it).
      if (this.attached === client && this.profileSent === version) this.profileSent = -1;
      throw e;
    });
  }

  async fetch(ids: readonly PmId[]): Promise<Result> {
    if (ids.length === 0) throw new PmError(PM_ERR_TOOSMALL, pmErrStr(PM_ERR_TOOSMALL), `${this.target}: fetch`);
    // In-situ words are typed by the descriptor (§3.13), so every PMID needs one first.
    const unknown = ids.filter((id) => !this.descs.has(id));
    if (unknown.length > 0) await this.lookupDescs(unknown);
    const types = new Map<PmId, number>();
    for (const id of ids) {
      const d = this.descs.get(id);
      if (d) types.set(id, d.type);
    }
    const client = this.ready();
    const epoch = this.connections;
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
    const { result } = await reply;
    return { timestamp: result.timestamp, sets: result.sets, epoch };
  }

  /** Ends the context: no more reconnects, every call afterwards fails with PM_ERR_NOCONTEXT. */
  close(): Promise<void> {
    this.connection.close();
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
