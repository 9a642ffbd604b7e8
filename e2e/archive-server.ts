// A plain static HTTP server for archives in a directory, on 127.0.0.1 (another origin than
// the app's), for specs that open archives by URL: Range requests as a web server answers
// them, each file's size taken at the request (a file pmlogger is writing grows between them).
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** What the archive server was asked: method, file, Range header, status, bytes sent. */
export interface Served {
  readonly method: string;
  readonly file: string;
  readonly range: string;
  readonly status: number;
  readonly bytes: number;
}

/**
 * A plain static server for the QA archives on 127.0.0.1, another origin than the app's: it
 * answers HEAD, single `bytes=a-b` Range requests with 206 and anything else with the whole
 * file, with the CORS headers a page of another origin needs, and records every request.
 */
export async function archiveServer(dir: string): Promise<{ url: string; served: Served[]; close: () => Promise<void> }> {
  const served: Served[] = [];
  const cors = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': 'Range',
    'Access-Control-Expose-Headers': 'Content-Range, Content-Length, Accept-Ranges',
  };
  const server: Server = createServer((req, res) => {
    const file = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    const range = req.headers.range ?? '';
    const record = (status: number, bytes = 0): void => {
      served.push({ method: req.method ?? '', file, range, status, bytes });
    };
    if (req.method === 'OPTIONS') {
      record(204);
      res.writeHead(204, cors).end();
      return;
    }
    let size: number;
    try {
      if (file.includes('/')) throw new Error('flat directory');
      size = statSync(join(dir, file)).size;
    } catch {
      record(404);
      res.writeHead(404, cors).end();
      return;
    }
    const m = /^bytes=(\d+)-(\d*)$/.exec(range);
    const [start, end] = m ? [Number(m[1]), Math.min(size - 1, m[2] ? Number(m[2]) : size - 1)] : [0, size - 1];
    const headers = { ...cors, 'Accept-Ranges': 'bytes', 'Content-Length': String(end - start + 1) };
    if (req.method === 'HEAD') {
      record(200);
      res.writeHead(200, { ...headers, 'Content-Length': String(size) }).end();
      return;
    }
    record(m ? 206 : 200, end - start + 1);
    res.writeHead(m ? 206 : 200, m ? { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}` } : headers);
    createReadStream(join(dir, file), { start, end }).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, served, close: () => new Promise((ok) => server.close(() => ok())) };
}
