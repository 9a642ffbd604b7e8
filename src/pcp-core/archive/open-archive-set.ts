// The one call that turns a context name into an open ArchiveSet: resolve the name(s) as
// pmNewContext does (io/archive-files.ts: base names, single files, comma lists,
// directories) and open each file through the FileSet, decompressing transparently.
import type { FileSet } from '../io/file-set';
import { resolveArchiveList } from '../io/archive-files';
import type { OpenStoredFile } from './archive';
import { ArchiveSet, type ArchiveSetOptions } from './archive-set';

export interface OpenArchiveSetOptions extends ArchiveSetOptions {
  /** How to open a stored file as uncompressed bytes (default: the FileSet's own open). */
  readonly open?: OpenStoredFile;
}

/** pmNewContext(PM_CONTEXT_ARCHIVE, spec) over `fs`. Throws PmError with libpcp's codes. */
export async function openArchiveSet(fs: FileSet, spec: string, options: OpenArchiveSetOptions = {}): Promise<ArchiveSet> {
  const list = await resolveArchiveList(fs, spec);
  const open = options.open ?? ((path: string) => fs.open(path));
  return ArchiveSet.open(list, open, options);
}
