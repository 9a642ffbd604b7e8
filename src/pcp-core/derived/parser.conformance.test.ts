// Syntax checking against libpcp 6.0.3: every expression is registered with
// pmRegisterDerivedMetric (python3-pcp) and with pmdash's parser, and the returned message —
// first line, expression, caret line, reason — must be the same text. Cases are generated
// systematically from well-formed expressions covering the whole grammar: every prefix at a
// token boundary, every token deleted, and tokens from a pool inserted and substituted at
// every position (a seeded sample of them), plus a table of hand-picked edge cases.
import { describe, expect, it } from 'vitest';
import { runDerivedOracle, seededRandom } from '../../../test/derived/oracle';
import { Lexer, type Token } from './lexer';
import { formatRegisterError } from './messages';
import { parseExpression } from './parser';

const BASES = [
  'disk.dev.read + disk.dev.write * 2 - 1.5 / hinv.ncpu',
  'rate(disk.dev.read) > 0 && delta(disk.dev.write) <= 10 || !(a.b != 3)',
  'mkconst(1, type=u64, semantics=counter, units="Kbyte/sec") >= mkconst(2.5, type="double")',
  'rescale(disk.dev.read_bytes, "Mbyte/hour") == scalar(disk.dev.read[sda])',
  'matchinst(!/^sd[a-c]$/, disk.dev.read) < matchinst(/x/, a.b + 1)',
  'hinv.ncpu > 1 ? disk.dev.read : disk.dev.write ? 1 : 2',
  '(a.b + 1)[x y] - -3 * -(c.d)',
  'avg(a.b) + count(a.b) + max(a.b) - min(a.b) + sum(a.b) + instant(a.b) + defined(x.y)',
  'anon(PM_TYPE_U64) + anon(PM_TYPE_DOUBLE)',
  'mkconst(7, units="count x 10^3 / sec", semantics=instant, type=32)',
];

const POOL = ['+', '-', '*', '/', '(', ')', ',', '?', ':', '!', '=', '==', '<', '&&', '||', '[x]', '/p/', '"s"', '1', '1.5', 'a.b', 'sum(', 'mkconst(', 'rescale(', 'matchinst(', 'scalar(', 'type', 'units', '&', '#', '4294967296'];

const EDGES = [
  '', ' ', '\t', 'a.b\t+', '((a.b)', 'a.b))', '(((', ')))', '1 ? 2', '1 ? 2 :', '? 1', ': 1', '! ', '- ', '--1', '!!a', 'a.b[', 'a.b[x', '"abc', 'mkconst(', 'mkconst(1,',
  'mkconst(1, type', 'mkconst(1, type=', 'mkconst(1.5, type=u64)', 'mkconst(1.5, type=float)', 'mkconst(1, units=)', 'mkconst(1, units="Kbyte/", type=u32)', 'mkconst(1, semantics="")',
  'rescale(', 'rescale(a.b', 'rescale(a.b,', 'rescale(a.b, "")', 'rescale(a.b, "count x 10^8")', 'rescale(a.b, "space-3 / time-2")',
  'matchinst(', 'matchinst(/', 'matchinst(/x', 'matchinst(/x/', 'matchinst(/x/,', 'matchinst(/x/, a.b', 'matchinst(!', 'matchinst(!a', 'matchinst(a.b, /x/)',
  'matchinst(/*x/, a)', 'matchinst(/x{2,1}/, a)', 'matchinst(/(x/, a)', 'matchinst(/x)/, a)', 'matchinst(/[[:nope:]]/, a)', 'matchinst(/[z-a]/, a)', 'matchinst(/x\\\\/, a)',
  'matchinst(/x{/, a)', 'matchinst(/x{1,2,3}/, a)', 'matchinst(/x{99999}/, a)', 'matchinst(/a|*b/, a)', 'matchinst(/[[.ab.]]/, a)', 'matchinst(/()|a||/, a)',
  'scalar(', 'scalar()', 'defined(', 'defined()', 'defined(a.b', 'defined(1)', 'sum()', 'sum(1)', 'sum(a.b', 'count(', 'delta((a.b))', 'rate (a.b)',
  'a.b c.d', 'a.b 1', '1 a.b', 'a.b(', 'a.b)', 'a.b,', 'a.b:', 'a.b ?', 'a.b =', 'a.b ==', 'a.b <', 'a.b <=', 'a.b >', 'a.b >=', 'a.b !=', 'a.b &&', 'a.b ||', 'a.b !',
  '+ 1', '* 1', '/ 1', '< 1', '<= 1', '== 1', '>= 1', '> 1', '!= 1', '&& 1', '|| 1', ', 1', '= 1', '@', "'x'", '\\', 'a.b | c.d', '9a.b', 'a.b.c.', '2..', '1.2.3', '.',
  'semantics', 'units(1)', 'type(a.b)', 'avg (a.b)', 'MAX(a.b)', 'a.b [x]', 'a.b[x] [y]', '(a.b)[x][y]', '(a.b) [x]', '1[x]',
  'anon(PM_TYPE_32', 'anon(1)', 'anon()',
];

interface Case {
  readonly name: string;
  readonly expr: string;
}

function tokens(text: string): Token[] {
  const lx = new Lexer(text);
  const out: Token[] = [];
  for (let i = 0; i < 200; i++) {
    const t = lx.next();
    if (t.kind === 'EOS' || t.kind === 'ERROR') break;
    out.push(t);
  }
  return out;
}

// libpcp 6.0.3 crashes on anon() of anything but a PM_TYPE_ name: those are not sent.
const crashesLibpcp = (text: string): boolean => /anon\(\s*(?!PM_TYPE_(32|U32|64|U64|FLOAT|DOUBLE)\s*\))[A-Za-z][A-Za-z0-9_.]*\s*\)/.test(text);

function generate(): Case[] {
  const rnd = seededRandom(20240605);
  const texts = new Set<string>([...BASES, ...EDGES]);
  for (const base of BASES) {
    const toks = tokens(base);
    for (const t of toks) {
      texts.add(base.slice(0, t.span.end));
      texts.add(base.slice(0, t.span.start) + base.slice(t.span.end));
    }
    for (let k = 0; k < 40; k++) {
      const t = toks[Math.floor(rnd() * toks.length)];
      const p = POOL[Math.floor(rnd() * POOL.length)];
      texts.add(`${base.slice(0, t.span.start)}${p} ${base.slice(t.span.start)}`);
      texts.add(`${base.slice(0, t.span.start)}${p}${base.slice(t.span.end)}`);
    }
  }
  return [...texts].filter((t) => !crashesLibpcp(t)).map((expr, i) => ({ name: `syn.m${i}`, expr }));
}

function ours(c: Case): { status: number; message: string | null } {
  const r = parseExpression(c.expr);
  if (r.ok) return { status: 0, message: null };
  return { status: -1, message: formatRegisterError(c.name, c.expr, r.error.position, r.error.message) };
}

describe('syntax errors match pmRegisterDerivedMetric', () => {
  const cases = generate();

  it(`generates a broad case set (${cases.length} expressions)`, () => {
    expect(cases.length).toBeGreaterThan(400);
    expect(cases.filter((c) => !parseExpression(c.expr).ok).length).toBeGreaterThan(300);
  });

  it('every message is identical', async () => {
    const theirs = await runDerivedOracle<Array<{ status: number; message: string | null }>>('derived-syntax.py', cases.map((c) => [c.name, c.expr]));
    expect(theirs.length).toBe(cases.length);
    const mismatches = cases
      .map((c, i) => ({ expr: c.expr, ours: ours(c), libpcp: theirs[i] }))
      .filter((m) => m.ours.status !== m.libpcp?.status || m.ours.message !== m.libpcp.message);
    expect(mismatches).toEqual([]);
  });
});
