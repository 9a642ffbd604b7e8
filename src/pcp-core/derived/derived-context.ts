// DerivedContext: a Context that adds derived metrics to another Context (archive or live),
// as libpcp does inside every context (derived-units-conversion.md §2.8–2.9, §4.1). Derived
// names join the PMNS under their domain-511 PMIDs; a metric is bound (semantic checks,
// descriptor) the first time its descriptor or values are asked for; a fetch that names
// derived metrics also fetches their operands, evaluates, and returns the caller's PMIDs
// only. delta()/rate() history and instance caches are kept per context and continue across
// setMode, as in libpcp. Semantic errors found while binding go to `onMessage` in libpcp's
// words (pmprintf); the dashboard asks checkExpression() for structured errors instead.
import { metricNames, type Expr } from './ast';
import { bindExpression, type BindFailure, type OperandLookup } from './binder';
import type { BoundMetric } from './bound';
import { isColumn, type Outcome } from './column';
import { evaluate, EvalState, pendingNameLookups, type NamePurpose } from './evaluator';
import { formatAddError, formatAddPmapiError } from './messages';
import { parseExpression } from './parser';
import { globalDerivedRegistry, isAnyDerivedPmid, isDerivedPmid, type DerivedDefinition, type DerivedRegistry } from './registry';
import { toResultValueSet } from './result';
import type { Span } from './lexer';
import type { Context, ContextSource, LabelSet, PmnsChild, ProfileChange, ReplayMode, TextKind } from '../context/context';
import { PM_MODE_INTERP } from '../context/context';
import { isPmError, PM_ERR_BADDERIVE, PM_ERR_NAME, PM_ERR_PMID, PM_ERR_TEXT, PmError } from '../errors';
import { DYNAMIC_PMID_DOMAIN, emptyValueSet, pmid as makePmid } from '../types';
import type { Desc, FetchRun, InDom, InstanceList, PmId, Result, Timestamp, ValueSet } from '../types';

type Binding = { readonly ok: true; readonly metric: BoundMetric; readonly desc: Desc; readonly state: EvalState } | { readonly ok: false; readonly failure: BindFailure | null };

interface Entry {
  readonly def: Pick<DerivedDefinition, 'name' | 'pmid' | 'text' | 'expr' | 'anon' | 'oneline' | 'helptext'>;
  readonly global: boolean;
  masked: boolean;
  binding: Binding | undefined;
  binding$: Promise<Binding> | undefined;
}

export interface DerivedContextOptions {
  /** Global definitions (default: the process-wide registry). */
  readonly registry?: DerivedRegistry;
  /** libpcp's pmprintf: semantic errors found while binding, one line each. */
  readonly onMessage?: (text: string) => void;
}

/** One problem of an expression being edited, located in its text. */
export interface ExpressionProblem {
  readonly stage: 'syntax' | 'operand' | 'semantic';
  readonly span: Span;
  /** Short text for display. */
  readonly message: string;
}

export type ExpressionCheck = { readonly ok: true; readonly desc: Omit<Desc, 'pmid'> } | { readonly ok: false; readonly problem: ExpressionProblem };

/** pmAddDerivedMetric's outcome: 0, or PM_ERR_BADDERIVE with libpcp's message. */
export type AddResult = { readonly status: 0 } | { readonly status: number; readonly message: string };

/** Per-context PMIDs count down from 511.2047.1023 with the top (flag) bit set. */
const FIRST_CONTEXT_PMID = (0x80000000 | makePmid(DYNAMIC_PMID_DOMAIN, 2047, 1023)) >>> 0;

export class DerivedContext implements Context {
  private readonly registry: DerivedRegistry;
  private readonly onMessage: (text: string) => void;
  private readonly entries: Entry[] = [];
  private readonly byPmid = new Map<number, Entry>();
  private seenGlobals = 0;
  private lastContextPmid: number | undefined;
  private mode: ReplayMode | undefined;
  private deltaNs = 0n;
  /** The epoch of the last inner result evaluated (Result.epoch; live contexts only). */
  private epoch: number | undefined;

  constructor(
    readonly inner: Context,
    options: DerivedContextOptions = {},
  ) {
    this.registry = options.registry ?? globalDerivedRegistry;
    this.onMessage = options.onMessage ?? (() => undefined);
    this.registry.initialize();
    this.refresh();
  }

  get source(): ContextSource {
    return this.inner.source;
  }

  /** Appends global definitions registered since the last look (libpcp's refresh). */
  private refresh(): void {
    const defs = this.registry.definitions;
    for (; this.seenGlobals < defs.length; this.seenGlobals++) {
      const def = defs[this.seenGlobals];
      const e: Entry = { def, global: true, masked: this.entries.some((x) => !x.global && x.def.name === def.name), binding: undefined, binding$: undefined };
      this.entries.push(e);
      if (!e.masked) this.byPmid.set(def.pmid, e);
    }
  }

  private visible(): Entry[] {
    this.refresh();
    return this.entries.filter((e) => !e.masked);
  }

  private byName(name: string): Entry | undefined {
    return this.visible().find((e) => e.def.name === name);
  }

  private entryFor(id: PmId): Entry | undefined {
    this.refresh();
    return isAnyDerivedPmid(id) ? this.byPmid.get(id) : undefined;
  }

  private failedBinding(e: Entry): boolean {
    return !e.def.anon && e.binding !== undefined && !e.binding.ok;
  }

  // ---------------------------------------------------------------------------------------
  // Binding

  /** Resolves every operand name of an expression in this context, for the binder. */
  private async resolveOperands(expr: Expr): Promise<(name: string) => OperandLookup> {
    const names = metricNames(expr);
    const table = new Map<string, OperandLookup>();
    if (names.length > 0) {
      const ids = await this.lookupNames(names);
      const real: Array<{ name: string; id: PmId }> = [];
      names.forEach((name, i) => {
        const id = ids[i];
        if (id < 0) table.set(name, { kind: 'unknown', code: id });
        else if (this.entryFor(id as PmId) !== undefined) table.set(name, { kind: 'derived', pmid: id as PmId });
        else real.push({ name, id: id as PmId });
      });
      if (real.length > 0) {
        const descs = await this.inner.lookupDescs(real.map((r) => r.id));
        real.forEach((r, i) => {
          const d = descs[i];
          table.set(r.name, typeof d === 'number' ? { kind: 'nodesc', pmid: r.id, code: d } : { kind: 'ok', pmid: r.id, desc: d });
        });
      }
    }
    return (name) => table.get(name) ?? { kind: 'unknown', code: PM_ERR_NAME };
  }

  private async bindOnce(e: Entry, report: boolean): Promise<Binding> {
    if (!e.def.anon) {
      // A real metric of the same name wins; the derived definition is silently ignored.
      const [id] = await this.inner.lookupNames([e.def.name]);
      if (id !== undefined && id >= 0) return { ok: false, failure: null };
    }
    const lookup = await this.resolveOperands(e.def.expr);
    const r = bindExpression(e.def.name, e.def.pmid, e.def.expr, lookup);
    if (!r.ok) {
      if (report && r.failure.message !== null) this.onMessage(r.failure.message);
      return { ok: false, failure: r.failure };
    }
    return { ok: true, metric: r.metric, desc: r.desc, state: new EvalState(r.metric) };
  }

  private bind(e: Entry): Promise<Binding> {
    if (e.binding !== undefined) return Promise.resolve(e.binding);
    e.binding$ ??= this.bindOnce(e, true).then((b) => {
      e.binding = b;
      return b;
    });
    return e.binding$;
  }

  // ---------------------------------------------------------------------------------------
  // Registration in this context only

  /** pmAddDerivedMetric: a derived metric private to this context, bound at once. */
  async addDerived(name: string, text: string): Promise<AddResult> {
    this.refresh();
    for (const e of this.entries) {
      if (e.def.name !== name) continue;
      if (!e.global) return { status: PM_ERR_BADDERIVE, message: formatAddPmapiError(name, PM_ERR_BADDERIVE, 'Duplicate per-context derived metric name') };
      // libpcp masks the global metric before it even parses the new text.
      e.masked = true;
      this.byPmid.delete(e.def.pmid);
    }
    const parsed = parseExpression(text);
    if (!parsed.ok) return { status: PM_ERR_BADDERIVE, message: formatAddError('Syntax', name, text, parsed.error.position, parsed.error.message) };
    let id: number;
    if (this.lastContextPmid === undefined) id = FIRST_CONTEXT_PMID;
    else {
      const cluster = (this.lastContextPmid >>> 10) & 0xfff;
      const item = this.lastContextPmid & 0x3ff;
      if (item > 1) id = this.lastContextPmid - 1;
      else if ((cluster & 0x7ff) > 0) id = (this.lastContextPmid & ~0x3fffff) | ((cluster - 1) << 10) | 1023;
      else return { status: PM_ERR_BADDERIVE, message: formatAddPmapiError(name, PM_ERR_BADDERIVE, 'per-context PMID space exhausted') };
      id >>>= 0;
    }
    this.lastContextPmid = id;
    const e: Entry = { def: { name, pmid: id as PmId, text, expr: parsed.expr, anon: false, oneline: null, helptext: null }, global: false, masked: false, binding: undefined, binding$: undefined };
    this.entries.push(e);
    this.byPmid.set(id, e);
    e.binding = await this.bindOnce(e, false);
    if (!e.binding.ok && e.binding.failure?.message != null && e.binding.failure.kind !== 'operand') {
      return { status: PM_ERR_BADDERIVE, message: formatAddError('Semantic', name, text, 0, e.binding.failure.reason) };
    }
    if (!e.binding.ok && e.binding.failure?.kind === 'operand' && e.binding.failure.reason === 'nested') {
      return { status: PM_ERR_BADDERIVE, message: formatAddError('Semantic', name, text, 0, 'Illegal nested derived metric') };
    }
    return { status: 0 };
  }

  /**
   * Checks an expression as it is being typed: syntax, operand names and semantics in this
   * context, without registering anything. The first problem, located in the text.
   */
  async checkExpression(text: string, name = 'expression'): Promise<ExpressionCheck> {
    const parsed = parseExpression(text);
    if (!parsed.ok) {
      const e = parsed.error;
      return { ok: false, problem: { stage: 'syntax', span: e.span, message: e.message ?? 'Syntax error' } };
    }
    const lookup = await this.resolveOperands(parsed.expr);
    const r = bindExpression(name, 0 as PmId, parsed.expr, lookup);
    if (r.ok) {
      const { type, sem, indom, units } = r.desc;
      return { ok: true, desc: { type, sem, indom, units } };
    }
    const f = r.failure;
    if (f.kind === 'semantic') return { ok: false, problem: { stage: 'semantic', span: f.span, message: f.reason } };
    const what = f.reason === 'unknown' ? 'Unknown metric name' : f.reason === 'nested' ? 'Illegal nested derived metric' : 'Metadata not available';
    return { ok: false, problem: { stage: 'operand', span: f.span, message: `${what}: ${f.name}` } };
  }

  // ---------------------------------------------------------------------------------------
  // PMNS

  async lookupNames(names: readonly string[]): Promise<Array<PmId | number>> {
    const ids = await this.inner.lookupNames(names);
    return ids.map((id, i) => {
      if (id >= 0) return id;
      const e = this.byName(names[i]);
      return e === undefined ? id : e.def.pmid;
    });
  }

  async nameAll(id: PmId): Promise<string[]> {
    const e = this.entryFor(id);
    return e === undefined ? this.inner.nameAll(id) : [e.def.name];
  }

  /** Derived children of `name` (libpcp's __dmchildren): next-level names, leaf or not. */
  private derivedChildren(name: string): PmnsChild[] | 'leaf' | undefined {
    const out: PmnsChild[] = [];
    for (const e of this.visible()) {
      if (this.failedBinding(e)) continue;
      const n = e.def.name;
      if (name !== '' && !(n.startsWith(name) && (n.length === name.length || n[name.length] === '.'))) continue;
      if (n.length === name.length) return 'leaf';
      const rest = n.slice(name === '' ? 0 : name.length + 1);
      const dot = rest.indexOf('.');
      const child = dot < 0 ? rest : rest.slice(0, dot);
      if (!out.some((c) => c.name === child)) out.push({ name: child, leaf: dot < 0 });
    }
    return out.length > 0 ? out : undefined;
  }

  async children(name: string): Promise<PmnsChild[]> {
    let real: PmnsChild[] | undefined;
    let failure: unknown;
    try {
      real = await this.inner.children(name);
    } catch (e) {
      failure = e;
    }
    const derived = this.derivedChildren(name);
    if (derived === undefined || derived === 'leaf') {
      if (real !== undefined) return real;
      if (derived === 'leaf') return [];
      throw asError(failure);
    }
    const base = real ?? [];
    return [...base, ...derived.filter((d) => !base.some((r) => r.name === d.name))];
  }

  async traverse(name: string): Promise<string[]> {
    let real: string[] = [];
    let failure: unknown;
    try {
      real = await this.inner.traverse(name);
    } catch (e) {
      failure = e;
    }
    const prefixed = (n: string): boolean => name === '' || n === name || n.startsWith(`${name}.`);
    if (this.source.kind === 'live') {
      // pmcd's traversal, then every derived metric under `name` that binds.
      const derived: string[] = [];
      for (const e of this.visible()) {
        if (!prefixed(e.def.name)) continue;
        const b = e.def.anon ? undefined : await this.bind(e);
        if (b === undefined || b.ok) derived.push(e.def.name);
      }
      if (real.length === 0 && derived.length === 0 && failure !== undefined) throw asError(failure);
      return [...real, ...derived];
    }
    // Archives: depth first over children with derived children after the real ones.
    const derived = this.visible()
      .filter((e) => prefixed(e.def.name) && !this.failedBinding(e))
      .map((e) => e.def.name);
    if (derived.length === 0) {
      if (failure !== undefined) throw asError(failure);
      return real;
    }
    return mergeTraversal(real, derived);
  }

  // ---------------------------------------------------------------------------------------
  // Metadata

  async lookupDescs(ids: readonly PmId[]): Promise<Array<Desc | number>> {
    const out: Array<Desc | number> = new Array<Desc | number>(ids.length);
    const realIdx: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      const e = this.entryFor(id);
      if (e === undefined) {
        if (isDerivedPmid(id)) out[i] = PM_ERR_PMID;
        else realIdx.push(i);
        continue;
      }
      const b = await this.bind(e);
      out[i] = b.ok ? b.desc : PM_ERR_BADDERIVE;
    }
    if (realIdx.length > 0) {
      const descs = await this.inner.lookupDescs(realIdx.map((i) => ids[i]));
      realIdx.forEach((i, k) => (out[i] = descs[k]));
    }
    return out;
  }

  getInDom(id: InDom, at?: Timestamp): Promise<InstanceList> {
    return this.inner.getInDom(id, at);
  }

  async lookupText(target: { readonly pmid: PmId } | { readonly indom: InDom }, kind: TextKind): Promise<string> {
    if ('pmid' in target) {
      const e = this.entryFor(target.pmid);
      if (e !== undefined) {
        if (!e.global) throw new PmError(PM_ERR_PMID);
        const text = kind === 'oneline' ? e.def.oneline : (e.def.helptext ?? e.def.oneline);
        if (text === null) throw new PmError(PM_ERR_TEXT);
        return text;
      }
    }
    return this.inner.lookupText(target, kind);
  }

  lookupLabels(level: number, ident: number): Promise<LabelSet[]> {
    return this.inner.lookupLabels(level, ident);
  }

  // ---------------------------------------------------------------------------------------
  // Fetch

  setMode(mode: ReplayMode, origin?: Timestamp, deltaNs?: bigint): void {
    this.mode = mode;
    if (deltaNs !== undefined) this.deltaNs = deltaNs;
    this.inner.setMode(mode, origin, deltaNs);
  }

  changeProfile(change: ProfileChange): void {
    this.inner.changeProfile(change);
  }

  prefetch(at: Timestamp): void {
    this.inner.prefetch?.(at);
  }

  prefetchPass(from: Timestamp, to: Timestamp): void {
    this.inner.prefetchPass?.(from, to);
  }

  releaseMemory(): void {
    this.inner.releaseMemory?.();
  }

  /**
   * The metrics a fetch of derived `id` asks the inner context for (binding it if need be):
   * [] when it has none (constants, anonymous metrics, a failed binding); undefined when `id`
   * is not a derived metric of this context. Lets a caller tell where such a fetch lands.
   */
  async operandsOf(id: PmId): Promise<readonly PmId[] | undefined> {
    const e = this.entryFor(id);
    if (e === undefined) return undefined;
    const b = await this.bind(e);
    return b.ok ? b.metric.operands : [];
  }

  /**
   * Context.fetchEager: a fetch naming no derived metric is the inner context's, so a replay
   * under the default derived config pays no promise per sample where the inner context
   * answers at once; one naming a derived metric is `fetch`.
   */
  fetchEager(ids: readonly PmId[]): Result | Promise<Result> {
    for (let i = 0; i < ids.length; i++) if (this.entryFor(ids[i]) !== undefined) return this.fetch(ids);
    return this.inner.fetchEager ? this.inner.fetchEager(ids) : this.inner.fetch(ids);
  }

  /** Context.fetchRun: the inner context's for a fetch naming no derived metric. */
  fetchRun(ids: readonly PmId[], max: number, run: FetchRun): number {
    run.count = 0;
    for (let i = 0; i < ids.length; i++) if (this.entryFor(ids[i]) !== undefined) return 0;
    return this.inner.fetchRun ? this.inner.fetchRun(ids, max, run) : 0;
  }

  async fetch(ids: readonly PmId[]): Promise<Result> {
    const derived: Array<{ index: number; entry: Entry }> = [];
    ids.forEach((id, index) => {
      const entry = this.entryFor(id);
      if (entry !== undefined) derived.push({ index, entry });
    });
    if (derived.length === 0) return this.inner.fetch(ids);

    const bound: Array<{ index: number; binding: Binding }> = [];
    for (const d of derived) bound.push({ index: d.index, binding: await this.bind(d.entry) });
    const isOurs = new Set(derived.map((d) => d.index));
    const request: PmId[] = ids.filter((_, i) => !isOurs.has(i));
    for (const b of bound) {
      if (!b.binding.ok) continue;
      for (const op of b.binding.metric.operands) if (!request.includes(op)) request.push(op);
    }
    // Only constants: libpcp still fetches (the derived PMIDs themselves) to move on.
    const result = await this.inner.fetch(request.length > 0 ? request : ids);
    // A new connection to pmcd (Result.epoch): libpcp's pmReconnectContext re-binds every
    // derived metric (context.c), so delta(), rate() and instance filters start afresh.
    if (result.epoch !== this.epoch) {
      this.epoch = result.epoch;
      for (const e of this.entries) if (e.binding?.ok) e.binding.state.slots.fill(undefined);
    }
    const sets = new Map<number, ValueSet>();
    for (const s of result.sets) sets.set(s.pmid, s);
    const valueSet = (id: PmId): ValueSet | undefined => sets.get(id);

    const outcomes = new Map<number, Outcome>();
    for (const b of bound) {
      if (!b.binding.ok) {
        outcomes.set(b.index, PM_ERR_PMID);
        continue;
      }
      const names = await this.prefetchNames(b.binding.state, valueSet, result.timestamp);
      outcomes.set(
        b.index,
        evaluate(b.binding.state, { timestamp: result.timestamp, valueSet, instances: (indom, purpose) => names.get(`${purpose}:${indom}`) ?? null }),
      );
    }
    return {
      timestamp: result.timestamp,
      epoch: result.epoch,
      sets: ids.map((id, i) => {
        const o = outcomes.get(i);
        if (o !== undefined) {
          const b = bound.find((x) => x.index === i)?.binding;
          return isColumn(o) && b?.ok === true ? toResultValueSet(id, b.desc.type, o) : emptyValueSet(id, isColumn(o) ? 0 : o);
        }
        return sets.get(id) ?? emptyValueSet(id, PM_ERR_PMID);
      }),
    };
  }

  /** Instance lists the name filters need for this fetch, read before evaluating. */
  private async prefetchNames(state: EvalState, valueSet: (id: PmId) => ValueSet | undefined, stamp: Timestamp): Promise<Map<string, InstanceList | null>> {
    const names = new Map<string, InstanceList | null>();
    for (const { indom, purpose } of pendingNameLookups(state, valueSet)) {
      const key = `${purpose}:${indom}`;
      if (names.has(key)) continue;
      names.set(key, await this.instancesFor(indom, purpose, stamp));
    }
    return names;
  }

  private async instancesFor(indom: InDom, purpose: NamePurpose, stamp: Timestamp): Promise<InstanceList | null> {
    let at: Timestamp | undefined;
    if (this.source.kind === 'archive') {
      // pmLookupInDom looks at the context's position, which INTERP mode has already moved
      // on by the step; pmNameInDom is asked at the result's time.
      at = stamp;
      if (purpose === 'lookup' && this.mode === PM_MODE_INTERP && this.deltaNs !== 0n) {
        const ns = BigInt(stamp.sec) * 1_000_000_000n + BigInt(stamp.nsec) + this.deltaNs;
        at = { sec: Number(ns / 1_000_000_000n), nsec: Number(ns % 1_000_000_000n) };
      }
    }
    try {
      return await this.inner.getInDom(indom, at);
    } catch (e) {
      if (isPmError(e)) return null;
      throw e;
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** What the inner context rejected with (it rejects with PmError), as an Error. */
function asError(e: unknown): Error {
  return e instanceof Error ? e : new PmError(PM_ERR_NAME);
}

/**
 * An archive traversal with derived names merged in: real names keep their depth-first order;
 * a derived name goes after the real children of the deepest node it shares.
 */
function mergeTraversal(real: readonly string[], derived: readonly string[]): string[] {
  interface Node {
    readonly children: Map<string, Node>;
    leaf: boolean;
  }
  const root: Node = { children: new Map(), leaf: false };
  const insert = (name: string): void => {
    let n = root;
    for (const part of name.split('.')) {
      let c = n.children.get(part);
      if (c === undefined) {
        c = { children: new Map(), leaf: false };
        n.children.set(part, c);
      }
      n = c;
    }
    n.leaf = true;
  };
  real.forEach(insert);
  derived.forEach(insert);
  const out: string[] = [];
  const walk = (n: Node, path: string): void => {
    if (n.children.size === 0) {
      if (n.leaf) out.push(path);
      return;
    }
    for (const [k, c] of n.children) walk(c, path === '' ? k : `${path}.${k}`);
  };
  walk(root, '');
  return out;
}
