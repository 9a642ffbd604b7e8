// Archive name resolution, as libpcp 6.0.3's pmNewContext does it for archive contexts
// (__pmLogFindOpen and expandArchiveList; archive-format.md §1.1 and §8). Input: a FileSet
// and the name(s) the user gave. Output: which stored files make up each archive, or the
// error libpcp reports. Opening the files (labels, metadata) is the archive layer's job.
//
// The rules, established against libpcp (see archive-files.conformance.test.ts):
// - A name that exists as a file, or whose compressed form `name.xz` etc. exists, is one file
//   of the archive: its suffix is stripped to get the base B. Otherwise the name is B itself.
// - The directory of the name is listed; every entry whose base is B counts. The last `.meta`
//   and `.index` in directory order win (libpcp opens each and keeps the last). Volume N is
//   read from `B.N` if present, else from `B.N` plus the first suffix in table order present.
// - No `.meta` or no volume: PM_ERR_LOGFILE if any file of B exists, else -ENOENT.
// - The lowest volume must be readable at open: when only a spelling such as `B.00` exists,
//   libpcp opens `B.0` and fails with -ENOENT.
// - Lists: elements split on ',', a trailing empty element dropped; a directory element
//   stands for `dir/B` for each `B.meta*` in it. An empty list is PM_ERR_LOGFILE.
import type { FileSet } from './file-set';
import { COMPRESSION_SUFFIXES } from './compression';
import { parseArchiveFileName } from './archive-file-name';
import { joinPath, posixBasename, posixDirname } from './posix-path';
import { ENOENT, ENOTDIR, PM_ERR_LOGFILE, PmError, isPmError } from '../errors';

/** The stored files of one archive; paths as the FileSet names them, suffixes included. */
export interface ArchiveFiles {
  /** The name this archive was asked for (a list element, or `dir/B` from a directory). */
  readonly name: string;
  /** The base path B: the directory part of `name` joined with the base name. */
  readonly base: string;
  readonly meta: string;
  readonly index: string | undefined;
  /**
   * Data volumes by number, ascending. Only numbers libpcp can open are here; libpcp tries
   * each number from the lowest to the highest found and skips those it cannot open, so a
   * reader walks these in order (and must still skip a volume whose label is bad).
   */
  readonly volumes: ReadonlyMap<number, string>;
}

/** Lists directories once per resolution, remembering failures too. */
class Listing {
  private readonly cache = new Map<string, Promise<string[]>>();
  constructor(readonly fs: FileSet) {}

  list(dir: string): Promise<string[]> {
    let entries = this.cache.get(dir);
    if (!entries) {
      entries = this.fs.list(dir);
      this.cache.set(dir, entries);
    }
    return entries;
  }

  /** access(path, R_OK) == 0, judged from the listing of the path's directory. */
  async exists(path: string): Promise<boolean> {
    if (path === '') return false;
    // access("f/") fails on a file and succeeds on a directory.
    if (path.endsWith('/')) return this.fs.isDirectory(path);
    try {
      return (await this.list(posixDirname(path))).includes(posixBasename(path));
    } catch (e) {
      if (isPmError(e) && (e.code === ENOENT || e.code === ENOTDIR)) return false;
      throw e;
    }
  }
}

/** The first of `path`, `path.xz`, `path.lzma`, ... that is present in `entries`. */
function storedName(entries: readonly string[], name: string): string | undefined {
  if (entries.includes(name)) return name;
  for (const c of COMPRESSION_SUFFIXES) {
    if (entries.includes(name + c.suffix)) return name + c.suffix;
  }
  return undefined;
}

/** Finds the files of the archive named `name` (a base name or any one of its files). */
export async function resolveArchive(fs: FileSet, name: string): Promise<ArchiveFiles> {
  const listing = new Listing(fs);
  const dir = posixDirname(name);
  let base = posixBasename(name);
  let namesAFile = await listing.exists(name);
  for (const c of COMPRESSION_SUFFIXES) {
    if (namesAFile) break;
    namesAFile = await listing.exists(name + c.suffix);
  }
  if (namesAFile) base = parseArchiveFileName(base)?.base ?? base;

  const entries = await listing.list(dir);
  let meta: string | undefined;
  let index: string | undefined;
  let anyFile = false;
  const numbers = new Set<number>();
  for (const entry of entries) {
    const parsed = parseArchiveFileName(entry);
    if (!parsed || parsed.base !== base) continue;
    anyFile = true;
    if (parsed.kind === 'meta') meta = joinPath(dir, entry);
    else if (parsed.kind === 'index') index = joinPath(dir, entry);
    else numbers.add(parsed.volume);
  }
  const basePath = joinPath(dir, base);
  if (!meta || numbers.size === 0) {
    const code = anyFile ? PM_ERR_LOGFILE : ENOENT;
    // Name the file that is missing, as libpcp's debug output does ("B.0" or similar).
    throw new PmError(code, undefined, !anyFile ? name : !meta ? `${basePath}.meta` : `${basePath}.0`);
  }
  const volumes = new Map<number, string>();
  for (const n of [...numbers].sort((a, b) => a - b)) {
    const stored = storedName(entries, `${base}.${n}`);
    if (stored) volumes.set(n, joinPath(dir, stored));
  }
  const first = Math.min(...numbers);
  if (!volumes.has(first)) {
    // libpcp opens the lowest volume by its canonical name while opening the archive.
    throw new PmError(ENOENT, undefined, `${basePath}.${first}`);
  }
  return { name, base: basePath, meta, index, volumes };
}

/**
 * libpcp's expandArchiveList: the archive names of a context name, in order, each once.
 * Directories are replaced by `dir/B` for every `B.meta` (any compression) in them, in
 * directory order. The same archive spelled two ways ("a" and "./a") stays twice, as in
 * libpcp, where the second then fails with PM_ERR_LOGOVERLAP (same start time).
 */
export async function expandArchiveList(fs: FileSet, spec: string): Promise<string[]> {
  const pieces: string[] = [];
  for (const element of splitList(spec)) {
    if (element !== '' && (await fs.isDirectory(element))) {
      for (const entry of await fs.list(element)) {
        const parsed = parseArchiveFileName(entry);
        if (parsed?.kind === 'meta') pieces.push(`${element}/${parsed.base}`);
      }
    } else {
      pieces.push(element);
    }
  }
  // libpcp joins the expansion with ',' and splits it again, so a directory entry holding a
  // ',' splits too; an empty result means no archive at all (6.0.3 crashes there, later
  // releases say PM_ERR_LOGFILE, and so do we).
  const names = splitList(pieces.join(','));
  if (names.length === 0) throw new PmError(PM_ERR_LOGFILE, undefined, spec === '' ? 'empty archive name' : spec);
  return [...new Set(names)];
}

/** Splits on ',' the way libpcp walks its lists: a trailing empty element is dropped. */
function splitList(spec: string): string[] {
  if (spec === '') return [];
  const parts = spec.split(',');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Resolves every archive of a context name, stopping at the first failure. */
export async function resolveArchiveList(fs: FileSet, spec: string): Promise<ArchiveFiles[]> {
  const result: ArchiveFiles[] = [];
  for (const name of await expandArchiveList(fs, spec)) result.push(await resolveArchive(fs, name));
  return result;
}
