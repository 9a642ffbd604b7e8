// The engine following a folder (a FolderHandle, as Chromium's FileSystemDirectoryHandle of a
// dropped or picked folder; here one over a real directory) in which a real pmlogger writes,
// stops, and a second pmlogger run starts a new archive (test/pmlogger-run.ts): the source's
// archives grow by the new one, its end moves into it, and the series across the join are
// pmval -a DIR's.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPmlogger, type RunningLogger } from '../../test/pmlogger-run';
import { EngineApi } from './engine-api';
import type { FileHandleLike, FolderHandle } from './folder-file-set';

/** The items as an async iterable, as a folder handle's values() gives its entries. */
function iterate<T>(items: readonly T[]): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]: () => {
      let i = 0;
      return { next: () => Promise.resolve<IteratorResult<T>>(i < items.length ? { value: items[i++], done: false } : { value: undefined, done: true }) };
    },
  };
}

/** A FolderHandle over a real directory: listed afresh each time, each File a copy of the file now. */
function folderOf(dir: string): FolderHandle {
  return {
    kind: 'directory',
    name: basename(dir),
    values: () =>
      iterate(
        readdirSync(dir).map((name): FolderHandle | FileHandleLike => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? folderOf(path) : { kind: 'file', name, getFile: () => Promise.resolve(new File([readFileSync(path)], name)) };
        }),
      ),
  };
}

/** The engine over folder `dir` as a drop gives it: its archive files, and the folder to list again. */
async function openFolder(dir: string) {
  const top = basename(dir);
  const api = new EngineApi();
  const files = readdirSync(dir)
    .filter((f) => /\.(meta|index|\d+)$/.test(f))
    .map((f) => ({ path: `${top}/${f}`, file: new File([readFileSync(join(dir, f))], f) }));
  const summary = await api.open({ kind: 'files', files, archives: [`${top}/first`], folder: folderOf(dir) });
  return { api, summary, top };
}

/** pmval's "1 minute" load average every `stepSec` from `offsetSec` after the set's start, NaN for no value. */
function pmvalLoad(archive: string, offsetSec: number, samples: number, stepSec = 1): number[] {
  const out = execFileSync('pmval', ['-z', '-f', '6', '-a', archive, '-S', `+${offsetSec}`, '-t', String(stepSec), '-s', String(samples), '-i', '"1 minute"', 'kernel.all.load'], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => /^\d\d:\d\d:\d\d\.\d{3}\s/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[1]));
}

let first: RunningLogger | undefined;
let second: RunningLogger | undefined;
let stage: string | undefined;
afterEach(async () => {
  await second?.stop();
  await first?.remove();
  if (stage) rmSync(stage, { recursive: true, force: true });
  first = second = stage = undefined;
});

describe('EngineApi.follow of a folder', () => {
  it('reads a folder again: the archive a second pmlogger run starts there joins, series across the join are pmval -a DIR', { timeout: 120_000 }, async () => {
    first = await startPmlogger({ name: 'first', samplesPerVolume: 3, minSamples: 4 });
    const dir = first.dir;
    const { api, summary } = await openFolder(dir);
    expect(summary.followable).toBe(true);
    expect(summary.archives).toEqual(['first']);

    // As charts at the end do: windows up to and past the end are read before each follow.
    const atEnd = (endMs: number) => api.fetchSeries({ handle: summary.handle, plots: [{ metric: 'kernel.all.load', instances: { kind: 'list', names: ['1 minute'] } }], t0Ms: endMs - 3000, t1Ms: endMs + 3000, stepMs: 1000, rate: true });
    await atEnd(summary.endMs);
    await first.stop();
    second = await startPmlogger({ dir, name: 'second', samplesPerVolume: 3, minSamples: 1 });
    let followed = await api.follow(summary.handle);
    for (let i = 0; i < 40 && followed?.archives.length !== 2; i++) {
      await new Promise((r) => setTimeout(r, 500));
      await atEnd(followed?.endMs ?? summary.endMs);
      followed = await api.follow(summary.handle);
    }
    expect(followed?.archives).toEqual(['first', 'second']);
    // The second archive grows while followed, read at its end meanwhile.
    while ((await second.samplesNow()) < 6) {
      await new Promise((r) => setTimeout(r, 500));
      await atEnd(followed?.endMs ?? summary.endMs);
      followed = await api.follow(summary.handle);
    }
    await atEnd(followed?.endMs ?? summary.endMs);
    await second.stop();
    followed = await api.follow(summary.handle);
    const endMs = followed?.endMs ?? NaN;

    // Every whole second from the start to the end, across the join.
    const rows = Math.floor((endMs - summary.startMs) / 1000);
    const block = await api.fetchSeries({ handle: summary.handle, plots: [{ metric: 'kernel.all.load', instances: { kind: 'list', names: ['1 minute'] } }], t0Ms: summary.startMs + 1000, t1Ms: summary.startMs + rows * 1000, stepMs: 1000, rate: true });
    const ours = [...(block.columns[0]?.values ?? [])];
    const want = pmvalLoad(dir, 1, rows);
    expect(ours).toHaveLength(rows);
    ours.forEach((v, i) => (Number.isNaN(want[i]) ? expect(v, `row ${i}`).toBeNaN() : expect(v, `row ${i}`).toBeCloseTo(want[i] ?? NaN, 5)));
    // Values from both archives were compared: the first rows lie in the first archive, the
    // last three in the second (it logged 5 samples or more, and the end is its end).
    expect(ours.slice(0, 2).every((v) => !Number.isNaN(v))).toBe(true);
    expect(ours.slice(-3).every((v) => !Number.isNaN(v))).toBe(true);
    await api.close(summary.handle);
  });

  it('follows the archive before a new one a while longer: its last writes, reaching the folder after the new archive, are read', { timeout: 120_000 }, async () => {
    // Two finished runs; the folder first holds the first archive without its last records (a
    // copy or network file system not caught up), then the second archive, then the first's
    // last records.
    first = await startPmlogger({ name: 'first', samplesPerVolume: 3, minSamples: 5 });
    const dir = first.dir;
    await first.stop();
    second = await startPmlogger({ dir, name: 'second', samplesPerVolume: 3, minSamples: 4 });
    await second.stop();
    stage = mkdtempSync(join(tmpdir(), 'pmdash-folder-'));
    const top = basename(stage);
    const firstFiles = readdirSync(dir).filter((f) => /^first\.(meta|index|\d+)$/.test(f));
    const lastVol = firstFiles.filter((f) => /\.\d+$/.test(f)).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1])).pop() ?? '';
    for (const f of firstFiles) copyFileSync(join(dir, f), join(stage, f));
    const whole = readFileSync(join(dir, lastVol));
    // The last two records go: each ends with its length (archive-format.md, record trailer).
    let cut = whole.length;
    for (let k = 0; k < 2; k++) cut -= whole.readInt32BE(cut - 4);
    writeFileSync(join(stage, lastVol), whole.subarray(0, cut));
    const api = new EngineApi();
    const files = firstFiles.map((f) => ({ path: `${top}/${f}`, file: new File([readFileSync(join(stage as string, f))], f) }));
    const summary = await api.open({ kind: 'files', files, archives: [`${top}/first`], folder: folderOf(stage) });
    for (const f of readdirSync(dir).filter((n) => /^second\.(meta|index|\d+)$/.test(n))) copyFileSync(join(dir, f), join(stage, f));
    expect((await api.follow(summary.handle))?.archives).toEqual(['first', 'second']);
    writeFileSync(join(stage, lastVol), whole);
    const endMs = (await api.follow(summary.handle))?.endMs ?? NaN;

    // A step off the 1 s logging grid, read on from row to row across the join.
    const step = 1069;
    const rows = Math.floor((endMs - summary.startMs) / step);
    const block = await api.fetchSeries({ handle: summary.handle, plots: [{ metric: 'kernel.all.load', instances: { kind: 'list', names: ['1 minute'] } }], t0Ms: summary.startMs + step, t1Ms: summary.startMs + rows * step, stepMs: step, rate: true });
    const ours = [...(block.columns[0]?.values ?? [])];
    const want = pmvalLoad(dir, step / 1000, rows, step / 1000);
    expect(ours).toHaveLength(rows);
    ours.forEach((v, i) => (Number.isNaN(want[i]) ? expect(v, `row ${i}`).toBeNaN() : expect(v, `row ${i}`).toBeCloseTo(want[i] ?? NaN, 5)));
    expect(ours.slice(-2).every((v) => !Number.isNaN(v))).toBe(true);
    await api.close(summary.handle);
  });
  it('reads again a volume that grew after a later volume appeared (files synced out of order), then pmval -a DIR', { timeout: 120_000 }, async () => {
    // A folder kept up by a copy that writes the newest volume first: the one before it is
    // still short when the archive is first read, and whole at the next look.
    first = await startPmlogger({ name: 'first', samplesPerVolume: 3, minSamples: 8 });
    const dir = first.dir;
    await first.stop();
    stage = mkdtempSync(join(tmpdir(), 'pmdash-folder-'));
    const top = basename(stage);
    const names = readdirSync(dir).filter((f) => /^first\.(meta|index|\d+)$/.test(f));
    const vols = names.filter((f) => /\.\d+$/.test(f)).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
    expect(vols.length).toBeGreaterThanOrEqual(3);
    const short = vols[vols.length - 2] ?? '';
    for (const f of names) copyFileSync(join(dir, f), join(stage, f));
    const whole = readFileSync(join(dir, short));
    // Its last two records go: each ends with its length (archive-format.md, record trailer).
    let cut = whole.length;
    for (let k = 0; k < 2; k++) cut -= whole.readInt32BE(cut - 4);
    writeFileSync(join(stage, short), whole.subarray(0, cut));
    const api = new EngineApi();
    const files = names.map((f) => ({ path: `${top}/${f}`, file: new File([readFileSync(join(stage as string, f))], f) }));
    const summary = await api.open({ kind: 'files', files, archives: [`${top}/first`], folder: folderOf(stage) });
    const plots = [{ metric: 'kernel.all.load', instances: { kind: 'list' as const, names: ['1 minute'] } }];
    const endMs = summary.endMs;
    const rows = Math.floor((endMs - summary.startMs) / 1000);
    // The whole span is read once while the volume is short, then it is whole.
    await api.fetchSeries({ handle: summary.handle, plots, t0Ms: summary.startMs + 1000, t1Ms: summary.startMs + rows * 1000, stepMs: 1000, rate: true });
    writeFileSync(join(stage, short), whole);
    await api.follow(summary.handle);
    const block = await api.fetchSeries({ handle: summary.handle, plots, t0Ms: summary.startMs + 1000, t1Ms: summary.startMs + rows * 1000, stepMs: 1000, rate: true });
    const ours = [...(block.columns[0]?.values ?? [])];
    const want = pmvalLoad(dir, 1, rows);
    expect(ours).toHaveLength(rows);
    ours.forEach((v, i) => (Number.isNaN(want[i]) ? expect(v, `row ${i}`).toBeNaN() : expect(v, `row ${i}`).toBeCloseTo(want[i] ?? NaN, 5)));
    await api.close(summary.handle);
  });

  it('reads on past an end a window met before the archive grew: charts at the end of a folder copied file by file, then pmval -a DIR', { timeout: 120_000 }, async () => {
    // The folder is a copy kept up with pmlogger's directory file by file (as the page's e2e
    // copies into OPFS): each follow may see a volume ahead of its index. Charts at the end ask
    // for windows reaching past the end, where interpolation learns that nothing lies after
    // (libpcp's t_last); once the archive has grown, that must not hide the records past it.
    first = await startPmlogger({ name: 'first', samplesPerVolume: 6, minSamples: 3 });
    const src = first.dir;
    stage = mkdtempSync(join(tmpdir(), 'pmdash-folder-'));
    const dir = stage;
    const sizes = new Map<string, number>();
    const copy = async (): Promise<void> => {
      const order = (f: string): number => (f.endsWith('.index') ? 0 : f.endsWith('.meta') ? 2 : 1);
      const read = readdirSync(src)
        .filter((f) => /\.(meta|index|\d+)$/.test(f))
        .sort((a, b) => order(a) - order(b))
        .map((f) => ({ name: f, bytes: readFileSync(join(src, f)) }))
        .filter((f) => sizes.get(f.name) !== f.bytes.length);
      // Written metadata first, index last (each written earlier covers what a later one
      // refers to), volumes in their order: one is whole before the next appears, as pmlogger
      // writes them.
      const vol = (f: string): number => (/\.\d+$/.test(f) ? Number(f.slice(f.lastIndexOf('.') + 1)) : -1);
      for (const f of read.reverse().sort((a, b) => order(b.name) - order(a.name) || vol(a.name) - vol(b.name))) {
        writeFileSync(join(dir, f.name), f.bytes);
        sizes.set(f.name, f.bytes.length);
        await new Promise((r) => setTimeout(r, 150));
      }
    };
    await copy();
    let copying = true;
    const copier = (async () => {
      while (copying) {
        await copy();
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    try {
      const { api, summary } = await openFolder(dir);
      const plots = [{ metric: 'kernel.all.load', instances: { kind: 'list' as const, names: ['1 minute'] } }];
      // A chart's padded window at the end: a second on the grid past the last point inside it.
      const atEnd = async (endMs: number): Promise<void> => {
        const t1 = summary.startMs + Math.floor((endMs - summary.startMs) / 1000 - 0.5) * 1000;
        await api.fetchSeries({ handle: summary.handle, plots, t0Ms: t1 - 3000, t1Ms: t1 + 1000, stepMs: 1000, rate: true });
      };
      const followFor = async (looks: number): Promise<number> => {
        let endMs = summary.endMs;
        for (let i = 0; i < looks; i++) {
          await new Promise((r) => setTimeout(r, 1000));
          endMs = (await api.follow(summary.handle))?.endMs ?? endMs;
          await atEnd(endMs);
        }
        return endMs;
      };
      await followFor(4);
      await first.stop();
      second = await startPmlogger({ dir: src, name: 'second', samplesPerVolume: 6, minSamples: 1 });
      await followFor(8);
      await second.stop();
      copying = false;
      await copier;
      await copy();
      const followed = await api.follow(summary.handle);
      expect(followed?.archives).toEqual(['first', 'second']);
      const endMs = followed?.endMs ?? NaN;
      const rows = Math.floor((endMs - summary.startMs) / 1000);
      const block = await api.fetchSeries({ handle: summary.handle, plots, t0Ms: summary.startMs + 1000, t1Ms: summary.startMs + rows * 1000, stepMs: 1000, rate: true });
      const ours = [...(block.columns[0]?.values ?? [])];
      const want = pmvalLoad(dir, 1, rows);
      expect(ours).toHaveLength(rows);
      ours.forEach((v, i) => (Number.isNaN(want[i]) ? expect(v, `row ${i}`).toBeNaN() : expect(v, `row ${i}`).toBeCloseTo(want[i] ?? NaN, 5)));
      // The second archive's rows were compared: three before the last have values (the last
      // may lie after the last sample, where pmval has none either).
      expect(ours.slice(-4, -1).every((v) => !Number.isNaN(v))).toBe(true);
      await api.close(summary.handle);
    } finally {
      copying = false;
      await copier.catch(() => undefined);
    }
  });
});
