// The matcher against glibc: patterns compiled by regcomp(REG_EXTENDED|REG_NOSUB) in the C
// locale (test/oracle/posix-regex.py, libpcp's matchinst flags) and by compileRegex('ere');
// refusal texts must be equal and, for patterns that compile, match/no-match for every
// subject. Patterns: a table of GNU ERE features (anchors, word assertions, back-references,
// bytes of non-ASCII text, bounds) and seeded random ones; subjects: instance-like names and
// seeded random strings over the same alphabet.
import { describe, expect, it } from 'vitest';
import { runDerivedOracle, seededRandom } from '../../../test/derived/oracle';
import { compileRegex } from '.';

const TABLE = [
  '^(.*)*Q$', '^(.|.)*Q$', '(a*)*b', '^(a|a)*$', '(x+x+)+y', '\\bsd', 'a\\B', '\\Ba', '\\<a', 'b\\>', '^\\b', '\\B$', '\\`a', "a\\'", '^$', '$^', 'a^', '$a',
  '(a)\\1', '(a|b)*\\1', '(a*)*\\1b', '^(.*)\\1$', '(a)|\\1', '((a)|b)\\2', '(a*)\\1\\1', '([ab])\\1+', '(.)(.)\\2\\1', '((a)\\2)*', '(a)(b)?\\2',
  'é', '^.$', '^..$', '[é]', '[^é]', 'é+', '^[[:alpha:]]+$', '[[:upper:][:digit:]]', '[a-z]{2,3}', '(ab){2}', '(a|ab)(c|bcd)(d*)', 'x{0}y', 'x{0,0}', '(){3}',
  '(a{2}){3}', '(a{1,2}){2,3}$', '^(a?){3}a{3}$', '[]-a]', '[a-]+', '[[.].]]', '\\w+\\W', '\\s\\S', '(|a)+b', '(a|)+$', 'y{7}', '^/dev/(sd|vd)[a-z]$',
  '.^', 'a.^b', 'x$.', '^y', 'x$', '\\`y', '.\\`', 'x\\b.', '\n^y', 'x$\n', '(^|a)y', 'x$\n^y', '(x$)*\n', '(.)$\n\\1', '(\n)^\\1', '$\n', '\n^',
];

const SUBJECTS_BASE = ['', 'a', 'aa', 'aaa', 'aaaa', 'aaaaaa', 'ab', 'abab', 'aba', 'abba', 'abcabc', 'abcab', 'ba', 'b', 'bb', 'abcd', 'xyz', 'xxQ', 'Q', 'xQx',
  'sda', ' sda', 'xsda', 'a b', 'é', 'ée', 'aé', 'yyyyyyy', 'yyyyyy', '/dev/sda', '/dev/vdb1', 'A1', '_', ']', '-', 'a-', 'x\ny', 'xxxxxxxxxxxxxxxxxxxxxxxxQ', '\n', 'a\nb', '\n\n', 'x\n', 'x\nx\n', '\ny'];

function randomStrings(seed: number, n: number, alphabet: readonly string[], maxLen: number): string[] {
  const rnd = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = Math.floor(rnd() * (maxLen + 1));
    let s = '';
    for (let k = 0; k < len; k++) s += alphabet[Math.floor(rnd() * alphabet.length)];
    out.push(s);
  }
  return out;
}

const PATTERN_ALPHABET = ['a', 'b', 'a', 'b', '.', '*', '+', '?', '|', '(', ')', '(', ')', '[', ']', '^', '$', '{', '}', ',', '1', '2', '-', '\\', '\\1', '\\b', '\\<', '\\w', '[[:alpha:]]', 'é', ' ', '\n'];
const SUBJECT_ALPHABET = ['a', 'b', 'a', 'b', ' ', '.', '1', 'é', '-', '_', '\n'];

describe('compileRegex(ere) agrees with glibc regcomp/regexec', () => {
  it('refuses with the same words and matches the same subjects', async () => {
    const patterns = [...new Set([...TABLE, ...randomStrings(91, 3000, PATTERN_ALPHABET, 8)])];
    const subjects = [...new Set([...SUBJECTS_BASE, ...randomStrings(92, 60, SUBJECT_ALPHABET, 9)])];
    const theirs = await runDerivedOracle<Array<{ error: string | null; matches: boolean[] }>>('posix-regex.py', { patterns, subjects });
    const mismatches: string[] = [];
    patterns.forEach((p, i) => {
      const r = compileRegex(p, 'ere');
      const ours = r.ok ? { error: null, matches: subjects.map((s) => r.regex.test(s)) } : { error: r.message, matches: [] };
      const t = theirs[i];
      if (ours.error !== t.error) mismatches.push(`${JSON.stringify(p)}: ours ${ours.error} glibc ${t.error}`);
      else ours.matches.forEach((m, k) => {
        if (m !== t.matches[k]) mismatches.push(`${JSON.stringify(p)} on ${JSON.stringify(subjects[k])}: ours ${m} glibc ${t.matches[k]}`);
      });
    });
    expect(mismatches.slice(0, 40)).toEqual([]);
    expect(theirs.filter((t) => t.error === null).length).toBeGreaterThan(800);
  });
});
