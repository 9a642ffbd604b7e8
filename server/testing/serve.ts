// For tests: `pmdash serve` on a free loopback port, serving a placeholder app from a
// temporary directory, with the bridge configured as the test needs; stop() closes it all.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveWithBridge, type Served, type ServeOptions } from '../serve';

export interface TestServer {
  readonly served: Served;
  /** http://127.0.0.1:PORT, the page origin the bridge admits as its own. */
  readonly origin: string;
  stop(): Promise<void>;
}

export async function startTestServer(options: { readonly bridge?: ServeOptions['bridge']; readonly pmproxy?: ServeOptions['pmproxy']; readonly log?: (line: string) => void } = {}): Promise<TestServer> {
  const root = mkdtempSync(join(tmpdir(), 'pmdash-test-server-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html>');
  const served = await serveWithBridge({ port: 0, host: '127.0.0.1', root, log: options.log ?? (() => undefined), bridge: options.bridge, pmproxy: options.pmproxy });
  const address = served.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    served,
    origin,
    async stop() {
      await new Promise<void>((resolve) => {
        served.server.close(() => resolve());
        served.server.closeAllConnections();
      });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * One request to the server at `origin` with the headers given (Host included, as a browser
 * after DNS rebinding would send it): the response status, or 'upgraded' when `upgrade` asks
 * for a WebSocket and the server switched protocols.
 */
export function rawRequest(origin: string, path: string, headers: Readonly<Record<string, string>>, upgrade = false): Promise<number | 'upgraded'> {
  const url = new URL(origin);
  const upgradeHeaders = upgrade ? { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': randomBytes(16).toString('base64') } : {};
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { ...upgradeHeaders, ...headers } });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve('upgraded');
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The installed command (bin/pmdash.js, after `npm run build`), as a user runs it. */
const BIN = new URL('../../bin/pmdash.js', import.meta.url).pathname;

/**
 * Starts `pmdash serve ARGS` on a free loopback port; resolves with its origin once it prints
 * it, or rejects with its output when it exits first. The caller stops `proc`.
 */
export function spawnServe(args: readonly string[], env: NodeJS.ProcessEnv = {}): { readonly proc: ChildProcess; readonly origin: Promise<string> } {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const origin = new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Open (http:\/\/[^/\s]+)\//.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    proc.once('exit', (code) => reject(new Error(`pmdash serve exited ${code}: ${out}`)));
  });
  return { proc, origin };
}
