// Unit tests of series-fetch over a scripted in-memory Context (a test fake: the real values
// are checked against pmval in the e2e suite). Rate rules: docs/pmchart-reference.md §1d D1.
import { describe, expect, it } from 'vitest';
import type { Context, ReplayMode } from '../pcp-core/context/context';
import { PM_ERR_EOL, PmError } from '../pcp-core/errors';
import { indom, PM_INDOM_NULL, PM_SEM_COUNTER, PM_SEM_INSTANT, PM_TYPE_DOUBLE, PM_TYPE_U64, pmid, type Desc, type PmId, type Result, type Timestamp, type Units } from '../pcp-core/types';
import { EngineApi } from './engine-api';
import { blockBuffers, fetchSeries, gridRows, msToTimestamp } from './series-fetch';

const NONE: Units = { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 };
const KBYTE: Units = { ...NONE, dimSpace: 1, scaleSpace: 1 };
const MSEC: Units = { ...NONE, dimTime: 1, scaleTime: 2 };

interface FakeMetric {
  readonly name: string;
  readonly desc: Desc;
  /** Value at time t (seconds since 0) per instance id; undefined = no value. */
  readonly at: (tSec: number, inst: number) => number | bigint | undefined;
}

/** A Context whose INTERP fetch evaluates functions at the grid; EOL after `endSec`. */
function fakeContext(metrics: FakeMetric[], endSec: number): Context {
  let t = 0;
  let step = 1;
  const byId = new Map(metrics.map((m) => [m.desc.pmid as number, m]));
  const ctx: Context = {
    source: { kind: 'archive', names: ['fake'], hostname: 'fakehost', timezone: 'UTC', zoneinfo: '', start: { sec: 0, nsec: 0 } },
    lookupNames: (names) => Promise.resolve(names.map((n) => metrics.find((m) => m.name === n)?.desc.pmid ?? -12357)),
    nameAll: () => Promise.resolve([]),
    children: () => Promise.resolve([]),
    traverse: () => Promise.resolve(metrics.map((m) => m.name)),
    lookupDescs: (ids) => Promise.resolve(ids.map((id) => byId.get(id)?.desc ?? -12358)),
    getInDom: () => Promise.resolve({ instances: Int32Array.from([0, 1]), names: ['cpu0', 'cpu1'] }),
    lookupText: () => Promise.reject(new PmError(-12349)),
    lookupLabels: () => Promise.resolve([]),
    setMode(_mode: ReplayMode, origin?: Timestamp, deltaNs?: bigint) {
      if (origin) t = origin.sec + origin.nsec / 1e9;
      if (deltaNs !== undefined) step = Number(deltaNs) / 1e9;
    },
    changeProfile: () => undefined,
    fetch(ids: readonly PmId[]): Promise<Result> {
      // libpcp answers PM_ERR_EOL outside the archive but still moves the position.
    if (t > endSec + 1e-9 || t < 0) {
      t += step;
      return Promise.reject(new PmError(PM_ERR_EOL));
    }
      const now = t;
      t += step;
      const sets = ids.map((id) => {
        const m = byId.get(id);
        const insts = m?.desc.indom === PM_INDOM_NULL ? [-1] : [0, 1];
        const inst: number[] = [];
        const values: (number | bigint)[] = [];
        for (const i of insts) {
          const v = m?.at(now, i);
          if (v !== undefined) {
            inst.push(i);
            values.push(v);
          }
        }
        return { pmid: id, numval: values.length, valfmt: 0, inst: Int32Array.from(inst), values };
      });
      return Promise.resolve({ timestamp: msToTimestamp(now * 1000), sets });
    },
    close: () => Promise.resolve(),
  };
  return ctx;
}

const load: FakeMetric = {
  name: 'kernel.all.load',
  desc: { pmid: pmid(60, 2, 0), type: PM_TYPE_DOUBLE, indom: PM_INDOM_NULL, sem: PM_SEM_INSTANT, units: NONE },
  at: (t) => (t >= 1 ? t * 2 : undefined),
};
const bytes: FakeMetric = {
  name: 'disk.all.read_bytes',
  desc: { pmid: pmid(60, 0, 1), type: PM_TYPE_U64, indom: PM_INDOM_NULL, sem: PM_SEM_COUNTER, units: KBYTE },
  // 100 KB/s, then a reset at t = 6 (counter goes down).
  at: (t) => BigInt(t < 6 ? 1000 + 100 * t : 5),
};
const cpu: FakeMetric = {
  name: 'kernel.percpu.cpu.user',
  desc: { pmid: pmid(60, 0, 2), type: PM_TYPE_U64, indom: indom(60, 0), sem: PM_SEM_COUNTER, units: MSEC },
  // cpu0 busy 250 ms per second; cpu1 missing at t = 3.
  at: (t, inst) => (inst === 1 && t === 3 ? undefined : BigInt(inst === 0 ? 250 * t : 500 * t)),
};

describe('fetchSeries', () => {
  it('returns instantaneous values at the grid with NaN where there is none', async () => {
    const ctx = fakeContext([load], 100);
    const b = await fetchSeries(ctx, { handle: 1, plots: [{ metric: 'kernel.all.load', instances: { kind: 'all' } }], t0Ms: 0, t1Ms: 3000, stepMs: 1000, rate: true });
    expect([...b.timestamps]).toEqual([0, 1000, 2000, 3000]);
    expect([...(b.columns[0]?.values ?? [])]).toEqual([NaN, 2, 4, 6]);
    expect(b.plots[0]?.units.text).toBe('');
  });

  it('rate-converts counters, with no value for the first sample and after a reset', async () => {
    const ctx = fakeContext([bytes], 100);
    const b = await fetchSeries(ctx, { handle: 1, plots: [{ metric: 'disk.all.read_bytes', instances: { kind: 'all' } }], t0Ms: 4000, t1Ms: 8000, stepMs: 2000, rate: true });
    // Rows at 4, 6, 8 s; prefetch at 2 s gives row 0 its rate; 6 s is after the reset.
    expect([...(b.columns[0]?.values ?? [])]).toEqual([100, NaN, 0]);
    expect(b.plots[0]?.units.text).toBe('Kbyte / sec');
  });

  it('plots the raw counter when rate conversion is off', async () => {
    const ctx = fakeContext([bytes], 100);
    const b = await fetchSeries(ctx, { handle: 1, plots: [{ metric: 'disk.all.read_bytes', instances: { kind: 'all' } }], t0Ms: 0, t1Ms: 2000, stepMs: 1000, rate: false });
    expect([...(b.columns[0]?.values ?? [])]).toEqual([1000, 1100, 1200]);
    expect(b.plots[0]?.units.text).toBe('Kbyte');
  });

  it('turns a time counter into a time utilization, per instance, and forgets across a gap', async () => {
    const ctx = fakeContext([cpu], 100);
    const b = await fetchSeries(ctx, { handle: 1, plots: [{ metric: 'kernel.percpu.cpu.user', instances: { kind: 'all' } }], t0Ms: 1000, t1Ms: 5000, stepMs: 1000, rate: true });
    expect(b.columns.map((c) => c.instName)).toEqual(['cpu0', 'cpu1']);
    expect([...(b.columns[0]?.values ?? [])]).toEqual([0.25, 0.25, 0.25, 0.25, 0.25]);
    // cpu1 has no value at 3 s, so neither 3 s nor 4 s has a rate.
    expect([...(b.columns[1]?.values ?? [])]).toEqual([0.5, 0.5, NaN, NaN, 0.5]);
    expect(b.plots[0]?.units.utilization).toBe(true);
  });

  it('selects instances by list and by regex', async () => {
    const ctx = fakeContext([cpu], 100);
    const one = await fetchSeries(ctx, { handle: 1, plots: [{ metric: 'kernel.percpu.cpu.user', instances: { kind: 'list', names: ['cpu1'] } }], t0Ms: 1000, t1Ms: 1000, stepMs: 1000, rate: true });
    expect(one.columns.map((c) => c.instName)).toEqual(['cpu1']);
    const not = await fetchSeries(ctx, { handle: 1, plots: [{ metric: 'kernel.percpu.cpu.user', instances: { kind: 'not-matching', pattern: '0$' } }], t0Ms: 1000, t1Ms: 1000, stepMs: 1000, rate: true });
    expect(not.columns.map((c) => c.instName)).toEqual(['cpu1']);
  });

  it('keeps a bad plot as a per-plot error and fills the rest', async () => {
    const ctx = fakeContext([load], 100);
    const b = await fetchSeries(ctx, {
      handle: 1,
      plots: [{ metric: 'no.such.metric', instances: { kind: 'all' } }, { metric: 'kernel.all.load', instances: { kind: 'all' } }],
      t0Ms: 1000, t1Ms: 2000, stepMs: 1000, rate: true,
    });
    expect(b.plots[0]?.error?.code).toBe('PM_ERR_NAME');
    expect(b.columns).toHaveLength(1);
    expect(b.columns[0]?.plot).toBe(1);
  });

  it('leaves rows before the start and past the end of the archive missing', async () => {
    const ctx = fakeContext([load], 2);
    const b = await fetchSeries(ctx, { handle: 1, plots: [{ metric: 'kernel.all.load', instances: { kind: 'all' } }], t0Ms: -2000, t1Ms: 4000, stepMs: 1000, rate: true }, 2000);
    expect([...(b.columns[0]?.values ?? [])]).toEqual([NaN, NaN, NaN, 2, 4, NaN, NaN]);
  });

  it('gives counters their rate from the first sample inside the archive', async () => {
    const ctx = fakeContext([bytes], 100);
    const b = await fetchSeries(ctx, { handle: 1, plots: [{ metric: 'disk.all.read_bytes', instances: { kind: 'all' } }], t0Ms: -2000, t1Ms: 2000, stepMs: 1000, rate: true }, 100_000);
    expect([...(b.columns[0]?.values ?? [])]).toEqual([NaN, NaN, NaN, 100, 100]);
  });

  it('hands over every buffer of a block for transfer: the worker keeps none of them', async () => {
    const ctx = fakeContext([load, bytes], 100);
    const b = await fetchSeries(ctx, { handle: 1, plots: [{ metric: 'kernel.all.load', instances: { kind: 'all' } }, { metric: 'disk.all.read_bytes', instances: { kind: 'all' } }], t0Ms: 0, t1Ms: 9000, stepMs: 1000, rate: true });
    const buffers = blockBuffers(b);
    // One buffer per column plus the timestamps: no column is a view on a shared buffer.
    expect(buffers).toHaveLength(b.columns.length + 1);
    const want = { times: [...b.timestamps], cols: b.columns.map((c) => [...c.values]) };
    // What Comlink.transfer does across postMessage: the copy arrives, the originals detach.
    const moved = structuredClone(b, { transfer: buffers });
    expect(buffers.every((x) => x.byteLength === 0)).toBe(true);
    expect(b.timestamps.length).toBe(0);
    expect({ times: [...moved.timestamps], cols: moved.columns.map((c) => [...c.values]) }).toEqual(want);
  });

  it('sizes the grid inclusively and refuses nonsense', () => {
    expect(gridRows(0, 10_000, 1000)).toBe(11);
    expect(gridRows(0, 9_999, 1000)).toBe(10);
    expect(gridRows(0, 1, 0)).toBe(0);
    expect(gridRows(5, 1, 1)).toBe(0);
  });
});

describe('EngineApi', () => {
  it('opens through the opener, answers in bulk and closes the handle for good', async () => {
    const api = new EngineApi(() => Promise.resolve({ ctx: fakeContext([load, cpu], 10), name: 'fake', endMs: 10_000, intervalMs: 1000, archives: [], warnings: [] }));
    const summary = await api.open({ kind: 'url', url: 'http://x/fake' });
    expect(summary).toMatchObject({ kind: 'archive', hostname: 'fakehost', startMs: 0, endMs: 10_000, metricCount: 2 });
    expect(await api.listMetrics(summary.handle)).toEqual(expect.arrayContaining(['kernel.all.load', 'kernel.percpu.cpu.user']));
    const [d] = await api.details(summary.handle, ['kernel.percpu.cpu.user']);
    expect(d).toMatchObject({ type: 'U64', sem: 'counter', units: 'millisec', instances: [{ id: 0, name: 'cpu0' }, { id: 1, name: 'cpu1' }] });
    await api.close(summary.handle);
    await expect(api.listMetrics(summary.handle)).rejects.toMatchObject({ code: 'PM_ERR_NOCONTEXT' });
  });

  it('rejects a failed open with a plain error object naming the source', async () => {
    const api = new EngineApi(() => Promise.reject(new PmError(-12374, undefined, 'bad.meta')));
    await expect(api.open({ kind: 'url', url: 'http://x/bad' })).rejects.toEqual({ code: 'PM_ERR_NOTARCHIVE', message: "Operation requires context with archive source of metrics", context: 'bad.meta' });
  });
});

describe('derived expressions', () => {
  it('plots an expression through a per-source derived metric', async () => {
    const api = new EngineApi(() => Promise.resolve({ ctx: fakeContext([load], 10), name: 'fake', endMs: 10_000, intervalMs: 1000, archives: [], warnings: [] }));
    const { handle } = await api.open({ kind: 'url', url: 'x' });
    const b = await api.fetchSeries({ handle, plots: [{ metric: 'double load', expr: '2 * kernel.all.load', instances: { kind: 'all' } }, { metric: 'bad', expr: 'kernel.all.load +', instances: { kind: 'all' } }], t0Ms: 1000, t1Ms: 3000, stepMs: 1000, rate: true });
    expect([...(b.columns[0]?.values ?? [])]).toEqual([4, 8, 12]);
    expect(b.plots[0]?.metric).toBe('double load');
    expect(b.plots[1]?.error?.code).toBe('PM_ERR_BADDERIVE');
  });

  it('reports libpcp syntax errors with a caret and unknown operands by position', async () => {
    const api = new EngineApi(() => Promise.resolve({ ctx: fakeContext([load], 10), name: 'fake', endMs: 10_000, intervalMs: 1000, archives: [], warnings: [] }));
    const { handle } = await api.open({ kind: 'url', url: 'x' });
    const bad = await api.checkExpression(handle, 'kernel.all.load +');
    expect(bad.ok).toBe(false);
    expect(await api.checkExpression(handle, '2 * kernel.all.load')).toMatchObject({ ok: true });
    expect(await api.checkExpression(handle, 'kernel.all.load + no.such')).toEqual({ ok: false, message: 'Unknown metric name: no.such', caret: 18 });
  });
});
