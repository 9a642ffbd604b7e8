// Binary operators of the evaluator (derived-units-conversion.md §4.2, §4.6): instance pairing
// and C arithmetic. Pairing follows libpcp: a singular side combines with every value of the
// other side; two instanced sides pair equal instance ids in the left operand's order, and
// unmatched instances are dropped. Arithmetic runs in the result type; comparisons and
// boolean operators convert both operands to promote[left][right] (without scale factors) and
// yield a U32 0/1.
import type { BoundNode } from './bound';
import { allocVec, elem, toBig, toDouble, toFloat, type Column, type Vec } from './column';
import { PM_INDOM_NULL, PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import type { AtomValue } from '../types';

type Binary = Extract<BoundNode, { kind: 'arith' | 'compare' }>;

/** An operand converted to the arithmetic domain of a type. */
type Convert = (x: AtomValue) => number | bigint;

function converter(type: number): Convert {
  switch (type) {
    case PM_TYPE_32:
      return (x) => (x as number) | 0;
    case PM_TYPE_U32:
      return (x) => (x as number) >>> 0;
    case PM_TYPE_64:
      return (x) => BigInt.asIntN(64, toBig(typeof x === 'number' ? x | 0 : x));
    case PM_TYPE_U64:
      return (x) => BigInt.asUintN(64, toBig(x));
    case PM_TYPE_FLOAT:
      return toFloat;
    default:
      return toDouble;
  }
}

/**
 * A 32-bit unsigned operand widened to 64 bits keeps its value; a signed one is sign-extended.
 * The 32-bit integer kinds reach here as JavaScript numbers already holding the right value,
 * so only U32 → 64 needs care: `x | 0` would make it negative.
 */
function widen64(operandType: number): Convert {
  return operandType === PM_TYPE_U32 ? (x) => BigInt(x as number) : converter(PM_TYPE_64);
}

function operandConverter(resultType: number, operandType: number, mul: number, div: number): Convert {
  if (resultType === PM_TYPE_DOUBLE) return (x) => (toDouble(x) / div) * mul;
  if (resultType === PM_TYPE_64) return widen64(operandType);
  return converter(resultType);
}

type Op = (a: number | bigint, b: number | bigint) => number | bigint;

function arithmeticOp(op: string, type: number): Op {
  const is32 = type === PM_TYPE_32 || type === PM_TYPE_U32;
  switch (op) {
    case '+':
      return (a, b) => (a as number) + (b as number);
    case '-':
      return (a, b) => (a as number) - (b as number);
    case '*':
      // 32-bit products need Math.imul: a double cannot hold the whole 64-bit product.
      return is32 ? (a, b) => Math.imul(a as number, b as number) : (a, b) => (a as number) * (b as number);
    case '/':
      // libpcp: a zero numerator gives 0 whatever the divisor (so 0/0 is 0).
      return (a, b) => ((a as number) === 0 ? 0 : (a as number) / (b as number));
    default:
      throw new Error(`derived evaluator: arithmetic operator ${op}`);
  }
}

function compareOp(op: string): (a: number | bigint, b: number | bigint) => boolean {
  switch (op) {
    case '<':
      return (a, b) => a < b;
    case '<=':
      return (a, b) => a <= b;
    case '==':
      return (a, b) => a === b;
    case '>=':
      return (a, b) => a >= b;
    case '>':
      return (a, b) => a > b;
    case '!=':
      return (a, b) => a !== b;
    case '&&':
      return (a, b) => a != 0 && b != 0;
    case '||':
      return (a, b) => a != 0 || b != 0;
    default:
      throw new Error(`derived evaluator: comparison operator ${op}`);
  }
}

export function evalBinary(node: Binary, l: Column, r: Column): Column {
  if (l.n <= 0 || r.n <= 0) return { n: 0, inst: new Int32Array(0), vals: allocVec(node.desc.type, 0) };
  const leftSet = node.left.desc.indom !== PM_INDOM_NULL;
  const rightSet = node.right.desc.indom !== PM_INDOM_NULL;
  const limit = !leftSet ? r.n : !rightSet ? l.n : Math.min(l.n, r.n);
  const inst = new Int32Array(limit);
  const vals: Vec = allocVec(node.desc.type, limit);

  let compute: (a: AtomValue, b: AtomValue) => number | bigint;
  if (node.kind === 'arith') {
    const type = node.desc.type;
    const cl = operandConverter(type, node.left.desc.type, node.leftScale.mul, node.leftScale.div);
    const cr = operandConverter(type, node.right.desc.type, node.rightScale.mul, node.rightScale.div);
    const op = arithmeticOp(node.op, type);
    compute = (a, b) => op(cl(a), cr(b));
  } else {
    const t = node.promoted;
    const cl = t === PM_TYPE_64 ? widen64(node.left.desc.type) : converter(t);
    const cr = t === PM_TYPE_64 ? widen64(node.right.desc.type) : converter(t);
    const test = compareOp(node.op);
    compute = (a, b) => (test(cl(a), cr(b)) ? 1 : 0);
  }

  // libpcp's pairing loop, step for step.
  let i = 0;
  let j = 0;
  let k = 0;
  while (k < limit) {
    if (i >= l.n || j >= r.n) break;
    if (leftSet && rightSet && l.inst[i] !== r.inst[j]) {
      j = r.inst.subarray(0, r.n).indexOf(l.inst[i]);
      if (j < 0) {
        i++;
        j = 0;
        continue;
      }
    }
    const x = compute(elem(l.vals, i), elem(r.vals, j));
    if (typeof x === 'bigint') (vals as BigInt64Array)[k] = x;
    else (vals as Float64Array)[k] = x;
    inst[k] = (leftSet ? l.inst[i] : r.inst[j]);
    k++;
    if (leftSet) {
      i++;
      if (rightSet && ++j >= r.n) j = 0;
    } else if (rightSet) {
      j++;
    }
  }
  return { n: k, inst, vals };
}
