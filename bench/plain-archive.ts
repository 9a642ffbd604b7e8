// The QA archive 20180416.10.00 with every volume decompressed (about 330 MB, 4 volumes) in a
// directory the caller makes and removes: the plain archive the whole-archive and memory
// benchmarks drop. `xz -dc` does the work, as a user would before dropping.
import { closeSync, copyFileSync, openSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const QA_ARCHIVE = '/var/lib/pcp/testsuite/archives/20180416.10.00';

/** Writes the plain archive into `dir`; returns its files (index, meta, volumes) and base name. */
export function plainArchive(dir: string): { files: string[]; base: string; bytes: number } {
  const base = join(dir, '20180416.10.00');
  copyFileSync(`${QA_ARCHIVE}.index`, `${base}.index`);
  const files = [`${base}.index`];
  for (const part of ['meta', '0', '1', '2', '3']) {
    const out = openSync(`${base}.${part}`, 'w');
    const r = spawnSync('xz', ['-dc', `${QA_ARCHIVE}.${part}.xz`], { stdio: ['ignore', out, 'pipe'] });
    closeSync(out);
    if (r.status !== 0) throw new Error(`xz -dc ${QA_ARCHIVE}.${part}.xz: ${r.stderr.toString()}`);
    files.push(`${base}.${part}`);
  }
  return { files, base, bytes: files.reduce((n, f) => n + statSync(f).size, 0) };
}
