// An archive served over HTTP is found and read as from a directory: HttpFileSet's files,
// resolved with resolveArchive, are those the same directory gives (whose resolution
// archive-files.conformance.test.ts checks against libpcp), and every stored file read through
// openStored over HTTP equals the tool's (xz/gzip -dc) or the file's own bytes.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_ARCHIVES, scratchDir } from '../../../test/oracle';
import { DirFileSet } from '../../node/dir-file-set';
import { serveDirectory, type TestServer } from '../../node/testing/http-server';
import { HttpFileSet } from './http-file-set';
import { resolveArchive } from './archive-files';
import { openStored } from './open-stored';
import { ENOENT, PmError } from '../errors';

let dir = '';
let ranged: TestServer;
let plain: TestServer;

beforeAll(async () => {
  dir = scratchDir('pmdash-httpset-');
  for (const s of ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz']) copyFileSync(join(QA_ARCHIVES, `20180416.10.00.${s}`), join(dir, `20180416.10.00.${s}`));
  for (const s of ['meta', 'index', '0', '1', '2', '3']) copyFileSync(join(QA_ARCHIVES, `ok-mv-bar.${s}`), join(dir, `ok-mv-bar.${s}`));
  // Mixed spellings: plain wins over compressed, then table order; a gap of one volume.
  for (const s of ['meta', '0', '2']) copyFileSync(join(QA_ARCHIVES, `ok-mv-foo.${s}`), join(dir, `ok-mv-foo.${s}`));
  writeFileSync(join(dir, 'ok-mv-foo.0.xz'), execFileSync('xz', ['-c', join(QA_ARCHIVES, 'ok-mv-foo.0')]));
  writeFileSync(join(dir, 'ok-mv-foo.index.gz'), execFileSync('gzip', ['-c', join(QA_ARCHIVES, 'ok-mv-foo.index')]));
  writeFileSync(join(dir, 'ok-mv-foo.2.gz'), execFileSync('gzip', ['-c', join(QA_ARCHIVES, 'ok-mv-foo.2')]));
  ranged = await serveDirectory(dir, 'ranged');
  plain = await serveDirectory(dir, 'plain');
});
afterAll(async () => {
  await ranged.close();
  await plain.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `body`, putting a PmError's context (file, status) into the failure message. */
async function withContext(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    throw e instanceof PmError ? new Error(e.describe()) : e;
  }
}

/** A resolution with paths made comparable across the two file sets. */
async function resolved(fs: DirFileSet | HttpFileSet, name: string): Promise<unknown> {
  const a = await resolveArchive(fs, name);
  return { base: a.base, meta: a.meta, index: a.index, volumes: [...a.volumes] };
}

describe('HttpFileSet', () => {
  it.each([
    ['ok-mv-bar', 'ok-mv-bar'],
    ['ok-mv-bar.2', 'ok-mv-bar'],
    ['ok-mv-foo', 'ok-mv-foo'],
    ['20180416.10.00.meta.xz', '20180416.10.00'],
    ['20180416.10.00.3', '20180416.10.00'],
  ])('finds the files of %s as the directory does', async (name, base) => {
    for (const server of [ranged, plain]) {
      const http = await HttpFileSet.forArchive(server.url + name);
      expect(http.archive).toBe(base);
      expect(await resolved(http, base)).toEqual(await resolved(new DirFileSet(dir), base));
    }
  });

  it('reads every file as stored, decompressed, equal to the tools', () => withContext(async () => {
    // The 100 MB volumes through Range requests only; the plain server sends whole files.
    for (const [server, archive] of [[ranged, '20180416.10.00'], [ranged, 'ok-mv-foo'], [plain, 'ok-mv-foo']] as const) {
      {
        const http = await HttpFileSet.forArchive(server.url + archive);
        const files = await resolveArchive(http, archive);
        for (const path of [files.meta, files.index, ...files.volumes.values()]) {
          if (!path) continue;
          const local = join(dir, path);
          const tool = path.endsWith('.xz') ? 'xz' : path.endsWith('.gz') ? 'gzip' : undefined;
          const want = tool ? execFileSync(tool, ['-dc', local], { maxBuffer: 1 << 30 }) : readFileSync(local);
          const src = await openStored(http, path);
          expect(src.size, path).toBe(want.length);
          for (const [offset, length] of [[0, 132], [Math.max(0, want.length - 4000), 4000], [want.length >> 1, 100_000], [1_000_000, 3]]) {
            const got = await src.read(offset, length);
            expect(Buffer.from(got).equals(want.subarray(Math.min(offset, want.length), Math.min(offset + length, want.length))), `${path} read(${offset}, ${length})`).toBe(true);
          }
          await src.close();
        }
      }
    }
  }));

  it('reports a missing archive as libpcp does (no such file)', async () => {
    const http = await HttpFileSet.forArchive(`${ranged.url}nosuch`);
    const e = await resolveArchive(http, 'nosuch').then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(PmError);
    expect((e as PmError).code).toBe(ENOENT);
  });
});
