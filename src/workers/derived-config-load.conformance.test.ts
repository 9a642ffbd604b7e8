// A user's derived-metric configuration loaded into the engine (issue 14 item 2): a source
// opened before the load has the metrics too (contexts refresh from the global set, as
// libpcp's do), their descriptors and values equal pminfo/pmval's for the same file, and
// libpcp's diagnostics come back word for word as pminfo -c prints them.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QA_ARCHIVES } from '../../test/oracle';
import { EngineApi } from './engine-api';
import type { DroppedFile } from './engine-types';

const dir = mkdtempSync(join(tmpdir(), 'pmdash-derived-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CONF = 'my.load.sum = kernel.all.load + kernel.all.load\nmy.load.sum(oneline) = "twice the load"\nmy.bad = kernel.all.load +\n';
writeFileSync(join(dir, 'mine.conf'), CONF);

const qa = (name: string): DroppedFile => ({ path: name, file: new Blob([readFileSync(`${QA_ARCHIVES}/${name}`)]) });

describe('EngineApi.loadDerivedConfig', () => {
  it('adds the file to every source, open or later, with libpcp diagnostics and values', async () => {
    const engine = new EngineApi();
    const before = await engine.open({ kind: 'files', files: ['meta', 'index', '0'].map((s) => qa(`20180102.${s}`)) });
    const load = await engine.loadDerivedConfig('mine.conf', CONF);
    expect(load.names).toEqual(['my.load.sum']);
    const pminfo = spawnSync('pminfo', ['-c', join(dir, 'mine.conf'), '-a', `${QA_ARCHIVES}/20180102`, 'my.load.sum'], { encoding: 'utf8' });
    expect(load.messages).toBe(pminfo.stderr.replaceAll(`${dir}/`, ''));

    const after = await engine.open({ kind: 'files', files: ['meta', 'index', '0'].map((s) => qa(`20180102.${s}`)) });
    for (const s of [before, after]) {
      expect(await engine.listMetrics(s.handle)).toContain('my.load.sum');
      const [d] = await engine.details(s.handle, ['my.load.sum']);
      expect(d?.oneline).toBe('twice the load');
    }
    // Values against pmval with the same configuration: 3 samples 10 s apart from the start
    // (the first has no values in pmval's run nor here).
    const pmval = execFileSync('pmval', ['-z', '-f', '6', '-t', '10', '-s', '3', '-a', `${QA_ARCHIVES}/20180102`, 'my.load.sum'], { encoding: 'utf8', env: { ...process.env, PCP_DERIVED_CONFIG: join(dir, 'mine.conf') }, stdio: ['ignore', 'pipe', 'ignore'] });
    const header = /^\s+1 minute\s+5 minute\s+15 minute\s*$/m;
    expect(pmval).toMatch(header);
    const rows = pmval.split('\n').filter((l) => /^\d\d:\d\d:\d\d\.\d{3}\s+[0-9]/.test(l)).map((l) => l.trim().split(/\s+/).slice(1).map(Number));
    expect(rows.length).toBe(2);
    const block = await engine.fetchSeries({ handle: after.handle, plots: [{ metric: 'my.load.sum', instances: { kind: 'all' } }], t0Ms: after.startMs, t1Ms: after.startMs + 20_000, stepMs: 10_000, rate: true });
    expect(block.plots[0]?.error).toBeUndefined();
    for (const [i, inst] of ['1 minute', '5 minute', '15 minute'].entries()) {
      const col = block.columns.find((c) => c.instName === inst);
      expect(col, inst).toBeDefined();
      expect(Number.isNaN(col?.values[0])).toBe(true);
      for (const [r, row] of rows.entries()) expect(col?.values[r + 1]).toBeCloseTo(row[i] ?? NaN, 6);
    }
  });
});
