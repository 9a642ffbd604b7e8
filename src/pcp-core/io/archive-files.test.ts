// Name resolution rules on an in-memory file set; archive-files.conformance.test.ts checks
// the same rules against libpcp on real directories.
import { describe, expect, it } from 'vitest';
import { expandArchiveList, resolveArchive, resolveArchiveList } from './archive-files';
import { memoryFileSet } from './listed-file-set';
import { ENOENT, ENOTDIR, PM_ERR_LOGFILE, PmError } from '../errors';

const files = (...paths: string[]) => memoryFileSet('test', paths.map((p) => [p, new Uint8Array([1])] as const));

async function codeOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PmError) return e.code;
    throw e;
  }
  throw new Error('resolved');
}

describe('resolveArchive', () => {
  const fs = files('a/B.meta.xz', 'a/B.index', 'a/B.0', 'a/B.0.xz', 'a/B.2.gz', 'a/B.2.bz2', 'a/B.5.bz', 'a/C.0', 'a/D.meta', 'a/D.00');

  it('accepts the base or any file, with or without its compression suffix', async () => {
    for (const name of ['a/B', 'a/B.meta', 'a/B.meta.xz', 'a/B.index', 'a/B.0', 'a/B.0.xz', 'a/B.2', 'a/B.2.gz', 'a/B.5.bz', 'a/B/']) {
      const r = await resolveArchive(fs, name);
      expect(r.base, name).toBe('a/B');
      expect(r.meta).toBe('a/B.meta.xz');
      expect(r.index).toBe('a/B.index');
      // Plain before compressed, then table order (.bz2 before .gz).
      expect([...r.volumes]).toEqual([[0, 'a/B.0'], [2, 'a/B.2.bz2'], [5, 'a/B.5.bz']]);
    }
  });

  it('refuses names that do not exist with their suffix', async () => {
    expect(await codeOf(resolveArchive(fs, 'a/B.meta.gz'))).toBe(ENOENT);
    expect(await codeOf(resolveArchive(fs, 'a/B.7'))).toBe(ENOENT);
    expect(await codeOf(resolveArchive(fs, 'a/B.0/x'))).toBe(ENOTDIR);
    expect(await codeOf(resolveArchive(fs, 'nodir/B'))).toBe(ENOENT);
  });

  it('needs a .meta and a volume; the lowest volume must exist as spelled', async () => {
    const err = await resolveArchive(fs, 'a/C').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PmError);
    expect((err as PmError).code).toBe(PM_ERR_LOGFILE);
    expect((err as PmError).describe()).toBe('a/C.meta: Missing PCP archive log file');
    expect(await codeOf(resolveArchive(fs, 'a/D'))).toBe(ENOENT);
  });

  it('keeps the last .meta in directory order, as libpcp does', async () => {
    const r = await resolveArchive(files('E.meta.gz', 'E.meta', 'E.meta.xz', 'E.0'), 'E');
    expect(r.meta).toBe('E.meta.xz');
    expect(r.index).toBeUndefined();
  });
});

describe('expandArchiveList', () => {
  const fs = files('d/X.meta', 'd/X.0', 'd/Y.meta.xz', 'd/Y.0', 'd/notes.txt', 'Z.meta', 'Z.0');

  it('replaces a directory by its archives and drops a trailing empty element', async () => {
    expect(await expandArchiveList(fs, 'd')).toEqual(['d/X', 'd/Y']);
    expect(await expandArchiveList(fs, 'Z,d/,')).toEqual(['Z', 'd//X', 'd//Y']);
    expect(await expandArchiveList(fs, ',Z')).toEqual(['', 'Z']);
    expect(await expandArchiveList(fs, 'Z,Z,Z')).toEqual(['Z']);
  });

  it('says PM_ERR_LOGFILE when no archive is named at all', async () => {
    // 6.0.3 crashes on "," (docs/deviations.md); later releases say PM_ERR_LOGFILE.
    for (const spec of ['', ',', 'empty']) {
      const set = spec === 'empty' ? files('empty/readme') : fs;
      expect(await codeOf(expandArchiveList(set, spec)), spec).toBe(PM_ERR_LOGFILE);
    }
    expect(await codeOf(resolveArchiveList(fs, ',,'))).toBe(ENOENT);
  });
});
