// Fetchgroups (pmCreateFetchGroup … pmFetchGroup; derived-units-conversion.md §9, pmFetchGroup(3)):
// registrations of single items, whole instance domains, event record fields and the
// timestamp, each with an output that one fetch of all registered metrics fills in — rate
// and unit conversion, casting to the requested type (strings included), sentinels for
// missing values, PM_ERR_AGAIN before a rate has a previous value, PM_ERR_TOOBIG when an
// instance domain outgrows its outputs, instances in ascending order, and discrete metrics
// keeping their last value while absent. Works on any Context (archive, live, derived).
import type { Context } from '../context/context';
import { PM_MODE_BACK, type ReplayMode } from '../context/context';
import { PM_ERR_AGAIN, PM_ERR_CONV, PM_ERR_INDOM, PM_ERR_INDOM_LOG, PM_ERR_INST, PM_ERR_INST_LOG, PM_ERR_TOOBIG, PM_ERR_TYPE, PM_ERR_VALUE, PmError, isPmError } from '../errors';
import { fetchgroupDelta, fetchgroupRate } from '../rate';
import type { AtomValue, Desc, EventArray, InDom, PmId, Result, Timestamp } from '../types';
import { PM_INDOM_NULL, PM_SEM_DISCRETE, PM_TYPE_DOUBLE, PM_TYPE_EVENT, PM_TYPE_HIGHRES_EVENT } from '../types';
import { extractCast, sentinel, stuffDouble, type OutValue } from './cast';
import { convertDouble, prepareConversion, type Conversion } from './conversion';

/** A single item's output: the value (sentinel when none) and its status. */
export interface ItemOutput {
  value: OutValue;
  status: number;
}

/** A whole instance domain: `num` instances, in ascending instance id order. */
export interface IndomOutput {
  num: number;
  status: number;
  readonly codes: Int32Array;
  readonly names: (string | null)[];
  readonly values: OutValue[];
  readonly statuses: Int32Array;
}

/** One field of the event records of one metric instance, in record order. */
export interface EventOutput {
  num: number;
  status: number;
  readonly times: Timestamp[];
  readonly values: OutValue[];
  readonly statuses: Int32Array;
}

export interface TimestampOutput {
  value: Timestamp;
}

interface ItemReg {
  readonly kind: 'item';
  readonly pmid: PmId;
  readonly desc: Desc;
  readonly inst: number;
  readonly conv: Conversion;
  readonly outType: number;
  readonly out: ItemOutput;
}
interface IndomReg {
  readonly kind: 'indom';
  readonly pmid: PmId;
  readonly desc: Desc;
  readonly conv: Conversion;
  readonly outType: number;
  readonly maxnum: number;
  readonly out: IndomOutput;
}
interface EventReg {
  readonly kind: 'event';
  readonly pmid: PmId;
  readonly desc: Desc;
  readonly inst: number;
  readonly fieldPmid: PmId;
  readonly fieldDesc: Desc;
  readonly conv: Conversion;
  readonly outType: number;
  readonly maxnum: number;
  readonly out: EventOutput;
}
interface TimeReg {
  readonly kind: 'timestamp';
  readonly out: TimestampOutput;
}
type Registration = ItemReg | IndomReg | EventReg | TimeReg;

/** A value set reduced to what extraction needs: instances sorted ascending. */
interface SortedSet {
  readonly numval: number;
  readonly inst: Int32Array;
  readonly values: readonly AtomValue[];
}

interface SortedResult {
  readonly timestamp: Timestamp;
  readonly sets: Map<number, SortedSet>;
  readonly epoch?: number;
}

interface InDomCache {
  codes: Int32Array;
  names: readonly string[];
  refreshed: boolean;
}

/** Archive contexts expose their replay state; a fetchgroup needs it for two libpcp rules. */
interface ReplayState {
  readonly origin: Timestamp;
  readonly mode: number;
  readonly deltaNs: bigint;
  archiveEnd(): Promise<Timestamp>;
}

function replayState(ctx: Context): ReplayState | undefined {
  // A wrapping context (DerivedContext) replays its inner archive: in libpcp derived metrics
  // live in the archive context itself, so its replay state is the inner one's.
  const inner = (ctx as { readonly inner?: Context }).inner;
  if (inner !== undefined && inner !== ctx) return replayState(inner);
  const c = ctx as Partial<ReplayState>;
  return ctx.source.kind === 'archive' && c.origin !== undefined && typeof c.archiveEnd === 'function' ? (c as ReplayState) : undefined;
}

function sortResult(r: Result): SortedResult {
  const sets = new Map<number, SortedSet>();
  for (const s of r.sets) {
    if (sets.has(s.pmid)) continue;
    if (s.numval <= 1) {
      sets.set(s.pmid, s);
      continue;
    }
    const order = Array.from(s.inst, (_, i) => i).sort((a, b) => (s.inst[a]) - (s.inst[b]));
    sets.set(s.pmid, { numval: s.numval, inst: Int32Array.from(order, (i) => s.inst[i]), values: order.map((i) => s.values[i]) });
  }
  return { timestamp: r.timestamp, sets, epoch: r.epoch };
}

export interface FetchGroupOptions {
  /** PCP_COUNTER_WRAP is set (libpcp reads it when the fetchgroup is created). */
  readonly counterWrap?: boolean;
}

export class FetchGroup {
  private readonly regs: Registration[] = [];
  private readonly pmids: PmId[] = [];
  private readonly indoms = new Map<InDom, InDomCache>();
  private prev: SortedResult | undefined;
  private readonly wrap: boolean;

  /** pmCreateFetchGroup over a context the fetchgroup now owns (destroy() closes it). */
  constructor(
    readonly ctx: Context,
    options: FetchGroupOptions = {},
  ) {
    this.wrap = options.counterWrap ?? false;
  }

  private addPmid(pmid: PmId): void {
    if (!this.pmids.includes(pmid)) this.pmids.push(pmid);
  }

  private async lookup(metric: string): Promise<{ pmid: PmId; desc: Desc }> {
    const [id] = await this.ctx.lookupNames([metric]);
    if (id === undefined || id < 0) throw new PmError(id ?? PM_ERR_VALUE, undefined, metric);
    const [d] = await this.ctx.lookupDescs([id as PmId]);
    if (typeof d !== 'object') throw new PmError(d ?? PM_ERR_VALUE, undefined, metric);
    return { pmid: id as PmId, desc: d };
  }

  /** pmLookupInDom: for an archive the instances in force at the current time; the full
   *  name, else the name up to its first space. */
  private async lookupInstance(indom: InDom, name: string): Promise<number> {
    const rs = replayState(this.ctx);
    const list = await this.ctx.getInDom(indom, rs ? rs.origin : undefined);
    let i = list.names.indexOf(name);
    if (i < 0) i = list.names.findIndex((n) => n.includes(' ') && n.slice(0, n.indexOf(' ')) === name);
    if (i < 0) throw new PmError(rs ? PM_ERR_INST_LOG : PM_ERR_INST, undefined, name);
    return list.instances[i];
  }

  /** One instance of a metric (-1 for a singular one, which takes none), added to the profile. */
  private async lookupItem(metric: string, instance: string | undefined): Promise<{ pmid: PmId; desc: Desc; inst: number }> {
    const { pmid, desc } = await this.lookup(metric);
    if ((desc.indom === PM_INDOM_NULL) !== (instance === undefined)) throw new PmError(PM_ERR_INDOM, undefined, metric);
    if (desc.indom === PM_INDOM_NULL) return { pmid, desc, inst: -1 };
    const inst = await this.lookupInstance(desc.indom, instance as string);
    this.ctx.changeProfile({ op: 'add', indom: desc.indom, instances: [inst] });
    return { pmid, desc, inst };
  }

  /**
   * Runs a lookup; for an archive whose instance is not known at the current time, libpcp
   * retries with the context moved to the archive end, then restores the mode (multiplying
   * the saved delta by its direction again, so a backwards delta comes back forwards).
   */
  private async withArchiveRetry<T>(attempt: () => Promise<T>): Promise<T> {
    try {
      return await attempt();
    } catch (e) {
      const rs = replayState(this.ctx);
      if (!rs || !isPmError(e)) throw e;
      const saved = { mode: rs.mode, origin: rs.origin, delta: rs.deltaNs };
      const end = await rs.archiveEnd();
      this.ctx.setMode(PM_MODE_BACK, end, 0n);
      let out: T | undefined;
      let err: unknown;
      try {
        out = await attempt();
      } catch (e2) {
        err = e2;
      }
      const restored = saved.delta < 0n ? -saved.delta : saved.delta;
      this.ctx.setMode(saved.mode as ReplayMode, saved.origin, restored);
      if (err !== undefined) throw err instanceof Error ? err : new Error('instance lookup failed');
      return out as T;
    }
  }

  /** pmExtendFetchGroup_item. Rejects with PmError; the output starts at its sentinel. */
  async extendItem(metric: string, outType: number, options: { readonly instance?: string; readonly scale?: string } = {}): Promise<ItemOutput> {
    const found = await this.withArchiveRetry(() => this.lookupItem(metric, options.instance));
    const conv = prepareConversion(found.desc, options.scale, outType);
    if (typeof conv === 'number') throw new PmError(conv, undefined, metric);
    this.addPmid(found.pmid);
    const out: ItemOutput = { value: sentinel(outType), status: PM_ERR_VALUE };
    this.regs.push({ kind: 'item', pmid: found.pmid, desc: found.desc, inst: found.inst, conv, outType, out });
    return out;
  }

  /** pmExtendFetchGroup_indom: every instance (a singular metric as one unnamed instance). */
  async extendIndom(metric: string, outType: number, maxnum: number, options: { readonly scale?: string } = {}): Promise<IndomOutput> {
    const { pmid, desc } = await this.lookup(metric);
    if (desc.indom !== PM_INDOM_NULL && !this.indoms.has(desc.indom)) {
      this.indoms.set(desc.indom, { codes: new Int32Array(0), names: [], refreshed: false });
      this.ctx.changeProfile({ op: 'add', indom: desc.indom });
    }
    const conv = prepareConversion(desc, options.scale, outType);
    if (typeof conv === 'number') throw new PmError(conv, undefined, metric);
    this.addPmid(pmid);
    const out: IndomOutput = {
      num: 0,
      status: 0,
      codes: new Int32Array(maxnum),
      names: new Array<string | null>(maxnum).fill(null),
      values: Array.from({ length: maxnum }, () => sentinel(outType)),
      statuses: new Int32Array(maxnum).fill(PM_ERR_VALUE),
    };
    this.regs.push({ kind: 'indom', pmid, desc, conv, outType, maxnum, out });
    return out;
  }

  /** pmExtendFetchGroup_event: one field of the records of an event metric (no rates). */
  async extendEvent(metric: string, field: string, outType: number, maxnum: number, options: { readonly instance?: string; readonly scale?: string } = {}): Promise<EventOutput> {
    const found = await this.withArchiveRetry(async () => {
      const { pmid, desc, inst } = await this.lookupItem(metric, options.instance);
      const f = await this.lookup(field);
      if (f.desc.indom !== PM_INDOM_NULL) throw new PmError(PM_ERR_INDOM, undefined, field);
      return { pmid, desc, inst, fieldPmid: f.pmid, fieldDesc: f.desc };
    });
    if (found.desc.type !== PM_TYPE_EVENT && found.desc.type !== PM_TYPE_HIGHRES_EVENT) throw new PmError(PM_ERR_TYPE, undefined, metric);
    const conv = prepareConversion(found.fieldDesc, options.scale, outType);
    if (typeof conv === 'number') throw new PmError(conv, undefined, field);
    if (conv.rate) throw new PmError(PM_ERR_CONV, undefined, field);
    this.addPmid(found.pmid);
    const out: EventOutput = { num: 0, status: 0, times: [], values: Array.from({ length: maxnum }, () => sentinel(outType)), statuses: new Int32Array(maxnum).fill(PM_ERR_VALUE) };
    this.regs.push({ kind: 'event', ...found, conv, outType, maxnum, out });
    return out;
  }

  /** pmExtendFetchGroup_timestamp: the result's timestamp (zero until a fetch). */
  extendTimestamp(): TimestampOutput {
    const out: TimestampOutput = { value: { sec: 0, nsec: 0 } };
    this.regs.push({ kind: 'timestamp', out });
    return out;
  }

  /**
   * pmFetchGroup: one fetch of every registered metric, outputs filled in. Returns the
   * fetch's status (negative on failure, e.g. PM_ERR_EOL; the outputs then carry errors).
   */
  async fetch(): Promise<number> {
    for (const r of this.regs) this.reinit(r, true);
    let sts = 0;
    let result: SortedResult;
    try {
      result = sortResult(await this.ctx.fetch(this.pmids));
      // Never a rate across a reconnect (Result.epoch): unlike libpcp's fetchgroup, which
      // keeps the pre-drop result; docs/deviations.md, "Live contexts: rates across a reconnect".
      if (this.prev && this.prev.epoch !== result.epoch) this.prev = undefined;
    } catch (e) {
      if (!isPmError(e)) throw e;
      sts = e.code;
      // libpcp stands in an empty result stamped with the wall clock.
      const now = Date.now();
      result = { timestamp: { sec: Math.floor(now / 1000), nsec: (now % 1000) * 1_000_000 }, sets: new Map() };
    }
    // libpcp walks its registrations newest first.
    for (let k = this.regs.length - 1; k >= 0; k--) {
      const r = this.regs[k];
      switch (r.kind) {
        case 'timestamp':
          r.out.value = result.timestamp;
          break;
        case 'item':
          this.fetchItem(r, result);
          break;
        case 'indom':
          await this.fetchIndom(r, result);
          break;
        case 'event':
          this.fetchEvent(r, result);
          break;
      }
    }
    if (sts >= 0) this.prev = result;
    return sts;
  }

  /** pmClearFetchGroup: drops every registration and the previous result; keeps the context. */
  clear(): void {
    for (const r of this.regs) this.reinit(r, false);
    this.regs.length = 0;
    this.pmids.length = 0;
    this.prev = undefined;
    for (const indom of this.indoms.keys()) this.ctx.changeProfile({ op: 'delete', indom });
    this.indoms.clear();
  }

  /** pmDestroyFetchGroup: clears and closes the context. */
  async destroy(): Promise<void> {
    this.clear();
    await this.ctx.close();
  }

  private reinit(r: Registration, beforeFetch: boolean): void {
    switch (r.kind) {
      case 'timestamp':
        r.out.value = { sec: 0, nsec: 0 };
        break;
      case 'item':
        if (!beforeFetch || r.desc.sem !== PM_SEM_DISCRETE) r.out.value = sentinel(r.outType);
        break;
      case 'indom':
        if (!beforeFetch || r.desc.sem !== PM_SEM_DISCRETE) this.reinitIndom(r);
        break;
      case 'event':
        r.out.values.fill(sentinel(r.outType));
        r.out.times.length = 0;
        r.out.statuses.fill(PM_ERR_VALUE);
        r.out.num = 0;
        break;
    }
  }

  private reinitIndom(r: IndomReg): void {
    r.out.values.fill(sentinel(r.outType));
    r.out.names.fill(null);
    r.out.statuses.fill(PM_ERR_VALUE);
    r.out.num = 0;
  }

  /** pmfg_extract_item: the instance's value cast to `otype`, or a negative code. */
  private extract(result: SortedResult, pmid: PmId, desc: Desc, inst: number, otype: number): { ok: true; value: AtomValue } | { ok: false; code: number } {
    const set = result.sets.get(pmid);
    if (!set) return { ok: false, code: PM_ERR_VALUE };
    if (set.numval < 0) return { ok: false, code: set.numval };
    for (let j = 0; j < set.numval; j++) {
      if (desc.indom === PM_INDOM_NULL || set.inst[j] === inst) return extractCast(set.values[j], desc.type, otype);
    }
    return { ok: false, code: PM_ERR_VALUE };
  }

  /** pmfg_extract_convert_item: rate and/or scale conversion, then the cast. */
  private extractConvert(result: SortedResult, pmid: PmId, desc: Desc, inst: number, conv: Conversion, otype: number): { ok: true; value: AtomValue } | { ok: false; code: number } {
    const cur = this.extract(result, pmid, desc, inst, PM_TYPE_DOUBLE);
    if (!cur.ok) return cur;
    let value = cur.value as number;
    if (conv.rate) {
      if (!this.prev) return { ok: false, code: PM_ERR_AGAIN };
      const deltaT = fetchgroupDelta(this.prev.timestamp, result.timestamp);
      const prev = this.extract(this.prev, pmid, desc, inst, PM_TYPE_DOUBLE);
      if (!prev.ok) return prev;
      const r = fetchgroupRate(prev.value as number, value, deltaT, desc.type, this.wrap);
      if (typeof r !== 'number') return { ok: false, code: r.code };
      value = r;
    }
    const c = convertDouble(desc, conv, value);
    if (!c.ok) return c;
    return stuffDouble(c.value, otype);
  }

  private extractFor(result: SortedResult, pmid: PmId, desc: Desc, inst: number, conv: Conversion, otype: number): { ok: true; value: AtomValue } | { ok: false; code: number } {
    return conv.rate || conv.units ? this.extractConvert(result, pmid, desc, inst, conv, otype) : this.extract(result, pmid, desc, inst, otype);
  }

  private fetchItem(r: ItemReg, result: SortedResult): void {
    if (r.desc.sem === PM_SEM_DISCRETE) {
      const set = result.sets.get(r.pmid);
      if (set && set.numval > 0) r.out.value = sentinel(r.outType);
      else if (set && set.numval === 0) return; // keep the last value and its status
    }
    const v = this.extractFor(result, r.pmid, r.desc, r.inst, r.conv, r.outType);
    if (v.ok) r.out.value = v.value;
    r.out.status = v.ok ? 0 : v.code;
  }

  private async fetchIndom(r: IndomReg, result: SortedResult): Promise<void> {
    const set = result.sets.get(r.pmid);
    if (!set) {
      r.out.status = PM_ERR_VALUE;
      return;
    }
    if (set.numval < 0) {
      r.out.status = set.numval;
      return;
    }
    if (r.desc.sem === PM_SEM_DISCRETE) {
      if (set.numval > 0) this.reinitIndom(r);
      else return; // keep the last values
    }
    // Instance names: a cached pmGetInDom, refreshed when an unknown instance turns up.
    const cache = r.desc.indom === PM_INDOM_NULL ? undefined : this.indoms.get(r.desc.indom);
    if (cache && cache.refreshed) {
      for (let j = 0; j < set.numval; j++) {
        if (!cache.codes.includes(set.inst[j])) {
          cache.refreshed = false;
          break;
        }
      }
    }
    if (cache && !cache.refreshed) {
      cache.refreshed = true;
      try {
        const rs = replayState(this.ctx);
        const list = await this.ctx.getInDom(r.desc.indom, rs ? rs.origin : undefined);
        cache.codes = list.instances;
        cache.names = list.names;
      } catch (e) {
        // Without names the values still come out (libpcp: names NULL, retried next time).
        if (!isPmError(e) || (e.code !== PM_ERR_INDOM_LOG && e.code !== PM_ERR_INDOM)) throw e;
        cache.refreshed = false;
        cache.codes = new Int32Array(0);
        cache.names = [];
      }
    }
    let sts = 0;
    let j = 0;
    for (; j < set.numval; j++) {
      if (j >= r.maxnum) {
        sts = PM_ERR_TOOBIG;
        break;
      }
      const inst = set.inst[j];
      r.out.codes[j] = inst;
      if (cache) {
        const k = cache.codes.indexOf(inst);
        r.out.names[j] = k < 0 ? null : (cache.names[k]);
      } else {
        r.out.names[j] = null;
      }
      const v = this.extractFor(result, r.pmid, r.desc, inst, r.conv, r.outType);
      if (v.ok) r.out.values[j] = v.value;
      r.out.statuses[j] = v.ok ? 0 : v.code;
    }
    if (sts === 0) r.out.num = j;
    r.out.status = sts;
  }

  private fetchEvent(r: EventReg, result: SortedResult): void {
    const set = result.sets.get(r.pmid);
    let sts = 0;
    let count = 0;
    const done = (): void => {
      r.out.num = count;
      r.out.status = sts;
    };
    if (!set) {
      sts = PM_ERR_VALUE;
      return done();
    }
    if (set.numval < 0) {
      sts = set.numval;
      return done();
    }
    let i = 0;
    for (; i < set.numval; i++) if (r.desc.indom === PM_INDOM_NULL || set.inst[i] === r.inst) break;
    if (i >= set.numval) return done();
    const events = set.values[i] as EventArray;
    for (const rec of events.records) {
      for (const p of rec.params) {
        if (p.pmid !== r.fieldPmid) continue;
        if (count >= r.maxnum) {
          sts = PM_ERR_TOOBIG;
          return done();
        }
        const v = r.conv.units ? this.convertField(r, p.value) : extractCast(p.value, r.fieldDesc.type, r.outType);
        // On a conversion error libpcp skips both the value and the time (left zero).
        if (v.ok) {
          r.out.values[count] = v.value;
          r.out.times[count] = rec.time;
        } else {
          r.out.times[count] = { sec: 0, nsec: 0 };
        }
        r.out.statuses[count] = v.ok ? 0 : v.code;
        count++;
      }
    }
    done();
  }

  private convertField(r: EventReg, value: AtomValue): { ok: true; value: AtomValue } | { ok: false; code: number } {
    const d = extractCast(value, r.fieldDesc.type, PM_TYPE_DOUBLE);
    if (!d.ok) return d;
    const c = convertDouble(r.fieldDesc, r.conv, d.value as number);
    if (!c.ok) return c;
    return stuffDouble(c.value, r.outType);
  }
}
