// Parser case tables: the syntax-error vectors of derived-units-conversion.md §10.4 and §5
// (reason and caret column as PCP 6.0.3 prints them), the accepted forms, precedence and
// associativity. The same kinds of cases are compared with libpcp itself in
// parser.conformance.test.ts.
import { describe, expect, it } from 'vitest';
import type { Expr } from './ast';
import { formatConfigSyntaxError, formatRegisterError } from './messages';
import { parseExpression } from './parser';

function syntaxError(text: string): { col: number; reason: string | null } {
  const r = parseExpression(text);
  if (r.ok) throw new Error(`expected a syntax error for ${text}`);
  return { col: r.error.position, reason: r.error.message };
}

/** A compact rendering of the tree that shows grouping. */
function show(e: Expr): string {
  switch (e.kind) {
    case 'const':
      return e.text;
    case 'metric':
      return e.name;
    case 'binary':
      return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'unary':
      return `(${e.op}${show(e.operand)})`;
    case 'ternary':
      return `(${show(e.guard)} ? ${show(e.whenTrue)} : ${show(e.whenFalse)})`;
    case 'function':
      return `${e.fn}(${e.operand.name})`;
    case 'instance':
      return `${show(e.operand)}[${e.instance}]`;
    case 'matchinst':
      return `matchinst(${e.invert ? '!' : ''}/${e.pattern}/, ${show(e.operand)})`;
    case 'scalar':
      return `scalar(${show(e.operand)})`;
    case 'rescale':
      return `rescale(${show(e.operand)}, "${e.unitsText}")`;
    case 'anon':
      return `anon(${e.typeName})`;
  }
}

describe('syntax errors (§10.4)', () => {
  it.each([
    ['disk.dev.read + * 3', 16, 'Arithmetic expression expected to follow PLUS'],
    ['4rat(disk.dev.read)', 1, null],
    ['sum(disk.dev.read', 16, 'Metric name expected to follow sum('],
    ['disk.dev.read[sda', 13, 'unterminated instance name'],
    ['matchinst(/fo[o/, a.b)', 10, "bad regular expression: 'Unmatched [, [^, [:, [., or [='"],
    ['matchinst(/foo, a.b)', 10, 'unterminated pattern'],
    ['sum (a.b)', 5, "Unexpected '('"],
    ['( a.b', 4, "Unexpected initial '('"],
    ['a.b )', 4, "Unexpected ')'"],
    ['a.b = 1', 4, 'Arithmetic or relational or boolean operator expected to follow NAME'],
    ['a.b <> 1', 5, 'Arithmetic expression expected to follow LT'],
    ['a.b ? : 1', 6, 'Arithmetic expression expected to follow QUEST'],
    ['a.b &', 4, 'Illegal character'],
    ['a.b # comment', 4, 'Illegal character'],
    ['_a.b', 0, 'Illegal character'],
    ['type + 1', 0, null],
    ['1 2', 2, null],
    ['0x10', 1, null],
    ['1.5e3', 3, null],
    ['a.b[eth0] [eth1]', 10, null],
    ['mkconst(1)', 9, null],
    ['mkconst(1, TYPE=u64)', 11, null],
    ['mkconst(1, type=string)', 16, "Unrecognized value for type 'string'"],
    ['mkconst(1, semantics=rate)', 21, "Unrecognized value for semantics 'rate'"],
    ['mkconst(3, units=furlong)', 17, "Illegal units: 'unrecognized or duplicate base unit'"],
    ['rescale(a.b, count)', 13, 'Units string expected to follow rescale(<expr>,'],
    ['instant(a.b + 1)', 12, 'Metric name expected to follow instant('],
    ['count(a.b[x])', 9, 'Metric name expected to follow count('],
    ['4294967296 + disk.dev.read', 0, 'Constant value too large'],
    ['mkconst(1.5, type=u32)', 21, "Incompatible floating point constant and type 'U32'"],
    ['', -1, null],
    ['   ', 2, null],
  ])('%j → column %i, %j', (text, col, reason) => {
    expect(syntaxError(text)).toEqual({ col, reason });
  });
});

describe('accepted expressions (§10.4)', () => {
  it.each([
    '!0 > 1', '2.', '.5', 'a.b_c.d9', 'a..b', 'a.b.', 'a.9b', '(a.b)[x y]', 'a.b[x\\]y]', 'a.b[]',
    'mkconst(1, type="U64", semantics=COUNTER, units="count x 10^6")', 'mkconst(1,type=u64)', 'mkconst(1, units="")',
    'rescale(a.b, "")', 'scalar(a.b + 1)', 'defined(a.b)', 'anon(PM_TYPE_32)', 'matchinst(!/x/, a.b)',
    'matchinst(! /x/, a.b)', 'a && b || c', 'a.b == 1',
  ])('%j', (text) => {
    expect(parseExpression(text).ok).toBe(true);
  });
});

describe('precedence and associativity (§2.3)', () => {
  it.each([
    ['1 ? 0 : 1 ? 10 : 20', '((1 ? 0 : 1) ? 10 : 20)'],
    ['1 || 0 && 0', '((1 || 0) && 0)'],
    ['!a > b', '(!(a > b))'],
    ['!a && b', '((!a) && b)'],
    ['3 > 2 != 1', '((3 > 2) != 1)'],
    ['10 - 2 - 3', '((10 - 2) - 3)'],
    ['- 10 - 3', '((-10) - 3)'],
    ['2 + 3 * 4', '(2 + (3 * 4))'],
    ['-a*b', '(-(a * b))'],
    ['a>=b||b>c&&d!=e||f>g', '((((a >= b) || (b > c)) && (d != e)) || (f > g))'],
    ['a.b[x\\]y]', 'a.b[x]y]'],
    ['matchinst(/a\\/b/, x)', 'matchinst(/a/b/, x)'],
  ])('%j groups as %s', (text, shape) => {
    const r = parseExpression(text);
    expect(r.ok && show(r.expr)).toBe(shape);
  });
});

describe('scanner state (§2.1)', () => {
  it('keeps the mkconst tags as given, last one wins', () => {
    const r = parseExpression('mkconst(1, type=u32, type=64, units="Kbyte / sec", semantics=COUNTER)');
    expect(r.ok && r.expr.kind === 'const' && [r.expr.type, r.expr.sem, r.expr.units.dimSpace, r.expr.units.dimTime]).toEqual([2, 1, 1, -1]);
  });
  it('reads / as a pattern until matchinst(...) is reduced', () => {
    expect(syntaxError('matchinst(/x/, a / 2)')).toEqual({ col: 17, reason: 'unterminated pattern' });
    expect(parseExpression('matchinst(/x/, a) / 2').ok).toBe(true);
  });
  it('starts every parse afresh (libpcp 6.0.3 leaks matchinst state between calls)', () => {
    syntaxError('matchinst(/x/, a.b');
    expect(parseExpression('a.b / 2').ok).toBe(true);
  });
  it('refuses anon() of a non-numeric type instead of crashing', () => {
    expect(syntaxError('anon(PM_TYPE_STRING)')).toEqual({ col: 19, reason: 'type=PM_TYPE_STRING not allowed for anon()' });
  });
});

describe('message formats (§5)', () => {
  it('format A', () => {
    const r = parseExpression('disk.dev.read + * 3');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(formatRegisterError('my.m0', 'disk.dev.read + * 3', r.error.position, r.error.message)).toBe(
        'Error: pmRegisterDerivedMetric("my.m0", ...)\ndisk.dev.read + * 3\n                ^\nArithmetic expression expected to follow PLUS\n',
      );
    }
    expect(formatRegisterError('e', '', -1, null)).toBe('Error: pmRegisterDerivedMetric("e", ...)\n\n ^\n');
    expect(formatRegisterError('e', 'x y', 0, null)).toBe('Error: pmRegisterDerivedMetric("e", ...)\nx y\n^\n');
  });
  it('format B keeps the line length and its blanks', () => {
    const cases: Array<[string, string, number]> = [
      [' disk.dev.read + * 3', 'my.a', 17],
      [' sum (disk.dev.read)', 'my.b', 6],
      [' 4294967296 + disk.dev.read', 'my.c', 1],
      [' rescale(disk.dev.read, "furlongs")', 'my.d', 34],
      [' mkconst(1.5, type=u32)', 'my.e', 22],
      [' avg(disk.dev.read + 1)', 'my.f', 19],
      [' disk.dev.read && & 1', 'my.g', 18],
      [' 1.5e3 * disk.dev.read', 'my.h', 4],
    ];
    for (const [rhs, name, before] of cases) {
      const r = parseExpression(rhs.trimStart());
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      const text = formatConfigSyntaxError('se.conf', 1, name, rhs, r.error.position, r.error.message);
      const caretLine = text.split('\n')[2];
      expect(caretLine.length).toBe(rhs.length);
      expect(caretLine.indexOf('^')).toBe(before);
      expect(caretLine.replace('^', '').trim()).toBe('');
    }
  });
});

describe('depth limits', () => {
  it('fails as libpcp does when bison\'s 10000-entry stack is exhausted (no reason)', () => {
    expect(syntaxError('('.repeat(9997) + '1' + ')'.repeat(9997))).toEqual({ col: 9998, reason: null });
    expect(syntaxError('-'.repeat(9998) + '1').reason).toBeNull();
  });
  it('refuses trees deeper than the evaluator can walk, and takes long flat chains', () => {
    expect(syntaxError('-'.repeat(1500) + '1')).toEqual({ col: 0, reason: 'Expression nested too deeply (more than 1000 levels)' });
    expect(parseExpression('-'.repeat(999) + '1').ok).toBe(true);
    expect(parseExpression(Array(100000).fill('a.b').join(' * ')).ok).toBe(false);
    expect(parseExpression(Array(900).fill('a.b').join(' * ')).ok).toBe(true);
  });
});
