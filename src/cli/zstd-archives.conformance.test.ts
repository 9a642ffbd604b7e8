// .zst archives (PCP 6.3.2 and later write them; libpcp 6.0.3 here cannot read them) against
// libpcp reading the uncompressed copy: QA archives are recompressed here with Debian's zstd
// in three ways — `zstd FILE` (one frame stating its size), each file in four pieces
// compressed apart and concatenated (several frames, read one at a time), and `zstd` reading
// a pipe (frames without a content size) or `pzstd` (a skippable frame before each) — and
// then `pmdash dump --json` equals test/oracle/archive-dump.py on the plain copy line by line,
// and `pmdash values --json` equals test/oracle/values-interp.py (pmval's sampling) on it.
// Damaged .zst data is PM_ERR_LOGREC naming the file and the frame's offset. The dumps are
// compared twice: with fzstd (as in the browser) and with the system's zstd in another
// process (as the CLI decodes whole frames).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonClose, type Json } from '../../test/json-lines';
import { PYTHON, QA_ARCHIVES, runTool, scratchDir } from '../../test/oracle';
import { DirFileSet } from '../node/dir-file-set';
import { openStored } from '../pcp-core/io/open-stored';
import { ZstdSource } from '../pcp-core/io/zstd-source';
import { setZstdFrameDecoder, zstdFrameDecoder } from '../pcp-core/io/zstd-decoder';
import { zstdProcessDecoder } from '../node/xz-process';
import { PM_ERR_LOGREC, PmError } from '../pcp-core/errors';
import { OracleDump, ourDumpLines } from './dump-oracle';
import { main } from './main';

const ARCHIVES: ReadonlyArray<readonly [base: string, files: readonly string[]]> = [
  ['20180102', ['meta', 'index', '0']], // a 7 MB volume, 2 MB of metadata (v2)
  ['ok-mv-bar', ['meta', 'index', '0', '1', '2', '3']], // four volumes (v2)
  ['omnibus_v3', ['meta', 'index', '0']], // v3
];
type Kind = 'single' | 'multi' | 'stream';
const KINDS: readonly Kind[] = ['single', 'multi', 'stream'];

let root = '';
const at = (...p: string[]): string => join(root, ...p);

/** `file` compressed as `kind` says, written to `dest`. */
function recompress(kind: Kind, file: string, dest: string): void {
  const bytes = readFileSync(file);
  if (kind === 'single') {
    writeFileSync(dest, execFileSync('zstd', ['-q', '-c', file]));
    return;
  }
  if (kind === 'stream' && file.endsWith('.index')) {
    writeFileSync(dest, execFileSync('pzstd', ['-q', '-p', '1', '-c', file]));
    return;
  }
  // Four pieces, each its own frame: from files (content size stated) or from a pipe (not).
  const step = Math.ceil(bytes.length / 4);
  const frames: Buffer[] = [];
  for (let from = 0; from < bytes.length; from += step) {
    const piece = bytes.subarray(from, from + step);
    if (kind === 'multi') {
      const tmp = `${dest}.piece`;
      writeFileSync(tmp, piece);
      frames.push(execFileSync('zstd', ['-q', '-c', tmp]));
      rmSync(tmp);
    } else {
      frames.push(execFileSync('zstd', ['-q', '-c'], { input: piece }));
    }
  }
  writeFileSync(dest, Buffer.concat(frames));
}

function buildTree(): void {
  for (const [base, files] of ARCHIVES) {
    mkdirSync(at('plain'), { recursive: true });
    for (const s of files) copyFileSync(join(QA_ARCHIVES, `${base}.${s}`), at('plain', `${base}.${s}`));
    for (const kind of KINDS) {
      mkdirSync(at(kind), { recursive: true });
      for (const s of files) recompress(kind, join(QA_ARCHIVES, `${base}.${s}`), at(kind, `${base}.${s}.zst`));
    }
  }
}

async function run(argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const status = await main(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { status, out, err };
}

/** How many data frames `path` has. */
async function frameCount(path: string): Promise<number> {
  const src = await openStored(new DirFileSet('/'), path);
  try {
    expect(src).toBeInstanceOf(ZstdSource);
    return (src as ZstdSource).frames.length;
  } finally {
    await src.close();
  }
}

describe('.zst archives read as libpcp reads their plain copies', () => {
  let oracle: OracleDump;
  beforeAll(() => {
    root = scratchDir('pmdash-zstd-');
    buildTree();
    oracle = new OracleDump(PYTHON, join(import.meta.dirname, '../../test/oracle'));
  });
  afterAll(() => {
    oracle.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('made the frames each kind is meant to have', async () => {
    expect(await frameCount(at('single', '20180102.0.zst'))).toBe(1);
    expect(await frameCount(at('multi', '20180102.0.zst'))).toBe(4);
    expect(await frameCount(at('stream', '20180102.meta.zst'))).toBe(4);
    const stream = readFileSync(at('stream', '20180102.meta.zst'));
    // A pipe gives zstd no size to state: the frame header descriptor's size flag is 0.
    expect(stream[4] >> 6).toBe(0);
    // pzstd: a skippable frame, then the data frame.
    expect(await frameCount(at('stream', '20180102.index.zst'))).toBe(1);
    expect(execFileSync('zstd', ['-l', at('stream', '20180102.index.zst')]).toString()).toMatch(/\n\s+\d+\s+1\s/);
  });

  async function expectDumpEqual(kind: Kind, base: string): Promise<void> {
    const plain = at('plain', base);
    const ours = at(kind, base);
    oracle.request([plain]);
    let n = 0;
    for await (const line of ourDumpLines(ours)) {
      n++;
      const theirs = await oracle.next();
      // Only the closing line names the archive.
      expect(line.replace(JSON.stringify(ours), JSON.stringify(plain)), `line ${n}`).toBe(theirs);
    }
    expect(n).toBeGreaterThan(2);
  }

  for (const kind of KINDS) {
    for (const [base] of ARCHIVES) {
      it(`dump --json of ${kind}/${base} equals libpcp on the plain copy`, { timeout: 300_000 }, async () => {
        expect(zstdFrameDecoder()).toBeUndefined();
        await expectDumpEqual(kind, base);
      });
    }
  }

  describe('whole frames decoded by the system zstd, as the CLI does', () => {
    beforeAll(() => setZstdFrameDecoder(zstdProcessDecoder({ warn: (text) => expect.fail(`system zstd unusable here: ${text}`) })));
    afterAll(() => setZstdFrameDecoder(undefined));
    for (const kind of KINDS) {
      it(`dump --json of ${kind}/20180102 equals libpcp on the plain copy`, { timeout: 300_000 }, async () => {
        await expectDumpEqual(kind, '20180102');
        expect(zstdFrameDecoder()).toBeDefined();
      });
    }

    it('a damaged frame is PM_ERR_LOGREC naming the file and the frame, with zstd\'s reason', async () => {
      mkdirSync(at('damaged-cli'));
      const volume = readFileSync(at('single', '20180102.0.zst'));
      for (let i = 0; i < 16; i++) volume[Math.floor(volume.length / 2) + i] ^= 0x5a;
      const damaged = at('damaged-cli', '20180102.0.zst');
      writeFileSync(damaged, volume);
      const read = await openStored(new DirFileSet('/'), damaged);
      const e = await read.read(0, read.size).then(
        () => undefined,
        (err: unknown) => err,
      );
      await read.close();
      expect(e).toBeInstanceOf(PmError);
      expect((e as PmError).code).toBe(PM_ERR_LOGREC);
      expect((e as PmError).describe()).toMatch(new RegExp(`^${damaged.replace(/[.]/g, '\\.')} \\(zstd: frame at 0: zstd: .+\\): Corrupted record in a PCP archive log$`));
    });
  });

  const VALUES: ReadonlyArray<readonly [base: string, interval: string, metrics: readonly string[]]> = [
    ['20180102', '97sec', ['kernel.all.cpu.user', 'disk.dev.read_bytes', 'kernel.all.load']],
    ['ok-mv-bar', '0.35sec', ['sampledso.milliseconds', 'sampledso.bin']],
    ['omnibus_v3', '1sec', ['sample.colour', 'sample.long.bin_ctr', 'sample.double.million']],
  ];
  for (const kind of KINDS) {
    for (const [base, interval, metrics] of VALUES) {
      it(`values --json of ${kind}/${base} equals pmval's sampling of the plain copy`, { timeout: 120_000 }, async () => {
        const ours = await run(['values', '--json', '-t', interval, '-a', at(kind, base), ...metrics]);
        expect(ours.err).toBe('');
        expect(ours.status).toBe(0);
        const req = { archive: at('plain', base), metrics, start: null, finish: null, interval, samples: null, raw: false, instances: null };
        const theirs = await runTool(PYTHON, [join(import.meta.dirname, '../../test/oracle/values-interp.py'), JSON.stringify(req)]);
        expect(theirs.status, theirs.stderr).toBe(0);
        const a = ours.out.trimEnd().split('\n').map((l) => JSON.parse(l) as Json);
        const b = theirs.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Json);
        expect(a.length, 'samples').toBe(b.length);
        expect(a.length).toBeGreaterThan(5);
        a.forEach((line, i) => expectJsonClose(line, b[i], `line ${i + 1}`));
      });
    }
  }

  describe('damaged .zst data is PM_ERR_LOGREC naming the file and offset', () => {
    it('a flipped byte inside the third frame of a volume: records up to it, then the error', async () => {
      mkdirSync(at('damaged'));
      for (const s of ['meta', 'index']) copyFileSync(at('multi', `20180102.${s}.zst`), at('damaged', `20180102.${s}.zst`));
      const volume = readFileSync(at('multi', '20180102.0.zst'));
      const src = await openStored(new DirFileSet('/'), at('multi', '20180102.0.zst'));
      const third = (src as ZstdSource).frames[2];
      await src.close();
      for (let i = 0; i < 16; i++) volume[third.offset + Math.floor(third.compressedSize / 2) + i] ^= 0x5a;
      const damaged = at('damaged', '20180102.0.zst');
      writeFileSync(damaged, volume);
      expect(() => execFileSync('zstd', ['-t', '-q', damaged], { stdio: 'pipe' })).toThrow();

      const dump = await run(['dump', '-a', at('damaged', '20180102')]);
      expect(dump.status).toBe(1);
      expect(dump.out.length).toBeGreaterThan(1000);
      expect(dump.err).toContain(`${damaged} (zstd: frame at ${third.offset}: `);
      expect(dump.err).toContain('Corrupted record in a PCP archive log');
      const read = await openStored(new DirFileSet('/'), damaged);
      // The whole frame: a read near its start decodes only a prefix, which the damage may lie beyond.
      const e = await read.read(third.uncompressedOffset, third.uncompressedSize).then(
        () => undefined,
        (err: unknown) => err,
      );
      await read.close();
      expect(e).toBeInstanceOf(PmError);
      expect((e as PmError).code).toBe(PM_ERR_LOGREC);
    });

    it('a volume cut short: the archive does not open, naming the block', async () => {
      mkdirSync(at('cut'));
      for (const s of ['meta', 'index']) copyFileSync(at('single', `20180102.${s}.zst`), at('cut', `20180102.${s}.zst`));
      const whole = readFileSync(at('single', '20180102.0.zst'));
      const cut = at('cut', '20180102.0.zst');
      writeFileSync(cut, whole.subarray(0, whole.length - 1000));
      expect(statSync(cut).size).toBe(whole.length - 1000);
      const dump = await run(['dump', '-a', at('cut', '20180102')]);
      expect(dump.status).toBe(1);
      expect(dump.err).toMatch(new RegExp(`Cannot open archive .*${cut.replace(/[.]/g, '\\.')} \\(zstd: frame at 0: block at \\d+ is cut short at ${whole.length - 1000}\\): Corrupted record in a PCP archive log`));
    });
  });
});
