// "Export the visible window as an archive" through the engine (EngineApi in-process, as the
// worker runs it): the .tar unpacks with GNU tar, pmlogcheck finds nothing wrong, and
// pmdumplog shows the same records as the source for that window. Also: live sources are
// refused with a clear error.
import { openAsBlob, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { EngineApi } from '../src/workers/engine-api';
import { QA_ARCHIVES, runTool, scratchDir } from './oracle';

const records = (dump: string): string => dump.split('\n').filter((l) => !l.startsWith('Note: timezone')).join('\n');

it('exports a window of omnibus_v3 that PCP reads back as the source', async () => {
  const api = new EngineApi();
  const files = await Promise.all(['meta', 'index', '0'].map(async (s) => ({ path: `omnibus_v3.${s}`, file: await openAsBlob(join(QA_ARCHIVES, `omnibus_v3.${s}`)) })));
  const src = await api.open({ kind: 'files', files });
  const t0Ms = src.startMs + 2000;
  const t1Ms = src.startMs + 6000;
  const out = await api.exportArchive(src.handle, t0Ms, t1Ms);
  expect(out.base).toMatch(/^omnibus_v3-20220403T06505\dZ$/);
  expect(out.records).toBeGreaterThan(10);
  const dir = scratchDir('pmdash-export-');
  writeFileSync(join(dir, 'x.tar'), Buffer.concat(out.tarParts));
  expect((await runTool('tar', ['-xf', join(dir, 'x.tar'), '-C', dir])).status).toBe(0);
  const base = join(dir, out.base);
  const check = await runTool('pmlogcheck', [base]);
  expect({ status: check.status, out: check.stdout + check.stderr }).toEqual({ status: 0, out: '' });
  // pmdumplog of the copy equals pmdumplog of the source over the copy's first..last record.
  const mine = await runTool('pmdumplog', ['-Z', 'UTC', base]);
  const iso = (ms: number): string => `@${new Date(ms).toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1 $3 $2 $5 $4')}`;
  const theirs = await runTool('pmdumplog', ['-Z', 'UTC', '-S', iso(Math.floor(out.firstMs / 1000) * 1000), '-T', iso(Math.ceil(out.lastMs / 1000) * 1000), join(QA_ARCHIVES, 'omnibus_v3')]);
  expect(mine.status).toBe(0);
  // The records: from the first "hh:mm:ss.nnnnnnnnn N metrics" (or <mark>) line on.
  const body = (d: string): string => {
    const lines = records(d).split('\n');
    return lines.slice(lines.findIndex((l) => /^\d\d:\d\d:\d\d\.\d+ +(\d+ metrics?|<mark>)/.test(l))).join('\n');
  };
  const ours = body(mine.stdout);
  expect(ours.length).toBeGreaterThan(1000);
  expect(body(theirs.stdout)).toContain(ours.trim());
  await api.close(src.handle);
});

it('refuses to export a source that is not an archive', async () => {
  const api = new EngineApi();
  await expect(api.exportArchive(99, 0, 1)).rejects.toMatchObject({ code: 'PM_ERR_NOCONTEXT' });
});
