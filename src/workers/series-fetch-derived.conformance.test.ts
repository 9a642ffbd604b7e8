// Windows of a derived metric that keeps state between fetches (delta(), rate(): PCP's
// disk.dev.avg_qlen, await, …) equal pmval's values whatever window was fetched before. The
// UI fetches windows out of time order (padding, zoom, jumps back); without a fetch before
// the window's start, its first row took its delta from the last window fetched (libpcp keeps
// that state across pmSetMode), a spike, negative when that window lay later.
import { openAsBlob } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pmvalColumn } from '../../test/pmval-table';
import { QA_ARCHIVES } from '../../test/oracle';
import { EngineApi } from './engine-api';

const A = `${QA_ARCHIVES}/20180416.10.00`;
const FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'];


describe('a stateful derived metric fetched window by window', () => {
  it('gives every window pmval\'s values, the later window fetched first', async () => {
    const api = new EngineApi();
    const summary = await api.open({ kind: 'files', files: await Promise.all(FILES.map(async (s) => ({ path: `20180416.10.00.${s}`, file: await openAsBlob(`${A}.${s}`) }))) });
    const step = 10;
    const window = async (offsetSec: number, rows: number): Promise<number[]> => {
      const t0Ms = summary.startMs + offsetSec * 1000;
      const block = await api.fetchSeries({ handle: summary.handle, plots: [{ metric: 'disk.dev.avg_qlen', instances: { kind: 'list', names: ['sda'] } }, { metric: 'disk.dev.await', instances: { kind: 'list', names: ['sda'] } }], t0Ms, t1Ms: t0Ms + (rows - 1) * step * 1000, stepMs: step * 1000, rate: true });
      expect(block.plots.map((p) => p.error)).toEqual([undefined, undefined]);
      return [...(block.columns.find((c) => c.plot === 0)?.values ?? []), ...(block.columns.find((c) => c.plot === 1)?.values ?? [])];
    };
    // Later first, then earlier, then the later one again: as a user zooming back and forth.
    for (const offset of [9000, 3000, 9000, 600]) {
      const rows = 30;
      const ours = await window(offset, rows);
      // pmval from one step earlier: its second sample onwards is the window's grid with its own previous sample.
      const want = [...pmvalColumn({ archive: A, metric: 'disk.dev.avg_qlen', inst: 'sda', start: `+${offset - step}`, stepSec: step, samples: rows + 1, precision: 8 }).slice(1), ...pmvalColumn({ archive: A, metric: 'disk.dev.await', inst: 'sda', start: `+${offset - step}`, stepSec: step, samples: rows + 1, precision: 8 }).slice(1)];
      expect(ours).toHaveLength(want.length);
      ours.forEach((v, i) => {
        if (Number.isNaN(want[i] ?? NaN)) expect(v, `offset ${offset} row ${i}`).toBeNaN();
        else expect(v, `offset ${offset} row ${i}`).toBeCloseTo(want[i] ?? NaN, 5);
      });
    }
  });
});
