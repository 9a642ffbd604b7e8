import { describe, expect, it } from 'vitest';
import { memoryFileSet } from './listed-file-set';
import { EISDIR, ENOENT, ENOTDIR, PmError } from '../errors';

const fs = memoryFileSet('dropped', [
  ['run/a.meta', new Uint8Array([1, 2, 3])],
  ['run/a.0', new Uint8Array([4])],
  ['/top.meta', new Uint8Array([5])],
]);

async function code(p: Promise<unknown>): Promise<number> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  if (!(e instanceof PmError)) throw new Error('expected a PmError');
  return e.code;
}

describe('ListedFileSet', () => {
  it('implies directories from paths and lists in the given order', async () => {
    expect(await fs.list('')).toEqual(['run', 'top.meta']);
    expect(await fs.list('.')).toEqual(['run', 'top.meta']);
    expect(await fs.list('./run/')).toEqual(['a.meta', 'a.0']);
    expect(await fs.isDirectory('run')).toBe(true);
    expect(await fs.isDirectory('run/../run//')).toBe(true);
    expect(await fs.isDirectory('run/a.0')).toBe(false);
    expect(await fs.isDirectory('')).toBe(false);
  });

  it('opens files and fails like a file system', async () => {
    const src = await fs.open('run//a.meta');
    expect(await src.read(1, 5)).toEqual(new Uint8Array([2, 3]));
    expect(await code(fs.open('run/nosuch'))).toBe(ENOENT);
    expect(await code(fs.open('run'))).toBe(EISDIR);
    expect(await code(fs.open('run/a.0/'))).toBe(ENOTDIR);
    expect(await code(fs.list('run/a.0'))).toBe(ENOTDIR);
    expect(await code(fs.list('run/a.0/x'))).toBe(ENOTDIR);
    expect(await code(fs.list('nosuch'))).toBe(ENOENT);
  });
});
