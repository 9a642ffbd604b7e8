// The pmdash server: the built app over HTTP (and, with the live issue, the pmcd bridge on
// the same origin).
import { createServer, type Server } from 'node:http';
import { staticFiles } from './static-files';

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  /** Directory of the built app (dist/app). */
  readonly root: string;
  readonly log: (line: string) => void;
}

export async function serve(options: ServeOptions): Promise<Server> {
  const files = staticFiles(options.root);
  const server = createServer((req, res) => {
    files(req, res).catch((e: unknown) => {
      options.log(`error serving ${req.url}: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}
