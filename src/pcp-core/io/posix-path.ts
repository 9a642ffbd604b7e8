// POSIX path splitting as glibc's libgen does it (dirname, XPG basename). Archive name
// resolution (archive-files.ts) must cut a name exactly where pmNewContext cuts it, because
// the cut decides which directory is listed and which base name files must match
// (archive-format.md §1.1): "dir//B.0" lists "dir", "B/" names base "B" in ".".

/** glibc dirname(3): the directory part, "." when there is none, "/" (or "//") at the root. */
export function posixDirname(path: string): string {
  let last = path.lastIndexOf('/');
  if (last > 0 && last === path.length - 1) {
    // Trailing slashes do not end the last component: look further left.
    let run = last;
    while (run > 0 && path[run - 1] === '/') run--;
    if (run > 0) last = path.lastIndexOf('/', run - 1);
  }
  if (last < 0) return '.';
  let run = last;
  while (run > 0 && path[run - 1] === '/') run--;
  if (run === 0) {
    // Only slashes before the last component: the root, kept as "//" when exactly two.
    return last === 1 ? '//' : '/';
  }
  return path.slice(0, run);
}

/** XPG basename(3) (the libgen one): the last component, trailing slashes removed. */
export function posixBasename(path: string): string {
  if (path === '') return '.';
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end--;
  if (end === 1 && path[0] === '/') return '/';
  const start = path.lastIndexOf('/', end - 1) + 1;
  return path.slice(start, end);
}

/**
 * `dir` + '/' + `name`, as libpcp builds "%s%c%s" paths, except that the "." libpcp gets from
 * dirname of a bare name is left out ("B.0", not "./B.0"): both name the same file, and the
 * shorter one is what the user typed.
 */
export function joinPath(dir: string, name: string): string {
  if (dir === '.') return name;
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
}
