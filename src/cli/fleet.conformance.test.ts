// `pmdash fleet` against a real pmproxy 6.0.3 with its own store (test/throwaway-pmproxy.ts)
// holding three QA archives of three hosts: hosts and metrics as pmseries lists them, values
// as the archives store them (python3-pcp, pmFetchHighResArchive) and rates as pmseries
// computes them for the same expression.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runPythonOracle } from '../../test/oracle';
import { freePort } from '../../test/throwaway-pmcd';
import { startThrowawayPmproxy, type ThrowawayPmproxy } from '../../test/throwaway-pmproxy';
import { parseSeriesTimestamp } from '../pcp-core/fleet/answers';
import { fleetCommand } from './fleet';

const ARCHIVES = [
  { name: 'multi-vm00', host: 'vm00' },
  { name: 'multi-vm02', host: 'vm02' },
  { name: 'pcp-uptime', host: 'smash' },
] as const;

interface Stored {
  samples: Array<{ sec: number; nsec: number; values: Record<string, number> }>;
}
interface JsonValues {
  hosts: Array<{ host: string; expr: string; error?: string; lines: Array<{ name: string; samples: Array<{ time: string; value: number }> }> }>;
}

async function stored(archive: string, metric: string): Promise<Stored> {
  return JSON.parse(await runPythonOracle('stored-samples.py', [join(QA_ARCHIVES, archive), metric])) as Stored;
}

/** ISO UTC with microseconds, from an oracle sample's sec and nsec. */
function iso(s: { sec: number; nsec: number }): string {
  return `${new Date(s.sec * 1000).toISOString().slice(0, 19)}.${String(Math.round(s.nsec / 1000)).padStart(6, '0')}Z`;
}
/** The same from pmseries -t's timestamp text. */
function isoOfPmseries(text: string): string {
  const t = parseSeriesTimestamp(text);
  if (!t) throw new Error(`bad pmseries timestamp ${text}`);
  return iso(t);
}

async function fleet(argv: readonly string[], env: Record<string, string | undefined> = {}): Promise<{ status: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    const status = await fleetCommand.run(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
    return { status, out, err };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('pmdash fleet against pmproxy 6.0.3 with three hosts loaded', () => {
  let px: ThrowawayPmproxy;
  let at: string[];

  beforeAll(async () => {
    px = await startThrowawayPmproxy();
    for (const a of ARCHIVES) await px.load(join(QA_ARCHIVES, a.name));
    at = ['--pmproxy', px.url];
  });
  afterAll(async () => {
    await px?.stop();
  });

  it('hosts: the hostnames pmseries -v hostname lists, with their archives as sources', async () => {
    const r = await fleet(['hosts', '--json', ...at]);
    expect(r.status, r.err).toBe(0);
    const hosts = JSON.parse(r.out) as Array<{ hostname: string; sources: Array<{ names: string[] }> }>;
    const want = [...(await px.pmseries(['-v', 'hostname'])).stdout.matchAll(/"([^"]+)"/g)].map((m) => m[1]).sort();
    expect(hosts.map((h) => h.hostname)).toEqual(want);
    for (const a of ARCHIVES) expect(hosts.find((h) => h.hostname === a.host)?.sources[0].names).toEqual([join(QA_ARCHIVES, a.name), a.host].sort());
    const table = await fleet(['hosts', ...at]);
    expect(table.out.split('\n')[0]).toMatch(/^HOST\s+SOURCES\s+LABELS$/);
    expect(table.out).toMatch(/^vm02\s+\S*multi-vm02,vm02\s+hostname=vm02$/m);
  });

  it('metrics: the names pmseries -g PATTERN -m lists', async () => {
    const r = await fleet(['metrics', 'kernel.all.*', ...at]);
    const want = [...new Set((await px.pmseries(['-g', 'kernel.all.*', '-m'])).stdout.split('\n').filter(Boolean))].sort();
    expect(r.out.split('\n').filter(Boolean)).toEqual(want);
  });

  it('values -r: each host’s stored counter samples in the window; without -r: pmseries’s rate()', async () => {
    const args = ['values', 'sampledso.kbyte_ctr', '-Z', 'UTC', '-S', '@2013-01-04 19:44:20', '-T', '@2013-01-04 19:44:28', '--host', 'vm00', '--host', 'vm02', '--json', ...at];
    const raw = await fleet([...args, '-r']);
    expect(raw.status, raw.err).toBe(0);
    const rawJson = JSON.parse(raw.out) as JsonValues;
    for (const h of rawJson.hosts) {
      const s = await stored(ARCHIVES.find((a) => a.host === h.host)?.name ?? '', 'sampledso.kbyte_ctr');
      const inWindow = s.samples.filter((x) => x.sec >= Date.UTC(2013, 0, 4, 19, 44, 20) / 1000 && x.sec < Date.UTC(2013, 0, 4, 19, 44, 28) / 1000);
      expect(inWindow.length).toBeGreaterThan(2);
      expect(h.lines[0].samples, h.host).toEqual(inWindow.map((x) => ({ time: iso(x), value: x.values[''] })));
    }
    const rated = JSON.parse((await fleet(args)).out) as JsonValues;
    for (const h of rated.hosts) {
      expect(h.expr).toMatch(/^rate\(sampledso\.kbyte_ctr\{hostname:"vm0[02]"\}\[start:\d+,finish:\d+\]\)$/);
      const cli = (await px.pmseries(['-t', h.expr])).stdout;
      const want = [...cli.matchAll(/^\s+\[([0-9.]+)\] (\S+)/gm)].map((m) => ({ time: isoOfPmseries(m[1]), value: Number(m[2]) }));
      expect(want.length).toBeGreaterThan(1);
      expect(h.lines[0].samples, h.expr).toEqual(want);
    }
  });

  it('values of a multi-instance metric: one line per instance, as stored; --aggregate sum folds them', async () => {
    const s = await stored('pcp-uptime', 'kernel.all.load');
    const args = ['values', 'kernel.all.load', '-Z', 'UTC', '-S', '@Fri Apr  4 00:36:50 2014', '-T', '@Fri Apr  4 00:37:00 2014', '--host', 'smash', '--json', ...at];
    const r = JSON.parse((await fleet(args)).out) as JsonValues;
    const lines = r.hosts[0].lines;
    expect(lines.map((l) => l.name).sort()).toEqual(Object.keys(s.samples[0].values).sort());
    for (const l of lines) {
      expect(l.samples.map((x) => x.time)).toEqual(s.samples.map(iso));
      // pmproxy keeps floats to 7 significant digits.
      l.samples.forEach((x, i) => expect(Math.abs(x.value - s.samples[i].values[l.name])).toBeLessThanOrEqual(5e-7 * s.samples[i].values[l.name]));
    }
    const sum = JSON.parse((await fleet([...args, '--aggregate', 'sum'])).out) as JsonValues;
    const cli = (await px.pmseries(['-t', sum.hosts[0].expr])).stdout;
    expect(sum.hosts[0].expr).toMatch(/^sum_sample\(/);
    expect(sum.hosts[0].lines[0].samples).toEqual([...cli.matchAll(/^\s+\[([0-9.]+)\] (\S+)/gm)].map((m) => ({ time: isoOfPmseries(m[1]), value: Number(m[2]) })));
  });

  it('values: a table in the -Z zone; a host without the metric is reported and fails the run', async () => {
    const r = await fleet(['values', 'sampledso.kbyte_ctr', '-r', '-Z', 'UTC', '-S', '@2013-01-04 19:44:20', '-T', '@2013-01-04 19:44:22', ...at]);
    expect(r.status).toBe(1);
    expect(r.err).toBe(`pmdash fleet values: host smash: ${px.url}/series/query: no series of sampledso.kbyte_ctr for host smash\n`);
    const s = await stored('multi-vm00', 'sampledso.kbyte_ctr');
    expect(r.out).toContain(`vm00  -         Fri Jan  4 19:44:21.336063 2013  ${s.samples[1].values['']}\n`);
    expect(r.out.split('\n')[0]).toMatch(/^HOST\s+INSTANCE\s+TIME\s+VALUE$/);
  });

  it('finds pmproxy through PMPROXY_HOST and PMPROXY_PORT', async () => {
    const r = await fleet(['metrics', 'sampledso.bin'], { PMPROXY_HOST: '127.0.0.1', PMPROXY_PORT: String(px.port) });
    expect(r.out).toBe('sampledso.bin\n');
  });

  it('an unreachable pmproxy is one line naming the URL, status 1', async () => {
    const port = await freePort();
    const r = await fleet(['hosts', '--pmproxy', `127.0.0.1:${port}`]);
    expect(r.status).toBe(1);
    expect(r.err).toMatch(new RegExp(`^pmdash fleet hosts: http://127\\.0\\.0\\.1:${port}/series/labels\\?names=hostname: cannot reach pmproxy: .*\\n$`));
  });
});
