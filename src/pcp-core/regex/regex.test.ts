import { describe, expect, it } from 'vitest';
import { compileRegex } from '.';
import type { RegexMatcher } from '.';

function ere(p: string): RegexMatcher {
  const r = compileRegex(p, 'ere');
  if (!r.ok) throw new Error(`${p}: ${r.message}`);
  return r.regex;
}
function pcre(p: string): RegexMatcher {
  const r = compileRegex(p, 'pcre');
  if (!r.ok) throw new Error(`${p}: ${r.message}`);
  return r.regex;
}

describe('compileRegex (ere)', () => {
  it('accepts groups nested 3,000 and 20,000 deep (no recursion in parser or compiler)', () => {
    for (const depth of [3000, 20_000]) {
      const re = ere(`${'('.repeat(depth)}x${')'.repeat(depth)}`);
      expect(re.test('axb')).toBe(true);
      expect(re.test('ab')).toBe(false);
    }
    const alt = ere(`${'(a|'.repeat(20_000)}b${')'.repeat(20_000)}`);
    expect(alt.test('b')).toBe(true);
    expect(alt.test('c')).toBe(false);
  });

  it('accepts a 40,000-character literal', () => {
    const lit = 'y'.repeat(40_000);
    const re = ere(lit);
    expect(re.test(`/${lit}/`)).toBe(true);
    expect(re.test(lit.slice(1))).toBe(false);
  });

  it('answers the ReDoS patterns on long names (no backtracking)', () => {
    const long = `/${'x'.repeat(100_000)}`;
    for (const p of ['^(.*)*Q$', '^(.|.)*Q$', '(a*)*b', '^(a|a)*$', '(x+x+)+y']) {
      const re = ere(p);
      expect(re.test(long)).toBe(false);
      expect(re.test(`${long}Q`)).toBe(p.includes('Q'));
    }
    expect(ere('^(a|a)*$').test('a'.repeat(100_000))).toBe(true);
    expect(ere('(x+x+)+y').test(`${'x'.repeat(50_000)}y`)).toBe(true);
  });

  it('keeps matching correctly when the DFA cache is dropped', () => {
    // (a|b)*a(a|b){12}: 2^13 DFA states, past the 2048-state cache.
    const re = ere('^(a|b)*a(a|b){12}$');
    let s = '';
    let x = 12345;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      s += x & 0x10000 ? 'a' : 'b';
    }
    const expected = s[s.length - 13] === 'a';
    expect(re.test(s)).toBe(expected);
    expect(re.test(`${s.slice(0, -13)}a${s.slice(-12)}`)).toBe(true);
    expect(re.test(`${s.slice(0, -13)}b${s.slice(-12)}`)).toBe(false);
  });

  it('refuses with regerror words, and bounds the automaton', () => {
    expect(compileRegex('a{1,99999}', 'ere')).toEqual({ ok: false, message: 'Regular expression too big' });
    expect(compileRegex('(', 'ere')).toEqual({ ok: false, message: 'Unmatched ( or \\(' });
    expect(compileRegex('((a{32767}){32767}){32767}', 'ere')).toEqual({ ok: false, message: 'Memory exhausted' });
    expect(ere('(a{1000}){1000}').test('a'.repeat(999))).toBe(false);
  });

  it('matches bytes as glibc does in the C locale', () => {
    expect(ere('^.$').test('é')).toBe(false);
    expect(ere('^..$').test('é')).toBe(true);
    expect(ere('^é+$').test('é')).toBe(true);
    expect(ere('\\bdev\\b').test('/dev/sda')).toBe(true);
    expect(ere('\\<sd').test('xsda')).toBe(false);
  });

  it('matches back-references (a GNU extension) by a bounded search', () => {
    expect(ere('(a)\\1').test('xaay')).toBe(true);
    expect(ere('(a|b)*\\1').test('ab')).toBe(false);
    expect(ere('^(.*)\\1$').test('abcabc')).toBe(true);
    expect(ere('^(.*)\\1$').test('abcab')).toBe(false);
  });
});

describe('compileRegex (pcre, view-file patterns)', () => {
  it('reads the standard views\' patterns and PCRE escapes', () => {
    const notPhysical = pcre('^lo|^gif|^sl|^sit|^stf|^tun|^wlt|^virbr|^vnet|^vmnet|^MS TCP Loopback interface');
    expect(notPhysical.test('lo')).toBe(true);
    expect(notPhysical.test('eth0')).toBe(false);
    expect(pcre('[\\\\/](pmcd |pmcd$)').test('/usr/libexec/pcp/bin/pmcd')).toBe(true);
    expect(pcre('[\\\\/]pmda[a-z]').test('/var/lib/pcp/pmdas/linux/pmdalinux')).toBe(true);
    expect(pcre('\\d+\\.\\d').test('v1.2')).toBe(true);
    expect(pcre('a{x').test('a{x')).toBe(true);
    expect(pcre('(?:ab)+?c').test('ababc')).toBe(true);
    expect(pcre('a{,2}').test('a{,2}')).toBe(true);
    expect(pcre('^a.c$').test('a\nc')).toBe(false);
    expect(pcre('^abc$').test('abc\n')).toBe(true);
  });

  it('refuses what the automaton cannot run, with the reason', () => {
    expect(compileRegex('(?=a)', 'pcre').ok).toBe(false);
    expect(compileRegex('a++', 'pcre').ok).toBe(false);
    expect(compileRegex('(', 'pcre')).toEqual({ ok: false, message: 'missing closing parenthesis' });
    expect(compileRegex(')', 'pcre').ok).toBe(false);
    expect(compileRegex('*a', 'pcre').ok).toBe(false);
  });
});

describe('back-reference bound', () => {
  it('past MAX_BACKREF_CONFIGS, a matchinst match fails with a PmError (not an internal error)', async () => {
    const { compilePosixEre } = await import('../derived/posix-regex');
    const { isPmError } = await import('../errors');
    const long = 'ab'.repeat(2000);
    const m = compilePosixEre('^(.*)(.*)\\1\\2x$');
    if (!m.ok) throw new Error(m.message);
    let caught: unknown;
    try {
      m.regex.test(long);
    } catch (e) {
      caught = e;
    }
    expect(isPmError(caught)).toBe(true);
  });
});
