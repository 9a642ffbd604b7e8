// The derived-metric grammar of PCP 6.0.3 (derived-units-conversion.md §2.2–2.4) as data for
// lalr.ts, with the action run at each reduction. Besides the language itself it carries the
// `error` productions whose reductions choose libpcp's syntax-error reasons ("Arithmetic
// expression expected to follow PLUS", "Unexpected '('", "Metric name expected to follow
// sum(" …), in the order libpcp declares them, because rule order breaks ties between
// reductions and so decides which reason a malformed expression gets.
//
// An action returns the node for its left-hand side, or a syntax error: `recover` for the
// error productions (the reason unless the scanner already gave one), `abort` for checks made
// while reducing (bad units, type names, regular expressions), which stop the parse at once.
import type { AnonNode, BinaryOp, ConstNode, Expr, MetricFunction, MetricNode } from './ast';
import type { GrammarRule, GrammarSpec } from './lalr';
import type { Lexer, Span, Token, TokenKind } from './lexer';
import { compilePosixEre } from './posix-regex';
import type { RegexMatcher } from '../regex';
import { parseUnitsText } from './units-port';
import {
  formatType,
  NO_UNITS,
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
import type { Units } from '../types';

/** A mkconst() tag after its value was checked. */
export type Spec = { readonly tag: 'type'; readonly type: number } | { readonly tag: 'sem'; readonly sem: number } | { readonly tag: 'units'; readonly units: Units };

interface Pattern {
  readonly kind: 'pattern';
  readonly span: Span;
  readonly text: string;
  readonly invert: boolean;
  readonly regex: RegexMatcher;
}

/** What sits on the parser's value stack. */
export type Value = Token | Expr | Pattern | Spec | Spec[] | boolean | null;

export type ActionResult =
  | { readonly kind: 'value'; readonly value: Value }
  | { readonly kind: 'accept'; readonly expr: Expr }
  | { readonly kind: 'recover'; readonly message: string }
  | { readonly kind: 'abort'; readonly message: string };

export interface ActionContext {
  readonly lexer: Lexer;
}

export interface Production extends GrammarRule {
  readonly action: (values: readonly Value[], span: Span, ctx: ActionContext) => ActionResult;
}

const value = (v: Value): ActionResult => ({ kind: 'value', value: v });
const recover = (message: string): ActionResult => ({ kind: 'recover', message });
const abort = (message: string): ActionResult => ({ kind: 'abort', message });

function tok(v: Value): Token {
  return v as Token;
}
function expr(v: Value): Expr {
  return v as Expr;
}

const OPERATORS: ReadonlyArray<[TokenKind, BinaryOp, string]> = [
  ['PLUS', '+', 'PLUS'],
  ['MINUS', '-', 'MINUS'],
  ['STAR', '*', 'STAR'],
  ['SLASH', '/', 'SLASH'],
  ['LT', '<', 'LT'],
  ['LEQ', '<=', 'LEQ'],
  ['EQ', '==', 'EQ'],
  ['GEQ', '>=', 'GEQ'],
  ['GT', '>', 'GT'],
  ['NEQ', '!=', 'NEQ'],
  ['AND', '&&', 'AND'],
  ['OR', '||', 'OR'],
];
const opSpelling = (k: TokenKind): string => (OPERATORS.find(([t]) => t === k)?.[1] ?? { LPAREN: '(', RPAREN: ')', QUEST: '?', COLON: ':' }[k as string] ?? k);

const FUNCTIONS: ReadonlyArray<[TokenKind, MetricFunction]> = [
  ['AVG', 'avg'],
  ['COUNT', 'count'],
  ['DELTA', 'delta'],
  ['MAX', 'max'],
  ['MIN', 'min'],
  ['SUM', 'sum'],
  ['RATE', 'rate'],
  ['INSTANT', 'instant'],
  ['DEFINED', 'defined'],
];

const ANON_TYPES: Readonly<Record<string, number>> = {
  PM_TYPE_32: PM_TYPE_32,
  PM_TYPE_U32: PM_TYPE_U32,
  PM_TYPE_64: PM_TYPE_64,
  PM_TYPE_U64: PM_TYPE_U64,
  PM_TYPE_FLOAT: PM_TYPE_FLOAT,
  PM_TYPE_DOUBLE: PM_TYPE_DOUBLE,
};
const CONST_TYPES: Readonly<Record<string, number>> = { '32': PM_TYPE_32, U32: PM_TYPE_U32, '64': PM_TYPE_64, U64: PM_TYPE_U64, FLOAT: PM_TYPE_FLOAT, DOUBLE: PM_TYPE_DOUBLE };
const CONST_SEMS: Readonly<Record<string, number>> = { COUNTER: PM_SEM_COUNTER, INSTANT: PM_SEM_INSTANT, DISCRETE: PM_SEM_DISCRETE };

function literal(t: Token, span: Span, type: number, sem: number, units: Units, mkconst: boolean): ConstNode {
  return { kind: 'const', span, text: t.text, isDouble: t.kind === 'DOUBLE', type, sem, units, mkconst };
}

function mkconst(values: readonly Value[], span: Span, isDouble: boolean): ActionResult {
  let type = isDouble ? PM_TYPE_DOUBLE : PM_TYPE_U32;
  let sem = PM_SEM_DISCRETE;
  let units: Units = NO_UNITS;
  for (const s of values[5] as Spec[]) {
    if (s.tag === 'type') type = s.type;
    else if (s.tag === 'sem') sem = s.sem;
    else units = s.units;
  }
  if (isDouble && type !== PM_TYPE_DOUBLE && type !== PM_TYPE_FLOAT) return abort(`Incompatible floating point constant and type '${formatType(type)}'`);
  return value(literal(tok(values[2] ?? null), span, type, sem, units, true));
}

function spec(tag: 'type' | 'semantics' | 'units', text: string): ActionResult {
  switch (tag) {
    case 'type': {
      const type = CONST_TYPES[text.toUpperCase()];
      return type === undefined ? abort(`Unrecognized value for type '${text}'`) : value({ tag: 'type', type });
    }
    case 'semantics': {
      const sem = CONST_SEMS[text.toUpperCase()];
      return sem === undefined ? abort(`Unrecognized value for semantics '${text}'`) : value({ tag: 'sem', sem });
    }
    case 'units': {
      const u = parseUnitsText(text);
      return u.ok ? value({ tag: 'units', units: u.units }) : abort(`Illegal units: '${u.message}'`);
    }
  }
}

const rule = (lhs: string, rhs: string, action: Production['action'], prec?: string): Production => ({ lhs, rhs: rhs.split(' ').filter((s) => s !== ''), action, ...(prec ? { prec } : {}) });
const pass = (i: number): Production['action'] => (v) => value(v[i] ?? null);

function productions(): Production[] {
  const p: Production[] = [];

  // defn: a whole expression, or libpcp's reasons for leading and trailing operators.
  p.push(rule('defn', 'expr EOS', (v) => ({ kind: 'accept', expr: expr(v[0] ?? null) })));
  for (const k of ['PLUS', 'STAR', 'SLASH', 'LPAREN', 'RPAREN', 'LT', 'LEQ', 'EQ', 'GEQ', 'GT', 'NEQ', 'AND', 'OR'] as const) {
    p.push(rule('defn', `expr ${k} error`, () => recover(`Unexpected '${opSpelling(k)}'`)));
  }
  for (const k of ['PLUS', 'STAR', 'SLASH', 'LPAREN', 'RPAREN', 'LT', 'LEQ', 'EQ', 'GEQ', 'GT', 'NEQ', 'AND', 'OR', 'QUEST', 'COLON'] as const) {
    p.push(rule('defn', `${k} error`, () => recover(`Unexpected initial '${opSpelling(k)}'`)));
  }

  // expr
  p.push(rule('expr', 'LPAREN expr RPAREN', pass(1)));
  p.push(
    rule('expr', 'NAME INSTNAME', (v, span) => {
      const name = tok(v[0] ?? null);
      const operand: MetricNode = { kind: 'metric', span: name.span, name: name.text };
      return value({ kind: 'instance', span, operand, instance: tok(v[1] ?? null).text, parenthesised: false });
    }),
  );
  p.push(rule('expr', 'LPAREN expr RPAREN INSTNAME', (v, span) => value({ kind: 'instance', span, operand: expr(v[1] ?? null), instance: tok(v[3] ?? null).text, parenthesised: true })));
  p.push(rule('expr', 'num', pass(0)));
  p.push(
    rule('expr', 'NAME', (v) => {
      const t = tok(v[0] ?? null);
      return value({ kind: 'metric', span: t.span, name: t.text });
    }),
  );
  p.push(rule('expr', 'func', pass(0)));
  const binary = (k: TokenKind, op: BinaryOp): Production =>
    rule('expr', `expr ${k} expr`, (v, span) => value({ kind: 'binary', span, op, left: expr(v[0] ?? null), right: expr(v[2] ?? null) }));
  for (const [k, op] of OPERATORS.slice(0, 4)) p.push(binary(k, op));
  p.push(rule('expr', 'MINUS expr', (v, span) => value({ kind: 'unary', span, op: '-', operand: expr(v[1] ?? null) }), 'MINUS'));
  for (const [k, op] of OPERATORS.slice(4, 10)) p.push(binary(k, op));
  p.push(
    rule('expr', 'expr QUEST expr COLON expr', (v, span) =>
      value({ kind: 'ternary', span, guard: expr(v[0] ?? null), whenTrue: expr(v[2] ?? null), whenFalse: expr(v[4] ?? null) }),
    ),
  );
  for (const [k, op] of OPERATORS.slice(10)) p.push(binary(k, op));
  p.push(rule('expr', 'NOT expr', (v, span) => value({ kind: 'unary', span, op: '!', operand: expr(v[1] ?? null) })));

  const follow = (what: string, where: string): ActionResult => recover(`${what} expected to follow ${where}`);
  const ARITH = 'Arithmetic expression';
  const BOOL = 'Boolean expression';
  const OPERATOR = 'Arithmetic or relational or boolean operator';
  p.push(rule('expr', 'NAME error', () => follow(OPERATOR, 'NAME')));
  for (const [k, , name] of OPERATORS.slice(0, 4)) p.push(rule('expr', `expr ${k} error`, () => follow(ARITH, name)));
  p.push(rule('expr', 'MINUS error', () => follow(ARITH, 'NEG')));
  for (const [k, , name] of OPERATORS.slice(4, 10)) p.push(rule('expr', `expr ${k} error`, () => follow(ARITH, name)));
  for (const [k, , name] of OPERATORS.slice(10)) p.push(rule('expr', `expr ${k} error`, () => follow(BOOL, name)));
  p.push(rule('expr', 'NOT error', () => follow(BOOL, 'NOT')));
  p.push(rule('expr', 'expr QUEST error', () => follow(ARITH, 'QUEST')));
  p.push(rule('expr', 'expr QUEST expr COLON error', () => follow(ARITH, 'COLON')));

  // regexpr, opt_bang
  p.push(
    rule('regexpr', 'opt_bang PATTERN', (v) => {
      const t = tok(v[1] ?? null);
      const re = compilePosixEre(t.text);
      if (!re.ok) return abort(`bad regular expression: '${re.message}'`);
      const pattern: Pattern = { kind: 'pattern', span: t.span, text: t.text, invert: v[0] === true, regex: re.regex };
      return value(pattern);
    }),
  );
  p.push(rule('opt_bang', 'NOT', () => value(true)));
  p.push(rule('opt_bang', '', () => value(false)));

  // num
  p.push(rule('num', 'INTEGER', (v, span) => value(literal(tok(v[0] ?? null), span, PM_TYPE_U32, PM_SEM_DISCRETE, NO_UNITS, false))));
  p.push(rule('num', 'DOUBLE', (v, span) => value(literal(tok(v[0] ?? null), span, PM_TYPE_DOUBLE, PM_SEM_DISCRETE, NO_UNITS, false))));
  // The mid-rule actions of libpcp's mkconst rules become empty nonterminals: they are reduced
  // before the next token is read, as bison does.
  p.push(rule('$mkconst_int', '', () => value(null)));
  p.push(rule('num', 'MKCONST LPAREN INTEGER COMMA $mkconst_int speclist RPAREN', (v, span) => mkconst(v, span, false)));
  p.push(rule('$mkconst_double', '', () => value(null)));
  p.push(rule('num', 'MKCONST LPAREN DOUBLE COMMA $mkconst_double speclist RPAREN', (v, span) => mkconst(v, span, true)));
  p.push(rule('speclist', 'speclist COMMA spec', (v) => value([...(v[0] as Spec[]), v[2] as Spec])));
  p.push(rule('speclist', 'spec', (v) => value([v[0] as Spec])));
  p.push(rule('spec', 'TYPE ASSIGN specval', (v) => spec('type', tok(v[2] ?? null).text)));
  p.push(rule('spec', 'SEMANTICS ASSIGN specval', (v) => spec('semantics', tok(v[2] ?? null).text)));
  p.push(rule('spec', 'UNITS ASSIGN specval', (v) => spec('units', tok(v[2] ?? null).text)));
  for (const k of ['STRING', 'NAME', 'INTEGER']) p.push(rule('specval', k, pass(0)));

  // func
  p.push(
    rule('func', 'ANON LPAREN NAME RPAREN', (v, span) => {
      const typeName = tok(v[2] ?? null).text;
      const type = ANON_TYPES[typeName];
      // libpcp prints "Error: type=… not allowed for anon()" and then crashes; we refuse it as
      // a syntax error (docs/deviations.md).
      if (type === undefined) return abort(`type=${typeName} not allowed for anon()`);
      const node: AnonNode = { kind: 'anon', span, type, typeName };
      return value(node);
    }),
  );
  for (const [k, fn] of FUNCTIONS) {
    p.push(
      rule('func', `${k} LPAREN NAME RPAREN`, (v, span) => {
        const t = tok(v[2] ?? null);
        return value({ kind: 'function', span, fn, operand: { kind: 'metric', span: t.span, name: t.text } });
      }),
    );
  }
  p.push(
    rule('func', 'RESCALE LPAREN expr COMMA STRING RPAREN', (v, span) => {
      const text = tok(v[4] ?? null).text;
      const u = parseUnitsText(text);
      if (!u.ok) return abort(`Illegal units: '${u.message}'`);
      return value({ kind: 'rescale', span, operand: expr(v[2] ?? null), units: u.units, unitsText: text });
    }),
  );
  p.push(
    rule('func', 'MATCHINST LPAREN regexpr COMMA expr RPAREN', (v, span, ctx) => {
      ctx.lexer.inMatchinst = false;
      const pat = v[2] as Pattern;
      return value({ kind: 'matchinst', span, pattern: pat.text, invert: pat.invert, regex: pat.regex, operand: expr(v[4] ?? null) });
    }),
  );
  p.push(rule('func', 'SCALAR LPAREN expr RPAREN', (v, span) => value({ kind: 'scalar', span, operand: expr(v[2] ?? null) })));
  for (const k of ['ANON', 'AVG', 'COUNT', 'DELTA', 'MAX', 'MIN', 'SUM', 'RATE', 'INSTANT']) {
    p.push(rule('func', `${k} LPAREN error`, () => follow('Metric name', `${k.toLowerCase()}(`)));
  }
  p.push(rule('func', 'RESCALE LPAREN error', () => follow(OPERATOR, 'rescale(')));
  p.push(rule('func', 'RESCALE LPAREN expr COMMA error', () => follow('Units string', 'rescale(<expr>,')));
  p.push(rule('func', 'MATCHINST LPAREN error', () => follow('<filter>, <expr>)', 'matchinst(')));
  p.push(rule('func', 'MATCHINST LPAREN regexpr error', () => follow(', <expr>)', 'matchinst(<filter>')));
  p.push(rule('func', 'MATCHINST LPAREN regexpr COMMA error', () => follow('<expr>)', 'matchinst(<filter>,')));
  p.push(rule('func', 'SCALAR LPAREN error', () => follow('<expr>', 'scalar(')));
  return p;
}

export const TERMINALS: readonly TokenKind[] = [
  'ERROR', 'EOS', 'PLUS', 'MINUS', 'STAR', 'SLASH', 'QUEST', 'COLON', 'LPAREN', 'RPAREN',
  'AVG', 'COUNT', 'DELTA', 'MAX', 'MIN', 'SUM', 'ANON', 'RATE', 'INSTANT',
  'LT', 'LEQ', 'EQ', 'GEQ', 'GT', 'NEQ', 'AND', 'OR',
  'MKCONST', 'RESCALE', 'DEFINED', 'MATCHINST', 'SCALAR', 'TYPE', 'SEMANTICS', 'UNITS', 'ASSIGN', 'COMMA',
  'INTEGER', 'DOUBLE', 'NAME', 'STRING', 'INSTNAME', 'PATTERN', 'NOT',
];

export interface DerivedGrammar extends GrammarSpec {
  readonly rules: readonly Production[];
}

export const GRAMMAR: DerivedGrammar = {
  terminals: TERMINALS,
  precedence: [
    { assoc: 'left', tokens: ['QUEST', 'COLON'] },
    { assoc: 'left', tokens: ['AND', 'OR'] },
    { assoc: 'left', tokens: ['NOT'] },
    { assoc: 'left', tokens: ['LT', 'LEQ', 'EQ', 'GEQ', 'GT', 'NEQ'] },
    { assoc: 'left', tokens: ['PLUS', 'MINUS'] },
    { assoc: 'left', tokens: ['STAR', 'SLASH'] },
  ],
  start: 'defn',
  rules: productions(),
};
