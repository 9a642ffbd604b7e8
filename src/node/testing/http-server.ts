// A local HTTP server for tests of the HTTP byte source and file set: serves a directory
// either properly (server/static-files.ts, with Range and HEAD) or as a plain server that
// ignores Range and refuses HEAD, and counts the requests it gets.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { staticFiles } from '../../../server/static-files';

export interface TestServer {
  /** Base URL, ending with '/'. */
  readonly url: string;
  /** Requests so far: "METHOD path range". */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Serves `root`: `ranged` honours Range and HEAD; `plain` answers every GET with the whole file. */
export async function serveDirectory(root: string, mode: 'ranged' | 'plain'): Promise<TestServer> {
  const requests: string[] = [];
  const ranged = staticFiles(root);
  const plain = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET') {
      res.writeHead(405, { Allow: 'GET' }).end();
      return;
    }
    const path = join(root, normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    const bytes = await readFile(path).catch(() => undefined);
    if (!bytes) res.writeHead(404).end('not found');
    else res.writeHead(200, { 'Content-Length': bytes.length }).end(bytes);
  };
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.range ?? ''}`.trim());
    const handle = mode === 'ranged' ? ranged : plain;
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
