// A directory-like view over the files of one or more archives: what pmNewContext needs to
// find `B.meta`, `B.index` and every `B.N` volume (libpcp lists the directory). Node reads a
// real directory, the browser a set of dropped files, HTTP a base URL. Names are paths with
// '/' separators relative to the set's root, or absolute where the platform has them.
import type { ByteSource } from './byte-source';

export interface FileSet {
  /** What to call this set in messages. */
  readonly name: string;
  /** The entries of directory `dir` ('' or '.' for the root), file names only. */
  list(dir: string): Promise<string[]>;
  /** Whether `path` names a directory. */
  isDirectory(path: string): Promise<boolean>;
  /** Opens a file as stored (no decompression); rejects with PmError ENOENT when absent. */
  open(path: string): Promise<ByteSource>;
}
