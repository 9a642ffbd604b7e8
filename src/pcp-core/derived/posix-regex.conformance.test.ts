// matchinst()'s regular expressions against glibc: each pattern is compiled by regcomp with
// REG_EXTENDED|REG_NOSUB (test/oracle/posix-regex.py) and by pmdash's translator; the error
// text (regerror) must be the same, and for patterns that compile, whether each of a set of
// instance-like names matches. Patterns come from a table of ERE features and from seeded
// random strings over the ERE alphabet.
import { describe, expect, it } from 'vitest';
import { runDerivedOracle, seededRandom } from '../../../test/derived/oracle';
import { compilePosixEre } from './posix-regex';

const TABLE = [
  'sda', '^sd[a-c]$', '^sd[^a-c]', 'sd.', '^s.*a$', 'a|b', '(a|b)c', 'a+', 'a*b', 'a?c', 'a{2}', 'a{1,}', 'a{,2}', 'a{0}', 'x{1}{2}', 'a**', '()', '(|a)', 'a||b', 'a|', '|a',
  '[[:digit:]]+', '[[:alpha:]][[:alnum:]_]*', '[[:space:]]', '[[:upper:]]', '[^[:lower:]]', '[]a]', '[^]a]', '[a-]', '[-a]', '[%--]', '[[.a.]]', '[[=a=]]', '[[.-.]a]',
  '\\.', 'a\\|b', '\\(x\\)', '\\w+', '\\W', '\\s', '\\S', '\\bsd', 'a\\b', '\\<sd', 'a\\>', '\\`s', 'a\\\'', '(a)\\1', '\\1', 'a)', ')', '}', 'a}', '^*', '*a', '+a', '?a', '{1}',
  'a|*b', '(*a)', '(a', '[a', '[[:alpha:]', '[[:nope:]]', '[z-a]', '[a-z-0]', '[[:alpha:]-z]', '[[.ab.]]', 'a{', 'a{x', 'a{1', 'a{1,', 'a{2,1}', 'a{1,2,3}', 'a{}', 'a{x}',
  'a{99999}', 'a{32767}', 'a{32768}', 'a\\', '\\', 'a^b', '$a', 'a$b', '^$', '$', '^', 'a{,}', '0001', '^[0-9]{4}', 'e(th|n)[0-9]', '^(sd|hd)[a-z]+$', 'x*y*z*', '.',
  '[[:punct:]]', '[[:xdigit:]]+', '[[:cntrl:]]', '[[:print:]]', '[[:graph:]]', '[[:blank:]]', 'A', '[A-Z]', 'SDA',
];
const SUBJECTS = ['sda', 'sdb', 'sdd', 'sde', 'sr0', 'eth0', 'en1', 'lo', '0001', '0002', '1', 'a', 'aa', 'ab', 'abc', 'ac', 'b', 'bc', 'c', 'x', 'xyz', '', ' ', 'a b', 'a.b', 'a]', '-',
  '%', 'A', 'SDA', 'hda1', 'a)', '}', 'a}', 'x\\y', '(a)', 'a|b', 'cpu0', 'node12', 'A_1', '\t'];

function random(n: number): string[] {
  const rnd = seededRandom(77);
  const alphabet = ['a', 'b', 's', 'd', '0', '1', '.', '*', '+', '?', '|', '(', ')', '[', ']', '^', '$', '{', '}', ',', '-', '\\', ':', '=', '2'];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = 1 + Math.floor(rnd() * 10);
    let p = '';
    for (let k = 0; k < len; k++) p += alphabet[Math.floor(rnd() * alphabet.length)];
    out.push(p);
  }
  return out;
}

describe('POSIX ERE translation matches glibc regcomp/regexec', () => {
  it('compiles, refuses and matches as glibc does', async () => {
    const patterns = [...new Set([...TABLE, ...random(2000)])];
    const theirs = await runDerivedOracle<Array<{ error: string | null; matches: boolean[] }>>('posix-regex.py', { patterns, subjects: SUBJECTS });
    const mismatches: string[] = [];
    patterns.forEach((p, i) => {
      const t = theirs[i];
      const r = compilePosixEre(p);
      const ours = r.ok ? { error: null, matches: SUBJECTS.map((s) => r.regex.test(s)) } : { error: r.message, matches: [] };
      if (JSON.stringify(ours) !== JSON.stringify(t)) mismatches.push(`${JSON.stringify(p)}: ${JSON.stringify(ours)} vs ${JSON.stringify(t)}`);
    });
    expect(mismatches).toEqual([]);
    expect(theirs.filter((t) => t.error === null).length).toBeGreaterThan(150);
    expect(theirs.filter((t) => t.error !== null).length).toBeGreaterThan(100);
  });
});
