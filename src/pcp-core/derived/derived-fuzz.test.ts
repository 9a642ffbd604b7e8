// Fuzz test: derived-metric configuration files generated from the grammar (expressions,
// functions, attributes, garbage lines) with nesting and regular-expression extremes (groups
// thousands deep, long literals, large bounds, ReDoS shapes, parentheses past bison's
// YYMAXDEPTH, long operator chains) are loaded, bound and fetched over the in-memory
// bozo-disk archive. Each step must end in messages, values or a PmError — never another
// exception, never a hang. Seeded: a failure names the iteration that reproduces it.
// PMDASH_FUZZ_ITERATIONS sets the count (`npm run fuzz` runs 20000); the unit run does 200.
import { describe, expect, it } from 'vitest';
import { bozoDisk } from '../../../test/derived/bozo-disk';
import { isPmError } from '../errors';
import type { PmId } from '../types';
import { loadDerivedConfigText } from './config';
import { DerivedContext } from './derived-context';
import { DerivedRegistry } from './registry';

const ITERATIONS = Number(process.env.PMDASH_FUZZ_ITERATIONS ?? 200);
const SEED = 0xde71fed;

/** mulberry32: small, fast, deterministic. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  constructor(private readonly r: () => number) {}

  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  chance(p: number): boolean {
    return this.r() < p;
  }

  /** A regular expression: random ERE text or one of the extremes. */
  regex(): string {
    switch (this.int(10)) {
      case 0: {
        const d = 1 + this.int(6000);
        return `${'('.repeat(d)}${this.pick(['sd', 'a|b', '.*', ''])}${')'.repeat(this.chance(0.9) ? d : this.int(d))}`;
      }
      case 1:
        return this.pick(['y', 'sd', '.', '[a-z]']).repeat(1 + this.int(50_000));
      case 2:
        return this.pick(['^(.*)*Q$', '^(.|.)*Q$', '(a*)*b', '^(sd|s|d)*$', '(x+x+)+y', '(.*)\\1', '((a|b)*\\2)*']);
      case 3:
        return `(${this.pick(['a', 'sd', '.'])}{${this.int(40_000)},${this.int(40_000)}}){${this.int(1100)}}`;
      case 4: {
        const d = 1 + this.int(3000);
        return `${'(a|'.repeat(d)}b${')'.repeat(d)}`;
      }
      default: {
        const alphabet = ['s', 'd', 'a', 'b', '.', '*', '+', '?', '|', '(', ')', '[', ']', '^', '$', '{', '}', ',', '1', '-', '\\', '\\1', '[[:alpha:]]', '{2,3}', '/'];
        let p = '';
        const n = this.int(14);
        for (let i = 0; i < n; i++) p += this.pick(alphabet);
        // A '/' would end the pattern in the lexer: keep it only sometimes, as garbage.
        return this.chance(0.8) ? p.replaceAll('/', '') : p;
      }
    }
  }

  metric(): string {
    return this.pick(['disk.dev.read', 'disk.dev.write', 'disk.dev.total', 'disk.all.read', 'hinv.ncpu', 'sample.nothere', 'disk.dev', 'my.m1', 'my.m0']);
  }

  expr(depth: number): string {
    if (depth <= 0 || this.chance(0.25)) {
      return this.chance(0.7) ? this.metric() : this.pick(['1', '0', '4294967296', '1.5e3', '-2', '"s"', '0.0']);
    }
    const e = (): string => this.expr(depth - 1);
    switch (this.int(16)) {
      case 0: {
        // Parentheses around an operand, sometimes past YYMAXDEPTH (10000).
        const d = this.pick([1, 2, 50, 3000, 9990, 10_005, 20_000]);
        return `${'('.repeat(d)}${e()}${')'.repeat(this.chance(0.95) ? d : d - 1)}`;
      }
      case 1: {
        const n = this.pick([2, 10, 500, 4000]);
        const op = this.pick([' + ', ' * ', ' - ', ' && ', ' == ']);
        return Array.from({ length: n }, () => this.metric()).join(op);
      }
      case 2:
        return `${this.pick(['-', '!', '- -'])}${this.pick([1, 1, 200, 3000]) > 1 ? '-'.repeat(this.int(3000)) : ''}${e()}`;
      case 3:
        return `matchinst(${this.chance(0.3) ? '!' : ''}/${this.regex()}/, ${e()})`;
      case 4:
        return `${e()} ? ${e()} : ${e()}`;
      case 5:
        return `${this.pick(['avg', 'count', 'delta', 'max', 'min', 'sum', 'rate', 'instant', 'defined'])}(${e()})`;
      case 6:
        return `rescale(${e()}, "${this.pick(['Kbyte', 'count / sec', 'furlong', 'byte', ''])}")`;
      case 7:
        return `mkconst(${this.pick(['1', '2.5', '-3'])}${this.chance(0.5) ? `, type=${this.pick(['u32', 'double', '64', 'string'])}` : ''}${this.chance(0.5) ? ', units="Kbyte"' : ''})`;
      case 8: {
        const d = this.pick([10, 500, 2000]);
        let s = this.metric();
        for (let i = 0; i < d; i++) s = `${this.pick(['sum', 'avg', 'delta', 'rate', 'instant'])}(${s})`;
        return s;
      }
      default:
        return `${e()} ${this.pick(['+', '-', '*', '/', '<', '<=', '==', '>=', '>', '!=', '&&', '||'])} ${e()}`;
    }
  }

  line(i: number): string {
    switch (this.int(12)) {
      case 0:
        return `my.m${this.int(3)}(${this.pick(['oneline', 'helptext', 'colour'])}) = "${this.pick(['x', 'multi\nline', 'unterminated'])}`;
      case 1:
        return this.pick(['# comment', '', '   # indented', 'no equals', '9bad = 1', `my.m${i} = `]);
      default:
        return `my.m${i} = ${this.expr(1 + this.int(5))}`;
    }
  }
}

describe('derived-metric configuration fuzzing', () => {
  it(`loads, binds and fetches ${ITERATIONS} generated configurations without an uncaught exception`, async () => {
    const r = rng(SEED);
    const gen = new Gen(r);
    let registered = 0;
    let refusedLines = 0;
    for (let it = 0; it < ITERATIONS; it++) {
      const lines = Array.from({ length: 1 + gen.int(6) }, (_, i) => gen.line(i));
      const text = `${lines.join('\n')}\n`;
      const where = `iteration ${it} (seed ${SEED})`;
      const registry = new DerivedRegistry();
      let load: { registered: number; messages: string };
      try {
        load = loadDerivedConfigText(registry, 'fuzz.conf', text);
      } catch (e) {
        throw new Error(`${where}: loading threw ${String(e)}`, { cause: e });
      }
      registered += load.registered;
      refusedLines += load.messages.split('\n').filter((l) => l.startsWith('[fuzz.conf:')).length;
      const ctx = new DerivedContext(bozoDisk('archive'), { registry, onMessage: () => undefined });
      try {
        const names = registry.definitions.filter((d) => !d.anon).map((d) => d.name);
        if (names.length === 0) continue;
        const ids = await ctx.lookupNames(names);
        const good = ids.filter((id): id is PmId => id >= 0);
        for (let k = 0; k < 3 && good.length > 0; k++) await ctx.fetch(good);
      } catch (e) {
        if (!isPmError(e)) throw new Error(`${where}: ${String(e)}\n${text.slice(0, 400)}`, { cause: e });
      } finally {
        await ctx.close();
      }
    }
    expect(registered).toBeGreaterThan(ITERATIONS / 4);
    expect(refusedLines).toBeGreaterThan(0);
  }, 600_000);
});
