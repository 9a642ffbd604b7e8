// The chart adapter over hand-made SeriesBlocks: labels, palette, unit scaling, utilization
// normalisation with gaps, optional plots, and the value lookup the legend uses.
import { describe, expect, it } from 'vitest';
import type { SeriesBlock } from '../../workers/engine-types';
import type { ChartSpec, SourceEntry } from '../state/model';
import { seriesKey } from '../state/model';
import { chartData, expandLegend, hasValueIn, nearestIndex, seriesColors, sourceFacts, valueAt } from './chart-series';
import { CYCLE } from './palette';

const NONE = { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 };
const BYTE_RATE = { ...NONE, dimSpace: 1, dimTime: -1, scaleTime: 3 };

function block(cols: { plot: number; inst: string; values: number[] }[], plots: SeriesBlock['plots']): SeriesBlock {
  const n = cols[0]?.values.length ?? 0;
  return {
    t0Ms: 0, t1Ms: (n - 1) * 1000, stepMs: 1000,
    timestamps: Float64Array.from({ length: n }, (_, i) => i * 1000),
    plots,
    columns: cols.map((c, i) => ({ plot: c.plot, instId: i, instName: c.inst, values: Float64Array.from(c.values) })),
  };
}

const chart = (style: ChartSpec['style'], plots: ChartSpec['plots'], hidden: string[] = []): ChartSpec => ({ id: 'c1', title: 't', style, yScale: { mode: 'auto' }, legend: true, rate: true, plots, hidden });

describe('chartData', () => {
  it('labels metric[instance], hands out the #-cycle palette and rescales bytes', () => {
    const c = chart('line', [{ id: 'p1', sourceId: 's1', metric: 'network.interface.in.bytes', instances: { kind: 'all' } }]);
    const b = block([{ plot: 0, inst: 'eth0', values: [2048, 4096] }, { plot: 0, inst: 'lo', values: [1e6, NaN] }], [{ metric: 'network.interface.in.bytes', sem: 1, type: 3, units: { units: BYTE_RATE, text: 'byte / sec', utilization: false } }]);
    const d = chartData(c, new Map([['s1', b]]), new Map([['s1', 'host']]));
    expect(d.series.map((s) => s.label)).toEqual(['network.interface.in.bytes[eth0]', 'network.interface.in.bytes[lo]']);
    expect(d.series.map((s) => s.color)).toEqual([CYCLE[0], CYCLE[1]]);
    expect(d.scale).toEqual({ factor: 1024, label: 'Kbyte / sec' });
    expect([...(d.series[0]?.values ?? [])]).toEqual([2, 4]);
    expect(d.series[0]?.step).toBe(false);
  });

  it('names the source of each series when a chart draws from several (host, or archive name when hosts repeat), and keeps shifts', () => {
    const load = (sourceId: string, id: string): ChartSpec['plots'][number] => ({ id, sourceId, metric: 'kernel.all.load', instances: { kind: 'list', names: ['1 minute'] } });
    const info = [{ metric: 'kernel.all.load', sem: 3, type: 5, units: { units: NONE, text: '', utilization: false } }];
    const b = block([{ plot: 0, inst: '1 minute', values: [1, 2] }], info);
    const src = (id: string, hostname: string, name: string, offsetMs?: number): SourceEntry => ({ id, origin: { kind: 'files', names: [] }, label: name, status: 'ready', offsetMs, summary: { hostname, name } as SourceEntry['summary'] });
    const two = chart('line', [load('s1', 'p1'), load('s2', 'p2')]);
    const blocks = new Map([['s1', b], ['s2', b]]);
    const hosts = new Map([['s1', 'bozo.localdomain'], ['s2', 'brolley-t530']]);
    const apart = chartData(two, blocks, hosts, sourceFacts(two, [src('s1', 'bozo.localdomain', '20180102'), src('s2', 'brolley-t530', '20180416.10.00', 86_400_000)]));
    expect(apart.series.map((s) => s.label)).toEqual(['bozo: kernel.all.load[1 minute]', 'brolley-t530: kernel.all.load[1 minute]']);
    expect(apart.series.map((s) => s.offsetMs)).toEqual([0, 86_400_000]);
    const sameHost = chartData(two, blocks, hosts, sourceFacts(two, [src('s1', 'bozo', '20180102'), src('s2', 'bozo', '20180103')]));
    expect(sameHost.series.map((s) => s.label)).toEqual(['20180102: kernel.all.load[1 minute]', '20180103: kernel.all.load[1 minute]']);
    const one = chart('line', [load('s1', 'p1')]);
    expect(chartData(one, blocks, hosts, sourceFacts(one, [src('s1', 'bozo', '20180102')])).series.map((s) => s.label)).toEqual(['kernel.all.load[1 minute]']);
  });

  it('draws a second kind of units on a right axis with its own scale, and never draws a third', () => {
    const COUNT_RATE = { ...NONE, dimCount: 1, dimTime: -1, scaleTime: 3 };
    const c = chart('line', [
      { id: 'r', sourceId: 's1', metric: 'disk.dev.read', instances: { kind: 'all' } },
      { id: 'b', sourceId: 's1', metric: 'disk.dev.read_bytes', instances: { kind: 'all' } },
      { id: 'l', sourceId: 's1', metric: 'kernel.all.load', instances: { kind: 'all' } },
    ]);
    const b = block([{ plot: 0, inst: 'sda', values: [3, 4] }, { plot: 1, inst: 'sda', values: [2048, 4096] }, { plot: 2, inst: '1 minute', values: [0.5, 0.7] }], [
      { metric: 'disk.dev.read', sem: 1, type: 3, units: { units: COUNT_RATE, text: 'count / sec', utilization: false } },
      { metric: 'disk.dev.read_bytes', sem: 1, type: 3, units: { units: { ...BYTE_RATE, scaleSpace: 1 }, text: 'Kbyte / sec', utilization: false } },
      { metric: 'kernel.all.load', sem: 3, type: 4, units: { units: NONE, text: '', utilization: false } },
    ]);
    const d = chartData(c, new Map([['s1', b]]), new Map([['s1', 'host']]));
    expect(d.series.map((s) => [s.label, s.axis, s.units])).toEqual([['disk.dev.read[sda]', 0, 'count / sec'], ['disk.dev.read_bytes[sda]', 1, 'Mbyte / sec']]);
    expect(d.scale.label).toBe('count / sec');
    expect(d.right).toEqual({ factor: 1024, label: 'Mbyte / sec' });
    expect([...(d.series[1]?.values ?? [])]).toEqual([2, 4]);
    expect(d.problems).toHaveLength(1);
    expect(d.problems[0]?.text).toMatch(/kernel\.all\.load not drawn: its units, none, .*count \/ sec \(left axis\).*Kbyte \/ sec \(right axis\)/);
  });

  it('normalises utilization to 100% of the visible series, gaps where any is missing', () => {
    const c = chart('utilization', [
      { id: 'u', sourceId: 's1', metric: 'kernel.all.cpu.user', instances: { kind: 'all' } },
      { id: 'i', sourceId: 's1', metric: 'kernel.all.cpu.idle', instances: { kind: 'all' } },
      { id: 'w', sourceId: 's1', metric: 'kernel.all.cpu.wait.total', instances: { kind: 'all' } },
    ], [seriesKey('w', '')]);
    const info = { sem: 1, type: 3, units: { units: NONE, text: '', utilization: true } };
    const b = block([
      { plot: 0, inst: '', values: [0.25, NaN, 0] },
      { plot: 1, inst: '', values: [0.75, 0.5, 0] },
      { plot: 2, inst: '', values: [5, 5, 5] },
    ], [{ metric: 'kernel.all.cpu.user', ...info }, { metric: 'kernel.all.cpu.idle', ...info }, { metric: 'kernel.all.cpu.wait.total', ...info }]);
    const d = chartData(c, new Map([['s1', b]]), new Map());
    expect(d.scale.label).toBe('% utilization');
    expect([...(d.series[0]?.drawn ?? [])]).toEqual([25, NaN, 0]);
    expect([...(d.series[1]?.drawn ?? [])]).toEqual([75, NaN, 0]);
    // The legend and tooltip keep each series' own value.
    expect(valueAt(d.series[0] as never, 0)).toBe(0.25);
  });

  it('hides a missing optional plot but reports a missing mandatory one', () => {
    const c = chart('line', [
      { id: 'a', sourceId: 's1', metric: 'mem.util.other', instances: { kind: 'all' }, optional: true },
      { id: 'b', sourceId: 's1', metric: 'no.such', instances: { kind: 'all' } },
    ]);
    const err = { code: 'PM_ERR_NAME', message: 'Unknown metric name', context: 'x' };
    const b = block([], [
      { metric: 'mem.util.other', sem: 0, type: -1, units: { units: NONE, text: '', utilization: false }, error: err },
      { metric: 'no.such', sem: 0, type: -1, units: { units: NONE, text: '', utilization: false }, error: err },
    ]);
    expect(chartData(c, new Map([['s1', b]]), new Map()).problems).toEqual([{ plotId: 'b', text: 'no.such: Unknown metric name' }]);
  });
});

describe('legend helpers', () => {
  it('expands pmchart wildcards', () => {
    expect(expandLegend('%h:%m[%i] %I', 'network.interface.in.bytes', 'eth0 primary', 'box.example.com')).toBe('box:in.bytes[eth0] eth0 primary');
  });
  it('finds the value at the nearest sample, none outside the data', () => {
    const s = { times: Float64Array.from([0, 1000, 2000]), values: Float64Array.from([1, 2, 3]) };
    expect(valueAt(s, 1000.0001)).toBe(2);
    expect(valueAt(s, 999.9999)).toBe(2);
    expect(valueAt(s, 1400)).toBe(2);
    expect(valueAt(s, 1600)).toBe(3);
    expect(valueAt(s, -600)).toBeNaN();
    expect(valueAt(s, 2600)).toBeNaN();
  });
});

describe('nearestIndex and hasValueIn', () => {
  const times = Float64Array.from([0, 1000, 2000, 3000]);
  it('finds the nearest sample, the earlier one on a tie, -1 when there is none', () => {
    expect(nearestIndex(times, -500)).toBe(0);
    expect(nearestIndex(times, 1400)).toBe(1);
    expect(nearestIndex(times, 1500)).toBe(1);
    expect(nearestIndex(times, 1501)).toBe(2);
    expect(nearestIndex(times, 9000)).toBe(3);
    expect(nearestIndex(new Float64Array(0), 0)).toBe(-1);
  });

  it('tells whether any value lies in a closed window', () => {
    const s = { times, values: Float64Array.from([NaN, 5, NaN, NaN]) };
    expect(hasValueIn(s, 500, 1000)).toBe(true);
    expect(hasValueIn(s, 1001, 3000)).toBe(false);
    expect(hasValueIn(s, -100, 900)).toBe(false);
    expect(hasValueIn({ times: new Float64Array(0), values: new Float64Array(0) }, 0, 1)).toBe(false);
  });
});

describe('seriesColors', () => {
  it('gives every instance of an uncoloured plot the next #-cycle colour', () => {
    expect(seriesColors([{ id: 'p1' }, { id: 'p1' }, { id: 'p1' }])).toEqual([CYCLE[0], CYCLE[1], CYCLE[2]]);
  });
  it('keeps a plot colour for its first instance and tells the others apart', () => {
    const c = seriesColors([{ id: 'p1', color: '#123456' }, { id: 'p1', color: '#123456' }, { id: 'p1', color: '#123456' }]);
    expect(c[0]).toBe('#123456');
    expect(new Set(c).size).toBe(3);
  });
  it('does not reuse a colour another plot fixed', () => {
    const c = seriesColors([{ id: 'p1' }, { id: 'p2', color: CYCLE[0] }]);
    expect(c).toEqual([CYCLE[1], CYCLE[0]]);
  });
  it('gives an instance its own colour over the plot colour, and keeps the others distinct', () => {
    const p = { id: 'p1', color: '#123456', instanceColors: { b: '#abcdef', a: '#000001' } };
    const c = seriesColors([{ ...p, inst: 'a' }, { ...p, inst: 'b' }, { ...p, inst: 'c' }, { ...p, inst: 'd' }]);
    expect(c.slice(0, 2)).toEqual(['#000001', '#abcdef']);
    expect(new Set(c).size).toBe(4);
    expect(c).not.toContain('#123456');
  });
});
