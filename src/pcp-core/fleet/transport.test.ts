// The transport's limits and error texts, over a scripted fetch: every bad answer is a
// FleetError naming the URL; nothing unbounded is read or waited for.
import { describe, expect, it } from 'vitest';
import { ECONNREFUSED, EPROTO, PM_ERR_TIMEOUT, PM_ERR_TOOBIG } from '../errors';
import { ECANCELED, FleetError, FleetTransport, isFleetCancel, type FleetFetch, type FleetResponse } from './transport';

const BASE = 'http://pmproxy.test:44322';

function answer(status: number, body: string | Uint8Array[], statusText = 'OK'): FleetResponse {
  const chunks = typeof body === 'string' ? [new TextEncoder().encode(body)] : body;
  return {
    status,
    statusText,
    body: new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(chunk);
        c.close();
      },
    }),
    text: () => Promise.reject(new Error('the transport reads the stream')),
  };
}

function transport(fetch: FleetFetch, extra: Partial<ConstructorParameters<typeof FleetTransport>[0]> = {}): FleetTransport {
  return new FleetTransport({ baseUrl: `${BASE}/`, fetch, ...extra });
}

const failure = async (p: Promise<unknown>): Promise<FleetError> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof FleetError) return e;
    throw e;
  }
  throw new Error('expected a FleetError');
};

describe('FleetTransport', () => {
  it('GETs with URL-encoded parameters and parses JSON', async () => {
    const urls: string[] = [];
    const t = transport((url) => {
      urls.push(url);
      return Promise.resolve(answer(200, '["a"]'));
    });
    expect(await t.getJson('/series/query', { expr: 'kernel.all.load{hostname:"a b"}', client: undefined })).toEqual(['a']);
    expect(urls).toEqual([`${BASE}/series/query?expr=kernel.all.load%7Bhostname%3A%22a+b%22%7D`]);
  });

  it('POSTs long parameter lists in the body', async () => {
    const seen: Array<{ url: string; method: string; body?: string }> = [];
    const t = transport((url, init) => {
      seen.push({ url, method: init.method, body: init.body });
      return Promise.resolve(answer(200, '[]'));
    });
    const series = Array.from({ length: 100 }, () => 'f'.repeat(40)).join(',');
    await t.getJson('/series/descs', { series });
    expect(seen[0].url).toBe(`${BASE}/series/descs`);
    expect(seen[0].method).toBe('POST');
    expect(new URLSearchParams(seen[0].body).get('series')).toBe(series);
  });

  it('names the URL in HTTP errors, with pmproxy’s message when it gave one', async () => {
    const html = await failure(transport(() => Promise.resolve(answer(400, '<html><h1>400 Bad Request</h1></html>', 'Bad Request'))).getJson('/series/sources', {}));
    expect(html.describe()).toBe(`${BASE}/series/sources: HTTP 400 Bad Request: <html><h1>400 Bad Request</h1></html>`);
    expect(html.status).toBe(400);
    const json = await failure(transport(() => Promise.resolve(answer(400, '{"success":false,"message":"cannot parse\\n^"}', 'Bad Request'))).getJson('/series/query', { expr: 'x[' }));
    expect(json.describe()).toBe(`${BASE}/series/query?expr=x%5B: HTTP 400 Bad Request: pmproxy: cannot parse ^`);
    const ok = await failure(transport(() => Promise.resolve(answer(200, '{"success":false}'))).getJson('/series/load', {}));
    expect(ok.message).toBe('pmproxy: request failed');
  });

  it('refuses answers that are not JSON, not UTF-8, or empty', async () => {
    const notJson = await failure(transport(() => Promise.resolve(answer(200, 'hello\u0000world'))).getJson('/series/ping', {}));
    expect(notJson.code).toBe(EPROTO);
    expect(notJson.describe()).toBe(`${BASE}/series/ping: answer is not JSON: hello world`);
    const notUtf8 = await failure(transport(() => Promise.resolve(answer(200, [new Uint8Array([0x5b, 0xff, 0x5d])]))).getJson('/series/ping', {}));
    expect(notUtf8.message).toBe('answer is not UTF-8 text');
    const empty = await failure(transport(() => Promise.resolve(answer(200, ''))).getJson('/series/ping', {}));
    expect(empty.message).toMatch(/^empty answer/);
  });

  it('stops reading a body past the byte limit', async () => {
    let pulled = 0;
    const endless: FleetResponse = {
      status: 200,
      statusText: 'OK',
      body: new ReadableStream<Uint8Array>({
        pull(c) {
          pulled++;
          c.enqueue(new Uint8Array(1024).fill(0x20));
        },
      }),
      text: () => Promise.reject(new Error('unused')),
    };
    const e = await failure(transport(() => Promise.resolve(endless), { maxBodyBytes: 10_000 }).getJson('/series/query', { expr: 'a' }));
    expect(e.code).toBe(PM_ERR_TOOBIG);
    expect(e.describe()).toBe(`${BASE}/series/query?expr=a: answer larger than 10000 bytes`);
    expect(pulled).toBeLessThan(20);
  });

  it('reports an unreachable pmproxy and a silent one', async () => {
    const refused = await failure(transport(() => Promise.reject(new TypeError('fetch failed'))).getJson('/series/ping', {}));
    expect(refused.code).toBe(ECONNREFUSED);
    expect(refused.describe()).toBe(`${BASE}/series/ping: cannot reach pmproxy: fetch failed`);
    const silent: FleetFetch = (_url, init) =>
      new Promise((_resolve, reject) => init.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const slow = await failure(transport(silent, { timeoutMs: 20 }).getJson('/series/ping', {}));
    expect(slow.code).toBe(PM_ERR_TIMEOUT);
    expect(slow.describe()).toBe(`${BASE}/series/ping: no complete answer within 20 ms`);
  });

  it('cancels with its caller’s signal, in flight or still queued, and frees its place', async () => {
    const pending: Array<() => void> = [];
    const hang: FleetFetch = (_url, init) =>
      new Promise((resolve, reject) => {
        pending.push(() => resolve(answer(200, '[]')));
        init.signal.addEventListener('abort', () => reject(new Error('aborted')));
      });
    const t = transport(hang, { maxConcurrent: 1 });
    const a = new AbortController();
    const b = new AbortController();
    const first = failure(t.getJson('/series/ping', {}, a.signal));
    const queued = failure(t.getJson('/series/ping', {}, b.signal));
    b.abort();
    expect((await queued).code).toBe(ECANCELED);
    a.abort();
    const e = await first;
    expect(isFleetCancel(e)).toBe(true);
    // The place is free again: a third request runs.
    const third = t.getJson('/series/ping', {});
    await new Promise((r) => setTimeout(r, 0));
    pending[pending.length - 1]();
    expect(await third).toEqual([]);
  });

  it('keeps timestamps as text when asked (pmproxy’s MS.USEC is not a decimal fraction)', async () => {
    const body = '[{"series":"x","timestamp":1357328661336.63,"value":"1"},{"timestamp" : 5,"value":"\\"timestamp\\":7"}]';
    const t = transport(() => Promise.resolve(answer(200, body)));
    expect(await t.getJson('/series/query', {}, undefined, true)).toEqual([
      { series: 'x', timestamp: '1357328661336.63', value: '1' },
      { timestamp: '5', value: '"timestamp":7' },
    ]);
  });
});
