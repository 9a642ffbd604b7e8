// HttpFileSet's discovery rule on synthetic files: spellings in libpcp's order, the volume
// gap that ends the search, servers without HEAD, and what cannot be asked over HTTP.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDirectory, type TestServer } from '../../node/testing/http-server';
import { HttpFileSet } from './http-file-set';
import { EIO, ENOENT, PmError } from '../errors';

const dir = mkdtempSync(join(tmpdir(), 'pmdash-httpfs-'));
for (const f of ['B.meta.xz', 'B.meta.gz', 'B.index', 'B.0', 'B.1.bz2', 'B.1.gz', 'B.3', 'B.7', 'C.meta', 'C.5']) writeFileSync(join(dir, f), f);
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

async function failure(p: Promise<unknown>): Promise<PmError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  if (!(e instanceof PmError)) throw new Error(`expected a PmError, got ${String(e)}`);
  return e;
}

describe('HttpFileSet.forArchive', () => {
  it('lists the first spelling of each file and volumes up to a gap of 3', async () => {
    for (const server of [ranged, plain]) {
      for (const name of ['B', 'B.meta', 'B.1.gz', 'B.3']) {
        const fs = await HttpFileSet.forArchive(server.url + name);
        expect(fs.archive).toBe('B');
        // B.7 lies beyond the missing 4, 5, 6.
        expect(await fs.list('')).toEqual(['B.meta.xz', 'B.index', 'B.0', 'B.1.bz2', 'B.3']);
        expect(await fs.isDirectory('B.0')).toBe(false);
      }
    }
  });

  it('opens only what it found, and finds no volumes that start above 2', async () => {
    const fs = await HttpFileSet.forArchive(`${ranged.url}B`);
    const src = await fs.open('B.1.bz2');
    expect(new TextDecoder().decode(await src.read(0, 100))).toBe('B.1.bz2');
    expect((await failure(fs.open('B.7'))).code).toBe(ENOENT);
    expect(await (await HttpFileSet.forArchive(`${ranged.url}C`)).list('')).toEqual(['C.meta']);
  });

  it('needs an archive name, and reports server failures', async () => {
    expect((await failure(HttpFileSet.forArchive(ranged.url))).code).toBe(ENOENT);
    const failing = (): Promise<Response> => Promise.resolve(new Response('boom', { status: 500, statusText: 'Internal Server Error' }));
    const e = await failure(HttpFileSet.forArchive(`${ranged.url}B`, { fetch: failing }));
    expect(e.code).toBe(EIO);
    expect(e.describe()).toContain('(HTTP 500 Internal Server Error)');
  });
});
