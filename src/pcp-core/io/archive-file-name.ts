// Recognises the file names of an archive (archive-format.md §1.1): `B.meta`, `B.index` and
// `B.N`, each optionally followed by one compression suffix of compression.ts. This is the
// rule libpcp's __pmLogBaseName applies both to the name a context is opened with and to
// every directory entry it scans.
//
// One deliberate difference: libpcp takes any suffix strtol(3) accepts as a volume number
// ("B. 1", "B.+1", "B.-1") and then opens "B.1", which does not exist, and 6.0.3 crashes
// reading past it. Here a volume suffix is decimal digits only (leading zeros allowed, as
// libpcp allows them: "B.01" is volume 1). See docs/deviations.md.
import { compressionOf, type CompressionSuffix } from './compression';

export type ArchiveFileKind = 'meta' | 'index' | 'volume';

export interface ArchiveFileName {
  /** The name with the archive suffix and any compression suffix removed. */
  readonly base: string;
  readonly kind: ArchiveFileKind;
  /** The volume number, for kind 'volume'. */
  readonly volume: number;
  /** The compression suffix, if any. */
  readonly compression: CompressionSuffix | undefined;
}

/** Volume numbers above this are not volumes (libpcp squeezes them into a C int). */
const MAX_VOLUME = 0x7fffffff;

/** Parses one file name (no directory part); null when it is not the name of an archive file. */
export function parseArchiveFileName(name: string): ArchiveFileName | null {
  let rest = name;
  const compression = compressionOf(name);
  if (compression) {
    rest = name.slice(0, name.length - compression.suffix.length);
    // libpcp strips a compression suffix only when another '.' stands before it.
    if (!rest.includes('.')) return null;
  }
  const dot = rest.lastIndexOf('.');
  if (dot < 0) return null;
  const base = rest.slice(0, dot);
  const suffix = rest.slice(dot + 1);
  if (suffix === 'meta' || suffix === 'index') return { base, kind: suffix, volume: -1, compression };
  if (/^[0-9]+$/.test(suffix)) {
    const volume = Number(suffix);
    if (volume > MAX_VOLUME) return null;
    return { base, kind: 'volume', volume, compression };
  }
  return null;
}

/** libpcp's __pmLogBaseName: the base of an archive file name, or null if it is none. */
export function archiveBaseName(name: string): string | null {
  return parseArchiveFileName(name)?.base ?? null;
}
