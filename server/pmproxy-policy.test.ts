import { describe, expect, it } from 'vitest';
import { checkProxyRequest, FORWARDED_REQUEST_HEADERS, FORWARDED_RESPONSE_HEADERS, isProxyPath, pickHeaders } from './pmproxy-policy';

const verdict = (method: string, url: string, type?: string, length?: string) => checkProxyRequest(method, url, type, length);
const forwards = (method: string, url: string, type?: string, length?: string): boolean => verdict(method, url, type, length).action === 'forward';

describe('the pmproxy proxy endpoint policy', () => {
  it('forwards every read endpoint with GET, query string intact, prefix removed', () => {
    for (const e of ['query', 'values', 'descs', 'labels', 'metrics', 'instances', 'sources', 'ping']) expect(forwards('GET', `/pmproxy/series/${e}`), e).toBe(true);
    for (const e of ['context', 'metric', 'fetch', 'indom', 'children', 'profile']) {
      expect(forwards('GET', `/pmproxy/pmapi/${e}`), e).toBe(true);
      expect(forwards('GET', `/pmproxy/pmapi/12345/${e}`), e).toBe(true);
    }
    expect(verdict('GET', '/pmproxy/series/query?expr=kernel.all.load%5Bsamples%3A2%5D')).toEqual({ action: 'forward', upstreamPath: '/series/query?expr=kernel.all.load%5Bsamples%3A2%5D', hasBody: false });
    expect(verdict('GET', '/pmproxy/pmapi/7/fetch?names=hinv.ncpu')).toEqual({ action: 'forward', upstreamPath: '/pmapi/7/fetch?names=hinv.ncpu', hasBody: false });
  });

  it('forwards POST only where pmproxy takes it: the /series reads, URL-encoded', () => {
    expect(verdict('POST', '/pmproxy/series/query', 'application/x-www-form-urlencoded', '12')).toEqual({ action: 'forward', upstreamPath: '/series/query', hasBody: true });
    expect(forwards('POST', '/pmproxy/series/values', 'application/x-www-form-urlencoded; charset=UTF-8', '5')).toBe(true);
    expect(forwards('POST', '/pmproxy/series/values', undefined, undefined)).toBe(true);
    expect(verdict('POST', '/pmproxy/series/ping', undefined, '0')).toMatchObject({ action: 'refuse', status: 403 });
    for (const e of ['context', 'metric', 'fetch', 'indom', 'children', 'profile']) expect(verdict('POST', `/pmproxy/pmapi/${e}`, 'application/x-www-form-urlencoded', '1')).toMatchObject({ action: 'refuse', status: 403 });
    expect(verdict('POST', '/pmproxy/series/query', 'application/json', '2')).toMatchObject({ action: 'refuse', status: 415 });
    expect(verdict('POST', '/pmproxy/series/query', 'text/plain', '2')).toMatchObject({ action: 'refuse', status: 415 });
  });

  it('refuses the writes, the server-path loader and everything unknown with 403', () => {
    const refused = [
      '/pmproxy/series/load?expr={source.path:"/etc"}',
      '/pmproxy/series/load',
      '/pmproxy/pmapi/store?name=sample.write_me&value=1',
      '/pmproxy/pmapi/3/store?name=x&value=1',
      '/pmproxy/pmapi/derive?name=x&expr=hinv.ncpu',
      '/pmproxy/pmapi/metrics',
      '/pmproxy/metrics',
      '/pmproxy/search/text?query=x',
      '/pmproxy/logger/ping',
      '/pmproxy/',
      '/pmproxy',
      '/pmproxy?x',
      '/pmproxy/series/',
      '/pmproxy/series/query/',
      '/pmproxy//series/query',
      '/pmproxy/series//query',
      '/pmproxy/series/../series/load',
      '/pmproxy/series/./query',
      '/pmproxy/series/%6coad',
      '/pmproxy/series/quer%79',
      '/pmproxy/series/QUERY',
      '/pmproxy/pmapi/-1/fetch',
      '/pmproxy/pmapi/1/2/fetch',
      '/pmproxy/pmapi/12345678901/fetch',
      '/pmproxy/series/query;x',
    ];
    for (const url of refused) expect(verdict('GET', url), url).toMatchObject({ action: 'refuse', status: 403 });
  });

  it('refuses other methods with 403, and a GET that announces a body', () => {
    for (const m of ['HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'CONNECT', 'get']) expect(verdict(m, '/pmproxy/series/query?expr=x'), m).toMatchObject({ action: 'refuse', status: 403 });
    expect(verdict('GET', '/pmproxy/series/query?expr=x', undefined, '10')).toMatchObject({ action: 'refuse', status: 403 });
    expect(forwards('GET', '/pmproxy/series/query?expr=x', undefined, '0')).toBe(true);
  });

  it('caps the request target and the declared body', () => {
    const long = `/pmproxy/series/query?expr=${'a'.repeat(8192)}`;
    expect(verdict('GET', long)).toMatchObject({ action: 'refuse', status: 414 });
    expect(checkProxyRequest('GET', '/pmproxy/series/query?expr=abc', undefined, undefined, { maxUrlBytes: 20, maxBodyBytes: 10 })).toMatchObject({ status: 414 });
    expect(checkProxyRequest('POST', '/pmproxy/series/query', undefined, '11', { maxUrlBytes: 100, maxBodyBytes: 10 })).toMatchObject({ status: 413 });
    expect(checkProxyRequest('POST', '/pmproxy/series/query', undefined, '10', { maxUrlBytes: 100, maxBodyBytes: 10 })).toMatchObject({ action: 'forward' });
    expect(checkProxyRequest('POST', '/pmproxy/series/query', undefined, '1e9', { maxUrlBytes: 100, maxBodyBytes: 10 })).toMatchObject({ status: 413 });
  });

  it('knows its own paths and no others', () => {
    for (const u of ['/pmproxy', '/pmproxy/', '/pmproxy/series/query', '/pmproxy?x']) expect(isProxyPath(u), u).toBe(true);
    for (const u of ['/', '/pmproxyx', '/pmcd', '/pmcd/targets', '/index.html', 'http://x/pmproxy/series/load']) expect(isProxyPath(u), u).toBe(false);
  });

  it('passes no credentials or hop-by-hop headers to pmproxy, and no CORS grant or cookie back', () => {
    const sent = pickHeaders(
      { accept: 'application/json', cookie: 'session=1', authorization: 'Basic eDp5', 'proxy-authorization': 'x', origin: 'http://a', connection: 'keep-alive, x-secret', 'x-secret': '1', 'keep-alive': '5', te: 'trailers', upgrade: 'h2c', 'transfer-encoding': 'chunked', referer: 'http://a/' },
      FORWARDED_REQUEST_HEADERS,
    );
    expect(sent).toEqual({ accept: 'application/json' });
    const back = pickHeaders(
      { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'access-control-allow-headers': 'x', 'set-cookie': ['a=b'], 'www-authenticate': 'Basic', connection: 'keep-alive', 'keep-alive': 'timeout=5', 'transfer-encoding': 'chunked', 'content-length': '2' },
      FORWARDED_RESPONSE_HEADERS,
    );
    expect(back).toEqual({ 'content-type': 'application/json', 'content-length': '2' });
  });
});
