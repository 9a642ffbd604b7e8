import { describe, expect, it } from 'vitest';
import { groupArchiveFiles } from './drop-groups';

describe('groupArchiveFiles', () => {
  it('groups compressed multi-volume archives and keeps folders apart', () => {
    const g = groupArchiveFiles([
      '20180416.10.00.0.xz', '20180416.10.00.1.xz', '20180416.10.00.index', '20180416.10.00.meta.xz',
      'dir/a.meta', 'dir/a.0', 'dir/a.index', 'README', 'lonely.0',
    ]);
    expect(g.archives).toEqual([
      { base: '20180416.10.00', files: [0, 1, 2, 3] },
      { base: 'dir/a', files: [4, 5, 6] },
    ]);
    expect(g.stray).toEqual([7, 8]);
  });
});
