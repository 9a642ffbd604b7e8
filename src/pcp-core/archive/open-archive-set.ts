// The one call that turns a context name into an open ArchiveSet: resolve the name(s) as
// pmNewContext does (io/archive-files.ts: base names, single files, comma lists,
// directories) and open each file through the FileSet, decompressing transparently
// (io/open-stored.ts).
import type { FileSet } from '../io/file-set';
import { resolveArchiveList } from '../io/archive-files';
import { openStored } from '../io/open-stored';
import type { OpenStoredFile } from './archive';
import { ArchiveSet, type ArchiveSetOptions } from './archive-set';

export interface OpenArchiveSetOptions extends ArchiveSetOptions {
  /** How to open a stored file as uncompressed bytes (default: io's openStored over `fs`). */
  readonly open?: OpenStoredFile;
}

/** pmNewContext(PM_CONTEXT_ARCHIVE, spec) over `fs`. Throws PmError with libpcp's codes. */
export async function openArchiveSet(fs: FileSet, spec: string, options: OpenArchiveSetOptions = {}): Promise<ArchiveSet> {
  const list = await resolveArchiveList(fs, spec);
  const open = options.open ?? ((path: string) => openStored(fs, path));
  return ArchiveSet.open(list, open, options);
}
