// `pmdash values` table cells against pmval's, for pmval's own flags: -f (precision), -w
// (width), -X/-XX (full timestamps), -A (align), -O (origin), -S/-T, -U (records, not
// interpolated), and infinities/NaN from a derived division by zero. pmval prints one
// metric per run; each of its rows (time text and every instance's value text) must appear
// byte for byte in pmdash's table, at the same times, and pmdash has no other rows with
// values. --json keeps infinities and NaN apart from "no value".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runTool, scratchDir } from '../../test/oracle';
import { main } from './main';

const ENV = { PCP_DERIVED_CONFIG: '', TZ: 'UTC' };

async function pmdash(argv: readonly string[]): Promise<string> {
  let out = '';
  let err = '';
  const saved = { ...process.env };
  Object.assign(process.env, ENV);
  try {
    const status = await main(['values', ...argv], { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
    if (status !== 0) throw new Error(`pmdash values ${argv.join(' ')} exited ${status}: ${err}`);
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
  return out;
}

async function pmval(argv: readonly string[]): Promise<string> {
  const r = await runTool('pmval', argv, { env: ENV });
  if (r.status !== 0) throw new Error(`pmval ${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** Time text → instance ("" singular) → value text. */
type Rows = Map<string, Map<string, string>>;

const TIME = /^((?:\w{3} \w{3} [ \d]\d )?\d\d:\d\d:\d\d\.\d+(?: \d{4})?)/;

/** pmval's output for one metric: labels at fixed columns (12, 31 or 34 characters of time, then `cols`+1 each). */
function parsePmval(text: string, cols: number, timeWidth: number): Rows {
  const rows: Rows = new Map();
  let labels: string[] = [''];
  for (const line of text.split('\n')) {
    const t = TIME.exec(line);
    if (!t) {
      // The instance label line: blank time, then one `cols`-wide label per instance.
      if (/^ {12}/.test(line) && line.trim() !== '') {
        labels = [];
        for (let p = timeWidth; p < line.length; p += cols + 1) labels.push(line.slice(p, p + cols + 1).trim());
      }
      continue;
    }
    const rest = line.slice(t[1].length);
    if (/No values available|Archive logging suspended/.test(rest)) continue;
    const cells = rest.trim().split(/\s+/);
    expect(cells.length, `pmval row ${line}`).toBe(labels.length);
    rows.set(t[1], new Map(cells.map((c, i) => [labels[i], c])));
  }
  return rows;
}

/** pmdash's table: one metric's columns (its instance names from the second heading line). */
function parsePmdash(text: string, metric: string): Rows {
  const lines = text.split('\n');
  const blank = lines.indexOf('');
  const head1 = lines[blank + 1];
  const hasInst = !TIME.test(lines[blank + 2] ?? '');
  const split = (l: string, from: number): string[] => l.slice(from).trim().split(/\s{2,}/);
  const first = lines.slice(blank + 1).find((l) => TIME.test(l));
  const timeWidth = first ? (TIME.exec(first)?.[1].length ?? 0) : 0;
  const names = split(head1, timeWidth);
  // Second heading: right-aligned under the first, so split by the first line's column ends.
  const ends: number[] = [];
  let p = timeWidth;
  for (const n of names) {
    p = head1.indexOf(n, p) + n.length;
    ends.push(p);
  }
  const column = (l: string, k: number): string => l.slice(k === 0 ? timeWidth : ends[k - 1], ends[k]).trim();
  const insts = names.map((_, k) => (hasInst ? column(lines[blank + 2], k) : ''));
  const rows: Rows = new Map();
  for (const line of lines.slice(blank + (hasInst ? 3 : 2))) {
    const t = TIME.exec(line);
    if (!t) continue;
    const cells = new Map<string, string>();
    names.forEach((n, k) => {
      const c = column(line, k);
      if (n === metric && c !== '?') cells.set(insts[k], c);
    });
    if (cells.size > 0) rows.set(t[1], cells);
  }
  return rows;
}

/** pmval's default column width per type (howide). */
const WIDTH: Record<string, number> = { FLOAT: 13, DOUBLE: 21, U32: 11, '32': 11, U64: 21, '64': 21 };

interface Case {
  readonly label: string;
  readonly metric: string;
  readonly type: string;
  readonly args: readonly string[];
  readonly derived?: string;
  /** A rate: pmval's -s N prints N rates (N + 1 fetches), pmdash's -s N fetches N times. */
  readonly rate?: boolean;
}

async function compare(c: Case): Promise<void> {
  const w = c.args.indexOf('-w');
  const cols = w >= 0 ? Number(c.args[w + 1]) : (WIDTH[c.type] ?? 21);
  const x = c.args.filter((a) => /^-X+$/.test(a)).reduce((n, a) => n + a.length - 1, 0);
  const timeWidth = x > 1 ? 34 : x === 1 ? 31 : 12;
  const s = c.args.indexOf('-s');
  const pmvalArgs = c.rate && s >= 0 ? c.args.map((a, i) => (i === s + 1 ? String(Number(a) - 1) : a)) : c.args;
  const theirs = parsePmval(await pmval([...(c.derived ? ['--derived', c.derived] : []), ...pmvalArgs, c.metric]), cols, timeWidth);
  const ours = parsePmdash(await pmdash([...(c.derived ? ['-c', c.derived] : []), ...c.args, c.metric]), c.metric);
  expect(theirs.size, 'pmval printed values').toBeGreaterThan(0);
  expect(Object.fromEntries([...ours].map(([t, m]) => [t, Object.fromEntries(m)]))).toEqual(Object.fromEntries([...theirs].map(([t, m]) => [t, Object.fromEntries(m)])));
}

const A = (name: string): string => `${QA_ARCHIVES}/${name}`;
const dir = scratchDir('pmdash-values-pmval-');
const DIV0 = join(dir, 'div0.conf');
writeFileSync(
  DIV0,
  ['my.inf = hinv.ncpu / 0', 'my.ninf = -hinv.ncpu / 0', 'my.nan = hinv.ncpu / 0 - hinv.ncpu / 0', 'my.load = kernel.all.load / 0', 'my.nload = kernel.all.load / 0 - kernel.all.load / 0', 'my.zero = 0 * kernel.all.load', ''].join('\n'),
);

const CASES: Case[] = [
  { label: '-f 2 on a FLOAT indom', metric: 'kernel.all.load', type: 'FLOAT', args: ['-a', A('20180606'), '-s', '20', '-t', '37', '-f', '2'] },
  { label: '-f 0 -w 9 on a counter rate', metric: 'kernel.all.cpu.user', type: 'U64', args: ['-a', A('20180606'), '-s', '12', '-t', '5min', '-f', '0', '-w', '9'], rate: true },
  { label: '-f 5 -w 30 on disk rates', metric: 'disk.dev.read_bytes', type: 'U32', args: ['-a', A('20180416.10.00'), '-s', '15', '-t', '90', '-f', '5', '-w', '30'], rate: true },
  { label: 'default printreal on rates', metric: 'kernel.all.pswitch', type: 'U64', args: ['-a', A('20180416.10.00'), '-s', '30', '-t', '7.3'], rate: true },
  { label: '-X', metric: 'kernel.all.load', type: 'FLOAT', args: ['-a', A('20180606'), '-s', '5', '-t', '13.7', '-X'] },
  { label: '-XX -A 1min -T', metric: 'kernel.all.load', type: 'FLOAT', args: ['-a', A('20180606'), '-XX', '-A', '1min', '-T', '+10min', '-t', '2min'] },
  { label: '-A 10sec -S', metric: 'hinv.ncpu', type: 'U32', args: ['-a', A('20180416.10.00'), '-S', '+7.25sec', '-A', '10sec', '-s', '6', '-t', '10sec'] },
  { label: '-O within -S/-T', metric: 'kernel.all.load', type: 'FLOAT', args: ['-a', A('20180606'), '-S', '+5min', '-T', '+50min', '-O', '+20min', '-t', '3min'] },
  { label: '-O -A', metric: 'mem.util.free', type: 'U64', args: ['-a', A('20180606'), '-O', '+1hour', '-A', '30min', '-s', '4', '-t', '30min'] },
  { label: '-U (records)', metric: 'kernel.all.cpu.user', type: 'U64', args: ['-U', A('20180606'), '-s', '40'], rate: true },
  { label: '-U raw with marks', metric: 'network.tcpconn.close', type: 'U32', args: ['-U', A('interpmark'), '-r'] },
  { label: '-U rates across marks', metric: 'network.tcpconn.close', type: 'U32', args: ['-U', A('interpmark')] },
  { label: '-U -i', metric: 'kernel.all.load', type: 'FLOAT', args: ['-U', A('20180606'), '-s', '30', '-i', '"1 minute","15 minute"'] },
  { label: '-U -T', metric: 'kernel.all.load', type: 'FLOAT', args: ['-U', A('20180606'), '-T', '+30min', '-f', '3'] },
  { label: 'INF from a division by zero', metric: 'my.inf', type: 'DOUBLE', args: ['-a', A('20180606'), '-s', '4'], derived: DIV0 },
  { label: '-INF', metric: 'my.ninf', type: 'DOUBLE', args: ['-a', A('20180606'), '-s', '4'], derived: DIV0 },
  { label: 'NaN (inf - inf)', metric: 'my.nan', type: 'DOUBLE', args: ['-a', A('20180606'), '-s', '4'], derived: DIV0 },
  { label: 'INF per instance, -f 3', metric: 'my.load', type: 'DOUBLE', args: ['-a', A('20180606'), '-s', '4', '-f', '3'], derived: DIV0 },
  { label: 'NaN per instance, -f 1', metric: 'my.nload', type: 'DOUBLE', args: ['-a', A('20180606'), '-s', '4', '-f', '1'], derived: DIV0 },
  { label: 'NaN per instance', metric: 'my.nload', type: 'DOUBLE', args: ['-a', A('20180606'), '-s', '4'], derived: DIV0 },
  { label: 'zeros', metric: 'my.zero', type: 'FLOAT', args: ['-a', A('20180606'), '-s', '4'], derived: DIV0 },
];

describe('pmdash values cells match pmval', () => {
  for (const c of CASES) it(`${c.label}: ${c.metric}`, () => compare(c));
});

describe('pmdash values --json: infinities and NaN are not "no value"', () => {
  it('writes "Infinity", "-Infinity" and "NaN" where pmval prints INF, -INF and -nan.', async () => {
    const out = await pmdash(['--json', '-c', DIV0, '-a', A('20180606'), '-s', '2', 'my.inf', 'my.ninf', 'my.nan']);
    const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { values?: Record<string, Record<string, unknown>> });
    // The first sample has no value (an interpolated discrete metric before its first record).
    expect(lines[1].values).toEqual({ 'my.inf': { '': null }, 'my.ninf': { '': null }, 'my.nan': { '': null } });
    expect(lines[2].values).toEqual({ 'my.inf': { '': 'Infinity' }, 'my.ninf': { '': '-Infinity' }, 'my.nan': { '': 'NaN' } });
    const theirs = await Promise.all(['my.inf', 'my.ninf', 'my.nan'].map((m) => pmval(['--derived', DIV0, '-a', A('20180606'), '-s', '2', m])));
    expect(theirs.map((t) => t.trimEnd().split('\n').at(-1)?.trim().split(/\s+/).at(-1))).toEqual(['INF', '-INF', '-nan.']);
  });
});

describe('pmdash values cells match pmval on the live pmcd', () => {
  const LIVE = join(dir, 'live.conf');
  writeFileSync(LIVE, 'my.third = hinv.ncpu / 3\nmy.inf = hinv.ncpu / 0\nmy.ninf = -hinv.ncpu / 0\n');
  /** pmval's live rows carry no time: the lines after its "name:   value" header lines. */
  const pmvalCells = (text: string): string[] =>
    text
      .split('\n')
      .filter((l) => l.trim() !== '' && !/^[a-z]+: /.test(l))
      .map((l) => l.trim());
  it.each([
    ['my.third', ['-f', '4', '-w', '12']],
    ['my.third', ['-f', '0']],
    ['my.third', []],
    ['my.inf', []],
    ['my.inf', ['-f', '2']],
    ['my.ninf', []],
  ] as const)('%s %s', async (metric, flags) => {
    const common = ['-h', 'localhost', '-s', '3', '-t', '0.1', ...flags];
    const theirs = pmvalCells(await pmval(['--derived', LIVE, ...common, metric]));
    const ours = parsePmdash(await pmdash(['-c', LIVE, '-X', ...common, metric]), metric);
    expect(theirs).toHaveLength(3);
    expect([...ours.values()].map((m) => m.get(''))).toEqual(theirs);
  });
});

describe("pmdash values orders each metric's instance columns as pmval does", () => {
  /** pmval's instance label line: blank where a row has its time (as parsePmval finds it). */
  const pmvalLabels = (text: string, cols: number): string[] => {
    const line = text.split('\n').find((l) => /^ {12}/.test(l) && l.trim() !== '') ?? '';
    const labels: string[] = [];
    for (let p = 12; p < line.length; p += cols + 1) labels.push(line.slice(p, p + cols + 1).trim());
    return labels.filter((l) => l !== '');
  };
  /** pmdash's second heading line (instance names; cells are at least two spaces apart). */
  const pmdashLabels = (text: string): string[] => {
    const lines = text.split('\n');
    return (lines[lines.indexOf('') + 2] ?? '').trim().split(/\s{2,}/);
  };
  // kernel.all.load's records list 15 minute first; disk.dev's follow the id order already.
  it.each([
    ['kernel.all.load', '20180102', 'FLOAT'],
    ['kernel.all.load', '20180606', 'FLOAT'],
    ['disk.dev.read_bytes', '20180416.10.00', 'U32'],
  ] as const)('%s over %s', async (metric, archive, type) => {
    const args = ['-a', A(archive), '-s', '4'];
    const theirs = pmvalLabels(await pmval([...args, metric]), WIDTH[type] ?? 21);
    expect(theirs.length).toBeGreaterThan(1);
    expect(pmdashLabels(await pmdash([...args, metric]))).toEqual(theirs);
  });
});
