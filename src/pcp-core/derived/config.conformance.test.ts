// Configuration files against libpcp 6.0.3's pmLoadDerivedConfig: the same files (written to a
// scratch directory) are loaded by python3-pcp and by pmdash, and everything libpcp prints —
// syntax errors in format B with their caret lines, loader errors and warnings, line numbers
// after multi-line values — must be the same text; so must the return status (count or
// -errno), the PMIDs of the metrics that were registered, and their one-line and help texts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDerivedOracle } from '../../../test/derived/oracle';
import { QA_ARCHIVES, scratchDir } from '../../../test/oracle';
import { DirFileSet } from '../../node/dir-file-set';
import { nodeDerivedConfigFs } from '../../node/derived-config-fs';
import { openArchiveContext } from '../context/archive-context';
import { loadDerivedConfig } from './config';
import { DerivedContext } from './derived-context';
import { DerivedRegistry } from './registry';
import type { PmId } from '../types';

const ARCHIVE = `${QA_ARCHIVES}/bozo-disk`;

interface Theirs {
  status: number;
  stderr: string;
  names: Array<{ pmid: number | null; oneline: string | null; help: string | null }>;
}

async function ours(path: string, names: readonly string[]): Promise<Theirs> {
  const registry = new DerivedRegistry();
  const r = loadDerivedConfig(registry, path, nodeDerivedConfigFs);
  const ctx = new DerivedContext(await openArchiveContext(new DirFileSet('/'), ARCHIVE), { registry });
  const out: Theirs = { status: r.status, stderr: r.messages, names: [] };
  for (const name of names) {
    const [id] = await ctx.lookupNames([name]);
    if (id === undefined || id < 0) {
      out.names.push({ pmid: null, oneline: null, help: null });
      continue;
    }
    const text = (kind: 'oneline' | 'help'): Promise<string | null> => ctx.lookupText({ pmid: id as PmId }, kind).catch(() => null);
    out.names.push({ pmid: id, oneline: await text('oneline'), help: await text('help') });
  }
  await ctx.close();
  return out;
}

const EXPRESSIONS = [
  'disk.dev.read + disk.dev.write', 'disk.dev.read + * 3', 'sum (disk.dev.read)', '4294967296 + disk.dev.read', 'rescale(disk.dev.read, "furlongs")',
  'mkconst(1.5, type=u32)', 'avg(disk.dev.read + 1)', 'disk.dev.read && & 1', '1.5e3 * disk.dev.read', '\tdisk.dev.read +\t* 2', 'rate(disk.dev.read)  ',
  'a.b # trailing comment', 'a.b == 1', 'x = y', '( a.b', 'a.b )', 'matchinst(/fo[o/, a.b)', 'matchinst(/^sd[ab]$/, disk.dev.read)', '"unterminated', 'a.b[sda',
  'mkconst(1, units=furlong)', 'anon(PM_TYPE_U64)', 'hinv.ncpu \\', '1 ? 2', '  -hinv.ncpu', 'défini + 1', 'mkconst(3, type=u32, units="Kbyte", semantics=counter)',
];

function writeCase(dir: string, name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('configuration files match pmLoadDerivedConfig', () => {
  const dir = scratchDir('pmdash-derived-config-');
  const cases: Array<{ label: string; path: string; names: string[] }> = [];

  const syntax = EXPRESSIONS.map((e, i) => `cf.s${i} =${i % 3 === 0 ? '' : ' '}${e}\n`).join('');
  cases.push({ label: 'syntax errors and valid lines', path: writeCase(dir, 'syntax.conf', syntax), names: EXPRESSIONS.map((_, i) => `cf.s${i}`) });

  const lines = [
    '# a comment', '', '   # an indented comment is an error', 'cf.a = disk.dev.read', 'cf.b=hinv.ncpu*2', '  cf.c   =   hinv.ncpu + 1', 'bad name = 1', '9bad = 1',
    'cf.ok_1.x = 1', 'cf.trail. = 2', 'cf..x = 3', ' = 4', 'no equals here', 'cf.d = ', 'cf.d =', 'cf.a = 42', 'cf.e = 1 \\', '  + 2', 'cf.f(oneline) = no paren',
    'cf.f) = 1', 'cf.a(oneline) = The first metric', 'cf.a(oneline) = again', 'cf.a(helptext) = "A help text\\', 'over two lines with a \\"quote\\""', 'cf.b(helptext) = \'single',
    'quoted\' trailing', 'cf.c(oneline) = "multi', 'line"X junk here', 'cf.b(oneline) = "x" and more', 'cf.zz(oneline) = undefined metric', 'cf.a(colour) = blue', 'cf.a() = x',
    'cf.a( oneline ) = ', 'cf.c(helptext) = "ends', 'line" ', 'cf.last = hinv.ncpu',
  ];
  cases.push({ label: 'loader diagnostics and attributes', path: writeCase(dir, 'lines.conf', `${lines.join('\n')}\n`), names: ['cf.a', 'cf.b', 'cf.c', 'cf.ok_1.x', 'cf.trail.', 'cf.e', 'cf.last'] });
  cases.push({ label: 'a last line without a newline is ignored', path: writeCase(dir, 'nonl.conf', 'cf.n1 = 1\ncf.n2 = 2'), names: ['cf.n1', 'cf.n2'] });
  cases.push({ label: 'an unterminated value at the end of the file', path: writeCase(dir, 'eof.conf', 'cf.u = 1\ncf.u(oneline) = "never\nends\n'), names: ['cf.u'] });

  // Regular-expression extremes next to good lines: each bad pattern is refused on its own
  // line in regerror's words and the other definitions stay (issue 16 item 5).
  const regexLines = [
    'cf.r0 = disk.dev.read', `cf.r1 = matchinst(/${'('.repeat(3000)}sd${')'.repeat(3000)}/, disk.dev.read)`, `cf.r2 = matchinst(/${'y'.repeat(40000)}/, disk.dev.read)`,
    'cf.r3 = matchinst(/a{1,99999}/, disk.dev.read)', 'cf.r4 = matchinst(/(/, disk.dev.read)', 'cf.r5 = matchinst(/^(.*)*Q$/, disk.dev.read)', 'cf.r6 = matchinst(/^(.|.)*Q$/, disk.dev.read)',
    'cf.r7 = matchinst(/a)(/, disk.dev.read)', 'cf.r8 = matchinst(/(a)|\\1/, disk.dev.read)', 'cf.r9 = matchinst(/[[:nope:]]/, disk.dev.read)', 'cf.r10 = matchinst(!/(a{1000}){1000}/, disk.dev.read)',
    `cf.r11 = matchinst(/${'(a|'.repeat(2000)}b${')'.repeat(2000)}/, disk.dev.read)`, 'cf.r12 = hinv.ncpu',
  ];
  cases.push({ label: 'regular-expression extremes and refusals, one definition each', path: writeCase(dir, 'regex.conf', `${regexLines.join('\n')}\n`), names: regexLines.map((_, i) => `cf.r${i}`) });

  const sub = join(dir, 'conf.d');
  mkdirSync(join(sub, 'nested'), { recursive: true });
  writeCase(sub, 'b.conf', 'cf.db = hinv.ncpu\ncf.dup = 1\n');
  writeCase(sub, 'a.conf', 'cf.da = hinv.physmem\ncf.dup = 2\n');
  writeCase(join(sub, 'nested'), 'c.conf', 'cf.dc = disk.dev.read +\ncf.dd = 3\n');
  cases.push({ label: 'a directory, walked in readdir order', path: sub, names: ['cf.da', 'cf.db', 'cf.dc', 'cf.dd', 'cf.dup'] });
  cases.push({ label: 'a path list stops at a missing component', path: `${sub}:${join(dir, 'missing.conf')}:${join(dir, 'nonl.conf')}`, names: ['cf.db', 'cf.n1'] });
  cases.push({ label: 'a path list of files', path: `${join(dir, 'nonl.conf')}:${join(dir, 'eof.conf')}`, names: ['cf.n1', 'cf.u'] });

  // The configurations PCP itself ships (iostat, cpu-util, proc, mssql), as a directory of links.
  const shipped = '/var/lib/pcp/config/derived';
  cases.push({ label: 'the derived configurations PCP ships', path: shipped, names: ['disk.dev.avg_rqsz', 'disk.dev.await', 'kernel.cpu.util.user', 'proc.io.total_bytes', 'disk.dev.util'] });

  it.each(cases.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const theirs = await runDerivedOracle<Theirs>('derived-config.py', { path: c.path, archive: ARCHIVE, names: c.names });
    expect(await ours(c.path, c.names)).toEqual(theirs);
  });
});
