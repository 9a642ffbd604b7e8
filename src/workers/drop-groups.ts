// Groups dropped or picked files into archives by PCP's naming (LOGARCHIVE(5)): every
// `BASE.meta`, `BASE.index` and `BASE.N` volume, each possibly compressed (.xz, .gz, .bz2,
// .lzma, .zst), belongs to archive BASE (folders keep their relative path). Files that fit
// no archive are reported per file instead of failing the whole drop.

const PART = /^(.*)\.(meta|index|\d+)(?:\.(xz|gz|bz2|lzma|zst))?$/;

export interface FileGroups {
  /** Archive base path → the indices of its files in the input. */
  readonly archives: readonly { readonly base: string; readonly files: readonly number[] }[];
  /** Indices of files that belong to no archive. */
  readonly stray: readonly number[];
}

export function groupArchiveFiles(paths: readonly string[]): FileGroups {
  const byBase = new Map<string, number[]>();
  const stray: number[] = [];
  paths.forEach((path, i) => {
    const m = PART.exec(path);
    if (!m || !m[1]) {
      stray.push(i);
      return;
    }
    const list = byBase.get(m[1]);
    if (list) list.push(i);
    else byBase.set(m[1], [i]);
  });
  const archives = [...byBase.entries()]
    .filter(([, files]) => files.some((i) => /\.meta(\.[a-z0-9]+)?$/.test(paths[i] ?? '')))
    .map(([base, files]) => ({ base, files }));
  // Parts whose archive has no .meta cannot be opened: report them per file.
  for (const [base, files] of byBase) if (!archives.some((a) => a.base === base)) stray.push(...files);
  return { archives, stray: stray.sort((a, b) => a - b) };
}
