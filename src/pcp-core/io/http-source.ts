// A ByteSource over an HTTP(S) URL read with Range requests, for archives served by pmdash's
// own server or any static file server: decoders issue many small reads, so the file is read
// in aligned 64 KiB blocks, neighbouring missing blocks are fetched in one request, blocks in
// flight are shared, and blocks are kept in a shared LRU cache. The size comes from the first
// ranged response's Content-Range. A server that ignores Range (it answers 200 with the whole
// file) is read once, in full, and served from memory. Errors name the URL and the status.
import type { ByteSource } from './byte-source';
import { ByteCache, cacheOwner } from './byte-cache';
import { checkRead } from './read-args';
import { EACCES, EIO, ENOENT, PmError } from '../errors';

/** The fetch this module needs; the global fetch by default, injectable for tests or auth. */
export type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

export const HTTP_BLOCK_BYTES = 64 * 1024;

/** Reads of at least this many bytes (the chunks read-ahead-source.ts asks for) use blocks
 *  held or in flight but do not keep the blocks they fetch: the reader above keeps them. */
export const HTTP_BULK_BYTES = 1024 * 1024;

/** Blocks of every open HttpSource share this budget (io/README.md budgets); forward passes
 *  are read ahead in larger ranges above it (read-ahead-source.ts). */
export const httpBlockCache = new ByteCache(32 * 1024 * 1024);

export interface HttpSourceOptions {
  fetch?: Fetch;
  cache?: ByteCache;
  /** What to call the source in messages; the URL by default. */
  name?: string;
}

/** The PmError for a failed response: 404/410 are ENOENT, 401/403 EACCES, the rest EIO. */
export function httpError(name: string, response: Response): PmError {
  const code = response.status === 404 || response.status === 410 ? ENOENT : response.status === 401 || response.status === 403 ? EACCES : EIO;
  return new PmError(code, undefined, `${name} (HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''})`);
}

/**
 * Runs fetch, turning network failures into PmError naming the URL. A request that fails
 * before any answer is sent once more: the usual cause is a kept-alive connection the server
 * closed just as it was reused, and every request here (GET, HEAD) is idempotent.
 */
export async function fetchOrFail(fetchFn: Fetch, name: string, url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetchFn(url, init);
  } catch {
    try {
      return await fetchFn(url, init);
    } catch (e) {
      throw new PmError(EIO, undefined, `${name} (${describeFailure(e)})`);
    }
  }
}

/** A fetch failure's message with its cause ("fetch failed: connect ECONNREFUSED ..."). */
function describeFailure(e: unknown): string {
  if (!(e instanceof Error)) return 'request failed';
  const cause = (e as Error & { cause?: unknown }).cause;
  return cause instanceof Error && cause.message ? `${e.message}: ${cause.message}` : e.message;
}

/** "bytes a-b/total" → [a, b, total]; total may be '*' (unknown) → NaN. */
function parseContentRange(header: string | null): [number, number, number] | undefined {
  const m = header ? /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header.trim()) : null;
  return m ? [Number(m[1]), Number(m[2]), m[3] === '*' ? NaN : Number(m[3])] : undefined;
}

export class HttpSource implements ByteSource {
  private readonly owner = cacheOwner('http');
  private readonly pending = new Map<number, Promise<Uint8Array>>();
  private closed = false;

  private constructor(
    readonly name: string,
    readonly url: string,
    readonly size: number,
    private readonly fetchFn: Fetch,
    private readonly cache: ByteCache,
    /** The whole file, when the server ignored Range. */
    private readonly whole: Uint8Array | undefined,
  ) {}

  /** Opens `url`: one ranged GET of the first block gives the size (and that block). */
  static async open(url: string, options: HttpSourceOptions = {}): Promise<HttpSource> {
    const fetchFn = options.fetch ?? ((u, init) => fetch(u, init));
    const cache = options.cache ?? httpBlockCache;
    const name = options.name ?? url;
    const response = await fetchOrFail(fetchFn, name, url, { headers: { Range: `bytes=0-${HTTP_BLOCK_BYTES - 1}` } });
    if (response.status === 200) {
      // Range ignored: this response is the whole file.
      const whole = new Uint8Array(await response.arrayBuffer());
      return new HttpSource(name, url, whole.length, fetchFn, cache, whole);
    }
    if (response.status === 416) {
      // Nothing at offset 0: an empty file ("bytes */0").
      await response.body?.cancel();
      const range = /^bytes \*\/(\d+)$/.exec(response.headers.get('Content-Range') ?? '');
      if (range && Number(range[1]) === 0) return new HttpSource(name, url, 0, fetchFn, cache, undefined);
      throw httpError(name, response);
    }
    if (response.status !== 206) {
      await response.body?.cancel();
      throw httpError(name, response);
    }
    const range = parseContentRange(response.headers.get('Content-Range'));
    if (!range || range[0] !== 0 || !Number.isSafeInteger(range[2])) {
      await response.body?.cancel();
      throw new PmError(EIO, undefined, `${name} (HTTP 206 without a usable Content-Range: ${response.headers.get('Content-Range') ?? 'none'})`);
    }
    const source = new HttpSource(name, url, range[2], fetchFn, cache, undefined);
    const first = new Uint8Array(await response.arrayBuffer());
    source.check(first, 0, Math.min(HTTP_BLOCK_BYTES, range[2]));
    cache.set(source.owner + 0, first);
    return source;
  }

  /** A response body must be exactly the bytes asked for. */
  private check(bytes: Uint8Array, offset: number, expected: number): void {
    if (bytes.length !== expected) {
      throw new PmError(EIO, undefined, `${this.name} (HTTP range at ${offset}: ${bytes.length} bytes, ${expected} expected; the file changed or the server re-encoded it)`);
    }
  }

  /** Bytes [start, end) in one request, checked against the size and the range asked. */
  private async fetchRange(start: number, end: number): Promise<Uint8Array> {
    const response = await fetchOrFail(this.fetchFn, this.name, this.url, { headers: { Range: `bytes=${start}-${end - 1}` } });
    if (response.status !== 206) {
      await response.body?.cancel();
      throw response.ok ? new PmError(EIO, undefined, `${this.name} (HTTP ${response.status}: the server stopped honouring Range)`) : httpError(this.name, response);
    }
    const range = parseContentRange(response.headers.get('Content-Range'));
    const bytes = new Uint8Array(await response.arrayBuffer());
    // A file that grew (an archive pmlogger is writing) still holds the bytes asked for.
    if (!range || range[0] !== start || range[2] < this.size) {
      throw new PmError(EIO, undefined, `${this.name} (HTTP range ${start}-${end - 1} answered with ${response.headers.get('Content-Range') ?? 'no Content-Range'}; the file changed?)`);
    }
    this.check(bytes, start, end - start);
    return bytes;
  }

  /** Fetches blocks first..last (inclusive) in one request, caching each when `keep`. */
  private async fetchBlocks(first: number, last: number, keep: boolean): Promise<Map<number, Uint8Array>> {
    const bytes = await this.fetchRange(first * HTTP_BLOCK_BYTES, Math.min((last + 1) * HTTP_BLOCK_BYTES, this.size));
    const blocks = new Map<number, Uint8Array>();
    for (let b = first; b <= last; b++) {
      const block = bytes.subarray((b - first) * HTTP_BLOCK_BYTES, Math.min((b - first + 1) * HTTP_BLOCK_BYTES, bytes.length));
      blocks.set(b, block);
      if (keep && !this.closed) this.cache.set(this.owner + b, block);
    }
    return blocks;
  }

  /** Blocks first..last, from the cache, from requests in flight, or fetched together (and
   *  cached when `keep`). */
  private async blocks(first: number, last: number, keep: boolean): Promise<Uint8Array[]> {
    const found = new Map<number, Promise<Uint8Array>>();
    let runStart = -1;
    const flush = (runEnd: number): void => {
      if (runStart < 0) return;
      const request = this.fetchBlocks(runStart, runEnd, keep);
      for (let b = runStart; b <= runEnd; b++) {
        const one = request.then((m) => m.get(b) as Uint8Array);
        this.pending.set(b, one);
        found.set(b, one);
        const forget = (): void => {
          if (this.pending.get(b) === one) this.pending.delete(b);
        };
        one.then(forget, forget);
      }
      runStart = -1;
    };
    for (let b = first; b <= last; b++) {
      const cached = this.cache.get(this.owner + b);
      const inFlight = cached ? Promise.resolve(cached) : this.pending.get(b);
      if (inFlight) {
        flush(b - 1);
        found.set(b, inFlight);
      } else if (runStart < 0) {
        runStart = b;
      }
    }
    flush(last);
    return Promise.all([...found.keys()].sort((a, b) => a - b).map((b) => found.get(b) as Promise<Uint8Array>));
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRead(this.name, offset, length, this.closed);
    const end = Math.min(offset + length, this.size);
    if (offset >= end) return new Uint8Array(0);
    if (this.whole) return this.whole.subarray(offset, end);
    const first = Math.floor(offset / HTTP_BLOCK_BYTES);
    const last = Math.floor((end - 1) / HTTP_BLOCK_BYTES);
    const blocks = await this.blocks(first, last, end - offset < HTTP_BULK_BYTES);
    if (blocks.length === 1) return blocks[0].subarray(offset - first * HTTP_BLOCK_BYTES, end - first * HTTP_BLOCK_BYTES);
    const out = new Uint8Array(end - offset);
    blocks.forEach((block, k) => {
      const blockStart = (first + k) * HTTP_BLOCK_BYTES;
      const from = Math.max(offset, blockStart);
      const to = Math.min(end, blockStart + block.length);
      out.set(block.subarray(from - blockStart, to - blockStart), from - offset);
    });
    return out;
  }

  close(): Promise<void> {
    this.closed = true;
    this.cache.deletePrefix(this.owner);
    return Promise.resolve();
  }
}
