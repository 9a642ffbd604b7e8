// Evaluator: a bound derived metric + one fetch result → the metric's value set, whole
// columns at a time (derived-units-conversion.md §4). Children are evaluated left to right
// and a negative (error) outcome stops the parent at once, as in libpcp, so histories behind
// later operands do not advance on that fetch. Arithmetic is C's: results are stored in typed
// arrays of the node's type (wrapping 32/64-bit integers, single-precision FLOAT), DOUBLE
// operands are divided and multiplied by their scale factors, a zero numerator divides to 0.
//
// Per-context state (delta/rate history, resolved instance ids, matchinst caches) lives in an
// EvalState, one per bound metric per context. Fixed 6.0.3 defects: max()/min() over no
// instances give no value (not a stale or uninitialised one); string ternaries keep their
// strings; `(expr)[name]` filters by exact name.
import { subtractTimestampsDouble } from '../time/timestamp';
import { assertUnreachable } from './ast';
import type { BoundMetric, BoundNode } from './bound';
import { allocVec, elem, EMPTY, isColumn, nonZero, store, toBig, toDouble, toFloat, type Column, type Outcome, type Vec } from './column';
import { evalBinary } from './evaluator-ops';
import { PM_ERR_PMID, PM_ERR_TYPE } from '../errors';
import { isNumericType, PM_IN_NULL, PM_INDOM_NULL, PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import type { AtomValue, InDom, InstanceList, PmId, Timestamp, ValueSet } from '../types';

export type NamePurpose = 'lookup' | 'name';

export interface EvalInput {
  readonly timestamp: Timestamp;
  /** An operand's value set in this fetch, or undefined when the result lacks it. */
  valueSet(pmid: PmId): ValueSet | undefined;
  /**
   * An indom's instances for the name filters: 'lookup' as pmLookupInDom sees them (the
   * context's position), 'name' as pmNameInDom at the result's time. Null when unavailable.
   */
  instances(indom: InDom, purpose: NamePurpose): InstanceList | null;
}

interface HistoryState {
  prev: Outcome | undefined;
  cur: Outcome | undefined;
  stamp: Timestamp | undefined;
  lastStamp: Timestamp | undefined;
}
interface MatchState {
  readonly cache: Map<number, { match: boolean; used: number }>;
  used: number;
}
type Slot = HistoryState | MatchState | { inst: number | null } | { column: Column } | undefined;

/** Per-context evaluation state of one bound metric. */
export class EvalState {
  readonly slots: Slot[];
  constructor(readonly metric: BoundMetric) {
    this.slots = new Array<Slot>(metric.nodeCount).fill(undefined);
  }
}

/** matchinst forgets instances seen in fewer than half of every 100 evaluations. */
const REGEX_INST_COMPACT = 100;

export function evaluate(state: EvalState, input: EvalInput): Outcome {
  return evalNode(state.metric.root, state, input);
}

function slot<T extends Slot>(state: EvalState, id: number, init: () => T): T {
  let s = state.slots[id] as T | undefined;
  if (s === undefined) {
    s = init();
    state.slots[id] = s;
  }
  return s;
}

/** A fetched value set as a column of `type`. */
function fromValueSet(set: ValueSet, type: number): Outcome {
  if (set.numval < 0) return set.numval;
  const n = set.numval;
  const vals = allocVec(type, n);
  for (let i = 0; i < n; i++) store(vals, i, set.values[i]);
  return { n, inst: set.inst.subarray(0, n), vals };
}

function single(type: number, x: AtomValue): Column {
  const vals = allocVec(type, 1);
  store(vals, 0, x);
  return { n: 1, inst: Int32Array.of(PM_IN_NULL), vals };
}


function evalNode(node: BoundNode, state: EvalState, input: EvalInput): Outcome {
  switch (node.kind) {
    case 'const':
      return slot(state, node.id, () => ({ column: single(node.desc.type, node.value) })).column;
    case 'metric': {
      const set = input.valueSet(node.pmid);
      return set === undefined ? PM_ERR_PMID : fromValueSet(set, node.desc.type);
    }
    case 'defined':
      return single(PM_TYPE_U32, node.value);
    case 'anon':
      return EMPTY;
    case 'delta':
    case 'rate':
      return evalHistory(node, state, input);
    case 'instant':
      return evalNode(node.operand, state, input);
    case 'aggregate': {
      const o = evalNode(node.operand, state, input);
      if (!isColumn(o)) return node.fn === 'count' ? single(PM_TYPE_U32, 0) : o;
      return aggregate(node.fn, node.desc.type, o);
    }
    case 'scalar': {
      const o = evalNode(node.operand, state, input);
      if (!isColumn(o) || o.n === 0) return o;
      const vals = allocVec(node.desc.type, 1);
      store(vals, 0, elem(o.vals, 0));
      return { n: 1, inst: Int32Array.of(PM_IN_NULL), vals };
    }
    case 'instance':
      return evalExactFilter(node, state, input);
    case 'matchinst':
      return evalMatchFilter(node, state, input);
    case 'negate':
    case 'not': {
      const o = evalNode(node.operand, state, input);
      if (!isColumn(o) || o.n === 0) return o;
      const vals = allocVec(node.desc.type, o.n);
      for (let i = 0; i < o.n; i++) {
        const x = elem(o.vals, i);
        if (node.kind === 'not') (vals as Uint32Array)[i] = nonZero(x) ? 0 : 1;
        else if (typeof x === 'bigint') (vals as BigInt64Array)[i] = -x;
        else (vals as Float64Array)[i] = -(x as number);
      }
      return { n: o.n, inst: o.inst.slice(0, o.n), vals };
    }
    case 'rescale': {
      const o = evalNode(node.operand, state, input);
      if (!isColumn(o) || o.n === 0) return o;
      const vals = allocVec(node.desc.type, o.n);
      for (let i = 0; i < o.n; i++) store(vals, i, node.convert(elem(o.vals, i) as number | bigint));
      return { n: o.n, inst: o.inst.slice(0, o.n), vals };
    }
    case 'ternary':
      return evalTernary(node, state, input);
    case 'arith':
    case 'compare': {
      const l = evalNode(node.left, state, input);
      if (!isColumn(l)) return l;
      const r = evalNode(node.right, state, input);
      if (!isColumn(r)) return r;
      return evalBinary(node, l, r);
    }
    default:
      return assertUnreachable(node);
  }
}

/** delta() and rate(): the operand's history moves on whenever the operand is evaluated. */
function evalHistory(node: Extract<BoundNode, { kind: 'delta' | 'rate' }>, state: EvalState, input: EvalInput): Outcome {
  const h = slot<HistoryState>(state, node.id, () => ({ prev: undefined, cur: undefined, stamp: undefined, lastStamp: undefined }));
  const operand = node.operand;
  if (operand.kind !== 'metric') throw new Error('derived evaluator: delta()/rate() operand must be a metric');
  const set = input.valueSet(operand.pmid);
  if (set === undefined) return PM_ERR_PMID;
  h.prev = h.cur;
  h.cur = fromValueSet(set, operand.desc.type);
  const cur = h.cur;
  if (!isColumn(cur)) return cur;
  h.lastStamp = h.stamp;
  h.stamp = input.timestamp;
  const prev = h.prev;
  const prevN = prev === undefined ? 0 : isColumn(prev) ? prev.n : prev;
  const bound = Math.min(cur.n, prevN);
  if (bound < 0) return bound;
  if (bound === 0 || prev === undefined || !isColumn(prev)) return EMPTY;

  const type = operand.desc.type;
  const out = allocVec(node.desc.type, cur.n);
  const inst = new Int32Array(cur.n);
  const dt = node.kind === 'rate' && h.lastStamp !== undefined ? subtractTimestampsDouble(input.timestamp, h.lastStamp) : 0;
  let k = 0;
  for (let i = 0; i < cur.n; i++) {
    // Same position first, then a search: instances present in both samples only.
    let j = i < prev.n && prev.inst[i] === cur.inst[i] ? i : -1;
    if (j < 0) j = prev.inst.subarray(0, prev.n).indexOf(cur.inst[i]);
    if (j < 0) continue;
    const c = elem(cur.vals, i);
    const p = elem(prev.vals, j);
    inst[k] = cur.inst[i];
    if (node.kind === 'delta') deltaInto(out, k, type, c, p);
    else out[k] = (rateDifference(type, c, p) / dt) * node.timeScale;
    k++;
  }
  return { n: k, inst, vals: out };
}

/** delta(): the difference in the result type (32 wraps; U32 → 64; U64 → DOUBLE; FLOAT single). */
function deltaInto(out: Vec, k: number, type: number, c: AtomValue, p: AtomValue): void {
  switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_DOUBLE:
      (out as Float64Array)[k] = (c as number) - (p as number);
      return;
    case PM_TYPE_U32:
    case PM_TYPE_64:
      (out as BigInt64Array)[k] = toBig(c) - toBig(p);
      return;
    case PM_TYPE_U64:
      (out as Float64Array)[k] = toDouble(c) - toDouble(p);
      return;
    case PM_TYPE_FLOAT:
      (out as Float32Array)[k] = Math.fround((c as number) - (p as number));
      return;
    default:
      throw new Error(`derived evaluator: delta() of type ${type}`);
  }
}

/** rate(): the difference in the operand's type (integers wrap), then as a double. */
function rateDifference(type: number, c: AtomValue, p: AtomValue): number {
  switch (type) {
    case PM_TYPE_32:
      return ((c as number) - (p as number)) | 0;
    case PM_TYPE_U32:
      return ((c as number) - (p as number)) >>> 0;
    case PM_TYPE_64:
      return Number(BigInt.asIntN(64, toBig(c) - toBig(p)));
    case PM_TYPE_U64:
      return Number(BigInt.asUintN(64, toBig(c) - toBig(p)));
    case PM_TYPE_FLOAT:
      return Math.fround((c as number) - (p as number));
    case PM_TYPE_DOUBLE:
      return (c as number) - (p as number);
    default:
      throw new Error(`derived evaluator: rate() of type ${type}`);
  }
}

function aggregate(fn: 'avg' | 'count' | 'sum' | 'max' | 'min', type: number, o: Column): Outcome {
  if (fn === 'count') return single(PM_TYPE_U32, o.n);
  if (fn === 'avg') {
    // A FLOAT accumulator: each value, as float, divided by the count in float, then added.
    let acc = 0;
    for (let i = 0; i < o.n; i++) acc = Math.fround(acc + Math.fround(toFloat(elem(o.vals, i)) / o.n));
    return single(PM_TYPE_FLOAT, acc);
  }
  const is64 = type === PM_TYPE_64 || type === PM_TYPE_U64;
  if (fn === 'sum') {
    // Σ in the operand's type: the typed store wraps (32/64-bit) or rounds (FLOAT) each step.
    const acc = allocVec(type, 1);
    store(acc, 0, is64 ? 0n : 0);
    for (let i = 0; i < o.n; i++) {
      const x = elem(o.vals, i);
      if (is64) (acc as BigInt64Array)[0] = (acc[0] as bigint) + (x as bigint);
      else (acc as Float64Array)[0] = (acc[0] as number) + (x as number);
    }
    return { n: 1, inst: Int32Array.of(PM_IN_NULL), vals: acc };
  }
  // Fixed: libpcp returns a stale or uninitialised value for max()/min() of no instances.
  if (o.n === 0) return EMPTY;
  let best = elem(o.vals, 0) as number | bigint;
  for (let i = 1; i < o.n; i++) {
    const x = elem(o.vals, i) as number | bigint;
    if (fn === 'max' ? best < x : best > x) best = x;
  }
  return single(type, best);
}

/** `name[instance]` and `(expr)[instance]`: the instance id is looked up once, then cached. */
function evalExactFilter(node: Extract<BoundNode, { kind: 'instance' }>, state: EvalState, input: EvalInput): Outcome {
  const o = evalNode(node.operand, state, input);
  if (!isColumn(o)) return o;
  const s = slot(state, node.id, () => ({ inst: null as number | null }));
  if (o.n === 0) return EMPTY;
  if (s.inst === null) {
    const list = node.operand.desc.indom === PM_INDOM_NULL ? null : input.instances(node.operand.desc.indom, 'lookup');
    const found = list === null ? undefined : lookupInstance(list, node.instance);
    if (found === undefined) return EMPTY;
    s.inst = found;
  }
  const i = o.inst.subarray(0, o.n).indexOf(s.inst);
  if (i < 0) return EMPTY;
  const vals = allocVec(node.desc.type, 1);
  store(vals, 0, elem(o.vals, i));
  return { n: 1, inst: Int32Array.of(s.inst), vals };
}

/** pmLookupInDom for archives: the full name, else the part of a name before its first space. */
export function lookupInstance(list: InstanceList, name: string): number | undefined {
  const full = list.names.indexOf(name);
  if (full >= 0) return list.instances[full];
  for (let i = 0; i < list.names.length; i++) {
    const n = list.names[i];
    const sp = n.indexOf(' ');
    if (sp >= 0 && name.slice(0, sp) === n.slice(0, sp)) return list.instances[i];
  }
  return undefined;
}

function evalMatchFilter(node: Extract<BoundNode, { kind: 'matchinst' }>, state: EvalState, input: EvalInput): Outcome {
  const o = evalNode(node.operand, state, input);
  if (!isColumn(o)) return o;
  const s = slot<MatchState>(state, node.id, () => ({ cache: new Map(), used: 0 }));
  const vals = allocVec(node.desc.type, o.n);
  const inst = new Int32Array(o.n);
  let k = 0;
  let list: InstanceList | null | undefined;
  for (let i = 0; i < o.n; i++) {
    const id = o.inst[i];
    let entry = s.cache.get(id);
    if (entry === undefined) {
      list ??= node.operand.desc.indom === PM_INDOM_NULL ? null : input.instances(node.operand.desc.indom, 'name');
      const at = list === null ? -1 : list.instances.indexOf(id);
      const full = at < 0 ? undefined : (list as InstanceList).names[at];
      // The name is matched up to its first space; an instance without a name never matches.
      const match = full === undefined ? false : node.regex.test(full.split(' ')[0]) !== node.invert;
      entry = { match, used: 0 };
      s.cache.set(id, entry);
    }
    entry.used++;
    if (entry.match) {
      inst[k] = id;
      store(vals, k, elem(o.vals, i));
      k++;
    }
  }
  if (++s.used >= REGEX_INST_COMPACT) {
    for (const [id, e] of s.cache) {
      if (e.used < REGEX_INST_COMPACT / 2) s.cache.delete(id);
      else e.used = 0;
    }
    s.used = 0;
  }
  return { n: k, inst, vals };
}

/** Instances the name filters of `metric` will need to name in this fetch (prefetch hint). */
export function pendingNameLookups(state: EvalState, valueSet: (pmid: PmId) => ValueSet | undefined): Array<{ indom: InDom; purpose: NamePurpose }> {
  const out: Array<{ indom: InDom; purpose: NamePurpose }> = [];
  const leafInstances = (n: BoundNode, acc: Set<number>): void => {
    if (n.kind === 'metric') {
      const set = valueSet(n.pmid);
      if (set !== undefined) for (let i = 0; i < Math.max(0, set.numval); i++) acc.add(set.inst[i]);
      return;
    }
    for (const c of children(n)) leafInstances(c, acc);
  };
  const walk = (n: BoundNode): void => {
    if (n.kind === 'instance' && n.operand.desc.indom !== PM_INDOM_NULL) {
      const s = state.slots[n.id] as { inst: number | null } | undefined;
      if (s?.inst === undefined || s.inst === null) out.push({ indom: n.operand.desc.indom, purpose: 'lookup' });
    } else if (n.kind === 'matchinst' && n.operand.desc.indom !== PM_INDOM_NULL) {
      const s = state.slots[n.id] as MatchState | undefined;
      const seen = new Set<number>();
      leafInstances(n.operand, seen);
      if ([...seen].some((id) => s?.cache.has(id) !== true)) out.push({ indom: n.operand.desc.indom, purpose: 'name' });
    }
    for (const c of children(n)) walk(c);
  };
  walk(state.metric.root);
  return out;
}

function children(n: BoundNode): BoundNode[] {
  switch (n.kind) {
    case 'const':
    case 'metric':
    case 'defined':
    case 'anon':
      return [];
    case 'arith':
    case 'compare':
      return [n.left, n.right];
    case 'ternary':
      return [n.guard, n.whenTrue, n.whenFalse];
    case 'instance':
    case 'matchinst':
    case 'negate':
    case 'not':
    case 'delta':
    case 'rate':
    case 'instant':
    case 'aggregate':
    case 'scalar':
    case 'rescale':
      return [n.operand];
    default:
      return assertUnreachable(n);
  }
}

/**
 * Ternary: any side without values (or in error) decides the outcome; otherwise values are
 * picked by position — the guard's i-th value (or its last one when it has fewer) selects the
 * branch, whose i-th value (or first, when it is singular) is taken.
 */
function evalTernary(node: Extract<BoundNode, { kind: 'ternary' }>, state: EvalState, input: EvalInput): Outcome {
  const g = evalNode(node.guard, state, input);
  if (!isColumn(g)) return g;
  const a = evalNode(node.whenTrue, state, input);
  if (!isColumn(a)) return a;
  const b = evalNode(node.whenFalse, state, input);
  if (!isColumn(b)) return b;
  if (g.n === 0 || a.n === 0 || b.n === 0) return EMPTY;
  // Like libpcp, only numeric and string values can be picked.
  if (!isNumericType(node.desc.type) && node.desc.type !== PM_TYPE_STRING) return PM_ERR_TYPE;
  const n = Math.max(a.n, b.n);
  const vals = allocVec(node.desc.type, n);
  const inst = new Int32Array(n);
  const instFrom = node.whenTrue.desc.indom === PM_INDOM_NULL && node.whenFalse.desc.indom !== PM_INDOM_NULL ? b : a;
  const other = instFrom === a ? b : a;
  let pick = a;
  for (let i = 0; i < n; i++) {
    if (i < g.n) pick = nonZero(elem(g.vals, i)) ? a : b;
    store(vals, i, elem(pick.vals, i < pick.n ? i : 0));
    inst[i] = (i < instFrom.n ? instFrom.inst[i] : i < other.n ? other.inst[i] : PM_IN_NULL);
  }
  return { n, inst, vals };
}

