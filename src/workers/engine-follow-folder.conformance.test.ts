// The engine following a folder (a FolderHandle, as Chromium's FileSystemDirectoryHandle of a
// dropped or picked folder; here one over a real directory) in which a real pmlogger writes,
// stops, and a second pmlogger run starts a new archive (test/pmlogger-run.ts): the source's
// archives grow by the new one, its end moves into it, and the series across the join are
// pmval -a DIR's.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPmlogger, type RunningLogger } from '../../test/pmlogger-run';
import { EngineApi } from './engine-api';
import type { FileHandleLike, FolderHandle } from './folder-file-set';

/** A FolderHandle over a real directory: listed afresh each time, each File a copy of the file now. */
function folderOf(dir: string): FolderHandle {
  return {
    kind: 'directory',
    name: basename(dir),
    async *values(): AsyncGenerator<FolderHandle | FileHandleLike> {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) yield folderOf(path);
        else yield { kind: 'file', name, getFile: () => Promise.resolve(new File([readFileSync(path)], name)) };
      }
    },
  };
}

/** pmval's "1 minute" load average at 1 s from `offsetSec` after the set's start, NaN for no value. */
function pmvalLoad(archive: string, offsetSec: number, samples: number): number[] {
  const out = execFileSync('pmval', ['-z', '-f', '6', '-a', archive, '-S', `+${offsetSec}`, '-t', '1', '-s', String(samples), '-i', '"1 minute"', 'kernel.all.load'], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => /^\d\d:\d\d:\d\d\.\d{3}\s/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[1]));
}

let first: RunningLogger | undefined;
let second: RunningLogger | undefined;
afterEach(async () => {
  await second?.stop();
  await first?.remove();
  first = second = undefined;
});

describe('EngineApi.follow of a folder', () => {
  it('reads a folder again: the archive a second pmlogger run starts there joins, series across the join are pmval -a DIR', { timeout: 120_000 }, async () => {
    first = await startPmlogger({ name: 'first', samplesPerVolume: 3, minSamples: 4 });
    const dir = first.dir;
    const top = basename(dir);
    const api = new EngineApi();
    const files = readdirSync(dir)
      .filter((f) => /\.(meta|index|\d+)$/.test(f))
      .map((f) => ({ path: `${top}/${f}`, file: new File([readFileSync(join(dir, f))], f) }));
    const summary = await api.open({ kind: 'files', files, archives: [`${top}/first`], folder: folderOf(dir) });
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
});
