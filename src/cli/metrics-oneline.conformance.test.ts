// `pmdash metrics -t` (one-line help after each name) against `pminfo -t`, alone and with
// -d and -T, on QA archives with and without help text, and with derived metrics (-c):
// stdout and exit status identical.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runTool, scratchDir } from '../../test/oracle';
import { main } from './main';

const dir = scratchDir('pmdash-metrics-oneline-');
const CONF = join(dir, 'd.conf');
writeFileSync(CONF, 'my.a = disk.dev.read + 1\nmy.a(oneline) = "reads plus one"\nmy.b = hinv.ncpu * 2\n');

async function pmdash(argv: readonly string[]): Promise<{ stdout: string; status: number }> {
  let stdout = '';
  const saved = process.env.PCP_DERIVED_CONFIG;
  process.env.PCP_DERIVED_CONFIG = '';
  try {
    const status = await main(['metrics', ...argv], { stdout: (t) => void (stdout += t), stderr: () => undefined });
    return { stdout, status };
  } finally {
    if (saved === undefined) delete process.env.PCP_DERIVED_CONFIG;
    else process.env.PCP_DERIVED_CONFIG = saved;
  }
}

const A = (n: string): string => `${QA_ARCHIVES}/${n}`;
const CASES: Array<readonly string[]> = [
  // Prefixes, not the whole PMNS: pminfo also lists libpcp's anonymous event.* metrics.
  ['-a', A('20180606'), '-t', 'kernel', 'proc', 'pmcd', 'mem'],
  ['-a', A('20180606'), '-t', '-d', 'kernel', 'disk.dev'],
  ['-a', A('20180606'), '-t', '-T', 'kernel.all', 'hinv'],
  ['-a', A('omnibus_v3'), '-t', 'sample', 'pmcd'],
  ['-a', A('bozo-disk'), '-t', '-c', CONF, 'my', 'disk.dev.read'],
  ['-a', A('bozo-disk'), '-td', '-c', CONF, 'my'],
  ['-a', A('interpmark'), '-t', 'kernel', 'no.such.metric'],
];

describe('pmdash metrics -t matches pminfo -t', () => {
  it.each(CASES.map((c) => [c.slice(2).join(' '), c] as const))('%s', async (_label, args) => {
    const theirs = await runTool('pminfo', args, { env: { PCP_DERIVED_CONFIG: '' } });
    const ours = await pmdash(args);
    expect(ours.stdout).toBe(theirs.stdout);
    expect(ours.status).toBe(theirs.status);
  });
});
