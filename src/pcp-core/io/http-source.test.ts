// HttpSource against a local server: every read equals the file's bytes, neighbouring reads
// share requests, a server that ignores Range is read once, and failures name URL and status.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDirectory, type TestServer } from '../../node/testing/http-server';
import { HTTP_BLOCK_BYTES, HTTP_BULK_BYTES, HttpSource } from './http-source';
import { ReadAheadSource } from './read-ahead-source';
import { ByteCache } from './byte-cache';
import { EIO, ENOENT, PmError } from '../errors';

const dir = mkdtempSync(join(tmpdir(), 'pmdash-http-'));
const bytes = Uint8Array.from({ length: 300_001 }, (_, i) => (i * 31 + (i >> 9)) & 0xff);
writeFileSync(join(dir, 'data.0'), bytes);
writeFileSync(join(dir, 'empty.0'), new Uint8Array(0));
writeFileSync(join(dir, 'small.0'), bytes.subarray(0, 100));
const big = Uint8Array.from({ length: 5 * 1024 * 1024 + 77 }, (_, i) => (i * 13 + (i >> 11)) & 0xff);
writeFileSync(join(dir, 'big.0'), big);
let ranged: TestServer;
let plain: TestServer;
beforeAll(async () => {
  ranged = await serveDirectory(dir, 'ranged');
  plain = await serveDirectory(dir, 'plain');
});
afterAll(async () => {
  await ranged.close();
  await plain.close();
  rmSync(dir, { recursive: true, force: true });
});

async function expectReads(src: HttpSource, whole: Uint8Array): Promise<void> {
  expect(src.size).toBe(whole.length);
  let x = 7;
  for (let i = 0; i < 300; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const offset = x % (whole.length + 10);
    const length = (x >> 8) % 150_000;
    const got = await src.read(offset, length);
    expect(Buffer.from(got).equals(whole.subarray(Math.min(offset, whole.length), Math.min(offset + length, whole.length))), `read(${offset}, ${length})`).toBe(true);
  }
}

async function failure(p: Promise<unknown>): Promise<PmError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  if (!(e instanceof PmError)) throw new Error(`expected a PmError, got ${String(e)}`);
  return e;
}

describe('HttpSource', () => {
  it('reads any range through Range requests', async () => {
    const src = await HttpSource.open(`${ranged.url}data.0`, { cache: new ByteCache(1 << 20) });
    await expectReads(src, bytes);
    await src.close();
  });

  it('fetches neighbouring missing blocks in one request and reuses cached ones', async () => {
    const src = await HttpSource.open(`${ranged.url}data.0`, { cache: new ByteCache(1 << 20) });
    const before = ranged.requests.length;
    await src.read(10, 100); // block 0, fetched at open
    expect(ranged.requests.length).toBe(before);
    await src.read(HTTP_BLOCK_BYTES - 5, 3 * HTTP_BLOCK_BYTES); // blocks 0..3: one request for 1..3
    expect(ranged.requests.slice(before)).toEqual([`GET /data.0 bytes=${HTTP_BLOCK_BYTES}-${4 * HTTP_BLOCK_BYTES - 1}`]);
    await Promise.all([src.read(4 * HTTP_BLOCK_BYTES, 10), src.read(4 * HTTP_BLOCK_BYTES + 20, 10)]);
    expect(ranged.requests.length).toBe(before + 2);
    await src.close();
  });

  it('reads small and empty files', async () => {
    const small = await HttpSource.open(`${ranged.url}small.0`);
    await expectReads(small, bytes.subarray(0, 100));
    const empty = await HttpSource.open(`${ranged.url}empty.0`);
    expect(empty.size).toBe(0);
    expect((await empty.read(0, 10)).length).toBe(0);
  });

  it('falls back to one full GET when the server ignores Range', async () => {
    const before = plain.requests.length;
    const src = await HttpSource.open(`${plain.url}data.0`);
    await expectReads(src, bytes);
    expect(plain.requests.length).toBe(before + 1);
  });

  it('names the URL and the status when it fails', async () => {
    const e = await failure(HttpSource.open(`${ranged.url}nosuch.0`));
    expect(e.code).toBe(ENOENT);
    expect(e.describe()).toBe(`${ranged.url}nosuch.0 (HTTP 404 Not Found): No such file or directory`);
    const down = await failure(HttpSource.open('http://127.0.0.1:1/x.0'));
    expect(down.code).toBe(EIO);
    expect(down.describe()).toContain('http://127.0.0.1:1/x.0');
  });

  it('notices a file that changed size on the server', async () => {
    writeFileSync(join(dir, 'changing.0'), bytes);
    const src = await HttpSource.open(`${ranged.url}changing.0`, { cache: new ByteCache(1 << 20) });
    writeFileSync(join(dir, 'changing.0'), bytes.subarray(0, 200_000));
    const e = await failure(src.read(250_000, 10));
    expect(e.code).toBe(EIO);
    expect(e.describe()).toContain('changing.0');
  });

  it('reads a forward pass ahead in whole ranges, several at once, without keeping them as blocks', async () => {
    const cache = new ByteCache(64 << 20);
    const http = await HttpSource.open(`${ranged.url}big.0`, { cache });
    const src = new ReadAheadSource(http, { chunkBytes: HTTP_BULK_BYTES, depth: 3, cache: new ByteCache(8 << 20) });
    const before = ranged.requests.length;
    const window = 256 * 1024;
    for (let at = 0; at < big.length; at += window) {
      const got = await src.read(at, window);
      expect(Buffer.from(got).equals(big.subarray(at, Math.min(big.length, at + window))), `read(${at})`).toBe(true);
    }
    const asked = ranged.requests.slice(before).map((r) => /bytes=(\d+)-(\d+)/.exec(r)?.slice(1).map(Number) ?? []);
    // Every byte after the first block (read at open) asked for once, in order of the pass.
    const sorted = [...asked].sort((a, b) => a[0] - b[0]);
    expect(sorted[0][0]).toBe(HTTP_BLOCK_BYTES);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i][0], `range ${i}`).toBe(sorted[i - 1][1] + 1);
    expect(sorted.at(-1)?.[1]).toBe(big.length - 1);
    // From the second MiB on, whole aligned 1 MiB ranges.
    expect(asked.filter(([from]) => from >= HTTP_BULK_BYTES).map(([from, to]) => [from % HTTP_BULK_BYTES, Math.min(to - from + 1, HTTP_BULK_BYTES)])).toEqual(
      [1, 2, 3, 4, 5].map((k) => [0, k < 5 ? HTTP_BULK_BYTES : 77]),
    );
    // Reading ahead starts once the pass has read a chunk's worth (read-ahead-source.ts): the
    // windows before that (three of 256 KiB, up to the first MiB) were read as asked, through
    // the block cache; the bulk ranges after them went to the read-ahead cache. The file's
    // 77-byte tail (too short to be bulk) is a block too.
    expect(cache.size).toBe(3 * window + 77);
    await src.close();
  });
});
