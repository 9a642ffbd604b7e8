// Several dropped archives of one host open as ONE source over an archive set, read as libpcp
// reads a comma list (`pmval -a A,B`) or the directory holding them (`pmval -a DIR`): the two
// archives are made here with pmlogextract from a QA archive, and the engine's series across
// the seam (values, the gap between the archives, and after it) must be pmval's.
import { execFileSync } from 'node:child_process';
import { openAsBlob, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pmvalColumn } from '../../test/pmval-table';
import { QA_ARCHIVES, scratchDir } from '../../test/oracle';
import { classifyDrop } from './drop-classify';
import { EngineApi } from './engine-api';
import type { DroppedFile } from './engine-types';

let dir = '';
let files: DroppedFile[] = [];

beforeAll(async () => {
  dir = scratchDir('pmdash-set-');
  execFileSync('pmlogextract', ['-T', '+300', join(QA_ARCHIVES, '20180102'), join(dir, 'a')]);
  execFileSync('pmlogextract', ['-S', '+301', '-T', '+900', join(QA_ARCHIVES, '20180102'), join(dir, 'b')]);
  // As a folder drop gives them: relative paths, in no particular order.
  files = await Promise.all(['b.0', 'a.meta', 'b.index', 'a.0', 'b.meta', 'a.index'].map(async (f) => ({ path: `logs/${f}`, file: await openAsBlob(join(dir, f)) })));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});


describe('an archive set from a drop', () => {
  it('opens one source over both archives whose series across the seam equal pmval -a A,B and pmval -a DIR', async () => {
    const sorted = await classifyDrop(files);
    expect(sorted.archives).toHaveLength(1);
    const g = sorted.archives[0];
    if (!g) throw new Error('no archives');
    expect(g.hostname).toBe('bozo');
    const api = new EngineApi();
    const summary = await api.open({ kind: 'files', files: g.files.map((i) => files[i]).filter((f): f is DroppedFile => f !== undefined), archives: g.bases });
    expect(summary.archives).toEqual(['a', 'b']);
    const n = 90;
    const block = await api.fetchSeries({
      handle: summary.handle,
      plots: [{ metric: 'kernel.all.load', instances: { kind: 'list', names: ['1 minute'] } }, { metric: 'hinv.ncpu', instances: { kind: 'all' } }],
      t0Ms: summary.startMs,
      t1Ms: summary.startMs + (n - 1) * 10_000,
      stepMs: 10_000,
      rate: true,
    });
    const col = (plot: number): number[] => Array.from(block.columns.find((c) => c.plot === plot)?.values ?? []);
    for (const archive of [`${join(dir, 'a')},${join(dir, 'b')}`, dir]) {
      const load = pmvalColumn({ archive, metric: 'kernel.all.load', inst: '1 minute', stepSec: 10, samples: n });
      const ncpu = pmvalColumn({ archive, metric: 'hinv.ncpu', stepSec: 10, samples: n });
      expect(load).toHaveLength(n);
      expect(col(0)).toHaveLength(n);
      expect(col(1)).toHaveLength(n);
      // The comparison spans values before the seam, the gap and values after it.
      expect(load.some((v) => Number.isNaN(v))).toBe(true);
      expect(load.slice(60).every((v) => Number.isFinite(v))).toBe(true);
      col(0).forEach((v, i) => (Number.isNaN(load[i] ?? NaN) ? expect(v).toBeNaN() : expect(v).toBeCloseTo(load[i] ?? NaN, 4)));
      col(1).forEach((v, i) => (Number.isNaN(ncpu[i] ?? NaN) ? expect(v).toBeNaN() : expect(v).toBe(ncpu[i])));
    }
    await api.close(summary.handle);
  });
});
