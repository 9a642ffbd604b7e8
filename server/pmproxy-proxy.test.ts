// The proxy's mechanics against a stand-in pmproxy on loopback (what reaches pmproxy, what
// comes back, streaming, caps, deadlines); its verdicts against the real pmproxy are in
// pmproxy-proxy.conformance.test.ts.
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePmproxyUrl } from './pmproxy-proxy';
import { exchange } from './testing/proxy-exchange';
import { startTestServer, type TestServer } from './testing/serve';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Raw bytes to the server (for what Node's client will not send); the answer's text. */
function rawHttp(origin: string, text: string): Promise<string> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(Buffer.from(text, 'latin1')));
    const parts: Buffer[] = [];
    socket.on('data', (c: Buffer) => parts.push(c));
    socket.on('close', () => resolve(Buffer.concat(parts).toString('latin1')));
    socket.on('error', reject);
  });
}

describe('the pmproxy proxy in front of a stand-in pmproxy', () => {
  let upstream: Server;
  let server: TestServer;
  const seen: Seen[] = [];
  const logs: string[] = [];
  let release: (() => void) | undefined;
  let upstreamClosedEarly = 0;
  let upstreamHost = '';

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/series/sources': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Set-Cookie': 'pmproxy=1', 'WWW-Authenticate': 'Basic realm="pmproxy"', 'X-Internal': 'yes' }).end('[]');
    },
    // Streams a first chunk, then waits for the test to let it finish.
    '/series/values': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[first');
      release = () => res.end(',last]');
    },
    '/series/descs': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = 'x'.repeat(16 * 1024);
      for (let i = 0; i < 8; i++) res.write(chunk);
      res.end();
    },
    '/series/labels': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(10 * 1024 * 1024) });
      res.write('[');
      res.destroy();
    },
    '/series/metrics': () => {
      // never answers: the proxy's deadline must end the exchange
    },
    '/series/instances': (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[');
      req.socket.on('close', () => (upstreamClosedEarly += 1));
    },
  };

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(parts).toString() });
        const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
        if (route) route(req, res);
        else res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const address = upstream.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    upstreamHost = `127.0.0.1:${port}`;
    server = await startTestServer({
      pmproxy: { pmproxy: parsePmproxyUrl(`http://127.0.0.1:${port}`), maxResponseBytes: 64 * 1024, timeoutMs: 1500, requestLimits: { maxUrlBytes: 1024, maxBodyBytes: 256 } },
      log: (l) => logs.push(l),
    });
  });

  afterAll(async () => {
    await server.stop();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('forwards a read with its query, and none of the page’s credentials or hop-by-hop headers', async () => {
    const before = seen.length;
    const a = await exchange(server.origin, '/pmproxy/series/query?expr=kernel.all.load%7Bhostname%3D%22a%22%7D', {
      headers: { Accept: 'application/json', Cookie: 'session=secret', Authorization: 'Basic c2VjcmV0', 'Proxy-Authorization': 'x', Connection: 'keep-alive, X-Drop', 'X-Drop': '1', 'Keep-Alive': 'timeout=5', TE: 'trailers', Referer: `${server.origin}/` },
    });
    expect(a.status).toBe(200);
    expect(a.body).toBe('{"ok":true}');
    expect(seen.length).toBe(before + 1);
    const got = seen[seen.length - 1];
    expect(got?.method).toBe('GET');
    expect(got?.url).toBe('/series/query?expr=kernel.all.load%7Bhostname%3D%22a%22%7D');
    for (const h of ['cookie', 'authorization', 'proxy-authorization', 'x-drop', 'keep-alive', 'te', 'referer', 'origin']) expect(got?.headers[h], h).toBeUndefined();
    expect(got?.headers.accept).toBe('application/json');
    expect(got?.headers.host).toBe(upstreamHost);
  });

  it('passes back the body and content headers, not pmproxy’s CORS grant, cookies or auth challenge', async () => {
    const a = await exchange(server.origin, '/pmproxy/series/sources?match=*');
    expect(a.status).toBe(200);
    expect(a.body).toBe('[]');
    expect(a.headers['content-type']).toBe('application/json');
    for (const h of ['access-control-allow-origin', 'set-cookie', 'www-authenticate', 'x-internal']) expect(a.headers[h], h).toBeUndefined();
  });

  it('forwards a URL-encoded POST body to a /series read', async () => {
    const a = await exchange(server.origin, '/pmproxy/series/query', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin }, body: 'expr=hinv.ncpu' });
    expect(a.status).toBe(200);
    const got = seen[seen.length - 1];
    expect(got).toMatchObject({ method: 'POST', url: '/series/query', body: 'expr=hinv.ncpu' });
    expect(got?.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('refuses an oversized POST body, declared or streamed, without asking pmproxy', async () => {
    const before = seen.length;
    const declared = await exchange(server.origin, '/pmproxy/series/query', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `expr=${'a'.repeat(300)}` });
    expect(declared.status).toBe(413);
    const streamed = await exchange(server.origin, '/pmproxy/series/query', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' }, body: `expr=${'a'.repeat(300)}` });
    expect(streamed.status).toBe(413);
    const long = await exchange(server.origin, `/pmproxy/series/query?expr=${'a'.repeat(1100)}`);
    expect(long.status).toBe(414);
    expect(seen.length).toBe(before);
  });

  it('streams: the first bytes reach the page before pmproxy has finished', async () => {
    const url = new URL(server.origin);
    const first = await new Promise<string>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: '/pmproxy/series/values?series=x' }, (res) => {
        res.once('data', (c: Buffer) => {
          resolve(c.toString());
          res.on('end', () => undefined);
          res.resume();
          release?.();
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(first).toBe('[first');
  });

  it('cuts off an answer past the response cap, and refuses one declared larger', async () => {
    const streamed = await exchange(server.origin, '/pmproxy/series/descs?series=x');
    expect(streamed.status).toBe(200);
    expect(streamed.cut).toBe(true);
    expect(streamed.body.length).toBeLessThanOrEqual(64 * 1024);
    const declared = await exchange(server.origin, '/pmproxy/series/labels?series=x');
    expect(declared.status).toBe(502);
    expect(logs.some((l) => l.includes('cap'))).toBe(true);
  });

  it('ends an exchange pmproxy never answers with 504 at its deadline', async () => {
    const a = await exchange(server.origin, '/pmproxy/series/metrics?match=*');
    expect(a.status).toBe(504);
    expect(server.served.pmproxy?.inFlight).toBe(0);
  });

  it('drops the request to pmproxy when the page goes away', async () => {
    const url = new URL(server.origin);
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: '/pmproxy/series/instances?series=x' }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.on('close', () => undefined);
      req.end();
      setTimeout(() => reject(new Error('no first byte')), 1000);
    });
    await expect.poll(() => upstreamClosedEarly, { timeout: 1000 }).toBe(1);
    await expect.poll(() => server.served.pmproxy?.inFlight, { timeout: 1000 }).toBe(0);
  });

  it('logs refusals escaped: a client cannot forge a log line', async () => {
    // Node's parser refuses C0 controls in the request line and headers; C1 controls (a
    // terminal's CSI, 0x9b) in a header value get through, and must not reach the log raw.
    const a = await rawHttp(server.origin, 'GET /pmproxy/series/load HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\x9b2J\r\nConnection: close\r\n\r\n');
    expect(a).toMatch(/^HTTP\/1.1 403 /);
    const line = logs.find((l) => l.includes('/series/load') && l.includes('evil.example'));
    expect(line).toContain('evil.example\\x9b2J');
    // eslint-disable-next-line no-control-regex -- looking for raw control characters is the point
    expect(logs.every((l) => !/[\x00-\x1f\x7f-\x9f]/.test(l))).toBe(true);
  });
});

describe('parsePmproxyUrl', () => {
  it('takes a URL or HOST[:PORT] (port 44322 by default), and refuses anything else', () => {
    expect(parsePmproxyUrl('localhost').href).toBe('http://localhost:44322/');
    expect(parsePmproxyUrl('gw:8080').href).toBe('http://gw:8080/');
    expect(parsePmproxyUrl('http://gw').href).toBe('http://gw/');
    expect(parsePmproxyUrl('https://gw.example:8443/pcp/').href).toBe('https://gw.example:8443/pcp');
    for (const bad of ['ftp://gw', 'http://user:pw@gw', 'http://gw/?x=1', 'http://gw/#f', 'http://[bad']) expect(() => parsePmproxyUrl(bad), bad).toThrow(/bad pmproxy URL/);
  });
});
