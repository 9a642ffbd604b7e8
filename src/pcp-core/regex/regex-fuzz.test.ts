// Fuzz test: generated patterns in both dialects (random operator soup, and extremes: nesting
// thousands deep, long literals, large and nested bounds, ReDoS shapes, back-references) are
// compiled and run on generated subjects up to 20,000 bytes (large patterns on short ones:
// the cost is subject length × automaton size). Compiling must give a matcher
// or a refusal, matching a boolean or (back-references only) RegexLimitError — never another
// exception, never a hang. Seeded; PMDASH_FUZZ_ITERATIONS sets the count (unit run: 300).
import { describe, expect, it } from 'vitest';
import { compileRegex, RegexLimitError } from '.';

const ITERATIONS = Number(process.env.PMDASH_FUZZ_ITERATIONS ?? 300);
const SEED = 0x5e9e7;

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

describe('regular-expression fuzzing', () => {
  it(`compiles and runs ${ITERATIONS} generated patterns without an uncaught exception`, () => {
    const r = rng(SEED);
    const int = (n: number): number => Math.floor(r() * n);
    const pick = <T,>(xs: readonly T[]): T => xs[int(xs.length)];
    const atoms = ['a', 'b', 'x', '.', '*', '+', '?', '|', '(', ')', '(?:', '[', ']', '[^a]', '^', '$', '{', '}', ',', '1', '3', '-', '\\', '\\1', '\\2', '\\b', '\\w', '\\d', '[[:alpha:]]', 'é', '\n'];
    let compiled = 0;
    for (let it = 0; it < ITERATIONS; it++) {
      let p: string;
      switch (int(8)) {
        case 0: {
          const d = 1 + int(5000);
          p = `${'('.repeat(d)}${pick(['a', 'a|b', '.*', ''])}${')'.repeat(r() < 0.9 ? d : int(d))}`;
          break;
        }
        case 1:
          p = pick(['y', '.', '[ab]', 'é']).repeat(1 + int(20_000));
          break;
        case 2:
          p = `(${pick(['a', '.', 'a|b'])}{${int(300)},${int(300)}}){${int(100)}}`;
          break;
        case 3:
          p = pick(['^(.*)*Q$', '^(.|.)*Q$', '(a*)*b', '(x+x+)+y', '^(.*)\\1$', '(a|b)*\\1(.)\\2', '((a*)*)*$']);
          break;
        default:
          p = Array.from({ length: int(16) }, () => pick(atoms)).join('');
      }
      const dialect = r() < 0.5 ? 'ere' : 'pcre';
      const where = `iteration ${it} (seed ${SEED}) ${dialect} ${JSON.stringify(p.slice(0, 80))}`;
      let re;
      try {
        re = compileRegex(p, dialect);
      } catch (e) {
        throw new Error(`${where}: compile threw ${String(e)}`, { cause: e });
      }
      if (!re.ok) {
        expect(re.message, where).not.toBe('');
        continue;
      }
      compiled++;
      for (let k = 0; k < 3; k++) {
        // Matching costs subject × automaton size: long subjects for small patterns only.
        const len = pick(p.length > 100 || p.includes('{') ? [0, 1, 5, 40, 200] : [0, 1, 5, 40, 2000, 20_000]);
        let s = '';
        const alphabet = pick(['ab', 'x', 'abxQ \n', 'aé1_']);
        for (let i = 0; i < len; i++) s += alphabet[int(alphabet.length)];
        try {
          expect(typeof re.regex.test(s)).toBe('boolean');
        } catch (e) {
          if (!(e instanceof RegexLimitError)) throw new Error(`${where} on ${len} bytes: ${String(e)}`, { cause: e });
        }
      }
    }
    expect(compiled).toBeGreaterThan(ITERATIONS / 4);
  }, 600_000);
});
