// `npm run dev` reaches the bridge through the Vite dev server's proxy (vite.config.ts): the
// dev server forwards /pmcd WebSocket upgrades and GET /pmcd/targets to a `pmdash serve`
// (here one in-process, in front of a fake pmcd), keeping the Host header so the bridge's
// Origin check admits the dev server's own pages and still refuses foreign ones. /pmproxy/…
// goes the same way to serve's pmproxy proxy (here in front of a stand-in pmproxy).
import { createServer as createHttpServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { WebSocket } from 'ws';
import { LiveContext } from '../src/pcp-core/context/live-context';
import { FakePmcd } from '../src/pcp-core/pdu/fake-pmcd';
import { bridgeUrl } from '../src/pcp-core/pdu/target-spec';
import { decodeUnits, pmid, PM_INDOM_NULL, PM_TYPE_U32, type PmId } from '../src/pcp-core/types';
import { openNodeWebSocketTransport } from '../src/node/websocket-transport';
import { parsePmproxyUrl } from './pmproxy-proxy';
import { exchange } from './testing/proxy-exchange';
import { serveWithBridge, type Served } from './serve';

const NCPU = pmid(60, 0, 32);

describe('the Vite dev server proxies /pmcd and /pmproxy to pmdash serve', () => {
  let served: Served;
  let upstream: Server;
  const upstreamSeen: string[] = [];
  let vite: ViteDevServer;
  let root: string;
  let devOrigin: string;
  const logs: string[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'pmdash-vite-bridge-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    const fake = new FakePmcd([{ name: 'hinv.ncpu', desc: { pmid: NCPU, type: PM_TYPE_U32, indom: PM_INDOM_NULL, sem: 4, units: decodeUnits(0) }, value: () => 8 }]);
    upstream = createHttpServer((req, res) => {
      upstreamSeen.push(`${req.method ?? ''} ${req.url ?? ''}`);
      req.resume();
      req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]'));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamAddress = upstream.address();
    const pmproxy = parsePmproxyUrl(`http://127.0.0.1:${typeof upstreamAddress === 'object' && upstreamAddress ? upstreamAddress.port : 0}`);
    served = await serveWithBridge({ port: 0, host: '127.0.0.1', root, log: (l) => logs.push(l), bridge: { connectUpstream: () => Promise.resolve(fake.connect()) }, pmproxy: { pmproxy } });
    const address = served.server.address();
    const previous = process.env.PMDASH_DEV_BRIDGE;
    process.env.PMDASH_DEV_BRIDGE = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      vite = await createServer({ configFile: join(import.meta.dirname, '..', 'vite.config.ts'), root: join(import.meta.dirname, '..'), logLevel: 'silent', server: { port: 0, host: '127.0.0.1', hmr: false } });
    } finally {
      if (previous === undefined) delete process.env.PMDASH_DEV_BRIDGE;
      else process.env.PMDASH_DEV_BRIDGE = previous;
    }
    await vite.listen();
    const viteAddress = vite.httpServer?.address();
    devOrigin = `http://127.0.0.1:${typeof viteAddress === 'object' && viteAddress ? viteAddress.port : 0}`;
  });
  afterAll(async () => {
    await vite?.close();
    await new Promise<void>((resolve) => {
      served.server.close(() => resolve());
      served.server.closeAllConnections();
    });
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  it('carries a live context from a dev-server page to pmcd', async () => {
    const url = bridgeUrl(devOrigin);
    const ctx = await LiveContext.open({ target: url, connect: () => openNodeWebSocketTransport(url, { origin: devOrigin }), reconnectDelaysMs: [] });
    try {
      const [id] = (await ctx.lookupNames(['hinv.ncpu'])) as PmId[];
      expect((await ctx.fetch([id])).sets[0]?.values).toEqual([8]);
    } finally {
      await ctx.close();
    }
    expect(logs.some((l) => l.includes(`origin ${devOrigin} → localhost:44321`))).toBe(true);
  });

  it('answers GET /pmcd/targets from the bridge', async () => {
    expect(await (await fetch(`${devOrigin}/pmcd/targets`)).json()).toEqual({ default: 'localhost:44321', targets: ['localhost:44321'] });
  });

  it('still refuses a page of another origin', async () => {
    const status = await new Promise<string>((resolve) => {
      const ws = new WebSocket(bridgeUrl(devOrigin), { origin: 'http://evil.example.com' });
      ws.on('error', (e) => resolve(e.message));
      ws.on('open', () => resolve('opened'));
    });
    expect(status).toBe('Unexpected server response: 403');
  });

  it('passes a /pmproxy read to serve’s pmproxy proxy', async () => {
    const before = upstreamSeen.length;
    const a = await exchange(devOrigin, '/pmproxy/series/sources?match=*');
    expect(a.status).toBe(200);
    expect(a.body).toBe('[]');
    expect(upstreamSeen.slice(before)).toEqual(['GET /series/sources?match=*']);
  });

  it('admits a /pmproxy POST from a dev-server page and refuses one from another origin', async () => {
    const post = (origin: string) =>
      exchange(devOrigin, '/pmproxy/series/query', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin }, body: 'expr=hinv.ncpu' });
    const before = upstreamSeen.length;
    expect((await post(devOrigin)).status).toBe(200);
    expect((await post('http://evil.example.com')).status).toBe(403);
    expect(upstreamSeen.slice(before)).toEqual(['POST /series/query']);
  });
});
