// A parsed regular expression as a Thompson NFA, matched by a lazily built DFA: time linear
// in the subject's length for a given pattern (each byte costs at most one cached
// transition, or one NFA step when the transition is new), memory bounded by the NFA size
// limit and the DFA cache limit (the cache is dropped and rebuilt when full, as RE2 does).
// Only whether a match exists is answered (REG_NOSUB), so any match position will do.
//
// Back-references are not regular: patterns with them are matched by a search over
// (NFA state, position, captured spans) configurations, each visited once — polynomial, and
// bounded by MAX_BACKREF_CONFIGS, past which the match fails with RegexLimitError.
import { REG_ESPACE, RegexSyntaxError } from './parse';
import type { AssertKind, Node, Parsed } from './parse';

/** Most NFA states a pattern may compile to (about 16 bytes each): glibc's limit is memory. */
export const MAX_NFA_STATES = 1 << 22;
/** Cached DFA states before the cache is dropped. */
const MAX_DFA_STATES = 2048;
/** Most NFA-state entries held by cached DFA states (memory bound of the cache). */
const MAX_DFA_ENTRIES = 1 << 21;
/** Most configurations a back-reference search visits per subject. */
export const MAX_BACKREF_CONFIGS = 1 << 20;

export class RegexLimitError extends Error {}

const K_MATCH = 0;
const K_BYTE = 1;
const K_SPLIT = 2;
const K_ASSERT = 3;
const K_GROUP_START = 4;
const K_GROUP_END = 5;
const K_BACKREF = 6;

const ASSERTS: readonly AssertKind[] = ['bol', 'eol', 'word-boundary', 'not-word-boundary', 'word-start', 'word-end', 'bos', 'eos', 'eos-or-final-newline'];
const EOS_OR_FINAL_NEWLINE = 8;

// Context classes of the bytes around a position: 0 the subject's start or end, 1 a word
// byte ([A-Za-z0-9_]), 2 another byte, 3 a newline (not a word byte either).
const EDGE = 0;
const WORDC = 1;
const OTHER = 2;
const NEWLINE = 3;
const WORD_BYTE = (() => {
  const w = new Uint8Array(256);
  for (let c = 0; c < 256; c++) {
    const s = String.fromCharCode(c);
    w[c] = c === 10 ? NEWLINE : /[A-Za-z0-9_]/.test(s) ? WORDC : OTHER;
  }
  return w;
})();

// glibc's quirk without REG_NEWLINE (build_trtable gives a newline transition the newline
// context whatever newline_anchor says): '^' also holds after a newline the match itself
// consumed ('.^' matches "x\ny", '^y' does not), and '$' also holds before a newline the
// match goes on to consume ('x$\n' matches, 'x$' does not match "x\ny"). A thread's mode
// says which of these it may use: CONT a thread that consumed the previous byte (SEED one
// that starts here), TAINT one that passed '$' before a newline and must consume it.
const CONT = 1;
const TAINT = 2;

/** Whether an assertion holds; for '$' before a newline, TAINT (the path must consume it). */
function assertHolds(kind: number, prev: number, next: number, mode: number, nextIsFinal = false): boolean | typeof TAINT {
  switch (kind) {
    case 0:
      return prev === EDGE || (prev === NEWLINE && (mode & CONT) !== 0);
    case 1:
      return next === EDGE ? true : next === NEWLINE ? TAINT : false;
    case 2:
      return (prev === WORDC) !== (next === WORDC);
    case 3:
      return (prev === WORDC) === (next === WORDC);
    case 4:
      return prev !== WORDC && next === WORDC;
    case 5:
      return prev === WORDC && next !== WORDC;
    case 6:
      return prev === EDGE;
    case 7:
      return next === EDGE;
    default:
      return next === EDGE || (next === NEWLINE && nextIsFinal);
  }
}

/** Per mode (SEED, CONT, SEED|TAINT, CONT|TAINT): the explored modes that make exploring it again redundant (a CONT thread can do all a fresh one can, an untainted one all a tainted one can). */
const DOMINATORS = [
  /* SEED */ (1 << 0) | (1 << CONT),
  /* CONT */ 1 << CONT,
  /* SEED|TAINT */ 0b1111,
  /* CONT|TAINT */ (1 << CONT) | (1 << (CONT | TAINT)),
];

class Nfa {
  kind = new Uint8Array(1024);
  out1 = new Int32Array(1024);
  out2 = new Int32Array(1024);
  /** BYTE: index into sets; ASSERT: kind; GROUP_*, BACKREF: capture slot. */
  arg = new Int32Array(1024);
  n = 0;
  readonly sets: Uint32Array[] = [];
  private readonly setIds = new Map<string, number>();
  /** The same parsed set compiled again (a repetition's copies) is found by identity. */
  private readonly setObjects = new Map<Uint32Array, number>();

  add(kind: number, out1: number, out2 = -1, arg = 0): number {
    if (this.n >= MAX_NFA_STATES) throw new RegexSyntaxError(REG_ESPACE);
    if (this.n === this.kind.length) {
      const grow = <T extends Uint8Array | Int32Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.kind = grow(this.kind, (n) => new Uint8Array(n));
      this.out1 = grow(this.out1, (n) => new Int32Array(n));
      this.out2 = grow(this.out2, (n) => new Int32Array(n));
      this.arg = grow(this.arg, (n) => new Int32Array(n));
    }
    const s = this.n++;
    this.kind[s] = kind;
    this.out1[s] = out1;
    this.out2[s] = out2;
    this.arg[s] = arg;
    return s;
  }

  setId(bits: Uint32Array): number {
    let id = this.setObjects.get(bits);
    if (id !== undefined) return id;
    const key = bits.join(',');
    id = this.setIds.get(key);
    if (id === undefined) {
      id = this.sets.length;
      this.sets.push(bits);
      this.setIds.set(key, id);
    }
    this.setObjects.set(bits, id);
    return id;
  }
}

type Task = { readonly node: Node; readonly next: number; readonly done: (start: number) => void } | { readonly deliver: (start: number) => void; readonly value: number };

/**
 * Compiles the tree in continuation style (each node is built knowing the state that follows
 * it), with an explicit work stack so nesting depth costs no call stack.
 */
function compile(parsed: Parsed): { nfa: Nfa; start: number; slots: Map<number, number> } {
  // Refuse a pattern too large before building any of it (Nfa.add checks it again).
  if (nfaSize(parsed.root) > MAX_NFA_STATES) throw new RegexSyntaxError(REG_ESPACE);
  const nfa = new Nfa();
  const match = nfa.add(K_MATCH, -1);
  // Capture slots only for referenced groups.
  const slots = new Map<number, number>();
  for (const g of [...parsed.referenced].sort((a, b) => a - b)) slots.set(g, slots.size);
  const stack: Task[] = [];
  let start = -1;
  const deliver = (fn: (s: number) => void, value: number): void => {
    stack.push({ deliver: fn, value });
  };
  const seq = (items: readonly Node[], i: number, next: number, done: (s: number) => void): void => {
    if (i < 0) deliver(done, next);
    else stack.push({ node: items[i], next, done: (s) => seq(items, i - 1, s, done) });
  };
  stack.push({ node: parsed.root, next: match, done: (s) => (start = s) });
  while (stack.length > 0) {
    const task = stack.pop() as Task;
    if ('deliver' in task) {
      task.deliver(task.value);
      continue;
    }
    const { node, next, done } = task;
    switch (node.t) {
      case 'set':
        deliver(done, nfa.add(K_BYTE, next, -1, nfa.setId(node.bits)));
        break;
      case 'assert':
        deliver(done, nfa.add(K_ASSERT, next, -1, ASSERTS.indexOf(node.kind)));
        break;
      case 'backref':
        deliver(done, nfa.add(K_BACKREF, next, -1, slots.get(node.index) ?? 0));
        break;
      case 'seq':
        seq(node.items, node.items.length - 1, next, done);
        break;
      case 'alt': {
        const starts: number[] = [];
        const branch = (i: number): void => {
          if (i === node.items.length) {
            let s = starts[starts.length - 1];
            for (let k = starts.length - 2; k >= 0; k--) s = nfa.add(K_SPLIT, starts[k], s);
            deliver(done, s);
          } else {
            stack.push({
              node: node.items[i],
              next,
              done: (s) => {
                starts.push(s);
                branch(i + 1);
              },
            });
          }
        };
        branch(0);
        break;
      }
      case 'group': {
        const slot = slots.get(node.index);
        if (slot === undefined) stack.push({ node: node.child, next, done });
        else {
          const end = nfa.add(K_GROUP_END, next, -1, slot);
          stack.push({ node: node.child, next: end, done: (s) => deliver(done, nfa.add(K_GROUP_START, s, -1, slot)) });
        }
        break;
      }
      case 'rep': {
        const { min, max, child } = node;
        // Built back to front: the unbounded loop or the nested optional copies, then the
        // mandatory copies.
        const mandatory = (k: number, tail: number): void => {
          if (k === 0) deliver(done, tail);
          else stack.push({ node: child, next: tail, done: (s) => mandatory(k - 1, s) });
        };
        if (max < 0) {
          const loop = nfa.add(K_SPLIT, -1, next);
          stack.push({
            node: child,
            next: loop,
            done: (s) => {
              nfa.out1[loop] = s;
              mandatory(min, loop);
            },
          });
        } else {
          const optional = (k: number, tail: number): void => {
            if (k === 0) mandatory(min, tail);
            else stack.push({ node: child, next: tail, done: (s) => optional(k - 1, nfa.add(K_SPLIT, s, next)) });
          };
          optional(max - min, next);
        }
        break;
      }
    }
  }
  return { nfa, start, slots };
}

/** States compile() makes for a tree at most (a back-reference's group counted as captured), by an iterative post-order walk. */
function nfaSize(root: Node): number {
  const size = new Map<Node, number>();
  const stack: Array<{ node: Node; expanded: boolean }> = [{ node: root, expanded: false }];
  const children = (n: Node): readonly Node[] => (n.t === 'seq' || n.t === 'alt' ? n.items : n.t === 'group' || n.t === 'rep' ? [n.child] : []);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const kids = children(top.node);
    if (!top.expanded) {
      top.expanded = true;
      for (const k of kids) if (!size.has(k)) stack.push({ node: k, expanded: false });
      continue;
    }
    stack.pop();
    const n = top.node;
    const sum = kids.reduce((a, k) => a + (size.get(k) ?? 0), 0);
    let v: number;
    if (n.t === 'seq') v = sum;
    else if (n.t === 'alt') v = sum + n.items.length;
    else if (n.t === 'group') v = sum + 2;
    else if (n.t === 'rep') v = sum * (n.max < 0 ? Math.max(n.min, 1) : n.max) + (n.max < 0 ? 1 : n.max - n.min);
    else v = 1;
    size.set(n, Math.min(v, Number.MAX_SAFE_INTEGER));
  }
  return size.get(root) ?? 0;
}

interface DState {
  readonly set: Int32Array;
  readonly prev: number;
  /** Next DState id per byte: −1 unknown, −2 a match was found before this byte. */
  readonly trans: Int32Array;
  /** Whether a match ends at the subject's end: −1 unknown, 0 no, 1 yes. */
  eol: number;
}

const MATCHED = -2;

/** A compiled pattern: test() answers whether the pattern matches somewhere in the subject. */
export class Automaton {
  private readonly nfa: Nfa;
  private readonly start: number;
  private readonly captures: number;
  private states: DState[] = [];
  /** DFA states by a hash of (prev, set); equal hashes are told apart by comparing sets. */
  private index = new Map<number, number[]>();
  private entries = 0;
  private readonly mark: Int32Array;
  private stamp = 0;
  /** Modes a state was explored in during the current closure (when mark is current). */
  private readonly explored: Uint8Array;
  private work: Int32Array;
  private modes: Uint8Array;

  /** Whether the pattern has PCRE's '$' (end, or before a final newline). */
  private readonly finalNewlineAsserts: boolean;
  /** Set while computing the closure before the subject's last byte when that is a newline. */
  private nextIsFinal = false;

  /** A pattern that is one literal byte string is found by a substring search. */
  private readonly literal: string | undefined;

  constructor(parsed: Parsed) {
    this.literal = literalOf(parsed.root);
    const c = compile(parsed);
    this.nfa = c.nfa;
    this.start = c.start;
    this.captures = c.slots.size;
    this.mark = new Int32Array(this.nfa.n);
    this.explored = new Uint8Array(this.nfa.n);
    this.work = new Int32Array(this.nfa.n + 4);
    this.modes = new Uint8Array(this.nfa.n + 4);
    this.minLength = this.shortestMatch();
    let dollar = false;
    for (let s = 0; s < this.nfa.n && !dollar; s++) dollar = this.nfa.kind[s] === K_ASSERT && this.nfa.arg[s] === EOS_OR_FINAL_NEWLINE;
    this.finalNewlineAsserts = dollar;
  }

  /** Fewest bytes any match consumes (a back-reference counted as none): shorter subjects cannot match. */
  readonly minLength: number;

  /** 0-1 breadth-first search from the start: a BYTE state costs one, everything else none. */
  private shortestMatch(): number {
    const { kind, out1, out2 } = this.nfa;
    const dist = new Int32Array(this.nfa.n).fill(-1);
    let current = [this.start];
    let level = 0;
    while (current.length > 0) {
      const next: number[] = [];
      for (let i = 0; i < current.length; i++) {
        const s = current[i];
        if (s < 0 || dist[s] >= 0) continue;
        dist[s] = level;
        if (kind[s] === K_MATCH) return level;
        if (kind[s] === K_BYTE) next.push(out1[s]);
        else {
          current.push(out1[s]);
          if (kind[s] === K_SPLIT) current.push(out2[s]);
        }
      }
      current = next;
      level++;
    }
    return Number.MAX_SAFE_INTEGER;
  }

  /** NFA states, for benchmarks and tests. */
  get size(): number {
    return this.nfa.n;
  }

  test(subject: string): boolean {
    const bytes = toBytes(subject);
    if (bytes.length < this.minLength) return false;
    if (this.literal !== undefined) return latin1(bytes).includes(this.literal);
    return this.captures > 0 ? this.searchWithBackrefs(bytes) : this.runDfa(bytes);
  }

  private runDfa(bytes: Uint8Array | string): boolean {
    let d = this.dstate(new Int32Array(0), EDGE);
    const n = bytes.length;
    for (let i = 0; i < n; i++) {
      const b = typeof bytes === 'string' ? bytes.charCodeAt(i) : bytes[i];
      if (b === 10 && i === n - 1 && this.finalNewlineAsserts) return this.finalNewline(this.states[d]);
      let t = this.states[d].trans[b];
      if (t === -1) {
        t = this.step(d, b);
        // step() may have dropped the cache: the current state is then the new state 0.
      }
      if (t === MATCHED) return true;
      d = t;
    }
    const s = this.states[d];
    if (s.eol < 0) s.eol = this.closure(s.set, s.prev, EDGE, null) ? 1 : 0;
    return s.eol === 1;
  }

  /** The last step when the subject ends in a newline, before which PCRE's '$' holds: not cached. */
  private finalNewline(from: DState): boolean {
    const consumers: number[] = [];
    this.nextIsFinal = true;
    try {
      if (this.closure(from.set, from.prev, NEWLINE, consumers)) return true;
    } finally {
      this.nextIsFinal = false;
    }
    const { out1, sets, arg } = this.nfa;
    const next = consumers.filter((s) => (sets[arg[s]][0] & (1 << 10)) !== 0).map((s) => out1[s]);
    return this.closure(Int32Array.from(new Set(next)), NEWLINE, EDGE, null);
  }

  /**
   * The ε-closure of the threads in `set` (which consumed the previous byte) and of a thread
   * starting here; fills `consumers` with BYTE states reached; true on MATCH.
   */
  private closure(set: Int32Array, prev: number, next: number, consumers: number[] | null): boolean {
    const { kind, out1, out2, arg } = this.nfa;
    const stamp = ++this.stamp;
    let top = 0;
    const explored = this.explored;
    const push = (s: number, mode: number): void => {
      if (s < 0) return;
      const seen = this.mark[s] === stamp ? explored[s] : 0;
      if ((seen & DOMINATORS[mode]) !== 0) return;
      if (this.mark[s] !== stamp) {
        this.mark[s] = stamp;
        explored[s] = 0;
      }
      explored[s] |= 1 << mode;
      if (top === this.work.length) this.growWork();
      this.work[top] = s;
      this.modes[top++] = mode;
    };
    // Unanchored search: a match may start at every position.
    push(this.start, 0);
    for (let i = set.length - 1; i >= 0; i--) push(set[i], CONT);
    let matched = false;
    while (top > 0) {
      top--;
      const s = this.work[top];
      const mode = this.modes[top];
      switch (kind[s]) {
        case K_MATCH:
          if ((mode & TAINT) === 0) matched = true;
          break;
        case K_BYTE:
          consumers?.push(s);
          break;
        case K_SPLIT:
          push(out2[s], mode);
          push(out1[s], mode);
          break;
        case K_ASSERT: {
          const h = assertHolds(arg[s], prev, next, mode, this.nextIsFinal);
          if (h === TAINT) push(out1[s], mode | TAINT);
          else if (h) push(out1[s], mode);
          break;
        }
        default:
          push(out1[s], mode);
      }
    }
    return matched;
  }

  private growWork(): void {
    const w = new Int32Array(this.work.length * 2);
    w.set(this.work);
    this.work = w;
    const m = new Uint8Array(this.modes.length * 2);
    m.set(this.modes);
    this.modes = m;
  }

  private step(d: number, b: number): number {
    const from = this.states[d];
    const consumers: number[] = [];
    if (this.closure(from.set, from.prev, WORD_BYTE[b], consumers)) {
      from.trans[b] = MATCHED;
      return MATCHED;
    }
    const { out1, sets } = this.nfa;
    const arg = this.nfa.arg;
    const nextSet: number[] = [];
    const stamp = ++this.stamp;
    for (const s of consumers) {
      const bits = sets[arg[s]];
      if ((bits[b >>> 5] & (1 << (b & 31))) !== 0) {
        const o = out1[s];
        if (this.mark[o] !== stamp) {
          this.mark[o] = stamp;
          nextSet.push(o);
        }
      }
    }
    const set = Int32Array.from(nextSet).sort();
    if (this.states.length >= MAX_DFA_STATES || this.entries + set.length > MAX_DFA_ENTRIES) {
      // Drop the cache; the caller continues from the state made here.
      this.states = [];
      this.index = new Map<number, number[]>();
      this.entries = 0;
      return this.dstate(set, WORD_BYTE[b]);
    }
    const t = this.dstate(set, WORD_BYTE[b]);
    from.trans[b] = t;
    return t;
  }

  private dstate(set: Int32Array, prev: number): number {
    let h = Math.imul(prev + 1, 0x9e3779b1);
    for (let i = 0; i < set.length; i++) h = Math.imul(h ^ set[i], 0x01000193);
    let bucket = this.index.get(h);
    if (bucket === undefined) {
      bucket = [];
      this.index.set(h, bucket);
    }
    for (const id of bucket) {
      const d = this.states[id];
      if (d.prev === prev && sameSet(d.set, set)) return id;
    }
    const id = this.states.length;
    this.states.push({ set, prev, trans: new Int32Array(256).fill(-1), eol: -1 });
    bucket.push(id);
    this.entries += set.length;
    return id;
  }

  /**
   * Existential search with back-references: some path through the NFA whose every \n
   * equals the text its group last captured on that path (an unset group matches nothing).
   */
  private searchWithBackrefs(bytes: Uint8Array | string): boolean {
    const { kind, out1, out2, arg, sets } = this.nfa;
    const n = bytes.length;
    const at = (i: number): number => (typeof bytes === 'string' ? bytes.charCodeAt(i) : bytes[i]);
    const cls = (i: number): number => (i < 0 || i >= n ? EDGE : WORD_BYTE[at(i)]);
    const seen = new Set<string>();
    // Configurations: state, position, mode, then start/end per capture slot (−1 unset).
    const stack: number[][] = [];
    const empty = new Array<number>(2 * this.captures).fill(-1);
    for (let p = n; p >= 0; p--) stack.push([this.start, p, 0, ...empty]);
    while (stack.length > 0) {
      const c = stack.pop() as number[];
      const key = c.join(',');
      if (seen.has(key)) continue;
      if (seen.size >= MAX_BACKREF_CONFIGS) throw new RegexLimitError('regular expression with back-references too costly for this subject');
      seen.add(key);
      const [s, p, mode] = c;
      const go = (state: number, pos: number, m: number, caps?: number[]): void => {
        if (state >= 0) stack.push([state, pos, m, ...(caps ?? c.slice(3))]);
      };
      switch (kind[s]) {
        case K_MATCH:
          if ((mode & TAINT) === 0) return true;
          break;
        case K_BYTE: {
          if (p < n) {
            const b = at(p);
            if ((sets[arg[s]][b >>> 5] & (1 << (b & 31))) !== 0) go(out1[s], p + 1, CONT);
          }
          break;
        }
        case K_SPLIT:
          go(out2[s], p, mode);
          go(out1[s], p, mode);
          break;
        case K_ASSERT:
          // glibc checks the anchors of a match with back-references against the subject
          // strictly (sift_states_backward): no newline quirk here.
          if (assertHolds(arg[s], cls(p - 1), cls(p), 0, p === n - 1) === true) go(out1[s], p, mode);
          break;
        case K_GROUP_START:
        case K_GROUP_END: {
          const caps = c.slice(3);
          if (kind[s] === K_GROUP_START) {
            caps[2 * arg[s]] = p;
            caps[2 * arg[s] + 1] = -1;
          } else caps[2 * arg[s] + 1] = p;
          go(out1[s], p, mode, caps);
          break;
        }
        case K_BACKREF: {
          const b0 = c[3 + 2 * arg[s]];
          const b1 = c[4 + 2 * arg[s]];
          if (b0 < 0 || b1 < 0) break;
          const len = b1 - b0;
          if (p + len > n) break;
          let ok = true;
          for (let k = 0; k < len && ok; k++) ok = at(b0 + k) === at(p + k);
          if (ok) go(out1[s], p + len, len > 0 ? CONT : mode);
          break;
        }
      }
    }
    return false;
  }
}

/** The bytes of a pattern made only of single-byte sets, as a latin1 string; else undefined. */
function literalOf(root: Node): string | undefined {
  const items = root.t === 'seq' ? root.items : [root];
  let out = '';
  for (const item of items) {
    if (item.t !== 'set') return undefined;
    let only = -1;
    for (let w = 0; w < 8; w++) {
      const word = item.bits[w];
      if (word === 0) continue;
      // Exactly one bit in one word.
      if (only >= 0 || (word & (word - 1)) !== 0) return undefined;
      only = w * 32 + (31 - Math.clz32(word));
    }
    if (only < 0) return undefined;
    out += String.fromCharCode(only);
  }
  return out;
}

function latin1(bytes: Uint8Array | string): string {
  if (typeof bytes === 'string') return bytes;
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

function sameSet(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The subject as glibc sees it in the C locale: its UTF-8 bytes (ASCII text as is). */
function toBytes(s: string): Uint8Array | string {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return new TextEncoder().encode(s);
  return s;
}
