// For tests: `pmdash serve` on a free loopback port, serving a placeholder app from a
// temporary directory, with the bridge configured as the test needs; stop() closes it all.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveWithBridge, type Served, type ServeOptions } from './serve';

export interface TestServer {
  readonly served: Served;
  /** http://127.0.0.1:PORT, the page origin the bridge admits as its own. */
  readonly origin: string;
  stop(): Promise<void>;
}

export async function startTestServer(options: { readonly bridge?: ServeOptions['bridge']; readonly log?: (line: string) => void } = {}): Promise<TestServer> {
  const root = mkdtempSync(join(tmpdir(), 'pmdash-test-server-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html>');
  const served = await serveWithBridge({ port: 0, host: '127.0.0.1', root, log: options.log ?? (() => undefined), bridge: options.bridge });
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
