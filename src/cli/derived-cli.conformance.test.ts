// `-c CONFIG` in the CLI against the PCP tools: `pmdash metrics -c` against `pminfo -c` (stdout
// and exit status identical, stderr identical but for the program name), and
// `pmdash values -c` against libpcp's derived values at pmval's interpolated sample times
// (test/oracle/derived-values.py), with the configuration's diagnostics on stderr as libpcp
// prints them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDerivedOracle } from '../../test/derived/oracle';
import { QA_ARCHIVES, runTool, scratchDir } from '../../test/oracle';
import { main } from './main';

const dir = scratchDir('pmdash-derived-cli-');
const conf = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const BOZO = `${QA_ARCHIVES}/bozo-disk`;
const C1 = conf(
  'c1.conf',
  [
    'my.x = disk.dev.read * disk.dev.write',
    'my.y = disk.dev.read + 1 +',
    'my.z = rate(disk.dev.read)',
    'my.z(oneline) = "reads per second"',
    'my.z(helptext) = "Reads per second\\nof each disk."',
    'hinv.ncpu = 42',
    'disk.dev.sum = sum(disk.dev.read)',
    'my.util = 100 * rate(disk.dev.avactive)',
    'my.avg = delta(disk.dev.read) == 0 ? mkconst(0, type=double, semantics=instant, units="Kbyte/count") : delta(disk.dev.read_bytes) / delta(disk.dev.read)',
    'top.a.b.c = hinv.physmem + hinv.pagesize',
    '',
  ].join('\n'),
);
const C2 = conf('c2.conf', 'my.z = 1\nmy.w = matchinst(/^sd[de]$/, disk.dev.write)\nmy.bad = sum (disk.dev.read)\n');

async function pmdash(argv: readonly string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; status: number }> {
  let stdout = '';
  let stderr = '';
  const saved = { ...process.env };
  Object.assign(process.env, { PCP_DERIVED_CONFIG: '', ...env });
  try {
    const status = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
    return { stdout, stderr, status };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

describe('pmdash metrics -c matches pminfo -c', () => {
  it.each([
    ['-d', 'my'],
    ['my'],
    ['-d', '-T', 'my.z', 'disk.dev'],
    ['-d'],
    ['-T', 'top'],
    ['my.y'],
    ['-d', 'my.avg', 'my.util', 'hinv'],
    ['-l', 'my', 'top', 'disk.dev.sum'],
  ].map((a) => [a.join(' '), a] as const))('pmdash metrics %s', async (_label, args) => {
    for (const configs of [[C1], [C1, C2], [`${C2}:${join(dir, 'missing.conf')}`]]) {
      const c = configs.flatMap((x) => ['-c', x]);
      const theirs = await runTool('pminfo', ['-a', BOZO, ...c, ...args], { env: { PCP_DERIVED_CONFIG: '' } });
      const ours = await pmdash(['metrics', '-a', BOZO, ...c, ...args]);
      expect(ours.stdout).toBe(theirs.stdout);
      expect(ours.status).toBe(theirs.status);
      expect(ours.stderr).toBe(theirs.stderr.replaceAll('pminfo: ', 'pmdash: '));
    }
  });
});

describe('pmdash values -c', () => {
  it('gives libpcp\'s derived values at pmval\'s sample times', async () => {
    const metrics = ['my.z', 'disk.dev.sum', 'my.util', 'my.avg', 'top.a.b.c'];
    const ours = await pmdash(['values', '--json', '-r', '-c', C1, '-a', BOZO, '-t', '10', '-s', '5', ...metrics]);
    expect(ours.status).toBe(0);
    expect(ours.stderr).toBe(`[${C1}:2] Error: pmRegisterDerived(my.y, ...) syntax error\n disk.dev.read + 1 +\n                   ^\nArithmetic expression expected to follow PLUS\n`);
    const lines = ours.stdout.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; values?: Record<string, Record<string, number>> });
    const samples = lines.filter((l) => l.kind === 'sample');
    const defs = [...C1ExpressionsFor(metrics)];
    const theirs = await runDerivedOracle<{ samples: Array<{ sets: Array<{ inst: number[]; values: Array<number | string> }> }> }>('derived-values.py', {
      archive: BOZO,
      mode: 'interp',
      deltaMs: 10000,
      samples: 5,
      metrics: defs,
    });
    expect(samples.length).toBe(theirs.samples.length);
    const INST = ['sda', 'sdb', 'sdc', 'sdd', 'sde'];
    let compared = 0;
    samples.forEach((s, k) => {
      metrics.forEach((m, j) => {
        const set = theirs.samples[k]?.sets[j];
        const expected: Record<string, number> = {};
        set?.inst.forEach((inst, i) => (expected[inst === -1 ? '' : (INST[inst])] = Number(set.values[i])));
        // The oracle lists returned values only; our singular metrics carry "":null for none.
        const got = Object.fromEntries(Object.entries(s.values?.[m] ?? {}).filter(([, v]) => v !== null));
        expect(Object.keys(got)).toEqual(Object.keys(expected));
        for (const [inst, v] of Object.entries(expected)) {
          expect(Math.abs((got[inst]) - v)).toBeLessThanOrEqual(1e-9 * Math.abs(v));
          compared++;
        }
      });
    });
    expect(compared).toBeGreaterThan(20);
  });

  it('reports a metric that cannot be defined and exits non-zero', async () => {
    const r = await pmdash(['values', '-c', C1, '-a', BOZO, '-s', '2', 'my.x']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('Semantic error: derived metric my.x: disk.dev.read * disk.dev.write: Illegal operator for counters\n');
    const missing = await pmdash(['values', '-c', join(dir, 'missing.conf'), '-a', BOZO, '-s', '2', 'hinv.ncpu']);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/^pmdash values: pmLoadDerivedConfig failed: No such file or directory\n/);
  });
});

/** The definitions of C1 behind the named metrics, for the oracle. */
function* C1ExpressionsFor(names: readonly string[]): Generator<[string, string]> {
  const text = `${[
    'my.z = rate(disk.dev.read)',
    'disk.dev.sum = sum(disk.dev.read)',
    'my.util = 100 * rate(disk.dev.avactive)',
    'my.avg = delta(disk.dev.read) == 0 ? mkconst(0, type=double, semantics=instant, units="Kbyte/count") : delta(disk.dev.read_bytes) / delta(disk.dev.read)',
    'top.a.b.c = hinv.physmem + hinv.pagesize',
  ].join('\n')}`;
  const defs = new Map(text.split('\n').map((l) => [l.slice(0, l.indexOf('=')).trim(), l.slice(l.indexOf('=') + 1).trim()] as const));
  for (const n of names) yield [n, defs.get(n) as string];
}
