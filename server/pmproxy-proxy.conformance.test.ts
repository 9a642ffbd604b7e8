// The /pmproxy proxy of `pmdash serve` in front of the real pmproxy 6 on localhost:44322, its
// /series backed by the redis (or valkey) that scripts/setup.sh starts, with QA archives
// loaded by `pmseries --load`: what the proxy forwards is answered exactly as pmproxy answers
// it directly; what it refuses never reaches pmproxy (pmproxy's own call counters, and the
// proxy's count of forwarded requests, stay where they were).
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runTool } from '../test/oracle';
import { parsePmproxyUrl } from './pmproxy-proxy';
import { exchange } from './testing/proxy-exchange';
import { rawRequest, spawnServe, startTestServer, type TestServer } from './testing/serve';

const PMPROXY = 'http://localhost:44322';
/** Two QA archives of different hosts: smash (kernel.all.load, 3 instances) and ha2 (a counter). */
const ARCHIVES = [
  { name: 'pcp-uptime', host: 'smash', metric: 'kernel.all.load' },
  { name: 'arch_a', host: 'ha2', metric: 'irix.kernel.all.cpu.idle' },
];

async function direct(path: string): Promise<{ status: number; body: string }> {
  const r = await fetch(`${PMPROXY}${path}`);
  return { status: r.status, body: await r.text() };
}

/** A counter pmproxy keeps about itself (pmproxy.series.*.calls), read through pmcd. */
async function pmproxyCounter(metric: string): Promise<number> {
  const run = await runTool('pminfo', ['-f', metric]);
  expect(run.status, run.stderr).toBe(0);
  const m = /value (\d+)/.exec(run.stdout);
  if (!m?.[1]) throw new Error(`no value for ${metric} in: ${run.stdout}`);
  return Number(m[1]);
}

const q = (expr: string): string => encodeURIComponent(expr);

describe('the /pmproxy proxy in front of the real pmproxy and its store', () => {
  let server: TestServer;
  const logs: string[] = [];

  beforeAll(async () => {
    const sources = await fetch(`${PMPROXY}/series/sources?match=*`).then((r) => r.text());
    if (!sources.startsWith('[')) throw new Error(`pmproxy's /series is not connected to its store (answered '${sources}'); run scripts/setup.sh`);
    for (const a of ARCHIVES) {
      const run = await runTool('pmseries', ['--load', join(QA_ARCHIVES, a.name)]);
      expect(run.status, `pmseries --load ${a.name}: ${run.stderr}`).toBe(0);
    }
    server = await startTestServer({ pmproxy: { pmproxy: parsePmproxyUrl(PMPROXY) }, log: (l) => logs.push(l) });
  });

  afterAll(async () => {
    await server.stop();
  });

  const proxied = async (path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> => {
    const a = await exchange(server.origin, `/pmproxy${path}`, { headers });
    return { status: a.status, body: a.body };
  };

  it("answers /series/query and /series/values for each loaded archive's host exactly as pmproxy does", async () => {
    for (const a of ARCHIVES) {
      const ids = await direct(`/series/query?expr=${q(`${a.metric}{hostname:"${a.host}"}`)}`);
      expect(ids.status).toBe(200);
      const series = JSON.parse(ids.body) as string[];
      expect(series.length, `${a.name}: series of ${a.metric}`).toBeGreaterThan(0);
      expect(await proxied(`/series/query?expr=${q(`${a.metric}{hostname:"${a.host}"}`)}`)).toEqual(ids);
      const window = `/series/query?expr=${q(`${a.metric}{hostname:"${a.host}"}[samples:50]`)}`;
      const values = await direct(window);
      expect(JSON.parse(values.body), `${a.name}: values of ${a.metric}`).not.toEqual([]);
      expect(await proxied(window)).toEqual(values);
      const perSeries = `/series/values?series=${series.join(',')}&start=0&samples=100`;
      const v = await direct(perSeries);
      expect((JSON.parse(v.body) as unknown[]).length, `${a.name}: values`).toBeGreaterThan(0);
      expect(await proxied(perSeries)).toEqual(v);
      for (const p of [`/series/descs?series=${series.join(',')}`, `/series/labels?series=${series.join(',')}`, `/series/instances?series=${series.join(',')}`, `/series/metrics?series=${series.join(',')}`]) {
        expect(await proxied(p), p).toEqual(await direct(p));
      }
    }
    expect(await proxied('/series/ping')).toEqual(await direct('/series/ping'));
  });

  it("answers a /series POST (URL-encoded body) as pmproxy's GET does", async () => {
    const expr = `kernel.all.load{hostname:"${ARCHIVES[0]?.host ?? ''}"}[samples:10]`;
    const viaPost = await exchange(server.origin, '/pmproxy/series/query', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin }, body: `expr=${q(expr)}` });
    expect({ status: viaPost.status, body: viaPost.body }).toEqual(await direct(`/series/query?expr=${q(expr)}`));
  });

  it('answers /pmapi reads (a context, then a metric in it) as pmproxy does', async () => {
    const ctx = await proxied('/pmapi/context?hostspec=localhost&polltimeout=5');
    expect(ctx.status).toBe(200);
    const context = (JSON.parse(ctx.body) as { context: number }).context;
    const metric = await proxied(`/pmapi/${context}/metric?names=hinv.ncpu,kernel.all.load`);
    expect(metric.status).toBe(200);
    expect(JSON.parse(metric.body)).toEqual(JSON.parse((await direct(`/pmapi/${context}/metric?names=hinv.ncpu,kernel.all.load`)).body));
    const ncpu = (await runTool('pminfo', ['-f', 'hinv.ncpu'])).stdout;
    const fetched = await proxied(`/pmapi/${context}/fetch?names=hinv.ncpu`);
    const value = (JSON.parse(fetched.body) as { values: { instances: { value: number }[] }[] }).values[0]?.instances[0]?.value;
    expect(ncpu).toContain(`value ${value}`);
  });

  it("refuses /series/load, /pmapi/store, /pmapi/derive and unknown paths with 403; pmproxy never hears of them", async () => {
    const loads = await pmproxyCounter('pmproxy.series.load.calls');
    const forwarded = server.served.pmproxy?.forwarded;
    const refused = [
      `/series/load?expr=${q(`{source.path:"${join(QA_ARCHIVES, 'arch_b')}"}`)}`,
      '/pmapi/store?name=sample.write_me&value=2',
      '/pmapi/derive?name=pmdash.x&expr=hinv.ncpu',
      '/search/text?query=load',
      '/metrics?names=hinv.ncpu',
      '/logger/ping',
      '/series/%6coad',
      '/series/../series/load',
      '/',
    ];
    for (const p of refused) expect((await proxied(p)).status, p).toBe(403);
    for (const method of ['PUT', 'DELETE', 'HEAD', 'OPTIONS']) expect((await exchange(server.origin, '/pmproxy/series/query?expr=hinv.ncpu', { method })).status, method).toBe(403);
    expect((await exchange(server.origin, '/pmproxy/series/load', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'expr=x' })).status).toBe(403);
    expect(server.served.pmproxy?.forwarded).toBe(forwarded);
    expect(await pmproxyCounter('pmproxy.series.load.calls')).toBe(loads);
    expect(logs.some((l) => l.includes('refused') && l.includes('/series/load'))).toBe(true);
  });

  it('refuses a foreign Origin, a cross-site fetch and a foreign Host (DNS rebinding) with 403, before pmproxy', async () => {
    const queries = await pmproxyCounter('pmproxy.series.query.calls');
    const forwarded = server.served.pmproxy?.forwarded;
    const path = `/pmproxy/series/query?expr=${q('kernel.all.load')}`;
    const host = new URL(server.origin).host;
    expect(await rawRequest(server.origin, path, { Host: host, Origin: 'http://evil.example' })).toBe(403);
    expect(await rawRequest(server.origin, path, { Host: host, Origin: 'null' })).toBe(403);
    expect(await rawRequest(server.origin, path, { Host: host, 'Sec-Fetch-Site': 'cross-site' })).toBe(403);
    expect(await rawRequest(server.origin, path, { Host: 'evil.example:8044', Origin: 'http://evil.example:8044' })).toBe(403);
    expect(await rawRequest(server.origin, path, { Host: 'evil.example:8044' })).toBe(403);
    expect(server.served.pmproxy?.forwarded).toBe(forwarded);
    expect(await pmproxyCounter('pmproxy.series.query.calls')).toBe(queries);
    // The page's own origin passes, with Origin (a POST, a CORS fetch) or without (a same-origin GET).
    expect(await rawRequest(server.origin, path, { Host: host, Origin: server.origin })).toBe(200);
    expect(await rawRequest(server.origin, path, { Host: host, 'Sec-Fetch-Site': 'same-origin' })).toBe(200);
  });

  it('refuses an oversized request target and body, and cuts an answer past its response cap', async () => {
    const forwarded = server.served.pmproxy?.forwarded;
    expect((await proxied(`/series/query?expr=${'a'.repeat(9000)}`)).status).toBe(414);
    expect((await exchange(server.origin, '/pmproxy/series/query', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `expr=${'a'.repeat(70_000)}` })).status).toBe(413);
    expect(server.served.pmproxy?.forwarded).toBe(forwarded);
    const small = await startTestServer({ pmproxy: { pmproxy: parsePmproxyUrl(PMPROXY), maxResponseBytes: 256 } });
    try {
      const expr = q(`kernel.all.load{hostname:"${ARCHIVES[0]?.host ?? ''}"}[samples:50]`);
      expect((await direct(`/series/query?expr=${expr}`)).body.length).toBeGreaterThan(256);
      // pmproxy declares its length: refused whole rather than cut.
      expect((await exchange(small.origin, `/pmproxy/series/query?expr=${expr}`)).status).toBe(502);
    } finally {
      await small.stop();
    }
  });

  it('answers 429 past the per-client rate, and serves again once the bucket refills', async () => {
    const limited = await startTestServer({ pmproxy: { pmproxy: parsePmproxyUrl(PMPROXY), rateLimits: { perClientPerSecond: 1, perClientBurst: 3, globalPerSecond: 1000, globalBurst: 1000, maxClients: 100 } } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await exchange(limited.origin, '/pmproxy/series/ping')).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await exchange(limited.origin, '/pmproxy/series/ping')).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});

describe('pmdash serve --pmproxy (bin/pmdash.js, after npm run build)', () => {
  const running: ChildProcess[] = [];
  afterAll(() => {
    for (const p of running.splice(0)) p.kill('SIGTERM');
  });

  it('serves pmproxy reads at /pmproxy/ and refuses its writes, from the flag or $PMDASH_PMPROXY', async () => {
    const expr = q(`kernel.all.load{hostname:"${ARCHIVES[0]?.host ?? ''}"}[samples:20]`);
    const want = await direct(`/series/query?expr=${expr}`);
    for (const [args, env] of [[['--pmproxy', PMPROXY], {}], [[], { PMDASH_PMPROXY: 'localhost:44322' }]] as const) {
      const started = spawnServe(args, env);
      running.push(started.proc);
      const origin = await started.origin;
      const got = await exchange(origin, `/pmproxy/series/query?expr=${expr}`);
      expect({ status: got.status, body: got.body }).toEqual(want);
      expect(got.headers['access-control-allow-origin']).toBeUndefined();
      expect((await exchange(origin, '/pmproxy/series/load?expr=x')).status).toBe(403);
      expect((await exchange(origin, '/pmproxy/pmapi/store?name=x&value=1')).status).toBe(403);
      expect(await rawRequest(origin, `/pmproxy/series/query?expr=${expr}`, { Host: 'evil.example' })).toBe(403);
    }
    const without = spawnServe([], { PMDASH_PMPROXY: '' });
    running.push(without.proc);
    expect((await exchange(await without.origin, '/pmproxy/series/ping')).status).toBe(404);
  });
});
