// A FileSet over a known list of files (io/file-set.ts), for inputs that are not a real
// directory: files in memory (tests), files a user dropped or picked in the browser
// (blob-file-set.ts). Directories are implied by the paths ("run/a.meta" makes "run" a
// directory); paths are normalised ("./", "//" and ".." resolved, a leading '/' ignored), and
// listing order is the order the files were given. Errors are those a real file system gives.
import type { ByteSource } from './byte-source';
import type { FileSet } from './file-set';
import { EISDIR, ENOENT, ENOTDIR, PmError } from '../errors';
import { MemorySource } from './memory-source';

/** Opens one listed file; called for each FileSet.open. */
export type FileOpener = () => Promise<ByteSource>;

type Node = { kind: 'file'; open: FileOpener } | { kind: 'dir'; children: Map<string, Node> };

/** The components of a path; ".." above the root stays at the root, as in POSIX. */
function components(path: string): string[] {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out;
}

export class ListedFileSet implements FileSet {
  private readonly root: Node & { kind: 'dir' } = { kind: 'dir', children: new Map() };

  /** @param files path and opener of each file; a later duplicate path replaces the earlier */
  constructor(
    readonly name: string,
    files: Iterable<readonly [path: string, open: FileOpener]>,
  ) {
    for (const [path, open] of files) this.add(path, open);
  }

  private add(path: string, open: FileOpener): void {
    const parts = components(path);
    const last = parts.pop();
    if (last === undefined) throw new Error(`${this.name}: "${path}" is not a file path`);
    let dir = this.root;
    for (const part of parts) {
      let next = dir.children.get(part);
      if (!next || next.kind === 'file') {
        next = { kind: 'dir', children: new Map() };
        dir.children.set(part, next);
      }
      dir = next;
    }
    dir.children.set(last, { kind: 'file', open });
  }

  /** The node at `path`, or the error a file system gives for it. */
  private lookup(path: string): Node | PmError {
    let node: Node = this.root;
    for (const part of components(path)) {
      if (node.kind === 'file') return new PmError(ENOTDIR, undefined, path);
      const next = node.children.get(part);
      if (!next) return new PmError(ENOENT, undefined, path);
      node = next;
    }
    // "file/" names a directory that is not one.
    if (node.kind === 'file' && path.endsWith('/')) return new PmError(ENOTDIR, undefined, path);
    return node;
  }

  list(dir: string): Promise<string[]> {
    const node = this.lookup(dir);
    if (node instanceof PmError) return Promise.reject(node);
    if (node.kind === 'file') return Promise.reject(new PmError(ENOTDIR, undefined, dir));
    return Promise.resolve([...node.children.keys()]);
  }

  isDirectory(path: string): Promise<boolean> {
    if (path === '') return Promise.resolve(false);
    const node = this.lookup(path);
    return Promise.resolve(!(node instanceof PmError) && node.kind === 'dir');
  }

  open(path: string): Promise<ByteSource> {
    const node = this.lookup(path);
    if (node instanceof PmError) return Promise.reject(node);
    if (node.kind === 'dir') return Promise.reject(new PmError(EISDIR, undefined, path));
    return node.open();
  }
}

/** A FileSet of byte arrays in memory, keyed by path (tests, fetched files). */
export function memoryFileSet(name: string, files: Iterable<readonly [path: string, bytes: Uint8Array]>): ListedFileSet {
  return new ListedFileSet(
    name,
    [...files].map(([path, bytes]) => [path, () => Promise.resolve<ByteSource>(new MemorySource(path, bytes))] as const),
  );
}
