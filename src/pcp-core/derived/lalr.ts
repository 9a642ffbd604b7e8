// A small LALR(1) table generator with bison's conventions, used once (lazily) to build the
// derived-metric parser tables from grammar.ts. Why not a hand-written parser: libpcp's
// syntax errors — which message, which caret column — are whatever its bison parser's error
// recovery produces, and that depends on LALR state merging, default reductions and the
// `error` productions. Building the same kind of tables from the same language definition
// reproduces them exactly (derived-units-conversion.md §5).
//
// Conventions copied from bison's documented behaviour: a rule's precedence is that of its
// last terminal (or %prec); shift/reduce conflicts are resolved by precedence and
// associativity, otherwise shift wins; reduce/reduce conflicts go to the earlier rule; in a
// state that can shift `error` there is no default reduction; otherwise the reduction used
// for the most lookaheads becomes the default; a state whose only action is its default
// reduction reduces without reading a lookahead token.

export interface GrammarRule {
  readonly lhs: string;
  readonly rhs: readonly string[];
  /** %prec: take the precedence of this terminal instead of the last terminal's. */
  readonly prec?: string;
}

export interface PrecedenceLevel {
  readonly assoc: 'left' | 'right' | 'nonassoc';
  readonly tokens: readonly string[];
}

export interface GrammarSpec {
  readonly terminals: readonly string[];
  /** Lowest precedence first, as %left/%right lines in a bison file. */
  readonly precedence: readonly PrecedenceLevel[];
  readonly start: string;
  readonly rules: readonly GrammarRule[];
}

export const END = '$end';
export const ERROR = 'error';
const ACCEPT = '$accept';

/** Actions: shift to a state (≥ 0) or reduce by a rule (encoded as −1 − rule). */
export interface StateTable {
  /** Explicit actions for lookahead terminals. */
  readonly actions: ReadonlyMap<string, number>;
  /** Rule reduced for any other lookahead, or −1 (syntax error). */
  readonly defaultRule: number;
  /** False when the state reduces by its default without looking at the next token. */
  readonly needsLookahead: boolean;
  readonly gotos: ReadonlyMap<string, number>;
}

export interface ParseTables {
  readonly states: readonly StateTable[];
  /** Rules with the augmented rule `$accept → start $end` at index 0; grammar rule i is i+1. */
  readonly rules: readonly GrammarRule[];
  /** Shift/reduce conflicts resolved by default (bison's %expect count). */
  readonly unresolvedConflicts: number;
}

/** Adds one element; true when the set grew. */
function addOne<T>(set: Set<T>, x: T): boolean {
  if (set.has(x)) return false;
  set.add(x);
  return true;
}
/** Adds every element; true when the set grew. */
function addAll<T>(set: Set<T>, xs: Iterable<T>): boolean {
  let grew = false;
  for (const x of xs) if (addOne(set, x)) grew = true;
  return grew;
}

interface Item {
  readonly rule: number;
  readonly dot: number;
}
const itemKey = (i: Item): number => i.rule * 64 + i.dot;

export function buildTables(spec: GrammarSpec): ParseTables {
  const rules: GrammarRule[] = [{ lhs: ACCEPT, rhs: [spec.start, END] }, ...spec.rules];
  const terminals = new Set<string>([END, ERROR, ...spec.terminals]);
  const nonterminals = new Set<string>(rules.map((r) => r.lhs));
  for (const r of rules) {
    for (const s of r.rhs) {
      if (!terminals.has(s) && !nonterminals.has(s)) throw new Error(`grammar: unknown symbol ${s}`);
    }
  }
  const byLhs = new Map<string, number[]>();
  rules.forEach((r, i) => byLhs.set(r.lhs, [...(byLhs.get(r.lhs) ?? []), i]));

  // Precedence of tokens and rules.
  const tokenPrec = new Map<string, { level: number; assoc: PrecedenceLevel['assoc'] }>();
  spec.precedence.forEach((lvl, i) => lvl.tokens.forEach((t) => tokenPrec.set(t, { level: i + 1, assoc: lvl.assoc })));
  const rulePrec = rules.map((r) => {
    if (r.prec !== undefined) return tokenPrec.get(r.prec);
    const last = [...r.rhs].reverse().find((s) => terminals.has(s));
    return last === undefined ? undefined : tokenPrec.get(last);
  });

  // Nullable and FIRST sets.
  const nullable = new Set<string>();
  const first = new Map<string, Set<string>>([...nonterminals].map((n) => [n, new Set<string>()]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of rules) {
      const f = first.get(r.lhs) as Set<string>;
      let allNullable = true;
      for (const s of r.rhs) {
        if (terminals.has(s)) {
          if (addOne(f, s)) changed = true;
          allNullable = false;
          break;
        }
        if (addAll(f, first.get(s) as Set<string>)) changed = true;
        if (!nullable.has(s)) {
          allNullable = false;
          break;
        }
      }
      if (allNullable && addOne(nullable, r.lhs)) changed = true;
    }
  }
  /** FIRST of a symbol sequence, and whether it can derive the empty string. */
  const firstOf = (syms: readonly string[]): { set: Set<string>; nullable: boolean } => {
    const set = new Set<string>();
    for (const s of syms) {
      if (terminals.has(s)) {
        set.add(s);
        return { set, nullable: false };
      }
      for (const t of first.get(s) as Set<string>) set.add(t);
      if (!nullable.has(s)) return { set, nullable: false };
    }
    return { set, nullable: true };
  };
  const symbolAfterDot = (i: Item): string | undefined => (rules[i.rule]).rhs[i.dot];

  const closure0 = (kernel: readonly Item[]): Item[] => {
    const out = [...kernel];
    const seen = new Set(out.map(itemKey));
    for (let k = 0; k < out.length; k++) {
      const s = symbolAfterDot(out[k]);
      if (s === undefined || terminals.has(s)) continue;
      for (const r of byLhs.get(s) ?? []) {
        const it = { rule: r, dot: 0 };
        if (addOne(seen, itemKey(it))) out.push(it);
      }
    }
    return out;
  };

  // LR(0) canonical collection; states numbered in order of discovery.
  const kernels: Item[][] = [[{ rule: 0, dot: 0 }]];
  const kernelIndex = new Map<string, number>([['0', 0]]);
  const transitions: Array<Map<string, number>> = [];
  for (let st = 0; st < kernels.length; st++) {
    const groups = new Map<string, Item[]>();
    for (const it of closure0(kernels[st])) {
      const s = symbolAfterDot(it);
      if (s === undefined || s === END) continue;
      const g = groups.get(s) ?? [];
      g.push({ rule: it.rule, dot: it.dot + 1 });
      groups.set(s, g);
    }
    const trans = new Map<string, number>();
    for (const [sym, items] of groups) {
      items.sort((a, b) => itemKey(a) - itemKey(b));
      const key = items.map(itemKey).join(',');
      let target = kernelIndex.get(key);
      if (target === undefined) {
        target = kernels.length;
        kernels.push(items);
        kernelIndex.set(key, target);
      }
      trans.set(sym, target);
    }
    transitions[st] = trans;
  }

  // LR(1) closure of items carrying lookahead sets. All items `B → .γ` of a closure share one
  // lookahead set, so the fixpoint runs over nonterminals; FIRST of item tails is memoised.
  const tails = new Map<number, { set: Set<string>; nullable: boolean }>();
  const tailOf = (k: number): { set: Set<string>; nullable: boolean } => {
    let rest = tails.get(k);
    if (rest === undefined) {
      rest = firstOf((rules[Math.floor(k / 64)]).rhs.slice((k % 64) + 1));
      tails.set(k, rest);
    }
    return rest;
  };
  const closure1 = (seed: ReadonlyMap<number, Set<string>>): Map<number, Set<string>> => {
    const ntLa = new Map<string, Set<string>>();
    const work: string[] = [];
    const fromItem = (k: number, la: ReadonlySet<string>): void => {
      const b = symbolAfterDot({ rule: Math.floor(k / 64), dot: k % 64 });
      if (b === undefined || terminals.has(b)) return;
      const rest = tailOf(k);
      let cur = ntLa.get(b);
      let grew = cur === undefined;
      if (cur === undefined) {
        cur = new Set<string>();
        ntLa.set(b, cur);
      }
      if (addAll(cur, rest.set)) grew = true;
      if (rest.nullable && addAll(cur, la)) grew = true;
      if (grew) work.push(b);
    };
    for (const [k, la] of seed) fromItem(k, la);
    while (work.length > 0) {
      const a = work.pop() as string;
      const la = ntLa.get(a) as Set<string>;
      for (const r of byLhs.get(a) ?? []) fromItem(itemKey({ rule: r, dot: 0 }), la);
    }
    const out = new Map<number, Set<string>>();
    for (const [k, la] of seed) out.set(k, new Set(la));
    for (const [a, la] of ntLa) {
      for (const r of byLhs.get(a) ?? []) {
        const k = itemKey({ rule: r, dot: 0 });
        const cur = out.get(k);
        if (cur === undefined) out.set(k, new Set(la));
        else for (const t of la) cur.add(t);
      }
    }
    return out;
  };

  // LALR lookaheads of kernel items: spontaneous generation and propagation (dragon book).
  const DUMMY = '#';
  const kernelLa = kernels.map((items) => new Map<number, Set<string>>(items.map((i) => [itemKey(i), new Set<string>()])));
  const propagate: Array<{ from: [number, number]; to: [number, number] }> = [];
  kernels.forEach((items, st) => {
    for (const k of items) {
      const cl = closure1(new Map([[itemKey(k), new Set([DUMMY])]]));
      for (const [key, set] of cl) {
        const it = { rule: Math.floor(key / 64), dot: key % 64 };
        const s = symbolAfterDot(it);
        if (s === undefined || s === END) continue;
        const target = (transitions[st]).get(s) as number;
        const tkey = itemKey({ rule: it.rule, dot: it.dot + 1 });
        for (const t of set) {
          if (t === DUMMY) propagate.push({ from: [st, itemKey(k)], to: [target, tkey] });
          else ((kernelLa[target]).get(tkey) as Set<string>).add(t);
        }
      }
    }
  });
  for (let changed = true; changed; ) {
    changed = false;
    for (const p of propagate) {
      const src = (kernelLa[p.from[0]]).get(p.from[1]) as Set<string>;
      const dst = (kernelLa[p.to[0]]).get(p.to[1]) as Set<string>;
      if (addAll(dst, src)) changed = true;
    }
  }

  // Action rows.
  let unresolvedConflicts = 0;
  const states: StateTable[] = kernels.map((_, st) => {
    const trans = transitions[st];
    const full = closure1(kernelLa[st]);
    const reductions: Array<{ rule: number; la: Set<string> }> = [];
    for (const [key, la] of full) {
      const it = { rule: Math.floor(key / 64), dot: key % 64 };
      if (it.rule !== 0 && symbolAfterDot(it) === undefined) reductions.push({ rule: it.rule, la: new Set(la) });
    }
    reductions.sort((a, b) => a.rule - b.rule);
    const shifts = new Map<string, number>();
    const gotos = new Map<string, number>();
    for (const [sym, to] of trans) (terminals.has(sym) ? shifts : gotos).set(sym, to);
    const consistent = reductions.length === 0 || (reductions.length === 1 && shifts.size === 0);

    // Shift/reduce conflicts with precedence on both sides are resolved first.
    const explicitError = new Set<string>();
    for (const red of reductions) {
      const rp = rulePrec[red.rule];
      if (rp === undefined) continue;
      for (const t of [...red.la]) {
        if (!shifts.has(t)) continue;
        const tp = tokenPrec.get(t);
        if (tp === undefined) continue;
        if (tp.level > rp.level || (tp.level === rp.level && tp.assoc === 'right')) red.la.delete(t);
        else if (tp.level < rp.level || tp.assoc === 'left') shifts.delete(t);
        else {
          shifts.delete(t);
          red.la.delete(t);
          explicitError.add(t);
        }
      }
    }
    const row = new Map<string, number>();
    for (let i = reductions.length - 1; i >= 0; i--) {
      const red = reductions[i];
      for (const t of red.la) row.set(t, -1 - red.rule);
    }
    let noDefault = false;
    for (const [t, to] of shifts) {
      if (row.has(t)) unresolvedConflicts++;
      row.set(t, to);
      if (t === ERROR) noDefault = true;
    }
    let defaultRule = -1;
    if (reductions.length > 0 && !noDefault) {
      if (consistent) defaultRule = (reductions[0] as { rule: number }).rule;
      else {
        let max = 0;
        for (const red of reductions) {
          let count = 0;
          for (const a of row.values()) if (a === -1 - red.rule) count++;
          if (count > max) {
            max = count;
            defaultRule = red.rule;
          }
        }
      }
      if (defaultRule >= 0) for (const [t, a] of [...row]) if (a === -1 - defaultRule) row.delete(t);
    }
    // %nonassoc errors stay explicit only when there is a default to override.
    if (defaultRule >= 0) for (const t of explicitError) row.set(t, Number.NaN);
    return { actions: row, defaultRule, needsLookahead: row.size > 0, gotos };
  });
  return { states, rules, unresolvedConflicts };
}

/**
 * Tables as plain data, for a generated module (grammar-tables.ts): symbol names once, then
 * per state [actions as symbol/action pairs, default rule, needs lookahead (0/1), gotos as
 * symbol/state pairs].
 */
export interface EncodedTables {
  readonly symbols: readonly string[];
  readonly states: ReadonlyArray<readonly [readonly number[], number, number, readonly number[]]>;
}

export function encodeTables(t: ParseTables): EncodedTables {
  const symbols: string[] = [];
  const index = (s: string): number => {
    let i = symbols.indexOf(s);
    if (i < 0) i = symbols.push(s) - 1;
    return i;
  };
  const pairs = (m: ReadonlyMap<string, number>): number[] => [...m].flatMap(([s, a]) => [index(s), a]);
  const states = t.states.map((st) => [pairs(st.actions), st.defaultRule, st.needsLookahead ? 1 : 0, pairs(st.gotos)] as const);
  return { symbols, states };
}

export function decodeTables(e: EncodedTables, rules: readonly GrammarRule[]): ParseTables {
  const map = (flat: readonly number[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (let i = 0; i < flat.length; i += 2) m.set(e.symbols[flat[i]], flat[i + 1]);
    return m;
  };
  const states = e.states.map(([actions, defaultRule, lookahead, gotos]) => ({ actions: map(actions), defaultRule, needsLookahead: lookahead === 1, gotos: map(gotos) }));
  return { states, rules, unresolvedConflicts: 0 };
}

/** The augmented rule list tables index into: `$accept → start $end`, then the grammar's rules. */
export function augmentedRules<R extends GrammarRule>(spec: GrammarSpec & { readonly rules: readonly R[] }): Array<GrammarRule | R> {
  return [{ lhs: ACCEPT, rhs: [spec.start, END] }, ...spec.rules];
}
