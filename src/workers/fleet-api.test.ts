import { describe, expect, it } from 'vitest';
import type { FleetFetch, FleetResponse } from '../pcp-core/fleet';
import { FleetApi } from './fleet-api';

function answer(status: number, body: string): FleetResponse {
  return { status, statusText: status === 200 ? 'OK' : 'Not Found', body: new Response(body).body, text: () => Promise.resolve(body) };
}

describe('the worker fleet calls', () => {
  it('reject a server without pmproxy (404) as a plain EngineError naming the URL', async () => {
    const api = new FleetApi(() => Promise.resolve(answer(404, 'this pmdash serve has no pmproxy (start it with --pmproxy URL)\n')));
    const e: unknown = await api.ping('http://page.example/pmproxy').catch((x: unknown) => x);
    expect(e).not.toBeInstanceOf(Error);
    expect(e).toMatchObject({ code: expect.any(String) as string, message: expect.stringContaining('404') as string });
    expect(JSON.stringify(e)).toContain('http://page.example/pmproxy/series/ping');
  });

  it('answer a chart overtaken by a newer one of the same key as cancelled, not as an error', async () => {
    // Every answer is an empty list: the metric has no series on host "a".
    const fetchFn: FleetFetch = () => Promise.resolve(answer(200, '[]'));
    const api = new FleetApi(fetchFn);
    const req = { key: 'tab', metric: 'kernel.all.load', hosts: ['a'], startMs: 0, finishMs: 10_000, widthPx: 100, aggregate: 'sum' as const };
    const first = api.chart('http://p', req);
    const second = api.chart('http://p', req);
    await expect(first).resolves.toMatchObject({ cancelled: true, hosts: [] });
    // The newer one answers: host "a" has no series of the metric, said per host.
    const r = await second;
    expect(r.cancelled).toBeUndefined();
    expect(r.hosts[0].host).toBe('a');
    expect(r.hosts[0].error?.message).toContain('no series of kernel.all.load for host a');
  });
});
