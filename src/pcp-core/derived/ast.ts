// The syntax tree of one derived-metric expression: what the parser produces and the binder
// consumes. A discriminated union on `kind`, every node with the span of text it covers, so
// errors can point into the expression (derived-units-conversion.md §2.2). Parentheses leave
// no node of their own, as in libpcp, whose semantic-error texts print an operand by name only
// when it is a bare metric name or literal.
import type { Span } from './lexer';
import type { Units } from '../types';
import type { RegexMatcher } from '../regex';

export type ArithmeticOp = '+' | '-' | '*' | '/';
export type RelationalOp = '<' | '<=' | '==' | '>=' | '>' | '!=';
export type BooleanOp = '&&' | '||';
export type BinaryOp = ArithmeticOp | RelationalOp | BooleanOp;

/** Functions whose operand 6.0.3 restricts to one metric name (§2.2). */
export type MetricFunction = 'avg' | 'count' | 'delta' | 'max' | 'min' | 'sum' | 'rate' | 'instant' | 'defined';

/** A numeric literal, or mkconst(literal, spec...) with the metadata the specs give. */
export interface ConstNode {
  readonly kind: 'const';
  readonly span: Span;
  /** The literal as written (libpcp converts it at evaluation with atoi/strtoll/atof). */
  readonly text: string;
  readonly isDouble: boolean;
  readonly type: number;
  readonly sem: number;
  readonly units: Units;
  readonly mkconst: boolean;
}

export interface MetricNode {
  readonly kind: 'metric';
  readonly span: Span;
  readonly name: string;
}

/** `name[instance]` or, fixed after 6.0.3, `(expr)[instance]`: keep one named instance. */
export interface InstanceNode {
  readonly kind: 'instance';
  readonly span: Span;
  readonly operand: Expr;
  readonly instance: string;
  /** True for the parenthesised form. */
  readonly parenthesised: boolean;
}

export interface MatchInstNode {
  readonly kind: 'matchinst';
  readonly span: Span;
  /** The POSIX extended regular expression, backslash escapes already removed. */
  readonly pattern: string;
  readonly invert: boolean;
  readonly regex: RegexMatcher;
  readonly operand: Expr;
}

export interface BinaryNode {
  readonly kind: 'binary';
  readonly span: Span;
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
}

export interface UnaryNode {
  readonly kind: 'unary';
  readonly span: Span;
  readonly op: '-' | '!';
  readonly operand: Expr;
}

export interface TernaryNode {
  readonly kind: 'ternary';
  readonly span: Span;
  readonly guard: Expr;
  readonly whenTrue: Expr;
  readonly whenFalse: Expr;
}

/** avg() … defined(): the operand is always one metric name. */
export interface FunctionNode {
  readonly kind: 'function';
  readonly span: Span;
  readonly fn: MetricFunction;
  readonly operand: MetricNode;
}

export interface ScalarNode {
  readonly kind: 'scalar';
  readonly span: Span;
  readonly operand: Expr;
}

export interface RescaleNode {
  readonly kind: 'rescale';
  readonly span: Span;
  readonly operand: Expr;
  readonly units: Units;
  /** The units string as written. */
  readonly unitsText: string;
}

/** anon(PM_TYPE_x): a typed metric that never has values (event record helpers). */
export interface AnonNode {
  readonly kind: 'anon';
  readonly span: Span;
  readonly type: number;
  /** The PM_TYPE_x spelling. */
  readonly typeName: string;
}

export type Expr =
  | ConstNode
  | MetricNode
  | InstanceNode
  | MatchInstNode
  | BinaryNode
  | UnaryNode
  | TernaryNode
  | FunctionNode
  | ScalarNode
  | RescaleNode
  | AnonNode;

export function assertUnreachable(x: never): never {
  throw new Error(`unreachable: ${JSON.stringify(x)}`);
}

/** A node's operands, in text order. */
export function childrenOf(e: Expr): Expr[] {
  switch (e.kind) {
    case 'const':
    case 'metric':
    case 'anon':
      return [];
    case 'function':
      return [e.operand];
    case 'instance':
    case 'matchinst':
    case 'unary':
    case 'scalar':
    case 'rescale':
      return [e.operand];
    case 'binary':
      return [e.left, e.right];
    case 'ternary':
      return [e.guard, e.whenTrue, e.whenFalse];
    default:
      return assertUnreachable(e);
  }
}

/** Every metric name the expression mentions, in left-to-right order, duplicates removed. */
export function metricNames(e: Expr): string[] {
  const out = new Set<string>();
  const walk = (n: Expr): void => {
    switch (n.kind) {
      case 'metric':
        out.add(n.name);
        return;
      case 'const':
      case 'anon':
        return;
      case 'function':
        out.add(n.operand.name);
        return;
      case 'instance':
      case 'matchinst':
      case 'unary':
      case 'scalar':
      case 'rescale':
        walk(n.operand);
        return;
      case 'binary':
        walk(n.left);
        walk(n.right);
        return;
      case 'ternary':
        walk(n.guard);
        walk(n.whenTrue);
        walk(n.whenFalse);
        return;
      default:
        assertUnreachable(n);
    }
  };
  walk(e);
  return [...out];
}
