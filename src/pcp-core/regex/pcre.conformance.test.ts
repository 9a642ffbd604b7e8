// The 'pcre' dialect (view-file and chart-editor instance patterns) against PCRE2 with
// PCRE2_UTF, as pmchart's QRegularExpression compiles them (test/oracle/pcre2-regex.py):
// a pattern PCRE2 refuses is refused; one both accept matches the same subjects; one only
// PCRE2 accepts must be a feature the automaton cannot run, refused as "not supported".
import { describe, expect, it } from 'vitest';
import { runDerivedOracle, seededRandom } from '../../../test/derived/oracle';
import { compileRegex } from '.';

const TABLE = [
  '^lo|^gif|^sl|^sit|^stf|^tun|^wlt|^virbr|^vnet|^vmnet|^MS TCP Loopback interface', '[\\\\/](pmcd |pmcd$)', '[\\\\/]pmda[a-z]', '/dev/shm|/dev$', 'd[ab]', '^sd', '0$',
  '\\d+', '\\D', '\\w+\\W', '\\s', '\\S+', '\\bsd', 'a\\B', '(?:ab)+', 'a+?b', 'a*?$', 'a{2}', 'a{2,}', 'a{,2}', 'a{x', 'x{1,2', '{1}', 'a{2,1}', '\\.', '\\-', '\\x41',
  '\\t', '[\\d.]+', '[^\\d]', '[a\\-z]', '[\\w-]', '[]a]', '[^]a]', '[a-]', '[[:alpha:]]+', '[[:nope:]]', '(a)\\1', '(a|b)\\1', '\\1', '(?=a)', '(?!a)', '(?<=a)b', '(?<n>a)',
  '(?i)a', 'a++', 'a*+', '^$', '$', '^.$', '.', 'a.c', '^abc$', 'abc\\Z', '\\Aabc', 'abc\\z', '\\q', '\\', '(', ')', 'a)', '*', 'a**', '[z-a]', '[a', 'a|', '|a', '()', '(|a)b',
];
const SUBJECTS_BASE = ['', 'a', 'aa', 'aaa', 'ab', 'abc', 'abc\n', 'a\nc', 'sda', 'sdb', 'sr0', 'lo', 'eth0', 'virbr0', '/dev', '/dev/shm', '/home', '/usr/bin/pmcd', '/x/pmdalinux',
  '12', 'v1.2', 'a{x', 'A', ' ', '-', ']', 'é', 'éa', 'a b', 'a_b', 'x\\y', '\t'];

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

const PATTERN_ALPHABET = ['a', 'b', 'a', 'b', '.', '*', '+', '?', '|', '(', ')', '(?:', '[', ']', '^', '$', '{', '}', ',', '1', '2', '-', '\\d', '\\w', '\\s', '\\b', '\\.', '[^a]', '\\1', 'é', ' '];
const SUBJECT_ALPHABET = ['a', 'b', 'a', 'b', ' ', '.', '1', 'é', '-', '_', '\n'];

describe("compileRegex('pcre') agrees with PCRE2 (QRegularExpression)", () => {
  it('refuses, accepts and matches as PCRE2 does, or says what it does not support', async () => {
    const patterns = [...new Set([...TABLE, ...randomStrings(61, 3000, PATTERN_ALPHABET, 8)])];
    const subjects = [...new Set([...SUBJECTS_BASE, ...randomStrings(62, 50, SUBJECT_ALPHABET, 9)])];
    const theirs = await runDerivedOracle<Array<{ error: boolean; matches: boolean[] }>>('pcre2-regex.py', { patterns, subjects });
    const mismatches: string[] = [];
    let unsupported = 0;
    patterns.forEach((p, i) => {
      const r = compileRegex(p, 'pcre');
      const t = theirs[i];
      if (!r.ok) {
        if (t.error) return;
        if (/not supported/.test(r.message)) unsupported++;
        else mismatches.push(`${JSON.stringify(p)}: ours refused (${r.message}), PCRE2 accepts`);
        return;
      }
      if (t.error) {
        mismatches.push(`${JSON.stringify(p)}: ours accepted, PCRE2 refuses`);
        return;
      }
      // The first differing subject per pattern.
      const k = subjects.findIndex((s, j) => r.regex.test(s) !== t.matches[j]);
      if (k >= 0) mismatches.push(`${JSON.stringify(p)} on ${JSON.stringify(subjects[k])}: PCRE2 ${t.matches[k]}`);
    });
    expect(mismatches.slice(0, 40)).toEqual([]);
    expect(unsupported).toBeLessThan(patterns.length / 20);
  });
});
