import { mkdtempSync, rmSync, writeFileSync, mkdirSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileSource } from './file-source';
import { DirFileSet } from './dir-file-set';
import { EIO, EISDIR, ENOENT, ENOTDIR, PmError } from '../pcp-core/errors';

const dir = mkdtempSync(join(tmpdir(), 'pmdash-node-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7) & 0xff);
writeFileSync(join(dir, 'data.0'), bytes);

async function failure(p: Promise<unknown>): Promise<PmError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(PmError);
  return e as PmError;
}

describe.each([
  ['async reads', {}],
  ['blocking reads', { blocking: true }],
])('openFileSource, %s', (_, options) => {
  it('reads any range, short only past the end', async () => {
    const src = await openFileSource(join(dir, 'data.0'), 'data.0', options);
    expect(src.size).toBe(bytes.length);
    for (const [off, len] of [[0, 10], [65_530, 100], [69_990, 100], [70_000, 5], [80_000, 5], [0, 70_000]]) {
      expect(await src.read(off, len)).toEqual(bytes.subarray(Math.min(off, bytes.length), Math.min(off + len, bytes.length)));
    }
    await expect(src.read(-1, 2)).rejects.toThrow(RangeError);
    await src.close();
    await expect(src.read(0, 1)).rejects.toThrow('read after close');
  });

  it('names the file in errors', async () => {
    const e = await failure(openFileSource(join(dir, 'nosuch'), 'nosuch', options));
    expect(e.code).toBe(ENOENT);
    expect(e.describe()).toBe('nosuch: No such file or directory');
    expect((await failure(openFileSource(dir, 'd', options))).code).toBe(EISDIR);
  });

  it('reports a file that shrinks while open', async () => {
    writeFileSync(join(dir, 'shrink'), bytes);
    const src = await openFileSource(join(dir, 'shrink'), 'shrink', options);
    truncateSync(join(dir, 'shrink'), 100);
    const e = await failure(src.read(0, 1000));
    expect(e.code).toBe(EIO);
    expect(e.describe()).toContain('shrink');
    await src.close();
  });
});

describe('DirFileSet', () => {
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'x.meta'), 'm');
  const fs = new DirFileSet(dir);

  it('lists, tells directories and opens relative to its root', async () => {
    expect((await fs.list('sub'))).toEqual(['x.meta']);
    expect((await fs.list('')).sort()).toEqual(['data.0', 'shrink', 'sub']);
    expect(await fs.isDirectory('sub')).toBe(true);
    expect(await fs.isDirectory('sub/')).toBe(true);
    expect(await fs.isDirectory('data.0')).toBe(false);
    expect(await fs.isDirectory('nosuch')).toBe(false);
    const src = await fs.open('sub/x.meta');
    expect(src.name).toBe('sub/x.meta');
    expect(await src.read(0, 5)).toEqual(new Uint8Array([0x6d]));
    await src.close();
  });

  it('fails as the file system does', async () => {
    expect((await failure(fs.list('nosuch'))).code).toBe(ENOENT);
    expect((await failure(fs.list('data.0'))).code).toBe(ENOTDIR);
    expect((await failure(fs.open('data.0/'))).code).toBe(ENOTDIR);
    expect((await failure(fs.open('sub/nosuch'))).describe()).toBe('sub/nosuch: No such file or directory');
  });
});
