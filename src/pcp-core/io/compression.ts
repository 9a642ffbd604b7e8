// The compression suffixes libpcp recognises on archive files, in its table order
// (archive-format.md §1.2), and the decompressor each one is handed to. The order matters:
// when `B.N` is absent, the first suffix in this order whose file exists is the one used.
// This is the one place these rules live: name parsing, directory scans and dropped files
// all ask it.
//
// `.zst` is newer than the libpcp 6.0.3 pmdash otherwise follows (PCP 6.3.2 added it, last in
// the table, and now writes it): pmdash reads it as those releases do (docs/deviations.md).

/** Which tool libpcp runs (or links) for a suffix; the format is sniffed from the bytes. */
export type Decompressor = 'xz' | 'bzip2' | 'gzip' | 'zstd';

export interface CompressionSuffix {
  readonly suffix: string;
  /**
   * `xz`: `.xz` is read in place through liblzma, `.lzma` goes through `xz -dc` (which accepts
   * both the xz and the legacy lzma-alone container). `bzip2`: `bzip2 -dc`. `gzip`: `gzip -dc`,
   * which also decodes LZW (`compress`) data, so a `.Z` or `.z` may hold either. `zstd`:
   * `zstd -dcq`.
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
  { suffix: '.zst', decompressor: 'zstd' },
];

/** The table entry whose suffix ends `name` (after its last '.'), or undefined. */
export function compressionOf(name: string): CompressionSuffix | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  const suffix = name.slice(dot);
  return COMPRESSION_SUFFIXES.find((c) => c.suffix === suffix);
}
