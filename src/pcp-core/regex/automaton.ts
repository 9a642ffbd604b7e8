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
export const MAX_BACKREF_CONFIGS = 1 << 21;

export class RegexLimitError extends Error {}

const K_MATCH = 0;
const K_BYTE = 1;
const K_SPLIT = 2;
const K_ASSERT = 3;
const K_GROUP_START = 4;
const K_GROUP_END = 5;
const K_BACKREF = 6;

const ASSERTS: readonly AssertKind[] = ['bol', 'eol', 'word-boundary', 'not-word-boundary', 'word-start', 'word-end'];

// Context classes of the bytes around a position: 0 the subject's start or end, 1 a word
// byte ([A-Za-z0-9_]), 2 another byte.
const EDGE = 0;
const WORDC = 1;
const OTHER = 2;
const WORD_BYTE = (() => {
  const w = new Uint8Array(256);
  for (let c = 0; c < 256; c++) {
    const s = String.fromCharCode(c);
    w[c] = /[A-Za-z0-9_]/.test(s) ? WORDC : OTHER;
  }
  return w;
})();

function assertHolds(kind: number, prev: number, next: number): boolean {
  switch (kind) {
    case 0:
      return prev === EDGE;
    case 1:
      return next === EDGE;
    case 2:
      return (prev === WORDC) !== (next === WORDC);
    case 3:
      return (prev === WORDC) === (next === WORDC);
    case 4:
      return prev !== WORDC && next === WORDC;
    default:
      return prev === WORDC && next !== WORDC;
  }
}

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
  private readonly work: Int32Array;

  /** A pattern that is one literal byte string is found by a substring search. */
  private readonly literal: string | undefined;

  constructor(parsed: Parsed) {
    this.literal = literalOf(parsed.root);
    const c = compile(parsed);
    this.nfa = c.nfa;
    this.start = c.start;
    this.captures = c.slots.size;
    this.mark = new Int32Array(this.nfa.n);
    this.work = new Int32Array(this.nfa.n);
    this.minLength = this.shortestMatch();
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

  /** The ε-closure of set ∪ {start} in a context; fills `consumers` with BYTE states reached; true on MATCH. */
  private closure(set: Int32Array, prev: number, next: number, consumers: number[] | null): boolean {
    const { kind, out1, out2, arg } = this.nfa;
    const stamp = ++this.stamp;
    const work = this.work;
    let top = 0;
    const push = (s: number): void => {
      if (s >= 0 && this.mark[s] !== stamp) {
        this.mark[s] = stamp;
        work[top++] = s;
      }
    };
    // Unanchored search: a match may start at every position.
    push(this.start);
    for (let i = set.length - 1; i >= 0; i--) push(set[i]);
    let matched = false;
    while (top > 0) {
      const s = work[--top];
      switch (kind[s]) {
        case K_MATCH:
          matched = true;
          break;
        case K_BYTE:
          consumers?.push(s);
          break;
        case K_SPLIT:
          push(out2[s]);
          push(out1[s]);
          break;
        case K_ASSERT:
          if (assertHolds(arg[s], prev, next)) push(out1[s]);
          break;
        default:
          push(out1[s]);
      }
    }
    return matched;
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
    const width = 2 + 2 * this.captures;
    const seen = new Set<string>();
    // Configurations: state, position, then start/end per capture slot (−1 unset).
    const stack: number[][] = [];
    const empty = new Array<number>(2 * this.captures).fill(-1);
    for (let p = 0; p <= n; p++) stack.push([this.start, p, ...empty]);
    stack.reverse();
    while (stack.length > 0) {
      const c = stack.pop() as number[];
      const key = c.join(',');
      if (seen.has(key)) continue;
      if (seen.size >= MAX_BACKREF_CONFIGS) throw new RegexLimitError('regular expression with back-references too costly for this subject');
      seen.add(key);
      const [s, p] = c;
      const go = (state: number, pos: number, caps?: number[]): void => {
        if (state < 0) return;
        const d = caps ?? c.slice(2, width);
        stack.push([state, pos, ...d]);
      };
      switch (kind[s]) {
        case K_MATCH:
          return true;
        case K_BYTE: {
          if (p < n) {
            const b = at(p);
            if ((sets[arg[s]][b >>> 5] & (1 << (b & 31))) !== 0) go(out1[s], p + 1);
          }
          break;
        }
        case K_SPLIT:
          go(out2[s], p);
          go(out1[s], p);
          break;
        case K_ASSERT:
          if (assertHolds(arg[s], cls(p - 1), cls(p))) go(out1[s], p);
          break;
        case K_GROUP_START: {
          const caps = c.slice(2, width);
          caps[2 * arg[s]] = p;
          caps[2 * arg[s] + 1] = -1;
          go(out1[s], p, caps);
          break;
        }
        case K_GROUP_END: {
          const caps = c.slice(2, width);
          caps[2 * arg[s] + 1] = p;
          go(out1[s], p, caps);
          break;
        }
        case K_BACKREF: {
          const b0 = c[2 + 2 * arg[s]];
          const b1 = c[3 + 2 * arg[s]];
          if (b0 < 0 || b1 < 0) break;
          const len = b1 - b0;
          if (p + len > n) break;
          let ok = true;
          for (let k = 0; k < len && ok; k++) ok = at(b0 + k) === at(p + k);
          if (ok) go(out1[s], p + len);
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
