// Binder: AST + operand descriptors → bound tree with the metadata of every node, or the
// first failure in libpcp's order (derived-units-conversion.md §3). Runs when a context first
// needs a derived metric. First every operand name is resolved left to right (an unknown
// name fails silently, as in 6.0.3; a derived operand is refused, as from 6.2.2); then nodes
// are checked bottom-up, left before right, and the first failed check aborts the metric
// with libpcp's reason.
//
// Where 6.0.3 is defective the binder does what later PCP or the man page says
// (docs/deviations.md): `!x` is a U32 0/1 of a numeric operand; the units of `+ - * /` take
// each axis's scale from the operand that has the dimension (a literal or mkconst on the left
// keeps its scale) and convert the operand with the smaller scale by its own dimension's sign.
import { assertUnreachable, type BinaryNode, type Expr, type RelationalOp } from './ast';
import type { BoundMetric, BoundNode, NodeDesc, Scale } from './bound';
import { formatSemanticError } from './messages';
import { contextText, type TernaryPart } from './semantic-text';
import { scaleConverter, type Numeric } from './units-port';
import type { Span } from './lexer';
import {
  isNumericType,
  NO_UNITS,
  PM_INDOM_NULL,
  PM_SEM_COUNTER,
  PM_SEM_DISCRETE,
  PM_SEM_INSTANT,
  PM_TYPE_32,
  PM_TYPE_64,
  PM_TYPE_DOUBLE,
  PM_TYPE_FLOAT,
  PM_TYPE_U32,
  PM_TYPE_U64,
} from '../types';
import type { Desc, PmId, Units } from '../types';

/** What a context knows about one operand name. */
export type OperandLookup =
  | { readonly kind: 'ok'; readonly pmid: PmId; readonly desc: Desc }
  | { readonly kind: 'unknown'; readonly code: number }
  | { readonly kind: 'nodesc'; readonly pmid: PmId; readonly code: number }
  | { readonly kind: 'derived'; readonly pmid: PmId };

export type BindFailure =
  | {
      readonly kind: 'operand';
      readonly reason: 'unknown' | 'nodesc' | 'nested';
      readonly name: string;
      readonly span: Span;
      /** libpcp's text: none for unknown names and missing descriptors (6.0.3 is silent). */
      readonly message: string | null;
    }
  | {
      readonly kind: 'semantic';
      readonly span: Span;
      readonly context: string;
      readonly reason: string;
      /** The whole line libpcp prints, newline included. */
      readonly message: string;
    };

export type BindResult = { readonly ok: true; readonly metric: BoundMetric; readonly desc: Desc } | { readonly ok: false; readonly failure: BindFailure };

/** promote[left][right] for the six numeric types (§3.1 step 5). */
const PROMOTE: readonly (readonly number[])[] = [
  [PM_TYPE_32, PM_TYPE_U32, PM_TYPE_64, PM_TYPE_U64, PM_TYPE_FLOAT, PM_TYPE_DOUBLE],
  [PM_TYPE_U32, PM_TYPE_U32, PM_TYPE_64, PM_TYPE_U64, PM_TYPE_FLOAT, PM_TYPE_DOUBLE],
  [PM_TYPE_64, PM_TYPE_64, PM_TYPE_64, PM_TYPE_U64, PM_TYPE_FLOAT, PM_TYPE_DOUBLE],
  [PM_TYPE_U64, PM_TYPE_U64, PM_TYPE_U64, PM_TYPE_U64, PM_TYPE_FLOAT, PM_TYPE_DOUBLE],
  [PM_TYPE_FLOAT, PM_TYPE_FLOAT, PM_TYPE_FLOAT, PM_TYPE_FLOAT, PM_TYPE_FLOAT, PM_TYPE_DOUBLE],
  [PM_TYPE_DOUBLE, PM_TYPE_DOUBLE, PM_TYPE_DOUBLE, PM_TYPE_DOUBLE, PM_TYPE_DOUBLE, PM_TYPE_DOUBLE],
];
export function promote(left: number, right: number): number {
  return PROMOTE[left]?.[right] ?? PM_TYPE_DOUBLE;
}

/** Factors between adjacent time scales nsec → usec → msec → sec → min → hour. */
const TIME_STEPS = [1000, 1000, 1000, 60, 60];
const PM_TIME_SEC = 3;

class Failure extends Error {
  constructor(readonly failure: BindFailure) {
    super(failure.kind === 'semantic' ? failure.reason : failure.name);
  }
}

const RELATIONAL: ReadonlySet<string> = new Set<RelationalOp>(['<', '<=', '==', '>=', '>', '!=']);
const isLiteral = (e: Expr): boolean => e.kind === 'const';
const dimensionless = (u: Units): boolean => u.dimSpace === 0 && u.dimTime === 0 && u.dimCount === 0;
/** Same dimensions, or {count} against {none} (the pmConvScale special case). */
function sameDimensions(a: Units, b: Units): boolean {
  if (a.dimCount === b.dimCount && a.dimTime === b.dimTime && a.dimSpace === b.dimSpace) return true;
  return a.dimTime === 0 && b.dimTime === 0 && a.dimSpace === 0 && b.dimSpace === 0 && ((a.dimCount === 0 && b.dimCount === 1) || (a.dimCount === 1 && b.dimCount === 0));
}

/**
 * Binds `expr` as derived metric `metricName` (`pmid`, for the top descriptor). `lookup` gives
 * what the context knows about each operand name.
 */
export function bindExpression(metricName: string, pmid: PmId, expr: Expr, lookup: (name: string) => OperandLookup): BindResult {
  let nextId = 0;
  const operands: PmId[] = [];
  const resolved = new Map<string, OperandLookup>();

  const fail = (failure: BindFailure): never => {
    throw new Failure(failure);
  };
  const semantic = (e: Expr, reason: string, part?: TernaryPart): never => {
    const context = contextText(e, part);
    return fail({ kind: 'semantic', span: e.span, context, reason, message: formatSemanticError(metricName, context, reason) });
  };

  // Phase 1: operands, left to right, as libpcp's bind_expr.
  const resolve = (e: Expr): void => {
    switch (e.kind) {
      case 'const':
      case 'anon':
        return;
      case 'metric': {
        const r = lookup(e.name);
        resolved.set(e.name, r);
        if (r.kind === 'unknown') fail({ kind: 'operand', reason: 'unknown', name: e.name, span: e.span, message: null });
        if (r.kind === 'nodesc') fail({ kind: 'operand', reason: 'nodesc', name: e.name, span: e.span, message: null });
        if (r.kind === 'derived') {
          const reason = 'Illegal nested derived metric';
          const context = `operand ${e.name}`;
          fail({ kind: 'operand', reason: 'nested', name: e.name, span: e.span, message: formatSemanticError(metricName, context, reason) });
        }
        return;
      }
      case 'function': {
        if (e.fn !== 'defined') return resolve(e.operand);
        const r = lookup(e.operand.name);
        resolved.set(e.operand.name, r);
        if (r.kind === 'nodesc') fail({ kind: 'operand', reason: 'nodesc', name: e.operand.name, span: e.operand.span, message: null });
        return;
      }
      case 'instance':
      case 'matchinst':
      case 'unary':
      case 'scalar':
      case 'rescale':
        return resolve(e.operand);
      case 'binary':
        resolve(e.left);
        return resolve(e.right);
      case 'ternary':
        resolve(e.guard);
        resolve(e.whenTrue);
        return resolve(e.whenFalse);
      default:
        return assertUnreachable(e);
    }
  };

  const node = <T extends Omit<BoundNode, 'id'>>(n: T): T & { readonly id: number } => ({ ...n, id: nextId++ });

  const metricLeaf = (name: string): BoundNode => {
    const r = resolved.get(name);
    if (r?.kind !== 'ok') throw new Error(`derived binder: ${name} not resolved`);
    if (!operands.includes(r.pmid)) operands.push(r.pmid);
    const d = r.desc;
    return node({ kind: 'metric', pmid: r.pmid, name, desc: { type: d.type, sem: d.sem, indom: d.indom, units: d.units } });
  };

  const numeric = (d: NodeDesc): boolean => isNumericType(d.type);

  // Phase 2: checks and metadata, bottom-up.
  const check = (e: Expr): BoundNode => {
    switch (e.kind) {
      case 'const':
        return node({ kind: 'const', value: constantValue(e.text, e.type), desc: { type: e.type, sem: e.sem, indom: PM_INDOM_NULL, units: e.units } });
      case 'metric':
        return metricLeaf(e.name);
      case 'anon':
        return node({ kind: 'anon', desc: { type: e.type, sem: PM_SEM_DISCRETE, indom: PM_INDOM_NULL, units: NO_UNITS } });
      case 'instance': {
        const operand = check(e.operand);
        return node({ kind: 'instance', operand, instance: e.instance, desc: operand.desc });
      }
      case 'matchinst': {
        const operand = check(e.operand);
        return node({ kind: 'matchinst', operand, regex: e.regex, invert: e.invert, desc: operand.desc });
      }
      case 'scalar': {
        const operand = check(e.operand);
        return node({ kind: 'scalar', operand, desc: { ...operand.desc, indom: PM_INDOM_NULL } });
      }
      case 'unary': {
        const operand = check(e.operand);
        const d = operand.desc;
        if (e.op === '-') {
          if (!numeric(d)) semantic(e, 'Non-arithmetic operand for unary negation');
          const type = d.type === PM_TYPE_U32 ? PM_TYPE_32 : d.type === PM_TYPE_U64 ? PM_TYPE_64 : d.type;
          return node({ kind: 'negate', operand, desc: { ...d, type, sem: PM_SEM_INSTANT } });
        }
        // Fixed: a U32 0/1 (6.0.3 keeps the operand's type and units and writes 32 bits).
        if (!numeric(d)) semantic(e, 'Non-arithmetic operand for boolean negation');
        return node({ kind: 'not', operand, desc: { ...d, type: PM_TYPE_U32, units: NO_UNITS } });
      }
      case 'function':
        return bindFunction(e);
      case 'rescale': {
        const operand = check(e.operand);
        const d = operand.desc;
        if (!numeric(d)) semantic(e, 'Non-arithmetic operand for function');
        const convert = scaleConverter(d.type, d.units, e.units);
        if (typeof convert === 'number') semantic(e, 'Incompatible dimensions');
        return node({ kind: 'rescale', operand, convert: convert as (v: Numeric) => Numeric, desc: { ...d, units: e.units } });
      }
      case 'ternary':
        return bindTernary(e);
      case 'binary':
        return bindBinary(e);
      default:
        return assertUnreachable(e);
    }
  };

  const bindFunction = (e: Extract<Expr, { kind: 'function' }>): BoundNode => {
    if (e.fn === 'defined') {
      const r = resolved.get(e.operand.name);
      return node({ kind: 'defined', value: r === undefined || r.kind === 'unknown' ? 0 : 1, desc: { type: PM_TYPE_U32, sem: PM_SEM_DISCRETE, indom: PM_INDOM_NULL, units: NO_UNITS } });
    }
    const operand = metricLeaf(e.operand.name);
    const d = operand.desc;
    switch (e.fn) {
      case 'count':
        return node({ kind: 'aggregate', fn: 'count', operand, desc: { type: PM_TYPE_U32, sem: PM_SEM_INSTANT, indom: PM_INDOM_NULL, units: { ...NO_UNITS, dimCount: 1 } } });
      case 'instant':
        return node({ kind: 'instant', operand, desc: { ...d, sem: d.sem === PM_SEM_COUNTER ? PM_SEM_INSTANT : d.sem } });
      case 'avg':
      case 'sum':
      case 'max':
      case 'min':
      case 'delta':
      case 'rate':
        break;
      default:
        return assertUnreachable(e.fn);
    }
    if (!numeric(d)) semantic(e, 'Non-arithmetic operand for function');
    const sem = e.fn === 'sum' ? d.sem : PM_SEM_INSTANT;
    switch (e.fn) {
      case 'delta': {
        const type = d.type === PM_TYPE_U32 ? PM_TYPE_64 : d.type === PM_TYPE_U64 ? PM_TYPE_DOUBLE : d.type;
        return node({ kind: 'delta', operand, desc: { ...d, type, sem } });
      }
      case 'rate': {
        if (d.units.dimTime !== 0 && d.units.dimTime !== 1) semantic(e, 'Incorrect time dimension for operand');
        const dimTime = d.units.dimTime - 1;
        const units = { ...d.units, dimTime, scaleTime: dimTime === 0 ? 0 : PM_TIME_SEC };
        return node({ kind: 'rate', operand, timeScale: d.units.dimTime === 1 ? timeUtilizationScale(d.units.scaleTime) : 1, desc: { ...d, type: PM_TYPE_DOUBLE, sem, units } });
      }
      default:
        return node({ kind: 'aggregate', fn: e.fn, operand, desc: { ...d, type: e.fn === 'avg' ? PM_TYPE_FLOAT : d.type, sem, indom: PM_INDOM_NULL } });
    }
  };

  const bindTernary = (e: Extract<Expr, { kind: 'ternary' }>): BoundNode => {
    const guard = check(e.guard);
    const a = check(e.whenTrue);
    const b = check(e.whenFalse);
    const A = a.desc;
    const B = b.desc;
    if (A.type !== B.type) semantic(e, 'Different types for ternary operands', 'branches');
    if (A.indom !== B.indom && A.indom !== PM_INDOM_NULL && B.indom !== PM_INDOM_NULL) semantic(e, 'Different instance domains for ternary operands', 'branches');
    if (A.sem !== B.sem) semantic(e, 'Different semantics for ternary operands', 'branches');
    if (A.units.dimSpace !== B.units.dimSpace || A.units.scaleSpace !== B.units.scaleSpace) semantic(e, 'Different units or scale (space) for ternary operands', 'branches');
    if (A.units.dimTime !== B.units.dimTime || A.units.scaleTime !== B.units.scaleTime) semantic(e, 'Different units or scale (time) for ternary operands', 'branches');
    if (A.units.dimCount !== B.units.dimCount || A.units.scaleCount !== B.units.scaleCount) semantic(e, 'Different units or scale (count) for ternary operands', 'branches');
    if (!numeric(guard.desc)) semantic(e, 'Non-arithmetic operand for ternary guard');
    if (A.indom === PM_INDOM_NULL && B.indom === PM_INDOM_NULL && guard.desc.indom !== PM_INDOM_NULL) semantic(e, 'Non-scalar ternary guard with scalar expressions');
    return node({ kind: 'ternary', guard, whenTrue: a, whenFalse: b, desc: { ...A, indom: A.indom !== PM_INDOM_NULL ? A.indom : B.indom } });
  };

  const bindBinary = (e: BinaryNode): BoundNode => {
    const left = check(e.left);
    const right = check(e.right);
    const L = left.desc;
    const R = right.desc;
    const op = e.op;
    const relational = RELATIONAL.has(op);
    const boolean = op === '&&' || op === '||';
    const arithmetic = !relational && !boolean;

    if (arithmetic) {
      if (L.sem === PM_SEM_COUNTER) {
        if (R.sem === PM_SEM_COUNTER) {
          if (op !== '+' && op !== '-') semantic(e, 'Illegal operator for counters');
        } else if (op !== '*' && op !== '/') semantic(e, 'Illegal operator for counter and non-counter');
      } else if (R.sem === PM_SEM_COUNTER && op !== '*') semantic(e, 'Illegal operator for non-counter and counter');
    }
    // The candidate descriptor: prefer a metric or expression over a constant.
    const candidate = isLiteral(e.left) ? R : L;
    let sem = candidate.sem;
    if (L.sem !== PM_SEM_COUNTER && R.sem !== PM_SEM_COUNTER) sem = L.sem === PM_SEM_DISCRETE && R.sem === PM_SEM_DISCRETE ? PM_SEM_DISCRETE : PM_SEM_INSTANT;
    if (!numeric(L)) semantic(e, 'Non-arithmetic type for left operand');
    if (!numeric(R)) semantic(e, 'Non-arithmetic type for right operand');
    let type = op === '/' ? PM_TYPE_DOUBLE : relational || boolean ? PM_TYPE_U32 : promote(L.type, R.type);

    if ((op === '+' || op === '-') && !sameDimensions(L.units, R.units)) semantic(e, 'Dimensions are not the same');
    // libpcp compares descriptor types with its literal node codes here, so any U32 operand
    // (every integer literal among them) skips the check.
    if (relational && L.type !== PM_TYPE_U32 && R.type !== PM_TYPE_U32 && !sameDimensions(L.units, R.units)) semantic(e, 'Dimensions are not the same');
    if (boolean && (!dimensionless(L.units) || !dimensionless(R.units))) semantic(e, 'Dimensions are not the same');
    if (op === '*' || op === '/' || relational) {
      if (L.sem === PM_SEM_COUNTER && R.sem !== PM_SEM_COUNTER && !dimensionless(R.units)) semantic(e, 'Non-counter and not dimensionless for right operand');
      if (L.sem !== PM_SEM_COUNTER && R.sem === PM_SEM_COUNTER && !dimensionless(L.units)) semantic(e, 'Non-counter and not dimensionless for left operand');
    }

    let units: Units = NO_UNITS;
    let leftScale: Scale = { mul: 1, div: 1 };
    let rightScale: Scale = { mul: 1, div: 1 };
    if (arithmetic) {
      const mapped = mapUnits(op, L.units, R.units, candidate.units);
      units = mapped.units;
      leftScale = mapped.left;
      rightScale = mapped.right;
      if (mapped.rescaled) type = PM_TYPE_DOUBLE;
    }
    if (L.indom !== PM_INDOM_NULL && R.indom !== PM_INDOM_NULL && L.indom !== R.indom) semantic(e, 'Operands should have the same instance domain');
    const indom = L.indom !== PM_INDOM_NULL ? L.indom : R.indom;
    const desc: NodeDesc = { type, sem, indom, units };
    if (arithmetic) return node({ kind: 'arith', op: op as '+', left, right, leftScale, rightScale, desc });
    return node({ kind: 'compare', op: op as '<', left, right, promoted: promote(L.type, R.type), desc });
  };

  try {
    resolve(expr);
    const root = check(expr);
    const d = root.desc;
    return { ok: true, metric: { root, nodeCount: nextId, operands }, desc: { pmid, type: d.type, sem: d.sem, indom: d.indom, units: d.units } };
  } catch (err) {
    if (err instanceof Failure) return { ok: false, failure: err.failure };
    throw err;
  }
}

/**
 * Units of `+ - * /` and the operands' scale factors (§3.1 step 9, corrected): on each axis
 * where both operands have a dimension and their scales differ, the result keeps the larger
 * scale and the other operand is divided (positive dimension) or multiplied (negative) by the
 * factor between the scales; the result then is DOUBLE.
 */
function mapUnits(op: string, L: Units, R: Units, candidate: Units): { units: Units; left: Scale; right: Scale; rescaled: boolean } {
  const left = { mul: 1, div: 1 };
  const right = { mul: 1, div: 1 };
  let rescaled = false;
  const axis = (ld: number, rd: number, ls: number, rs: number, factor: (lo: number, hi: number) => number): number => {
    if (ld === 0 || rd === 0 || ls === rs) return Math.max(ls, rs);
    rescaled = true;
    const [small, dim] = ls < rs ? [left, ld] : [right, rd];
    const f = factor(Math.min(ls, rs), Math.max(ls, rs));
    if (dim > 0) small.div *= f;
    else small.mul *= f;
    return Math.max(ls, rs);
  };
  const bothCount = axis(L.dimCount, R.dimCount, L.scaleCount, R.scaleCount, (lo, hi) => 10 ** (hi - lo));
  const bothTime = axis(L.dimTime, R.dimTime, L.scaleTime, R.scaleTime, (lo, hi) => TIME_STEPS.slice(lo, hi).reduce((a, b) => a * b, 1));
  const bothSpace = axis(L.dimSpace, R.dimSpace, L.scaleSpace, R.scaleSpace, (lo, hi) => 1024 ** (hi - lo));

  const dims =
    op === '*'
      ? { c: L.dimCount + R.dimCount, t: L.dimTime + R.dimTime, s: L.dimSpace + R.dimSpace }
      : op === '/'
        ? { c: L.dimCount - R.dimCount, t: L.dimTime - R.dimTime, s: L.dimSpace - R.dimSpace }
        : { c: candidate.dimCount, t: candidate.dimTime, s: candidate.dimSpace };
  const scale = (dim: number, ld: number, rd: number, ls: number, rs: number, both: number): number =>
    dim === 0 ? 0 : ld !== 0 && rd !== 0 ? both : ld !== 0 ? ls : rs;
  return {
    units: {
      dimCount: dims.c,
      dimTime: dims.t,
      dimSpace: dims.s,
      scaleCount: scale(dims.c, L.dimCount, R.dimCount, L.scaleCount, R.scaleCount, bothCount),
      scaleTime: scale(dims.t, L.dimTime, R.dimTime, L.scaleTime, R.scaleTime, bothTime),
      scaleSpace: scale(dims.s, L.dimSpace, R.dimSpace, L.scaleSpace, R.scaleSpace, bothSpace),
    },
    left,
    right,
    rescaled,
  };
}

/** rate() of a time counter: the factor from its time unit to seconds, computed as libpcp does. */
function timeUtilizationScale(scaleTime: number): number {
  let s = 1;
  if (scaleTime > PM_TIME_SEC) for (let n = PM_TIME_SEC; n < scaleTime; n++) s *= 60;
  else for (let n = scaleTime; n < PM_TIME_SEC; n++) s /= 1000;
  return s;
}

/** A literal's value in its type, converted as libpcp does (atoi, strtoll, strtoull, atof). */
export function constantValue(text: string, type: number): Numeric {
  const isInteger = /^[0-9]+$/.test(text);
  switch (type) {
    case PM_TYPE_32:
      return isInteger ? Number(BigInt.asIntN(32, BigInt(text))) : Math.trunc(Number.parseFloat(text) || 0);
    case PM_TYPE_U32:
      return isInteger ? Number(BigInt.asUintN(32, BigInt(text))) : Math.trunc(Number.parseFloat(text) || 0) >>> 0;
    case PM_TYPE_64:
      return isInteger ? BigInt.asIntN(64, BigInt(text)) : 0n;
    case PM_TYPE_U64:
      return isInteger ? BigInt.asUintN(64, BigInt(text)) : 0n;
    case PM_TYPE_FLOAT:
      return Math.fround(text === '.' ? 0 : Number(text));
    default:
      return text === '.' ? 0 : Number(text);
  }
}
