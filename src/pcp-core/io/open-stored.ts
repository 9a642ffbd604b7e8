// Opens one stored file of an archive as the uncompressed bytes libpcp reads (archive-format.md
// §1.2): plain files pass through; compressed ones are decompressed as libpcp 6.0.3 does for
// their suffix, so decoders never see compression. Errors follow libpcp's verdicts: data the
// decompressor rejects is PM_ERR_LOGREC ("Corrupted record in a PCP archive log"), with the
// file and the reason in the context.
//
//   .xz            read in place through the block index (xz-source.ts), like libpcp's
//                  liblzma handler; like it, a file of several streams or with stream
//                  padding is refused (io_xz.c in 6.0.3 misreads those).
//   .lzma          `xz -dc`: xz data (any number of streams) or the lzma-alone container.
//   .bz2 .bz       `bzip2 -dc`, whole file.
//   .gz .Z .z      `gzip -dc`, whole file.
//   .zst           frame by frame (zstd-source.ts); libpcp 6.3.2+ runs `zstd -dcq`.
//
// Whole-file formats are decompressed once, at open (the size must be known), and held in
// memory until the source is closed, as libpcp holds them in a temporary file.
//
// Each decoder loads when a file needs it: most archives need none, and what loads costs
// every command's start-up time.
import type { ByteSource } from './byte-source';
import type { FileSet } from './file-set';
import { compressionOf, type CompressionSuffix } from './compression';
import { posixBasename } from './posix-path';
import { MemorySource } from './memory-source';
import { PM_ERR_LOGREC, PmError } from '../errors';

/** Opens `path` of `fs`, decompressing by its suffix. */
export async function openStored(fs: FileSet, path: string): Promise<ByteSource> {
  const stored = await fs.open(path);
  const compression = compressionOf(posixBasename(path));
  if (!compression) return stored;
  try {
    return await decompress(stored, compression);
  } catch (e) {
    await stored.close();
    throw e;
  }
}

/** The uncompressed view of `stored`, compressed as `compression` says. */
export async function decompress(stored: ByteSource, compression: CompressionSuffix): Promise<ByteSource> {
  const name = stored.name;
  if (compression.decompressor === 'zstd') return (await import('./zstd-source')).ZstdSource.open(stored);
  if (compression.decompressor === 'xz') {
    const { XzSource } = await import('./xz-source');
    if (compression.suffix === '.xz') {
      const source = await XzSource.open(stored);
      if (source.streamCount > 1 || source.streamPadding > 0) {
        const what = source.streamCount > 1 ? `${source.streamCount} streams` : 'stream padding';
        throw new PmError(PM_ERR_LOGREC, undefined, `${name} (xz: ${what}, which libpcp 6.0.3 cannot read)`);
      }
      return source;
    }
    // `xz -dc` of a `.lzma` file: the xz container (any number of streams) or lzma-alone.
    const { XZ_MAGIC } = await import('./xz-layout');
    const head = await stored.read(0, XZ_MAGIC.length);
    if (head.length === XZ_MAGIC.length && XZ_MAGIC.every((b, i) => head[i] === b)) return XzSource.open(stored);
  }
  const data = await stored.read(0, stored.size);
  if (data.length !== stored.size) throw new PmError(PM_ERR_LOGREC, undefined, `${name} (read ${data.length} of ${stored.size} bytes)`);
  let bytes: Uint8Array;
  switch (compression.decompressor) {
    case 'xz':
      bytes = (await import('./lzma-decode')).decodeLzmaAlone(name, data);
      break;
    case 'bzip2':
      bytes = await (await import('./bzip2-decode')).decodeBzip2(name, data);
      break;
    case 'gzip':
      bytes = (await import('./gzip-decode')).decodeGzip(name, data);
      break;
  }
  await stored.close();
  return new MemorySource(name, bytes);
}
