// The CONTEXT part of libpcp's "Semantic error: derived metric NAME: CONTEXT: REASON"
// (derived-units-conversion.md §3.4): the failing node printed from its operands, where an
// operand that is a metric name or a literal is shown as written and anything else as
// `<expr>`. Parentheses are not printed (libpcp keeps no node for them).
import { assertUnreachable, type Expr } from './ast';
import { unitsText } from './units-port';
import type { Units } from '../types';

/** How libpcp prints an operand: a name or literal as written, otherwise `<expr>`. */
export function operandText(e: Expr): string {
  return e.kind === 'const' ? e.text : e.kind === 'metric' ? e.name : '<expr>';
}

/** The text libpcp keeps as a node's value (NULL prints as "(null)" through glibc's printf). */
function valueText(e: Expr): string {
  return e.kind === 'const' ? e.text : e.kind === 'metric' ? e.name : e.kind === 'anon' ? e.typeName : '(null)';
}

/** Where a check on a ternary failed: on its branches (`a : b`) or on its guard (`g ? a : b`). */
export type TernaryPart = 'branches' | 'guard';

export function contextText(e: Expr, part: TernaryPart = 'guard', rescaleUnits?: Units): string {
  switch (e.kind) {
    case 'binary':
      return `${operandText(e.left)} ${e.op} ${operandText(e.right)}`;
    case 'unary':
      return `${e.op} ${operandText(e.operand)}`;
    case 'function':
      return `${e.fn.toUpperCase()}(${e.operand.name})`;
    case 'scalar':
      return `SCALAR(${valueText(e.operand)})`;
    case 'anon':
      return `ANON(${e.typeName})`;
    case 'ternary': {
      const branches = `${operandText(e.whenTrue)} : ${operandText(e.whenFalse)}`;
      return part === 'branches' ? branches : `${operandText(e.guard)} ? ${branches}`;
    }
    case 'rescale': {
      const u = unitsText(rescaleUnits ?? e.units);
      return `${operandText(e.operand)} RESCALE ${u === '' ? 'none' : u}`;
    }
    case 'instance':
    case 'matchinst':
      return 'FILTERINST ';
    case 'const':
    case 'metric':
      return `operand ${valueText(e)}`;
    default:
      return assertUnreachable(e);
  }
}
