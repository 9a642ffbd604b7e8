// Record on the real pmcd (localhost:44321) through the engine, as the worker runs it: a raw
// chart watches live metrics (a FLOAT per instance, a U64 counter, a U32, an instant U64 and
// a derived expression), a recording of that chart rides on its feed, and then
//  - pmcd saw exactly one fetch per tick (the recording adds none);
//  - the .tar unpacks with GNU tar and pmlogcheck finds nothing wrong;
//  - pmdumplog prints, at each recorded time, the very values the chart was sent for it
//    (the derived expression as its operand, mem.util.used).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, scratchDir } from '../../test/oracle';
import { dayMicros, parseDumplogValues } from '../../test/dumplog-values';
import { openLiveContext } from '../node/open-live-context';
import { countFetches } from '../pcp-core/context/testing/live-helpers';
import { EngineApi } from './engine-api';
import type { LiveEvent, PlotRequest, SeriesBlock } from './engine-types';

const all = { kind: 'all' } as const;
const PLOTS: PlotRequest[] = [
  { metric: 'kernel.all.load', instances: all },
  { metric: 'kernel.all.cpu.user', instances: all },
  { metric: 'hinv.ncpu', instances: all },
  { metric: 'mem.util.free', instances: all },
  { metric: 'used', expr: 'mem.util.used * 1', instances: all },
];
const TICKS = 4;

describe('recording a live source', () => {
  it('writes the values the chart got, from its own fetches, into an archive PCP reads', async () => {
    const live = await openLiveContext('localhost:44321', { reconnectDelaysMs: [] });
    const fetches = countFetches(live);
    const api = new EngineApi(() => Promise.resolve({ ctx: live, name: 'localhost', endMs: NaN, intervalMs: 0, archives: [], warnings: [] }));
    const { handle } = await api.open({ kind: 'live', host: 'localhost', bridgeUrl: 'ws://unused' });
    const frames: SeriesBlock[] = [];
    const watch = await api.watchLive(handle, { plots: PLOTS, rate: false, intervalMs: 500 }, (e: LiveEvent) => {
      if (e.kind === 'error') throw new Error(e.error.message);
      frames.push(e.block);
    });
    while (frames.length < 1) await new Promise((r) => setTimeout(r, 50));
    const started = await api.startRecording(handle, PLOTS);
    expect(started.metrics).toBe(5);
    const t0 = Date.now();
    while ((await api.recordingStatus(started.id)).records < TICKS && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 100));
    const out = await api.stopRecording(started.id, '#kmchart\nversion 1\n');
    await api.unwatchLive(watch);
    await api.close(handle);
    expect(out.status.records).toBeGreaterThanOrEqual(TICKS);
    expect(out.status.capped).toBe(false);
    expect(out.status.error).toBeUndefined();
    // One fetch per tick: every fetch made a frame, the recording none of its own.
    expect(fetches()).toBe(frames.length);

    const dir = scratchDir('pmdash-record-');
    writeFileSync(join(dir, 'r.tar'), Buffer.concat(out.tarParts));
    expect((await runTool('tar', ['-xf', join(dir, 'r.tar'), '-C', dir])).status).toBe(0);
    const base = join(dir, out.base);
    const check = await runTool('pmlogcheck', [base]);
    expect({ status: check.status, out: check.stdout + check.stderr }).toEqual({ status: 0, out: '' });
    expect((await runTool('cat', [`${base}.view`])).stdout).toBe('#kmchart\nversion 1\n');

    const dump = await runTool('pmdumplog', ['-Z', 'UTC', base, 'kernel.all.load', 'kernel.all.cpu.user', 'hinv.ncpu', 'mem.util.free', 'mem.util.used']);
    expect(dump.status, dump.stderr).toBe(0);
    const records = parseDumplogValues(dump.stdout);
    expect(records.size).toBe(out.status.records);
    const names = ['kernel.all.load', 'kernel.all.cpu.user', 'hinv.ncpu', 'mem.util.free', 'mem.util.used'];
    // Every recorded sample is one the chart was sent, value for value.
    // pmdumplog prints whole microseconds and a frame's time is epoch ms as a double: the two
    // may differ by the last microsecond, while samples are 500 ms apart.
    const frameAt = (us: number): SeriesBlock | undefined => frames.find((f) => Math.abs(dayMicros(f.timestamps[0] ?? NaN) - us) <= 1);
    let compared = 0;
    for (const [us, row] of records) {
      const f = frameAt(us);
      expect(f, `a frame at the recorded time ${us} µs`).toBeDefined();
      for (const c of f?.columns ?? []) {
        const key = c.instName === '' ? (names[c.plot] ?? '') : `${names[c.plot] ?? ''}[${c.instName}]`;
        const want = c.values[0] ?? NaN;
        const got = row.get(key);
        expect(got, key).toBeDefined();
        // pmdumplog prints a FLOAT with 8 significant digits.
        expect(Math.abs((got ?? NaN) - want), `${key}: ${got} vs ${want}`).toBeLessThanOrEqual(Math.abs(want) * 1e-7);
        compared++;
      }
    }
    // kernel.all.load's three instances and four singular metrics, in every record.
    expect(compared).toBe(records.size * 7);
  }, 60_000);
});
