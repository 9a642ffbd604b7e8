import { describe, expect, it } from 'vitest';
import { archiveBaseName, parseArchiveFileName } from './archive-file-name';

describe('archive file names', () => {
  it.each([
    ['B.meta', 'B', 'meta', -1, undefined],
    ['B.index', 'B', 'index', -1, undefined],
    ['B.0', 'B', 'volume', 0, undefined],
    ['20180416.10.00.3.xz', '20180416.10.00', 'volume', 3, '.xz'],
    ['B.meta.lzma', 'B', 'meta', -1, '.lzma'],
    ['B.index.Z', 'B', 'index', -1, '.Z'],
    ['B.01.z', 'B', 'volume', 1, '.z'],
    ['B.0.bz', 'B', 'volume', 0, '.bz'],
    ['B.0.zst', 'B', 'volume', 0, '.zst'],
    ['B.meta.zst', 'B', 'meta', -1, '.zst'],
  ])('%s is %s %s', (name, base, kind, volume, suffix) => {
    const parsed = parseArchiveFileName(name);
    expect(parsed).toMatchObject({ base, kind, volume });
    expect(parsed?.compression?.suffix).toBe(suffix);
  });

  it.each(['B', 'B.xz', 'B.zst', 'B.0.ZST', 'B.0.zstd', 'B.meta.XZ', 'B.', 'B.+1', 'B. 1', 'B.-1', 'B.1x', 'B.99999999999', 'B.0.xz.xz'])(
    '%j is not an archive file',
    (name) => expect(archiveBaseName(name)).toBeNull(),
  );

  it('keeps dots inside the base', () => {
    expect(archiveBaseName('..meta')).toBe('.');
    expect(archiveBaseName('a.b.c.0.gz')).toBe('a.b.c');
  });
});
