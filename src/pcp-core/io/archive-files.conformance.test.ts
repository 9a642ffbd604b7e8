// Archive name resolution against libpcp: for names built in a scratch directory from QA
// archive files (plain and compressed, missing pieces, gaps, odd spellings, directories and
// lists), our verdict (the files found, or the error code) equals what pmNewContext does,
// as reported by test/oracle/archive-open.py from libpcp's own debug output.
//
// `.zst` files are newer than libpcp 6.0.3 (6.3.2 added the suffix, last in its table): a
// name in the `zst` tree is checked against 6.0.3's verdict on its twin `zstplain`, where each
// .zst file is decompressed under the plain name.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runPythonOracle, scratchDir } from '../../../test/oracle';
import { DirFileSet } from '../../node/dir-file-set';
import { expandArchiveList, resolveArchiveList } from './archive-files';
import { isPmError } from '../errors';

interface OracleEntry {
  name: string;
  ok: boolean;
  code?: number;
  opened?: string[];
  volumes?: Record<string, string>;
  readError?: number | null;
}

interface Verdict {
  ok: boolean;
  code?: number;
  meta?: string;
  index?: string;
  volumes?: Record<string, string>;
}

const BAR = 'ok-mv-bar';
let root = '';

/** Runs a compressor on `src`, writing `dest`. */
function compress(tool: string, args: string[], src: string, dest: string): void {
  writeFileSync(dest, execFileSync(tool, [...args, '-c', src]));
}

function copyBar(dir: string, suffixes: string[]): void {
  mkdirSync(join(root, dir), { recursive: true });
  for (const s of suffixes) copyFileSync(join(QA_ARCHIVES, `${BAR}.${s}`), join(root, dir, `${BAR}.${s}`));
}

/** The scenarios: each directory holds one variation of the 4-volume QA archive ok-mv-bar. */
function buildTree(): void {
  const qa = (s: string): string => join(QA_ARCHIVES, `${BAR}.${s}`);
  const at = (dir: string, file: string): string => join(root, dir, file);
  copyBar('plain', ['meta', 'index', '0', '1', '2', '3']);
  copyBar('nometa', ['index', '0', '1']);
  copyBar('novol', ['meta', 'index']);
  copyBar('gap', ['meta', '0', '2']);
  copyBar('gap2', ['meta', '1', '3']);
  copyBar('zst', ['meta', 'index']);
  compress('zstd', ['-q'], qa('0'), at('zst', `${BAR}.0.zst`));
  compress('zstd', ['-q'], qa('2'), at('zst', `${BAR}.2.zst`));
  copyBar('zstplain', ['meta', 'index', '0', '2']);
  copyBar('zero', ['meta', 'index']);
  copyFileSync(qa('0'), at('zero', `${BAR}.00`));
  copyBar('zero1', ['meta', 'index', '0', '2']);
  copyFileSync(qa('1'), at('zero1', `${BAR}.01`));
  // Every suffix, and plain beside compressed: plain wins, then table order.
  copyBar('mixed', ['1']);
  compress('xz', [], qa('meta'), at('mixed', `${BAR}.meta.xz`));
  compress('gzip', [], qa('index'), at('mixed', `${BAR}.index.gz`));
  compress('bzip2', [], qa('0'), at('mixed', `${BAR}.0.bz2`));
  compress('xz', [], qa('1'), at('mixed', `${BAR}.1.xz`));
  compress('bzip2', [], qa('2'), at('mixed', `${BAR}.2.bz`));
  compress('gzip', [], qa('2'), at('mixed', `${BAR}.2.gz`));
  compress('xz', ['--format=lzma'], qa('3'), at('mixed', `${BAR}.3.lzma`));
  compress('gzip', [], qa('3'), at('mixed', `${BAR}.3.Z`));
  // .zst is last in the table: any other suffix beside it wins.
  compress('zstd', ['-q'], qa('1'), at('mixed', `${BAR}.1.zst`));
  compress('zstd', ['-q'], qa('2'), at('mixed', `${BAR}.2.zst`));
  mkdirSync(join(root, 'zsuffix'));
  compress('gzip', [], qa('meta'), at('zsuffix', `${BAR}.meta.Z`));
  compress('bzip2', [], qa('index'), at('zsuffix', `${BAR}.index.bz2`));
  compress('gzip', [], qa('0'), at('zsuffix', `${BAR}.0.z`));
  compress('xz', ['--format=lzma'], qa('1'), at('zsuffix', `${BAR}.1.lzma`));
  // Several spellings of one .meta: libpcp keeps the last in directory order.
  mkdirSync(join(root, 'dupmeta'));
  for (const b of ['a', 'b', 'c', 'd', 'e', 'f']) {
    copyFileSync(qa('meta'), at('dupmeta', `${b}.meta`));
    compress('xz', [], qa('meta'), at('dupmeta', `${b}.meta.xz`));
    compress('gzip', [], qa('meta'), at('dupmeta', `${b}.meta.gz`));
    copyFileSync(qa('index'), at('dupmeta', `${b}.index`));
    compress('bzip2', [], qa('index'), at('dupmeta', `${b}.index.bz2`));
    copyFileSync(qa('0'), at('dupmeta', `${b}.0`));
  }
  // Directories of archives.
  execFileSync('cp', ['-r', join(QA_ARCHIVES, 'multi-xz'), join(root, 'multi')]);
  mkdirSync(join(root, 'empty'));
  copyBar('withsubdir', ['meta', 'index', '0']);
  mkdirSync(join(root, 'withsubdir', 'arch.meta'));
  mkdirSync(join(root, 'nested', 'inner'), { recursive: true });
  renameSync(join(root, 'gap'), join(root, 'nested', 'inner', 'gap'));
}

const SINGLE_NAMES = [
  ...['', '.meta', '.index', '.0', '.3', '.meta.xz', '.7', '.3.xz', '/', '.meta/', '.', '.meta.XZ', '.xz', '.0/x'].map((s) => `plain/${BAR}${s}`),
  `plain//${BAR}`, `plain/../plain/${BAR}.2`, `./plain/${BAR}.index`, 'nosuch', 'nosuchdir/x', 'plain',
  `nometa/${BAR}`, `nometa/${BAR}.0`, `novol/${BAR}`, `novol/${BAR}.meta`,
  `nested/inner/gap/${BAR}`, `nested/inner/gap/${BAR}.2`, `gap2/${BAR}`,
  `zst/${BAR}`, `zst/${BAR}.0.zst`, `zst/${BAR}.0`, `zst/${BAR}.2.zst`, `zst/${BAR}.1`, `zst/${BAR}.meta`,
  `zero/${BAR}`, `zero/${BAR}.00`, `zero1/${BAR}`,
  `mixed/${BAR}`, `mixed/${BAR}.meta`, `mixed/${BAR}.meta.xz`, `mixed/${BAR}.0`, `mixed/${BAR}.0.bz2`, `mixed/${BAR}.2.gz`, `mixed/${BAR}.2.xz`,
  `zsuffix/${BAR}`, `zsuffix/${BAR}.meta.Z`, `zsuffix/${BAR}.1`,
  'dupmeta/a', 'dupmeta/b', 'dupmeta/c', 'dupmeta/d', 'dupmeta/e', 'dupmeta/f',
  `withsubdir/${BAR}`, 'withsubdir/arch',
];

const LIST_NAMES = [
  `plain/${BAR},`, `,plain/${BAR}`, `plain/${BAR},,plain/${BAR}`, ',,', `plain/${BAR},plain/${BAR}`,
  'multi', 'multi/', 'multi,', 'multi,multi', 'multi,multi/20150508.11.44', 'empty', `empty,plain/${BAR}`,
  `plain/${BAR},empty`, 'multi,nosuch', 'withsubdir', `nometa/${BAR},plain/${BAR}`, `plain/${BAR},nometa/${BAR}`,
];

/** The name libpcp 6.0.3 is asked for in place of a name in the `zst` tree. */
const plainTwin = (name: string): string => (name.startsWith('zst/') ? `zstplain/${name.slice(4).replace(/\.zst$/, '')}` : name);

/** Our verdict on a `zst` name as 6.0.3 states it for the twin: the same files, plain. */
function asTwin(v: Verdict): Verdict {
  if (!v.ok) return v;
  const twin = (p: string | undefined): string | undefined => (p === undefined ? undefined : plainTwin(p));
  const volumes = Object.fromEntries(Object.entries(v.volumes ?? {}).map(([n, p]) => [n, plainTwin(p)]));
  return { ok: true, meta: twin(v.meta), index: twin(v.index), volumes };
}

/** libpcp names the files of a bare name "B" as "./B.0", we as "B.0": the same file. */
const tidy = (p: string): string => (/^\.\/[^/]*$/.test(p) ? p.slice(2) : p);

function oracleVerdict(e: OracleEntry): Verdict {
  if (!e.ok) return { ok: false, code: e.code };
  const opened = (e.opened ?? []).map(tidy);
  const last = (re: RegExp): string | undefined => opened.filter((p) => re.test(p)).pop();
  const volumes: Record<string, string> = {};
  for (const [n, p] of Object.entries(e.volumes ?? {})) volumes[n] = tidy(p);
  return { ok: true, meta: last(/\.meta(\.\w+)?$/), index: last(/\.index(\.\w+)?$/), volumes };
}

async function ourVerdict(fs: DirFileSet, name: string): Promise<Verdict> {
  try {
    const archives = await resolveArchiveList(fs, name);
    expect(archives.length, name).toBe(1);
    const a = archives[0];
    return { ok: true, meta: a.meta, index: a.index, volumes: Object.fromEntries([...a.volumes].map(([n, p]) => [String(n), p])) };
  } catch (e) {
    if (isPmError(e)) return { ok: false, code: e.code };
    throw e;
  }
}

async function oracle(names: string[], readAll: boolean): Promise<OracleEntry[]> {
  const args = ['--cwd', root, ...(readAll ? ['--read-all'] : []), ...names];
  return JSON.parse(await runPythonOracle('archive-open.py', args)) as OracleEntry[];
}

describe('archive name resolution equals pmNewContext', () => {
  let fs: DirFileSet;
  beforeAll(() => {
    root = scratchDir('pmdash-names-');
    buildTree();
    fs = new DirFileSet(root);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds the same files for one archive name, or fails with the same code', async () => {
    const expected = await oracle(SINGLE_NAMES.map(plainTwin), true);
    const mismatches: unknown[] = [];
    for (const [i, e] of expected.entries()) {
      const name = SINGLE_NAMES[i];
      expect(e.name).toBe(plainTwin(name));
      const want = oracleVerdict(e);
      const got = name === e.name ? await ourVerdict(fs, name) : asTwin(await ourVerdict(fs, name));
      if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push({ name, got, want });
    }
    expect(mismatches).toEqual([]);
    expect(expected.length).toBe(SINGLE_NAMES.length);
  });

  it('accepts or refuses the same lists, with the same code', async () => {
    const expected = await oracle(LIST_NAMES, false);
    for (const e of expected) {
      let got: Verdict;
      try {
        const archives = await resolveArchiveList(fs, e.name);
        got = { ok: archives.length > 0 };
      } catch (err) {
        if (!isPmError(err)) throw err;
        got = { ok: false, code: err.code };
      }
      expect(got, JSON.stringify(e.name)).toEqual(e.ok ? { ok: true } : { ok: false, code: e.code });
    }
  });

  it('expands a directory to dir/B for each archive, in directory order, as libpcp names them', async () => {
    const names = await expandArchiveList(fs, 'multi/');
    expect(names.sort()).toEqual(['11.44', '11.46', '11.50', '11.57'].map((t) => `multi//20150508.${t}`));
    // Spelled differently, the same archive stays twice (libpcp then reports an overlap).
    expect(await expandArchiveList(fs, `plain/${BAR},./plain/${BAR}`)).toEqual([`plain/${BAR}`, `./plain/${BAR}`]);
    expect(await expandArchiveList(fs, `plain/${BAR},plain/${BAR}`)).toEqual([`plain/${BAR}`]);
  });

  it('reads the files it names', () => {
    // Guard against a tree that silently lost its files: the resolution above means nothing then.
    expect(readFileSync(join(root, 'plain', `${BAR}.meta`)).length).toBeGreaterThan(0);
  });
});
