// PmapiContext: the Context of a live host reached through pmproxy's /pmapi REST API
// (PMWEBAPI(3) "PMAPI HOST SERVICES": context, metric, children, indom, fetch) rather than
// the PDU protocol, so pmdash works against an existing pmproxy (a grafana-pcp deployment)
// with no bridge. It rides the fleet client's transport (fleet/transport.ts): bounded time,
// bodies and concurrency, errors naming the URL.
//
// pmproxy 6.0.3 facts it follows:
// - `/pmapi/context?hostspec=H&polltimeout=S` makes a context that pmproxy drops after S
//   seconds without a request; an expired (or, after a pmproxy restart, unknown) context is
//   answered with HTTP 400 — the context is then made again and the request repeated once,
//   and results carry one more epoch (Result.epoch) so no rate pairs values across it;
// - `/pmapi/N/metric` takes names, not PMIDs (`pmids=` is ignored and every metric comes
//   back), so descriptors, help text and names are known for the names looked up here;
// - values and timestamps are JSON numbers: they are read as text, so 64-bit integers stay
//   exact (bigint) and the timestamp keeps its nanoseconds;
// - labels come merged per metric; only the context's own set is exact (lookupLabels).
//
// Its connection is reported as LiveContext reports its own (`on('connection', …)`): a
// request pmproxy did not answer (down, unreachable, timeout) or answered with a server
// error (5xx: pmdash's proxy when pmproxy is down, pmproxy when pmcd is) makes it
// 'reconnecting'; the next answered request makes it 'connected' again. There is no timer of
// its own: the live feed's next fetch is the next attempt.
import { PmError, PM_ERR_INDOM, PM_ERR_MODE, PM_ERR_NAME, PM_ERR_NOLABELS, PM_ERR_PMID, PM_ERR_TEXT, PM_ERR_TYPE, EPROTO } from '../errors';
import { FleetError, type FleetTransport } from '../fleet/transport';
import {
  NO_UNITS,
  PM_INDOM_NULL,
  PM_IN_NULL,
  PM_SEM_COUNTER,
  PM_SEM_DISCRETE,
  PM_SEM_INSTANT,
  PM_TYPE_32,
  PM_TYPE_64,
  PM_TYPE_AGGREGATE,
  PM_TYPE_AGGREGATE_STATIC,
  PM_TYPE_DOUBLE,
  PM_TYPE_EVENT,
  PM_TYPE_FLOAT,
  PM_TYPE_HIGHRES_EVENT,
  PM_TYPE_NOSUPPORT,
  PM_TYPE_STRING,
  PM_TYPE_U32,
  PM_TYPE_UNKNOWN,
  PM_TYPE_U64,
  PM_VAL_DPTR,
  PM_VAL_INSITU,
  parsePmId,
  type AtomValue,
  type Desc,
  type InDom,
  type InstanceList,
  type PmId,
  type Result,
  type Units,
  type ValueSet,
} from '../types';
import { parseUnits } from '../units';
import type { ConnectionEvent, ConnectionState } from './live-connection';
import { PM_LABEL_CONTEXT, PM_MODE_LIVE, type Context, type ContextSource, type LabelSet, type PmnsChild, type ProfileChange, type ReplayMode, type TextKind } from './context';
import { InstanceProfile } from '../replay/instance-profile';

export interface PmapiContextOptions {
  /** pmcd's host as pmproxy should reach it (pmNewContext's host spec), e.g. `localhost`. */
  readonly hostspec: string;
  /** Seconds pmproxy keeps the context without requests (default 60). */
  readonly pollTimeoutSec?: number;
}

type Obj = Record<string, unknown>;

const TYPES: Readonly<Record<string, number>> = {
  '32': PM_TYPE_32, u32: PM_TYPE_U32, '64': PM_TYPE_64, u64: PM_TYPE_U64, float: PM_TYPE_FLOAT, double: PM_TYPE_DOUBLE,
  string: PM_TYPE_STRING, aggregate: PM_TYPE_AGGREGATE, aggregate_static: PM_TYPE_AGGREGATE_STATIC, event: PM_TYPE_EVENT,
  highres_event: PM_TYPE_HIGHRES_EVENT,
  // pmproxy's words for PM_TYPE_NOSUPPORT and any other type (libpcp_web pmwebapi_type_str):
  // a PMDA may export such a metric (the sample PMDA's sample.bad.nosupport).
  unsupported: PM_TYPE_NOSUPPORT, unknown: PM_TYPE_UNKNOWN,
};
/** pmSemStr's words; "???" is its word for any other semantics (sample.bad.nosupport has 0). */
const SEMS: Readonly<Record<string, number>> = { counter: PM_SEM_COUNTER, instant: PM_SEM_INSTANT, discrete: PM_SEM_DISCRETE, '???': 0 };

/** `"value":NUMBER` and `"timestamp":NUMBER` as strings, so no digit is lost to a double. */
function quoteNumbers(text: string): string {
  return text.replace(/"(value|timestamp)"(\s*):(\s*)(-?[0-9][0-9.eE+-]*)/g, '"$1"$2:$3"$4"');
}

function obj(v: unknown, url: string, what: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new FleetError(EPROTO, `unexpected answer: ${what} is not an object`, url);
  return v as Obj;
}

function list(v: unknown, url: string, what: string): unknown[] {
  if (!Array.isArray(v)) throw new FleetError(EPROTO, `unexpected answer: ${what} is not an array`, url);
  return v;
}

function parseIndom(text: unknown): InDom | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d+)\.(\d+)$/.exec(text);
  if (!m) return undefined;
  return ((((Number(m[1]) & 0x1ff) << 22) | (Number(m[2]) & 0x3fffff)) >>> 0) as InDom;
}

function formatIndom(indom: InDom): string {
  return `${(indom >>> 22) & 0x1ff}.${indom & 0x3fffff}`;
}

/** pmproxy prints units with pmUnitsStr, and "none" for none. */
function unitsOf(text: string, url: string): Units {
  if (text === 'none' || text === '') return NO_UNITS;
  const p = parseUnits(text);
  if (p.multiplier !== 1) throw new FleetError(EPROTO, `unexpected answer: units '${text}'`, url);
  return p.units;
}

export class PmapiContext implements Context {
  source: ContextSource;
  private contextId = 0;
  private epoch = 0;
  private contextLabels: Obj = {};
  private readonly names = new Map<string, PmId>();
  /** Names pmproxy said it does not know (pmcd's namespace changes rarely; a new context forgets them). */
  private readonly unknown = new Set<string>();
  private readonly descs = new Map<PmId, Desc>();
  private readonly texts = new Map<string, string>();
  private readonly profile = new InstanceProfile();
  private closed = false;
  private readonly target: string;
  private state: ConnectionState = 'connecting';
  private failures = 0;
  private readonly listeners = new Set<(e: ConnectionEvent) => void>();

  private constructor(
    private readonly transport: FleetTransport,
    private readonly options: PmapiContextOptions,
  ) {
    this.target = `${options.hostspec} via ${transport.baseUrl}/pmapi`;
    this.source = { kind: 'live', target: this.target, hostname: options.hostspec, timezone: '', zoneinfo: '' };
  }

  /** Makes a pmproxy context for `hostspec` and reads pmcd's hostname and time zone. */
  static async open(transport: FleetTransport, options: PmapiContextOptions): Promise<PmapiContext> {
    const c = new PmapiContext(transport, options);
    await c.connectObserved();
    const [hostname, timezone, zoneinfo] = await Promise.all(['pmcd.hostname', 'pmcd.timezone', 'pmcd.zoneinfo'].map((n) => c.singleString(n)));
    c.source = { kind: 'live', target: c.target, hostname: hostname ?? options.hostspec, timezone: timezone ?? '', zoneinfo: (zoneinfo ?? '').replace(/^:/, '') };
    return c;
  }

  /** The connection as last seen: 'reconnecting' after an unanswered request until one is answered. */
  get connectionState(): ConnectionState {
    return this.state;
  }

  /** Subscribes to connection changes (LiveContext's 'connection' events); returns the unsubscribe. */
  on(type: 'connection', listener: (e: ConnectionEvent) => void): () => void {
    if (type !== 'connection') return () => undefined;
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private report(e: ConnectionEvent): void {
    this.state = e.state;
    for (const l of this.listeners) l(e);
  }

  /** A request's outcome: an unanswered one (or a 5xx) loses the connection, an answered one has it. */
  private observe(error: unknown): void {
    const lost = error instanceof FleetError && (error.status === 0 || error.status >= 500);
    if (lost) {
      this.failures++;
      this.report({ state: 'reconnecting', error, attempts: this.failures });
    } else if (this.state !== 'connected') {
      this.failures = 0;
      this.report({ state: 'connected' });
    }
  }

  private async connect(): Promise<void> {
    const url = `${this.transport.baseUrl}/pmapi/context`;
    const answer = obj(await this.transport.getJson('/pmapi/context', { hostspec: this.options.hostspec, polltimeout: String(this.options.pollTimeoutSec ?? 60) }), url, 'the context answer');
    const id = answer.context;
    if (typeof id !== 'number' || !Number.isInteger(id)) throw new FleetError(EPROTO, 'unexpected answer: no context number', url);
    this.contextId = id;
    this.epoch++;
    this.unknown.clear();
    this.contextLabels = typeof answer.labels === 'object' && answer.labels !== null ? (answer.labels as Obj) : {};
  }

  private async connectObserved(): Promise<void> {
    try {
      await this.connect();
      this.observe(undefined);
    } catch (e) {
      this.observe(e);
      throw e;
    }
  }

  /** GET /pmapi/N/PATH; a context pmproxy no longer knows is made again, once. */
  private async get(path: string, params: Record<string, string>, raw = false): Promise<Obj> {
    if (this.closed) throw new PmError(EPROTO, 'context closed', this.target);
    // After a lost connection the old context may be gone with pmproxy or pmcd: a new one first.
    if (this.state === 'reconnecting') await this.connectObserved();
    for (let attempt = 0; ; attempt++) {
      const full = `/pmapi/${this.contextId}/${path}`;
      try {
        const text = raw ? await this.transport.getText(full, params) : undefined;
        const v: unknown = text !== undefined ? JSON.parse(quoteNumbers(text)) : await this.transport.getJson(full, params);
        this.observe(undefined);
        return obj(v, `${this.transport.baseUrl}${full}`, 'the answer');
      } catch (e) {
        this.observe(e);
        // pmproxy answers an unknown (expired) context with 400 and "unknown context identifier"
        // (also after a pmproxy restart): made again, once.
        if (attempt === 0 && e instanceof FleetError && e.status === 400 && /unknown context identifier/.test(e.message)) {
          await this.connectObserved();
          continue;
        }
        throw e;
      }
    }
  }

  private async singleString(name: string): Promise<string | undefined> {
    const answer = await this.get('fetch', { names: name }, true);
    const values = Array.isArray(answer.values) ? (answer.values as Obj[]) : [];
    const inst = values[0]?.instances;
    const v = Array.isArray(inst) ? (inst[0] as Obj | undefined)?.value : undefined;
    return typeof v === 'string' ? v : undefined;
  }

  async lookupNames(names: readonly string[]): Promise<Array<PmId | number>> {
    const missing = [...new Set(names.filter((n) => !this.names.has(n) && !this.unknown.has(n)))];
    if (missing.length > 0) await this.lookupMissing(missing);
    return names.map((n) => this.names.get(n) ?? PM_ERR_NAME);
  }

  /**
   * pmproxy refuses a whole /pmapi/metric?names= request (400 "Unknown metric name") when one
   * name is unknown: the list is halved until each unknown name stands alone (then it is
   * remembered as unknown), so the others are still found — a few requests per unknown name.
   */
  private async lookupMissing(missing: readonly string[]): Promise<void> {
    try {
      this.absorbMetrics(await this.get('metric', { names: missing.join(',') }));
    } catch (e) {
      if (!(e instanceof FleetError && e.status === 400 && /Unknown metric name/i.test(e.message))) throw e;
      if (missing.length === 1) {
        this.unknown.add(missing[0] ?? '');
        return;
      }
      const half = Math.ceil(missing.length / 2);
      await this.lookupMissing(missing.slice(0, half));
      await this.lookupMissing(missing.slice(half));
    }
  }

  /** Names, descriptors and help text of a /pmapi/metric answer, kept; returns the names. */
  private absorbMetrics(answer: Obj): string[] {
    const url = `${this.transport.baseUrl}/pmapi/${this.contextId}/metric`;
    const out: string[] = [];
    for (const m of list(answer.metrics, url, 'metrics')) {
      const o = obj(m, url, 'a metric');
      if (typeof o.name !== 'string' || o.success === false) continue;
      const pmid = parsePmId(typeof o.pmid === 'string' ? o.pmid : '');
      const type = TYPES[String(o.type)];
      const sem = SEMS[String(o.sem)];
      if (pmid === undefined || type === undefined || sem === undefined) throw new FleetError(EPROTO, `unexpected answer: descriptor of ${o.name}`, url);
      const indom = o.indom === undefined ? PM_INDOM_NULL : parseIndom(o.indom);
      if (indom === undefined) throw new FleetError(EPROTO, `unexpected answer: indom of ${o.name}`, url);
      this.names.set(o.name, pmid);
      this.descs.set(pmid, { pmid, type, indom, sem, units: unitsOf(String(o.units), url) });
      if (typeof o['text-oneline'] === 'string' && o['text-oneline'] !== '') this.texts.set(`pmid:${pmid}:oneline`, o['text-oneline']);
      if (typeof o['text-help'] === 'string' && o['text-help'] !== '') this.texts.set(`pmid:${pmid}:help`, o['text-help']);
      out.push(o.name);
    }
    return out;
  }

  nameAll(id: PmId): Promise<string[]> {
    const out = [...this.names].filter(([, p]) => p === id).map(([n]) => n);
    return out.length > 0 ? Promise.resolve(out) : Promise.reject(new PmError(PM_ERR_PMID, undefined, this.target));
  }

  async children(name: string): Promise<PmnsChild[]> {
    const answer = await this.get('children', name === '' ? {} : { prefix: name });
    const url = `${this.transport.baseUrl}/pmapi/${this.contextId}/children`;
    const leaf = answer.leaf === undefined ? [] : list(answer.leaf, url, 'leaf');
    const nonleaf = answer.nonleaf === undefined ? [] : list(answer.nonleaf, url, 'nonleaf');
    return [...leaf.map((n) => ({ name: String(n), leaf: true })), ...nonleaf.map((n) => ({ name: String(n), leaf: false }))];
  }

  /**
   * The leaf names under `name` in one request (/pmapi/metric answers every metric under a
   * prefix, with descriptors: a walk of /pmapi/children would be one request per node).
   */
  async traverse(name: string): Promise<string[]> {
    const names = this.absorbMetrics(await this.get('metric', name === '' ? {} : { prefix: name }));
    return names.filter((n) => name === '' || n === name || n.startsWith(`${name}.`)).sort();
  }

  lookupDescs(ids: readonly PmId[]): Promise<Array<Desc | number>> {
    // /pmapi/metric takes names only: a PMID is known once one of its names was looked up.
    return Promise.resolve(ids.map((id) => this.descs.get(id) ?? PM_ERR_PMID));
  }

  async getInDom(id: InDom): Promise<InstanceList> {
    const url = `${this.transport.baseUrl}/pmapi/${this.contextId}/indom`;
    let answer: Obj;
    try {
      answer = await this.get('indom', { indom: formatIndom(id) });
    } catch (e) {
      if (e instanceof FleetError && e.status === 400) throw new PmError(PM_ERR_INDOM, undefined, url);
      throw e;
    }
    const entries = list(answer.instances, url, 'instances').map((i) => obj(i, url, 'an instance'));
    if (typeof answer['text-oneline'] === 'string' && answer['text-oneline'] !== '') this.texts.set(`indom:${id}:oneline`, answer['text-oneline']);
    if (typeof answer['text-help'] === 'string' && answer['text-help'] !== '') this.texts.set(`indom:${id}:help`, answer['text-help']);
    return { instances: Int32Array.from(entries, (e) => Number(e.instance)), names: entries.map((e) => String(e.name)) };
  }

  async lookupText(target: { readonly pmid: PmId } | { readonly indom: InDom }, kind: TextKind): Promise<string> {
    const key = 'pmid' in target ? `pmid:${target.pmid}:${kind}` : `indom:${target.indom}:${kind}`;
    if (!this.texts.has(key) && 'indom' in target) await this.getInDom(target.indom).catch(() => undefined);
    const t = this.texts.get(key);
    if (t === undefined) throw new PmError(PM_ERR_TEXT, undefined, this.target);
    return t;
  }

  lookupLabels(level: number, _ident?: number): Promise<LabelSet[]> {
    if (level !== PM_LABEL_CONTEXT) return Promise.reject(new PmError(PM_ERR_NOLABELS, 'No label set at this level through /pmapi (labels come merged per metric)', this.target));
    const json = JSON.stringify(this.contextLabels);
    return Promise.resolve([{ inst: PM_IN_NULL, json, labels: Object.entries(this.contextLabels).map(([name, v]) => ({ name, value: JSON.stringify(v), flags: PM_LABEL_CONTEXT })) }]);
  }

  setMode(mode: ReplayMode): void {
    if (mode !== PM_MODE_LIVE) throw new PmError(PM_ERR_MODE, undefined, this.target);
  }

  changeProfile(change: ProfileChange): void {
    // Applied to each result here: pmproxy's /pmapi/profile would be lost with an expired context.
    this.profile.apply(change);
  }

  async fetch(ids: readonly PmId[]): Promise<Result> {
    const wanted = [...new Set(ids)];
    const names = wanted.map((id) => [...this.names].find(([, p]) => p === id)?.[0]);
    const known = names.filter((n): n is string => n !== undefined);
    const epoch = this.epoch;
    const answer = known.length > 0 ? await this.get('fetch', { names: known.join(',') }, true) : { timestamp: '0' };
    const url = `${this.transport.baseUrl}/pmapi/${this.contextId}/fetch`;
    const stamp = /^(\d+)(?:\.(\d{1,9}))?$/.exec(String(answer.timestamp));
    if (!stamp?.[1]) throw new FleetError(EPROTO, 'unexpected answer: fetch timestamp', url);
    const byPmid = new Map<string, Obj>();
    for (const v of answer.values === undefined ? [] : list(answer.values, url, 'values')) {
      const o = obj(v, url, 'a value set');
      byPmid.set(String(o.pmid), o);
    }
    const sets: ValueSet[] = wanted.map((pmid, i) => {
      const desc = this.descs.get(pmid);
      if (names[i] === undefined || !desc) return { pmid, numval: PM_ERR_PMID, valfmt: 0, inst: new Int32Array(0), values: [] };
      const o = byPmid.get(`${(pmid >>> 22) & 0x1ff}.${(pmid >>> 10) & 0xfff}.${pmid & 0x3ff}`);
      if (!o) return { pmid, numval: 0, valfmt: 0, inst: new Int32Array(0), values: [] };
      const insts: number[] = [];
      const values: AtomValue[] = [];
      for (const e of list(o.instances, url, 'instances')) {
        const x = obj(e, url, 'an instance value');
        const inst = x.instance === null ? PM_IN_NULL : Number(x.instance);
        if (desc.indom !== PM_INDOM_NULL && !this.profile.includes(desc.indom, inst)) continue;
        insts.push(inst);
        values.push(atom(x.value, desc.type, url));
      }
      const insitu = desc.type === PM_TYPE_32 || desc.type === PM_TYPE_U32;
      return { pmid, numval: insts.length, valfmt: insitu ? PM_VAL_INSITU : PM_VAL_DPTR, inst: Int32Array.from(insts), values };
    });
    // A result made across a context re-creation belongs to the new epoch.
    return { timestamp: { sec: Number(stamp[1]), nsec: Number((stamp[2] ?? '').padEnd(9, '0')) }, sets, epoch: Math.max(epoch, this.epoch) };
  }

  close(): Promise<void> {
    // /pmapi has no call to drop a context: pmproxy drops it after its poll timeout.
    this.closed = true;
    return Promise.resolve();
  }
}

function atom(v: unknown, type: number, url: string): AtomValue {
  if (type === PM_TYPE_STRING) {
    if (typeof v !== 'string') throw new FleetError(EPROTO, 'unexpected answer: a string value is not a string', url);
    return v;
  }
  const text = typeof v === 'string' ? v : String(v);
  switch (type) {
    case PM_TYPE_64:
    case PM_TYPE_U64:
      if (!/^-?\d+$/.test(text)) throw new FleetError(EPROTO, `unexpected answer: 64-bit value '${text}'`, url);
      return BigInt(text);
    case PM_TYPE_32:
    case PM_TYPE_U32:
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE: {
      const n = Number(text);
      if (text === '' || Number.isNaN(n)) throw new FleetError(EPROTO, `unexpected answer: value '${text}'`, url);
      return n;
    }
    default:
      throw new PmError(PM_ERR_TYPE, `values of type ${type} are not carried by /pmapi/fetch here`, url);
  }
}
