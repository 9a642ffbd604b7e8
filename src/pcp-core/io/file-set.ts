// A directory-like view over the files of one or more archives: what pmNewContext needs to
// find `B.meta`, `B.index` and every `B.N` volume (libpcp lists the directory). Node reads a
// real directory, the browser a set of dropped files, HTTP a base URL. Names are paths with
// '/' separators relative to the set's root, or absolute where the platform has them.
import type { ByteSource } from './byte-source';

export interface FileSet {
  /** What to call this set in messages. */
  readonly name: string;
  /**
   * The entries of directory `dir` ('' or '.' for the root), file names only, without "." and
   * "..", in directory order (the order readdir(3) gives, where the platform has one: libpcp's
   * choice between `B.meta` and `B.meta.xz` present together depends on it). Subdirectories are
   * listed too. Rejects with PmError -ENOENT when `dir` does not exist and -ENOTDIR when it is
   * not a directory.
   */
  list(dir: string): Promise<string[]>;
  /** Whether `path` names a directory (opendir(3) would succeed); false when absent. */
  isDirectory(path: string): Promise<boolean>;
  /** Opens a file as stored (no decompression); rejects with PmError ENOENT when absent. */
  open(path: string): Promise<ByteSource>;
}
