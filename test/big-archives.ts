// Large archives made at run time from the QA archive 20180416.10.00 (4 xz volumes, 4.5 h,
// a ~200 KB record every 10 s), for benchmarks and end-to-end tests of whole-archive views:
// the archive decompressed (~313 MB) and ~1.3 GB (it and three time-shifted copies joined).
// Everything goes into a directory the caller made and removes.
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QA_ARCHIVES } from './oracle';

export const BIG_QA_ARCHIVE = join(QA_ARCHIVES, '20180416.10.00');

/** Total bytes of some files. */
export function totalBytes(files: readonly string[]): number {
  return files.reduce((n, f) => n + statSync(f).size, 0);
}

/** The QA archive with every volume decompressed, as `dir`/20180416.10.00.*; its files. */
export function decompressedQaArchive(dir: string): string[] {
  const base = join(dir, '20180416.10.00');
  copyFileSync(`${BIG_QA_ARCHIVE}.index`, `${base}.index`);
  const files = [`${base}.index`];
  for (const part of ['meta', '0', '1', '2', '3']) {
    const out = openSync(`${base}.${part}`, 'w');
    const r = spawnSync('xz', ['-dc', `${BIG_QA_ARCHIVE}.${part}.xz`], { stdio: ['ignore', out, 'pipe'], maxBuffer: 1 << 20 });
    closeSync(out);
    if (r.status !== 0) throw new Error(`xz -dc ${BIG_QA_ARCHIVE}.${part}.xz: ${r.stderr.toString()}`);
    files.push(`${base}.${part}`);
  }
  if (totalBytes(files) < 200 * 1024 * 1024) throw new Error(`decompressed archive is only ${totalBytes(files)} bytes`);
  return files;
}

/** Where PCP keeps pmlogrewrite: PCP_BINADM_DIR in $PCP_CONF (default /etc/pcp.conf). */
function pcpBinadm(tool: string): string {
  const conf = process.env.PCP_CONF ?? '/etc/pcp.conf';
  const m = /^PCP_BINADM_DIR=(.*)$/m.exec(readFileSync(conf, 'utf8'));
  return m?.[1] ? join(m[1].trim(), tool) : tool;
}

/**
 * About 1.3 GB, one 18 h archive `dir`/joined: the decompressed QA archive (made here unless
 * `dir` has it) and three copies shifted by 4 h 32 min each with pmlogrewrite, joined by
 * pmlogextract; the shifted copies are removed once joined. Returns the joined archive's files.
 */
export function joinedShiftedArchive(dir: string): string[] {
  const plain = join(dir, '20180416.10.00');
  if (!readdirSync(dir).includes('20180416.10.00.meta')) decompressedQaArchive(dir);
  const parts = [plain];
  for (let k = 1; k <= 3; k++) {
    const min = k * 272;
    const conf = join(dir, `shift${k}.conf`);
    writeFileSync(conf, `global { time -> +${Math.floor(min / 60)}:${String(min % 60).padStart(2, '0')}:00 }\n`);
    const out = join(dir, `shifted${k}`);
    const r = spawnSync(pcpBinadm('pmlogrewrite'), ['-c', conf, plain, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`pmlogrewrite ${plain}: ${r.stderr.toString()}`);
    parts.push(out);
  }
  const joined = join(dir, 'joined');
  const r = spawnSync('pmlogextract', [...parts, joined], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`pmlogextract: ${r.stderr.toString()}`);
  for (const f of readdirSync(dir)) if (/^shifted\d/.test(f)) rmSync(join(dir, f));
  const files = readdirSync(dir)
    .filter((f) => f.startsWith('joined.'))
    .map((f) => join(dir, f));
  if (totalBytes(files) < 1.2e9) throw new Error(`joined archive is only ${totalBytes(files)} bytes`);
  return files;
}
