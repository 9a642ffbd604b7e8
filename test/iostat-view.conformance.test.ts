// pmchart's standard Iostat view over 20180416.10.00 through the engine (EngineApi in-process,
// the code the worker runs, with the derived metrics pmdash ships): every chart of both tabs
// has data, and the "SCSI Disk IOSTAT" tab's derived metrics (disk.dev.await, avg_rqsz,
// avg_qlen, util) equal pmval's with PCP's default derived configuration (no -c).
import { openAsBlob, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineApi } from '../src/workers/engine-api';
import type { InstanceSelector, PlotRequest } from '../src/workers/engine-types';
import type { ViewInstances } from '../src/pcp-core/views/view-model';
import { QA_ARCHIVES } from './oracle';
import { ctime, pmvalTable } from './pmval-table';

const ARCHIVE = '20180416.10.00';

const selector = (i: ViewInstances): InstanceSelector => (i.kind === 'instance' ? { kind: 'list', names: [i.name] } : i);

const clockOf = (ms: number): string => new Date(ms).toISOString().slice(11, 23);

describe('the Iostat standard view', () => {
  it(`shows data in every chart of ${ARCHIVE}, derived values equal to pmval's`, async () => {
    const api = new EngineApi();
    const names = readdirSync(QA_ARCHIVES).filter((f) => f.startsWith(`${ARCHIVE}.`));
    const files = await Promise.all(names.map(async (f) => ({ path: f, file: await openAsBlob(join(QA_ARCHIVES, f)) })));
    const src = await api.open({ kind: 'files', files });
    const iostat = (await api.standardViews()).find((v) => v.name === 'Iostat');
    expect(iostat?.view.tabs.map((t) => t.label)).toEqual(['SCSI Disk TRAFFIC', 'SCSI Disk IOSTAT']);
    // Ten minutes from a whole second after the start, every 10 s (pmchart's default step).
    const t0Ms = Math.ceil(src.startMs / 1000) * 1000 + 60_000;
    const t1Ms = t0Ms + 600_000;
    let compared = 0;
    for (const tab of iostat?.view.tabs ?? []) {
      for (const chart of tab.charts) {
        const plots: PlotRequest[] = chart.plots.map((p) => ({ metric: p.metric, instances: selector(p.instances) }));
        const block = await api.fetchSeries({ handle: src.handle, plots, t0Ms, t1Ms, stepMs: 10_000, rate: true });
        const valued = block.columns.filter((c) => c.values.some((v) => Number.isFinite(v)));
        expect(valued.length, `${tab.label ?? ''}: ${chart.title ?? ''}`).toBeGreaterThan(0);
        if (!(tab.label ?? '').endsWith('IOSTAT')) continue;
        for (const [k, plot] of plots.entries()) {
          const table = await pmvalTable(join(QA_ARCHIVES, ARCHIVE), plot.metric, ctime(t0Ms), ctime(t1Ms), 10);
          expect(table.size, plot.metric).toBeGreaterThan(0);
          for (const [inst, rows] of table) {
            // Rows before pmval's first instance header ("No values available").
            if (inst === '') {
              expect([...rows.values()].filter((v) => v !== ''), plot.metric).toEqual([]);
              continue;
            }
            const col = block.columns.find((c) => c.plot === k && c.instName === inst);
            expect(col, `${plot.metric}[${inst}]`).toBeDefined();
            let first = true;
            for (const [clock, want] of rows) {
              const row = block.timestamps.findIndex((t) => clockOf(t) === clock);
              expect(row, `${plot.metric}[${inst}] at ${clock}`).toBeGreaterThanOrEqual(0);
              const got = col?.values[row] ?? NaN;
              // pmval's first row of a delta() or rate() has no value yet; ours was primed one
              // step earlier.
              if (first) {
                first = false;
                if (want === '') continue;
              }
              if (want === '') expect(got, `${plot.metric}[${inst}] at ${clock}: pmval has no value`).toBeNaN();
              else {
                expect(Math.abs(got - Number(want)), `${plot.metric}[${inst}] at ${clock}: ours ${got}, pmval ${want}`).toBeLessThanOrEqual(5e-7 + Math.abs(got) * 1e-12);
                compared++;
              }
            }
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(4 * 3 * 50);
    await api.close(src.handle);
  });
});
