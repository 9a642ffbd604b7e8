// `pmdash metrics -f` (values at the first record holding each metric) against `pminfo -f`
// on QA archives of every kind (all value types, event records, aggregates, instances that
// come and go, process archives, multi-volume and compressed), alone and with -d, -t, -T,
// -l and derived metrics (-c): stdout and exit status identical. The whole PMNS but for
// libpcp's anonymous event.* metrics, which pminfo lists and pmdash does not.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runTool, scratchDir } from '../../test/oracle';
import { main } from './main';

const ENV = { PCP_DERIVED_CONFIG: '', TZ: 'UTC' };
const dir = scratchDir('pmdash-metrics-values-');
const CONF = join(dir, 'd.conf');
writeFileSync(CONF, 'my.a = disk.dev.read + 1\nmy.b = hinv.ncpu * 2\nmy.c = disk.dev.read / disk.dev.write\n');

async function pmdash(argv: readonly string[]): Promise<{ stdout: string; status: number }> {
  let stdout = '';
  const saved = { ...process.env };
  Object.assign(process.env, ENV);
  try {
    const status = await main(['metrics', ...argv], { stdout: (t) => void (stdout += t), stderr: () => undefined });
    return { stdout, status };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** The archive's top-level PMNS names but event (pminfo's anonymous metrics live there). */
async function tops(archive: string): Promise<string[]> {
  const r = await runTool('pminfo', ['-a', archive], { env: ENV });
  return [...new Set(r.stdout.trim().split('\n').map((n) => n.split('.')[0]))].filter((t) => t !== 'event');
}

const A = (n: string): string => `${QA_ARCHIVES}/${n}`;
const ARCHIVES = ['omnibus_v2', 'omnibus_v3', '20180606', 'changeinst', 'pcp-pidstat-process-args', '20130706', 'ok-mv-interp', '20180416.10.00', 'mark-bug', 'multi'];

describe('pmdash metrics -f matches pminfo -f', () => {
  it.each(ARCHIVES)('%s', async (name) => {
    const prefixes = await tops(A(name));
    const args = ['-a', A(name), '-f', ...prefixes];
    const theirs = await runTool('pminfo', args, { env: ENV });
    const ours = await pmdash(args);
    expect(ours.stdout).toBe(theirs.stdout);
    expect(ours.status).toBe(theirs.status);
  });
  it.each([
    ['-a', A('20180606'), '-fdtT', 'kernel.all', 'disk.dev'],
    ['-a', A('omnibus_v3'), '-fl', 'sample'],
    ['-a', A('bozo-disk'), '-f', '-c', CONF, 'my', 'disk.dev.read', 'hinv.ncpu'],
    ['-a', A('interpmark'), '-f', 'no.such', 'kernel.all'],
  ])('%s %s %s', async (...args) => {
    const theirs = await runTool('pminfo', args, { env: ENV });
    const ours = await pmdash(args);
    expect(ours.stdout).toBe(theirs.stdout);
    expect(ours.status).toBe(theirs.status);
  });
});
