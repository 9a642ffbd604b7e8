// Opens one stored file of an archive as the uncompressed bytes libpcp would read: plain files
// pass through, compressed ones (compression.ts) are decompressed transparently. Decoders
// never see a compression suffix.
import type { ByteSource } from './byte-source';
import type { FileSet } from './file-set';
import { compressionOf } from './compression';
import { posixBasename } from './posix-path';
import { PM_ERR_NYI, PmError } from '../errors';

export async function openStored(fs: FileSet, path: string): Promise<ByteSource> {
  const compression = compressionOf(posixBasename(path));
  if (!compression) return fs.open(path);
  // Step 2 of issue 3 (transparent decompression) replaces this.
  throw new PmError(PM_ERR_NYI, undefined, `${path} (${compression.decompressor} decompression)`);
}
