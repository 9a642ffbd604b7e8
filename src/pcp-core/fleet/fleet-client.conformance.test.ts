// The fleet client against a real pmproxy 6.0.3 and its store (a throwaway pair on free
// loopback ports, test/throwaway-pmproxy.ts), with four QA archives of four hosts loaded by
// `pmseries --load`. Oracles: the archives' stored samples as libpcp reads them
// (test/oracle/stored-samples.py, pmFetchHighResArchive) and the `pmseries` CLI's answers to
// the very expressions the client sent, read straight from the store.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PM_ERR_TOOBIG } from '../errors';
import { QA_ARCHIVES, runPythonOracle } from '../../../test/oracle';
import { startThrowawayPmproxy, type ThrowawayPmproxy } from '../../../test/throwaway-pmproxy';
import { parseSeriesTimestamp } from './answers';
import { FleetClient, type ChartHost } from './fleet-client';
import { ECANCELED, FleetError } from './transport';

/** Four hosts: vm00–vm02 (sampledso.kbyte_ctr, a counter; sampledso.bin, 9 instances) and smash (kernel.all.load, floats). */
const ARCHIVES = [
  { name: 'multi-vm00', host: 'vm00' },
  { name: 'multi-vm01', host: 'vm01' },
  { name: 'multi-vm02', host: 'vm02' },
  { name: 'pcp-uptime', host: 'smash' },
] as const;
const VMS = ARCHIVES.filter((a) => a.host.startsWith('vm'));
const PM_TYPE_FLOAT = 4;
const PM_TYPE_DOUBLE = 5;

interface Stored {
  type: number;
  sem: number;
  samples: Array<{ sec: number; nsec: number; values: Record<string, number | string> }>;
}

function stored(archive: string, metric: string): Promise<Stored> {
  return runPythonOracle('stored-samples.py', [join(QA_ARCHIVES, archive), metric]).then((t) => JSON.parse(t) as Stored);
}

const ms = (s: { sec: number; nsec: number }): number => s.sec * 1000 + s.nsec / 1e6;

/** pmseries -t output: `SERIES` lines, then `    [MS] VALUE [INSTANCE]` lines (MS as pmproxy prints it). */
interface CliValue {
  series: string;
  timestampMs: number;
  value: string;
  instance?: string;
}
function parsePmseries(text: string): CliValue[] {
  const out: CliValue[] = [];
  let series = '';
  for (const line of text.split('\n')) {
    const id = /^([0-9a-f]{40})$/.exec(line);
    if (id?.[1]) {
      series = id[1];
      continue;
    }
    const m = /^\s+\[([0-9.]+)\] (\S+)(?: ([0-9a-f]{40}))?\s*$/.exec(line);
    const time = m?.[1] ? parseSeriesTimestamp(m[1]) : undefined;
    if (m?.[2] && time) out.push({ series, timestampMs: time.sec * 1000 + time.nsec / 1e6, value: m[2], ...(m[3] ? { instance: m[3] } : {}) });
  }
  return out;
}

/** A chart host's lines as pmseries-shaped values (series id left out: functions mint new ones per query). */
function flat(host: ChartHost): Array<{ t: number; v: number; instance?: string }> {
  return host.lines
    .flatMap((l) => Array.from(l.timesMs, (t, i) => ({ t, v: l.values[i], ...(l.instance ? { instance: l.instance } : {}) })))
    .sort((a, b) => a.t - b.t || (a.instance ?? '').localeCompare(b.instance ?? ''));
}
/** …and pmseries's, where rate() of a metric without instances names the metric's series (`ids`) as the instance. */
function flatCli(values: CliValue[], ids: readonly string[] = []): Array<{ t: number; v: number; instance?: string }> {
  return values.map((c) => ({ t: c.timestampMs, v: Number(c.value), ...(c.instance && !ids.includes(c.instance) ? { instance: c.instance } : {}) })).sort((a, b) => a.t - b.t || (a.instance ?? '').localeCompare(b.instance ?? ''));
}

/** pmproxy prints floating values with 7 significant digits (%e); integers exactly. */
function close(got: number, want: number, type: number): boolean {
  return type === PM_TYPE_FLOAT || type === PM_TYPE_DOUBLE ? Math.abs(got - want) <= 5e-7 * Math.abs(want) + 1e-300 : got === want;
}

describe('the fleet client against pmproxy 6.0.3 and its store', () => {
  let px: ThrowawayPmproxy;
  let client: FleetClient;

  beforeAll(async () => {
    px = await startThrowawayPmproxy();
    for (const a of ARCHIVES) await px.load(join(QA_ARCHIVES, a.name));
    client = new FleetClient({ baseUrl: px.url, fetch });
  });

  afterAll(async () => {
    await px?.stop();
  });

  const cli = async (expr: string): Promise<CliValue[]> => {
    const run = await px.pmseries(['-t', expr]);
    expect(run.status, `pmseries ${expr}: ${run.stderr}`).toBe(0);
    return parsePmseries(run.stdout);
  };

  it('lists the hosts with their labels and sources, as pmseries -v hostname and -S name them', async () => {
    const hosts = await client.hosts();
    const names = (await px.pmseries(['-v', 'hostname'])).stdout;
    const want = [...names.matchAll(/"([^"]+)"/g)].map((m) => m[1]).sort();
    expect(hosts.map((h) => h.hostname)).toEqual(want);
    expect(want).toEqual(ARCHIVES.map((a) => a.host).sort());
    for (const h of hosts) {
      expect(h.labels.hostname).toBe(h.hostname);
      expect(h.sources.length, h.hostname).toBe(1);
      const s = h.sources[0];
      const ctx = (await px.pmseries(['-S', s.source])).stdout;
      const m = /Context: (.*)$/m.exec(ctx);
      expect(m?.[1]?.split(', ').sort(), ctx).toEqual([...s.names].sort());
      const archive = ARCHIVES.find((a) => a.host === h.hostname)?.name ?? '';
      expect(s.names).toContain(join(QA_ARCHIVES, archive));
    }
  });

  it('gives the stored history of hosts: their first and last stored records', async () => {
    const span = async (archive: string): Promise<{ start: { sec: number; nsec: number }; end: { sec: number; nsec: number } }> =>
      JSON.parse(await runPythonOracle('archive-span.py', [join(QA_ARCHIVES, archive)])) as { start: { sec: number; nsec: number }; end: { sec: number; nsec: number } };
    const [vm00, smash] = await Promise.all([span('multi-vm00'), span('pcp-uptime')]);
    const one = await client.span(['vm00']);
    expect(one?.startSec).toBeCloseTo(ms(vm00.start) / 1000, 6);
    expect(one?.finishSec).toBeCloseTo(ms(vm00.end) / 1000, 6);
    const both = await client.span(['vm00', 'smash']);
    expect(both?.startSec).toBeCloseTo(Math.min(ms(vm00.start), ms(smash.start)) / 1000, 6);
    expect(both?.finishSec).toBeCloseTo(Math.max(ms(vm00.end), ms(smash.end)) / 1000, 6);
    expect(await client.span(['no-such-host'])).toBeUndefined();
  });

  it('finds metrics by glob as pmseries -g GLOB -m does', async () => {
    for (const glob of ['sampledso.*', 'kernel.all.*', 'nosuch.*']) {
      const run = await px.pmseries(['-g', glob, '-m']);
      const want = [...new Set(run.stdout.split('\n').filter((l) => l !== ''))].sort();
      expect(await client.metrics(glob), glob).toEqual(want);
    }
  });

  it('gives descriptors and instances per series as pmseries -d -i does', async () => {
    const ids = await client.seriesIds('sampledso.bin{hostname:"vm01"}');
    expect(ids.length).toBe(1);
    const desc = (await client.descs(ids)).get(ids[0]);
    const run = await px.pmseries(['-a', ids[0]]);
    expect(run.stdout).toContain(`PMID: ${desc?.pmid}`);
    expect(run.stdout).toContain(`Source: ${desc?.source}`);
    expect(desc?.semantics).toBe('instant');
    const inst = (await client.instances(ids)).get(ids[0]) ?? [];
    const cliInst = [...run.stdout.matchAll(/inst \[(\d+) or "([^"]+)"\] series ([0-9a-f]{40})/g)].map((m) => ({ id: Number(m[1]), name: m[2], instance: m[3] }));
    expect(inst.map((i) => ({ id: i.id, name: i.name, instance: i.instance })).sort((a, b) => a.id - b.id)).toEqual(cliInst.sort((a, b) => a.id - b.id));
  });

  /** A window strictly inside the archive: its second to its next-to-last sample. */
  const innerWindow = (s: Stored): { startSec: number; finishSec: number; inside: Stored['samples'] } => {
    const first = s.samples[1];
    const last = s.samples[s.samples.length - 2];
    return { startSec: first.sec + first.nsec / 1e9 - 0.0005, finishSec: last.sec + last.nsec / 1e9 + 0.0005, inside: s.samples.slice(1, -1) };
  };

  it('charts a counter (raw), an instant and a multi-instance metric with the archives’ stored samples', async () => {
    const cases = [
      ...VMS.map((a) => ({ archive: a.name, host: a.host, metric: 'sampledso.kbyte_ctr', rate: false })),
      ...VMS.map((a) => ({ archive: a.name, host: a.host, metric: 'sampledso.bin', rate: true })),
      { archive: 'pcp-uptime', host: 'smash', metric: 'kernel.all.load', rate: true },
      { archive: 'pcp-uptime', host: 'smash', metric: 'kernel.all.uptime', rate: true },
    ];
    for (const c of cases) {
      const s = await stored(c.archive, c.metric);
      const w = innerWindow(s);
      const chart = await client.chart({ metric: c.metric, hosts: [c.host], startSec: w.startSec, finishSec: w.finishSec, widthPx: 800, rate: c.rate });
      const h = chart.hosts[0];
      expect(h.error, `${c.host} ${c.metric}`).toBeUndefined();
      expect(chart.intervalSec).toBeUndefined();
      expect(h.decimated).toBe(false);
      const instNames = Object.keys(w.inside[0].values).sort();
      expect(h.lines.map((l) => l.name).sort(), `${c.host} ${c.metric}`).toEqual(instNames);
      for (const line of h.lines) {
        expect(Array.from(line.timesMs), `${c.host} ${c.metric} ${line.name}`).toEqual(w.inside.map(ms));
        line.values.forEach((v, i) => {
          const want = w.inside[i].values[line.name];
          expect(close(v, Number(want), s.type), `${c.host} ${c.metric}[${line.name}] #${i}: ${v} vs ${String(want)}`).toBe(true);
        });
      }
      // …and pmseries, asked the same expression, answers the same.
      expect(flat(h), h.expr).toEqual(flatCli(await cli(h.expr)));
    }
  });

  it('rates counters through rate(): equal to pmseries, and to the stored samples’ differences', async () => {
    for (const a of VMS) {
      const s = await stored(a.name, 'sampledso.kbyte_ctr');
      const w = { startSec: s.samples[0].sec, finishSec: s.samples[s.samples.length - 1].sec + 1 };
      const chart = await client.chart({ metric: 'sampledso.kbyte_ctr', hosts: [a.host], ...w, widthPx: 600 });
      const h = chart.hosts[0];
      expect(h.expr).toMatch(/^rate\(/);
      expect(flat(h), h.expr).toEqual(flatCli(await cli(h.expr), await client.seriesIds(`sampledso.kbyte_ctr{hostname:"${a.host}"}`)));
      const inside = s.samples.filter((x) => ms(x) >= w.startSec * 1000);
      const line = h.lines[0];
      expect(h.lines.length).toBe(1);
      expect(line.name).toBe('');
      expect(line.instance).toBeUndefined();
      expect(line.values.length).toBe(inside.length - 1);
      line.values.forEach((v, i) => {
        // Seconds from sec and nsec apart: a difference of two epoch-millisecond doubles loses ~1e-7 s.
        const dt = inside[i + 1].sec - inside[i].sec + (inside[i + 1].nsec - inside[i].nsec) / 1e9;
        const want = (Number(inside[i + 1].values['']) - Number(inside[i].values[''])) / dt;
        // pmproxy prints rates with 6 decimals (%.6lf).
        expect(Math.abs(v - want), `${a.host} rate #${i}`).toBeLessThanOrEqual(5e-7 + 1e-12 * Math.abs(want));
        expect(line.timesMs[i]).toBe(ms(inside[i + 1]));
      });
    }
  });

  it('folds instances per sample (sum, avg, max, min, top-N) as pmseries does, and sum equals the stored instances’ sum', async () => {
    const s = await stored('pcp-uptime', 'kernel.all.load');
    const w = { startSec: s.samples[0].sec, finishSec: s.samples[s.samples.length - 1].sec + 1 };
    for (const aggregate of ['sum', 'avg', 'max', 'min', { topk: 2 }] as const) {
      const chart = await client.chart({ metric: 'kernel.all.load', hosts: ['smash'], ...w, widthPx: 400, aggregate });
      const h = chart.hosts[0];
      expect(h.error).toBeUndefined();
      expect(flat(h), h.expr).toEqual(flatCli(await cli(h.expr)));
      if (aggregate === 'sum') {
        expect(h.lines.length).toBe(1);
        expect(h.lines[0].name).toBe('sum');
        h.lines[0].values.forEach((v, i) => {
          const want = Object.values(s.samples[i].values).reduce<number>((x, y) => x + Number(y), 0);
          expect(close(v, want, PM_TYPE_DOUBLE), `sum #${i}: ${v} vs ${want}`).toBe(true);
        });
      }
      if (typeof aggregate === 'object') expect(new Set(h.lines.map((l) => l.name))).toEqual(new Set(['1 minute', '5 minute', '15 minute'].filter((n) => h.lines.some((l) => l.name === n))));
    }
    // A counter rated, then folded across instances, on three hosts at once.
    const ctr = await client.chart({ metric: 'sampledso.bin', hosts: VMS.map((a) => a.host), startSec: 1357328657, finishSec: 1357328668, widthPx: 400, aggregate: 'avg' });
    for (const h of ctr.hosts) {
      expect(h.error, h.host).toBeUndefined();
      expect(flat(h), h.expr).toEqual(flatCli(await cli(h.expr)));
      expect(h.lines[0].values.every((v) => v === 500)).toBe(true);
    }
  });

  it('reads series values over a window through /series/values as stored', async () => {
    const ids = await client.seriesIds('sampledso.kbyte_ctr{hostname:"vm02"}');
    const s = await stored('multi-vm02', 'sampledso.kbyte_ctr');
    const w = innerWindow(s);
    const values = await client.values(ids, w);
    expect(values.map((v) => [v.timestampMs, Number(v.value)])).toEqual(w.inside.map((x) => [ms(x), x.values['']]));
  });

  it('asks pmproxy to subsample a plain metric for a narrow chart, never more than 2 points per pixel', async () => {
    const s = await stored('multi-vm01', 'sampledso.kbyte_ctr');
    const w = { startSec: s.samples[0].sec, finishSec: s.samples[s.samples.length - 1].sec + 1 };
    for (const widthPx of [1, 2]) {
      const chart = await client.chart({ metric: 'sampledso.kbyte_ctr', hosts: ['vm01'], ...w, widthPx, rate: false });
      expect(chart.intervalSec).toBeGreaterThanOrEqual(1);
      const h = chart.hosts[0];
      const all = flatCli(await cli(h.expr));
      const got = flat(h);
      expect(got.length).toBeLessThanOrEqual(2 * widthPx);
      // Every point drawn is one pmseries returns for the same expression (a stored sample).
      for (const p of got) expect(all, `${h.expr}: ${p.t}`).toContainEqual(p);
      if (!h.decimated) expect(got).toEqual(all);
    }
    // A counter's rate over a subsampled window: pmproxy subsamples the raw counter (rate()
    // cannot be), the rates are taken here between the samples it kept.
    const rated = await client.chart({ metric: 'sampledso.kbyte_ctr', hosts: ['vm01'], ...w, widthPx: 1 });
    const r = rated.hosts[0];
    expect(r.rateHere).toBe(true);
    expect(r.expr).not.toContain('rate(');
    const kept = flatCli(await cli(r.expr));
    expect(kept.length).toBeGreaterThan(1);
    const rates = kept.slice(1).map((p, i) => ({ t: p.t, v: (p.v - kept[i].v) / ((p.t - kept[i].t) / 1000) }));
    const got = flat(r);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThanOrEqual(2);
    for (const p of got) expect(rates).toContainEqual(p);
    if (!r.decimated) expect(got).toEqual(rates);
    // Under a function pmproxy cannot subsample: the client thins the lines itself.
    const summed = await client.chart({ metric: 'sampledso.bin', hosts: ['vm01'], ...w, widthPx: 1, aggregate: 'sum' });
    const h = summed.hosts[0];
    expect(h.decimated).toBe(true);
    expect(flat(h).length).toBeLessThanOrEqual(2);
    const all = flatCli(await cli(h.expr));
    for (const p of flat(h)) expect(all).toContainEqual({ t: p.t, v: p.v });
  });

  it('keeps other hosts’ lines when one host has no such metric', async () => {
    const chart = await client.chart({ metric: 'sampledso.kbyte_ctr', hosts: ['vm00', 'smash'], startSec: 1357328600, finishSec: 1357328700, widthPx: 300, rate: false });
    expect(chart.hosts[0].lines.length).toBe(1);
    expect(chart.hosts[1].lines).toEqual([]);
    expect(chart.hosts[1].error?.message).toMatch(/no series of sampledso\.kbyte_ctr for host smash/);
  });

  it('newest wins per chart key: the superseded request is cancelled, the newer one answers', async () => {
    const req = { key: 'chart-1', metric: 'sampledso.bin', hosts: VMS.map((a) => a.host), startSec: 1357328600, finishSec: 1357328700, widthPx: 300 };
    const first = client.chart(req);
    const second = client.chart(req);
    await expect(first).rejects.toMatchObject({ code: ECANCELED });
    const r = await second;
    expect(r.hosts.every((h) => h.lines.length === 9)).toBe(true);
  });

  it('fails with errors naming the URL: HTTP errors, oversized answers, pmproxy’s own refusals', async () => {
    // /series/sources without parameters: pmproxy answers 400 with an HTML page.
    await expect(client.transport.getJson('/series/sources', {})).rejects.toSatisfy((e: unknown) => e instanceof FleetError && e.status === 400 && e.describe().startsWith(`${px.url}/series/sources: HTTP 400`));
    const small = new FleetClient({ baseUrl: px.url, fetch, maxBodyBytes: 100 });
    await expect(small.seriesIds('{hostname:"vm00"}')).rejects.toMatchObject({ code: PM_ERR_TOOBIG, context: expect.stringContaining(`${px.url}/series/query?expr=`) as unknown });
    await expect(client.queryValues('kernel.all.load{hostname:"smash"}[bogus')).rejects.toThrow(/pmproxy: cannot parse/);
  });

  it('sent nothing that kills pmproxy 6.0.3 (a function over a subsampled operand does)', async () => {
    expect(await px.alive(), px.log()).toBe(true);
  });
});

describe('the fleet client with no pmproxy', () => {
  it('fails with ECONNREFUSED naming the URL', async () => {
    const { freePort } = await import('../../../test/throwaway-pmcd');
    const url = `http://127.0.0.1:${await freePort()}`;
    const client = new FleetClient({ baseUrl: url, fetch });
    await expect(client.hosts()).rejects.toSatisfy((e: unknown) => e instanceof FleetError && e.describe().startsWith(`${url}/series/labels?names=hostname: cannot reach pmproxy`));
  });
});

