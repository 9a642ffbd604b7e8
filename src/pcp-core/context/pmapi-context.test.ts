// PmapiContext over a scripted pmproxy: exact 64-bit values and timestamps from the JSON
// text, malformed answers refused with the URL, and only LIVE mode.
import { describe, expect, it } from 'vitest';
import { PM_ERR_MODE, PM_ERR_NAME } from '../errors';
import { FleetTransport, type FleetFetch } from '../fleet/transport';
import { PM_TYPE_NOSUPPORT, type PmId } from '../types';
import { PM_MODE_INTERP } from './context';
import { PmapiContext } from './pmapi-context';

const BASE = 'http://px.test:44322';

function scripted(routes: Record<string, string>): FleetFetch {
  return (url) => {
    const path = new URL(url).pathname;
    const body = routes[path] ?? '{"success":false,"message":"no route"}';
    return Promise.resolve({ status: 200, statusText: 'OK', body: null, text: () => Promise.resolve(body) });
  };
}

const CONTEXT = '{"context":7,"source":"x","hostspec":"h","labels":{"hostname":"h"}}';
const FETCH_HOST = '{"context":7,"timestamp":1.5,"values":[{"pmid":"2.1.1","name":"pmcd.hostname","instances":[{"instance":null,"value":"h"}]}]}';

describe('PmapiContext (scripted pmproxy)', () => {
  it('keeps 64-bit values and the timestamp’s nanoseconds exact', async () => {
    const t = new FleetTransport({
      baseUrl: BASE,
      fetch: scripted({
        '/pmapi/context': CONTEXT,
        '/pmapi/7/fetch': FETCH_HOST,
        '/pmapi/7/metric': '{"context":7,"metrics":[{"name":"a.big","pmid":"60.0.1","type":"u64","sem":"counter","units":"Kbyte"}]}',
      }),
    });
    const ctx = await PmapiContext.open(t, { hostspec: 'h' });
    const [id] = (await ctx.lookupNames(['a.big'])) as PmId[];
    const [d] = await ctx.lookupDescs([id]);
    expect(d).toMatchObject({ type: 3, sem: 1, units: { dimSpace: 1, scaleSpace: 1 } });
    const t2 = new FleetTransport({
      baseUrl: BASE,
      fetch: scripted({
        '/pmapi/context': CONTEXT,
        '/pmapi/7/fetch': '{"context":7,"timestamp":1795644370.348404103,"values":[{"pmid":"60.0.1","name":"a.big","instances":[{"instance":null,"value":18446744073709551615}]}]}',
        '/pmapi/7/metric': '{"context":7,"metrics":[{"name":"a.big","pmid":"60.0.1","type":"u64","sem":"counter","units":"Kbyte"}]}',
      }),
    });
    const c2 = await PmapiContext.open(t2, { hostspec: 'h' });
    const ids = (await c2.lookupNames(['a.big'])) as PmId[];
    const r = await c2.fetch(ids);
    expect(r.timestamp).toEqual({ sec: 1795644370, nsec: 348404103 });
    expect(r.sets[0].values).toEqual([18446744073709551615n]);
  });

  it('takes a metric of unsupported type and unknown semantics as pmproxy describes it (the sample PMDA\'s sample.bad.nosupport)', async () => {
    const t = new FleetTransport({
      baseUrl: BASE,
      fetch: scripted({
        '/pmapi/context': CONTEXT,
        '/pmapi/7/fetch': FETCH_HOST,
        '/pmapi/7/metric': '{"context":7,"metrics":[{"name":"sample.bad.nosupport","pmid":"29.0.55","type":"unsupported","sem":"???","units":"none"},{"name":"sample.bad.unknown","message":"failed to lookup metric name","success":false}]}',
      }),
    });
    const ctx = await PmapiContext.open(t, { hostspec: 'h' });
    const [id] = (await ctx.lookupNames(['sample.bad.nosupport'])) as PmId[];
    const [d] = await ctx.lookupDescs([id]);
    expect(d).toMatchObject({ type: PM_TYPE_NOSUPPORT, sem: 0 });
  });

  it('refuses malformed answers naming the URL, and modes other than LIVE', async () => {
    const bad = new FleetTransport({ baseUrl: BASE, fetch: scripted({ '/pmapi/context': '{"context":"seven"}' }) });
    await expect(PmapiContext.open(bad, { hostspec: 'h' })).rejects.toMatchObject({ context: `${BASE}/pmapi/context`, message: 'unexpected answer: no context number' });
    const t = new FleetTransport({
      baseUrl: BASE,
      fetch: scripted({ '/pmapi/context': CONTEXT, '/pmapi/7/fetch': FETCH_HOST, '/pmapi/7/metric': '{"context":7,"metrics":[{"name":"a.b","pmid":"60.0.1","type":"u32","sem":"sideways","units":"none"}]}' }),
    });
    const ctx = await PmapiContext.open(t, { hostspec: 'h' });
    await expect(ctx.lookupNames(['a.b'])).rejects.toThrow('unexpected answer: descriptor of a.b');
    expect(() => ctx.setMode(PM_MODE_INTERP)).toThrow(expect.objectContaining({ code: PM_ERR_MODE }) as Error);
  });

  it('reports the connection lost while pmproxy does not answer, and back (with a new context and epoch) when it does', async () => {
    let down = false;
    let contexts = 0;
    const routes: Record<string, string> = {
      '/pmapi/7/metric': '{"context":7,"metrics":[{"name":"a.b","pmid":"60.0.1","type":"u32","sem":"instant","units":"none"}]}',
      '/pmapi/7/fetch': '{"context":7,"timestamp":2.5,"values":[{"pmid":"60.0.1","name":"a.b","instances":[{"instance":null,"value":4}]}]}',
    };
    const fetchFn: FleetFetch = (url) => {
      if (down) return Promise.reject(new TypeError('fetch failed'));
      const path = new URL(url).pathname;
      if (path === '/pmapi/context') contexts++;
      const body = path === '/pmapi/context' ? CONTEXT : path === '/pmapi/7/fetch' && !url.includes('a.b') ? FETCH_HOST : (routes[path] ?? '{}');
      return Promise.resolve({ status: 200, statusText: 'OK', body: null, text: () => Promise.resolve(body) });
    };
    const ctx = await PmapiContext.open(new FleetTransport({ baseUrl: BASE, fetch: fetchFn }), { hostspec: 'h' });
    const events: string[] = [];
    ctx.on('connection', (e) => events.push(`${e.state}${e.attempts !== undefined ? ` ${e.attempts}` : ''}`));
    expect(ctx.connectionState).toBe('connected');
    const ids = (await ctx.lookupNames(['a.b'])) as PmId[];
    const before = await ctx.fetch(ids);
    down = true;
    await expect(ctx.fetch(ids)).rejects.toMatchObject({ status: 0 });
    await expect(ctx.fetch(ids)).rejects.toMatchObject({ status: 0 });
    expect(ctx.connectionState).toBe('reconnecting');
    down = false;
    const made = contexts;
    const after = await ctx.fetch(ids);
    expect(contexts).toBe(made + 1);
    expect(after.sets[0].values).toEqual([4]);
    expect(after.epoch).toBeGreaterThan(before.epoch ?? 0);
    expect(events).toEqual(['reconnecting 1', 'reconnecting 2', 'connected']);
  });

  it('finds the names it can when pmproxy refuses a whole list for one unknown name', async () => {
    const asked: string[] = [];
    const fetchFn: FleetFetch = (url) => {
      const u = new URL(url);
      if (u.pathname === '/pmapi/context') return Promise.resolve({ status: 200, statusText: 'OK', body: null, text: () => Promise.resolve(CONTEXT) });
      if (u.pathname === '/pmapi/7/fetch') return Promise.resolve({ status: 200, statusText: 'OK', body: null, text: () => Promise.resolve(FETCH_HOST) });
      const names = (u.searchParams.get('names') ?? '').split(',');
      asked.push(names.join(','));
      if (names.includes('proc.hog.net')) return Promise.resolve({ status: 400, statusText: 'Bad Request', body: null, text: () => Promise.resolve('{"message":"proc.hog.net traversal failed - Unknown metric name","success":false}') });
      const metrics = names.map((n, i) => ({ name: n, pmid: `60.0.${i + 1}`, type: 'u32', sem: 'instant', units: 'none' }));
      return Promise.resolve({ status: 200, statusText: 'OK', body: null, text: () => Promise.resolve(JSON.stringify({ context: 7, metrics })) });
    };
    const ctx = await PmapiContext.open(new FleetTransport({ baseUrl: BASE, fetch: fetchFn }), { hostspec: 'h' });
    const ids = await ctx.lookupNames(['a.one', 'proc.hog.net', 'a.two', 'a.three']);
    expect(ids[1]).toBe(PM_ERR_NAME);
    expect(ids.filter((id) => id >= 0)).toHaveLength(3);
    // Remembered: asked again, nothing goes to pmproxy.
    const before = asked.length;
    expect((await ctx.lookupNames(['proc.hog.net', 'a.two']))[0]).toBe(PM_ERR_NAME);
    expect(asked.length).toBe(before);
  });
});
