// The compression suffixes libpcp 6.0.3 recognises on archive files, in its table order
// (archive-format.md §1.2), and the decompressor each one is handed to. The order matters:
// when `B.N` is absent, the first suffix in this order whose file exists is the one used.
// `.zst` is deliberately absent: 6.0.3 does not know it (added in 6.3.2), so a `.zst` volume
// is not an archive file at all.

/** Which tool libpcp runs (or links) for a suffix; the format is sniffed from the bytes. */
export type Decompressor = 'xz' | 'bzip2' | 'gzip';

export interface CompressionSuffix {
  readonly suffix: string;
  /**
   * `xz`: `.xz` is read in place through liblzma, `.lzma` goes through `xz -dc` (which accepts
   * both the xz and the legacy lzma-alone container). `bzip2`: `bzip2 -dc`. `gzip`: `gzip -dc`,
   * which also decodes LZW (`compress`) data, so a `.Z` or `.z` may hold either.
   */
  readonly decompressor: Decompressor;
}

export const COMPRESSION_SUFFIXES: readonly CompressionSuffix[] = [
  { suffix: '.xz', decompressor: 'xz' },
  { suffix: '.lzma', decompressor: 'xz' },
  { suffix: '.bz2', decompressor: 'bzip2' },
  { suffix: '.bz', decompressor: 'bzip2' },
  { suffix: '.gz', decompressor: 'gzip' },
  { suffix: '.Z', decompressor: 'gzip' },
  { suffix: '.z', decompressor: 'gzip' },
];

/** The table entry whose suffix ends `name` (after its last '.'), or undefined. */
export function compressionOf(name: string): CompressionSuffix | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  const suffix = name.slice(dot);
  return COMPRESSION_SUFFIXES.find((c) => c.suffix === suffix);
}
