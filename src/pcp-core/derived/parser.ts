// Parser of derived-metric expressions: text → AST, or the syntax error libpcp 6.0.3 reports
// (derived-units-conversion.md §2.2, §5). An LR driver over the tables lalr.ts builds from
// grammar.ts (precomputed in grammar-tables.ts), following bison's skeleton: a state without lookahead-dependent actions reduces
// before the next token is read; on a syntax error the stack is popped to the nearest state
// that can shift `error`, the matching error production is reduced and its reason kept
// unless the scanner already gave one; the error position is the start of the last token
// read (libpcp's `lexicon`).
import { childrenOf, type Expr } from './ast';
import { GRAMMAR, type ActionResult, type Production, type Value } from './grammar';
import { DERIVED_TABLES } from './grammar-tables';
import { augmentedRules, decodeTables, ERROR, type ParseTables } from './lalr';
import { Lexer, type Span, type Token } from './lexer';

export interface SyntaxError {
  /**
   * UTF-16 offset of the error in the text, as libpcp's returned pointer: the start of the
   * token where the error was found, the last character for errors at the end, −1 for an
   * empty text.
   */
  readonly position: number;
  /** The offending token's extent, for highlighting. */
  readonly span: Span;
  /** The reason line, or null when libpcp gives none (e.g. `1 2`). */
  readonly message: string | null;
}

export type ParseResult = { readonly ok: true; readonly expr: Expr } | { readonly ok: false; readonly error: SyntaxError };

/** bison's YYMAXDEPTH: deeper parses fail with "memory exhausted", which libpcp reports with no reason. */
const MAX_DEPTH = 10000;

/**
 * The binder and evaluator recurse over the tree; beyond this depth a JavaScript stack could
 * overflow, so such an expression is refused here (docs/deviations.md).
 */
export const MAX_NESTING = 1000;

/** Depth of a tree, without recursion. */
function depthOf(root: Expr): number {
  let max = 0;
  const stack: Array<[Expr, number]> = [[root, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [e, d] = top;
    if (d > max) max = d;
    for (const c of childrenOf(e)) stack.push([c, d + 1]);
  }
  return max;
}

let tables: ParseTables | undefined;
function getTables(): ParseTables {
  // Precomputed by lalr.ts from grammar.ts (grammar-tables.test.ts keeps them in step).
  tables ??= decodeTables(DERIVED_TABLES, augmentedRules(GRAMMAR));
  return tables;
}

function spanOf(values: readonly Value[], fallback: number): Span {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v !== null && typeof v === 'object' && 'span' in v) {
      start = Math.min(start, v.span.start);
      end = Math.max(end, v.span.end);
    }
  }
  return Number.isFinite(start) ? { start, end } : { start: fallback, end: fallback };
}

/** Parses one expression. Never throws for bad input: the error is the result. */
export function parseExpression(text: string): ParseResult {
  const t = getTables();
  const lexer = new Lexer(text);
  const ctx = { lexer };
  const states: number[] = [0];
  const values: Value[] = [null];
  let lookahead: Token | undefined;
  let lexerMessage: string | null = null;
  let lastToken: Token | undefined;
  let reason: string | null = null;

  const read = (): Token => {
    const tok = lexer.next();
    lastToken = tok;
    if (tok.kind === 'ERROR' && lexerMessage === null) lexerMessage = tok.text;
    return tok;
  };
  const fail = (message: string | null): ParseResult => {
    const position = lexer.lastStart;
    const span = lastToken?.span ?? { start: position, end: position + 1 };
    return { ok: false, error: { position, span, message: lexerMessage ?? message } };
  };

  for (;;) {
    const state = states[states.length - 1];
    const row = t.states[state];
    if (row === undefined) throw new Error(`derived parser: no state ${state}`);
    let action: number | undefined;
    if (row.needsLookahead) {
      lookahead ??= read();
      action = row.actions.get(lookahead.kind);
    }
    if (action === undefined && row.defaultRule >= 0) action = -1 - row.defaultRule;
    if (action === undefined || Number.isNaN(action)) {
      // Syntax error: pop to a state that shifts `error`, shift it and carry on with the
      // same lookahead. The reductions that follow all end in error productions.
      if (!recover()) return fail(reason);
      continue;
    }
    if (action >= 0) {
      states.push(action);
      values.push(lookahead ?? null);
      lookahead = undefined;
      if (states.length >= MAX_DEPTH) return fail(null);
      continue;
    }
    const ruleIndex = -1 - action;
    const prod = t.rules[ruleIndex] as Production;
    const n = prod.rhs.length;
    const rhsValues = values.slice(values.length - n);
    const result: ActionResult = prod.action(rhsValues, spanOf(rhsValues, lexer.lastStart), ctx);
    states.length -= n;
    values.length -= n;
    switch (result.kind) {
      case 'accept':
        if (depthOf(result.expr) > MAX_NESTING) {
          return { ok: false, error: { position: 0, span: result.expr.span, message: `Expression nested too deeply (more than ${MAX_NESTING} levels)` } };
        }
        return { ok: true, expr: result.expr };
      case 'abort':
        return fail(result.message);
      case 'recover':
        // YYERROR: the reason of the first error production wins.
        reason ??= result.message;
        if (!recover()) return fail(reason);
        continue;
      case 'value': {
        const top = states[states.length - 1];
        const to = t.states[top]?.gotos.get(prod.lhs);
        if (to === undefined) throw new Error(`derived parser: no goto for ${prod.lhs} in state ${top}`);
        states.push(to);
        values.push(result.value);
        if (states.length >= MAX_DEPTH) return fail(null);
        continue;
      }
    }
  }

  function recover(): boolean {
    while (states.length > 0) {
      const top = states[states.length - 1];
      const to = t.states[top]?.actions.get(ERROR);
      if (to !== undefined && to >= 0) {
        states.push(to);
        values.push(null);
        return true;
      }
      states.pop();
      values.pop();
    }
    return false;
  }
}
