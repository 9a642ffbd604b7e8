import { describe, expect, it } from 'vitest';
import { joinPath, posixBasename, posixDirname } from './posix-path';

describe('posix paths as glibc cuts them', () => {
  // The table of dirname(3)/basename(3), plus the repeated-slash cases libpcp meets.
  it.each([
    ['/usr/lib', '/usr', 'lib'],
    ['/usr/', '/', 'usr'],
    ['usr', '.', 'usr'],
    ['/', '/', '/'],
    ['.', '.', '.'],
    ['..', '.', '..'],
    ['', '.', '.'],
    ['dir//B.0', 'dir', 'B.0'],
    ['dir/B/', 'dir', 'B'],
    ['a/b//', 'a', 'b'],
    ['//x', '//', 'x'],
    ['///x', '/', 'x'],
    ['multi//20150508.11.44', 'multi', '20150508.11.44'],
  ])('%j → dirname %j, basename %j', (path, dir, base) => {
    expect(posixDirname(path)).toBe(dir);
    expect(posixBasename(path)).toBe(base);
  });

  it('joins without the "./" of a bare name', () => {
    expect(joinPath('.', 'B.0')).toBe('B.0');
    expect(joinPath('dir', 'B.0')).toBe('dir/B.0');
    expect(joinPath('/', 'B.0')).toBe('/B.0');
  });
});
