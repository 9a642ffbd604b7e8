// Serves the built app (dist/app) over HTTP: index.html for the root, files by path with a
// content type, HTTP Range for archives (the browser reads data volumes lazily), no directory
// listings and nothing outside the root.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function staticFiles(root: string): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    let rel: string;
    try {
      rel = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '');
    } catch {
      res.writeHead(400).end('bad path');
      return;
    }
    if (rel === '' || rel.endsWith(sep)) rel = join(rel, 'index.html');
    const path = join(root, rel);
    if (path !== root && !path.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const headers: Record<string, string | number> = {
      'Content-Type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      'Cache-Control': rel === 'index.html' ? 'no-cache' : 'public, max-age=3600',
    };
    const range = parseRange(req.headers.range, info.size);
    if (range === 'invalid') {
      res.writeHead(416, { 'Content-Range': `bytes */${info.size}` }).end();
      return;
    }
    const [start, end] = range ?? [0, info.size - 1];
    headers['Content-Length'] = info.size === 0 ? 0 : end - start + 1;
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${info.size}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === 'HEAD' || info.size === 0) {
      res.end();
      return;
    }
    createReadStream(path, { start, end }).on('error', (e) => res.destroy(e)).pipe(res);
  };
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; undefined when absent or multi-range. */
export function parseRange(header: string | undefined, size: number): [number, number] | 'invalid' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return undefined;
  const [a, b] = [m[1], m[2]];
  let start: number;
  let end: number;
  if (a === '') {
    if (b === '') return 'invalid';
    start = Math.max(0, size - Number(b));
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return [start, end];
}
