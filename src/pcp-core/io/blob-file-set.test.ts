// Files picked or dropped in a browser: BlobSource reads slices, blobFileSet lays them out by
// their folder-relative paths, and archive resolution works on it as on a directory.
import { describe, expect, it } from 'vitest';
import { BlobSource } from './blob-source';
import { blobFileSet, pathOfFile } from './blob-file-set';
import { resolveArchive } from './archive-files';
import { openStored } from './open-stored';

const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 13) & 0xff);

describe('BlobSource', () => {
  it('reads slices of a Blob, short only past the end', async () => {
    const src = new BlobSource(new File([bytes], 'x.0'));
    expect(src.name).toBe('x.0');
    expect(src.size).toBe(bytes.length);
    for (const [offset, length] of [[0, 10], [99_990, 100], [100_000, 4], [5, 0], [12_345, 54_321]]) {
      expect(await src.read(offset, length)).toEqual(bytes.subarray(Math.min(offset, bytes.length), Math.min(offset + length, bytes.length)));
    }
    await src.close();
    await expect(src.read(0, 1)).rejects.toThrow('read after close');
  });
});

describe('blobFileSet', () => {
  it('uses the folder-relative path of a dropped folder', () => {
    const file = new File([bytes], 'a.0');
    Object.defineProperty(file, 'webkitRelativePath', { value: 'run/a.0' });
    expect(pathOfFile(file)).toBe('run/a.0');
    expect(pathOfFile(new File([bytes], 'b.0'))).toBe('b.0');
  });

  it('resolves an archive among dropped files and reads it', async () => {
    const fs = blobFileSet('dropped', [
      { path: 'run/B.meta', blob: new Blob([bytes.subarray(0, 10)]) },
      { path: 'run/B.0', blob: new Blob([bytes]) },
      { path: 'run/B.1', blob: new Blob([bytes.subarray(5)]) },
      { path: 'run/notes.txt', blob: new Blob(['hi']) },
    ]);
    const files = await resolveArchive(fs, 'run/B.1');
    expect(files).toEqual({ name: 'run/B.1', base: 'run/B', meta: 'run/B.meta', index: undefined, volumes: new Map([[0, 'run/B.0'], [1, 'run/B.1']]) });
    const vol = await openStored(fs, 'run/B.1');
    expect(vol.name).toBe('run/B.1');
    expect(await vol.read(0, 3)).toEqual(bytes.subarray(5, 8));
  });
});
