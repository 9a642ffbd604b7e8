// A FileSet over the real file system, for the CLI, the server and the tests. Paths are used
// as given: relative ones against the process's working directory (or `root`), absolute ones
// as they are. Directories are listed in readdir(3) order (fs.opendir, not fs.readdir, which
// sorts), because libpcp's choices depend on that order (io/file-set.ts).
import { opendir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FileSet } from '../pcp-core/io/file-set';
import type { ByteSource } from '../pcp-core/io/byte-source';
import { openFileSource, type FileSourceOptions } from './file-source';
import { toPmError } from './node-errors';

export class DirFileSet implements FileSet {
  readonly name: string;

  /**
   * @param root directory that relative paths start from; the working directory by default
   * @param options how its files are read (file-source.ts)
   */
  constructor(
    private readonly root = '.',
    private readonly options: FileSourceOptions = {},
  ) {
    this.name = root;
  }

  private path(p: string): string {
    // Keep a trailing '/': "file/" must fail with ENOTDIR as it does in C.
    const full = resolve(this.root, p === '' ? '.' : p);
    return p.endsWith('/') && !full.endsWith('/') ? `${full}/` : full;
  }

  async list(dir: string): Promise<string[]> {
    const names: string[] = [];
    try {
      for await (const entry of await opendir(this.path(dir))) names.push(entry.name);
    } catch (e) {
      throw toPmError(e, dir === '' ? '.' : dir);
    }
    return names;
  }

  async isDirectory(path: string): Promise<boolean> {
    if (path === '') return false;
    const info = await stat(this.path(path)).catch(() => undefined);
    return info?.isDirectory() ?? false;
  }

  open(path: string): Promise<ByteSource> {
    return openFileSource(this.path(path), path, this.options);
  }
}
