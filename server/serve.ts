// The pmdash server: the built app over HTTP and the pmcd WebSocket bridge (bridge.ts) on the
// same port, so the app reaches live pmcd from its own origin: ws(s)://HOST:PORT/pmcd; with
// --pmproxy, that pmproxy's read endpoints at /pmproxy/… (pmproxy-proxy.ts).
import { createServer, type Server } from 'node:http';
import { attachBridge, type Bridge, type BridgeOptions } from './bridge';
import { escapeLogText } from './log-text';
import { isProxyPath } from './pmproxy-policy';
import { makePmproxyProxy, type PmproxyProxy, type PmproxyProxyOptions } from './pmproxy-proxy';
import { staticFiles } from './static-files';

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  /** Directory of the built app (dist/app). */
  readonly root: string;
  readonly log: (line: string) => void;
  /** The pmcd bridge's settings; without them the bridge still runs, for localhost:44321. */
  readonly bridge?: Omit<BridgeOptions, 'log'>;
  /** A pmproxy to proxy at /pmproxy/… (pmproxy-proxy.ts); none without it. */
  readonly pmproxy?: Omit<PmproxyProxyOptions, 'log' | 'policy'>;
}

export interface Served {
  readonly server: Server;
  readonly bridge: Bridge;
  readonly pmproxy?: PmproxyProxy;
}

export async function serve(options: ServeOptions): Promise<Server> {
  return (await serveWithBridge(options)).server;
}

/** Like serve(), also handing back the bridge (its policy, open connections). */
export async function serveWithBridge(options: ServeOptions): Promise<Served> {
  const files = staticFiles(options.root);
  const server = createServer();
  const bridge = attachBridge(server, { listenHost: options.host, ...options.bridge, log: options.log });
  const pmproxy = options.pmproxy ? makePmproxyProxy({ ...options.pmproxy, policy: bridge.policy, log: options.log }) : undefined;
  server.on('request', (req, res) => {
    // Every surface answers only to this server's own names (host-check.ts): DNS rebinding.
    const refusal = bridge.checkHost(req);
    if (refusal) {
      options.log(escapeLogText(`refused ${req.socket.remoteAddress ?? '?'} ${req.method ?? ''} ${req.url ?? ''}: ${refusal.reason}`));
      res.writeHead(refusal.status, { 'Content-Type': 'text/plain', Connection: 'close' }).end(`${refusal.reason}\n`);
      return;
    }
    if (bridge.handleHttp(req, res)) return;
    if (pmproxy?.handle(req, res)) return;
    if (!pmproxy && isProxyPath(req.url ?? '/')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('this pmdash serve has no pmproxy (start it with --pmproxy URL)\n');
      return;
    }
    files(req, res).catch((e: unknown) => {
      options.log(escapeLogText(`error serving ${req.url ?? ''}: ${e instanceof Error ? e.message : String(e)}`));
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  server.on('close', () => {
    bridge.close();
    pmproxy?.close();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return { server, bridge, pmproxy };
}
