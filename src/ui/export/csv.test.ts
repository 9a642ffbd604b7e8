// CSV formatting: quoting, numbers, times in a zone with their offset, headers and the
// columns of a chart from its blocks (values against pmval: test/csv-export.conformance.test.ts).
import { describe, expect, it } from 'vitest';
import type { SeriesBlock } from '../../workers/engine-types';
import type { ChartSpec } from '../state/model';
import { posixZone, UTC_ZONE } from '../time/zone';
import { chartColumns, columnHeader, csvField, csvNumber, csvTime, formatCsv } from './csv';

const NO_UNITS = { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 };

describe('csv', () => {
  it('quotes fields as RFC 4180 says', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('writes numbers exactly and missing values as empty cells', () => {
    expect(csvNumber(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(csvNumber(1e21)).toBe('1e+21');
    expect(csvNumber(NaN)).toBe('');
    expect(csvNumber(-0.5)).toBe('-0.5');
  });

  it('writes a float32 in its own precision: the shortest text that reads back as the same float32', () => {
    // What a FLOAT 0.45 is once widened to a double.
    const f = Math.fround(0.45);
    expect(String(f)).toBe('0.44999998807907104');
    expect(csvNumber(f, true)).toBe('0.45');
    for (const v of [0.1, 1 / 3, 3.4028234663852886e38, 1.17549435e-38, 16777217, -2.5, 0, 123456.789]) {
      const g = Math.fround(v);
      const text = csvNumber(g, true);
      expect(Math.fround(Number(text)), text).toBe(g);
      // No shorter text reads back as g.
      const digits = text.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').length;
      if (digits > 1) expect(Math.fround(Number(g.toPrecision(digits - 1))), text).not.toBe(g);
    }
    // Not a float32 (a rate computed in double): the double's own shortest text.
    expect(csvNumber(0.1 + 0.2, true)).toBe('0.30000000000000004');
    expect(csvNumber(NaN, true)).toBe('');
  });

  it('writes times in the zone with its offset', () => {
    const ms = Date.UTC(2018, 3, 16, 14, 1, 35, 325);
    expect(csvTime(ms, UTC_ZONE)).toBe('2018-04-16T14:01:35.325+00:00');
    const edt = posixZone('EST5EDT,M3.2.0,M11.1.0');
    if (!edt) throw new Error('zone');
    expect(csvTime(ms, edt)).toBe('2018-04-16T10:01:35.325-04:00');
    expect(csvTime(Date.UTC(2018, 0, 16, 14, 1, 35), edt)).toBe('2018-01-16T09:01:35.000-05:00');
  });

  it('builds headers and rows from a chart’s blocks', () => {
    expect(columnHeader('kernel.all.load', '1 minute', '')).toBe('kernel.all.load[1 minute]');
    expect(columnHeader('disk.all.read_bytes', '', 'Kbyte / sec', 'web1')).toBe('web1:disk.all.read_bytes (Kbyte / sec)');
    const block: SeriesBlock = {
      t0Ms: 0, t1Ms: 2000, stepMs: 1000, timestamps: Float64Array.from([0, 1000, 2000]),
      plots: [
        { metric: 'kernel.all.load', sem: 3, type: 4, units: { units: NO_UNITS, text: '', utilization: false } },
        { metric: 'nope', sem: 0, type: 0, units: { units: NO_UNITS, text: '', utilization: false }, error: { code: 'PM_ERR_NAME', message: 'Unknown metric name', context: 'nope' } },
        { metric: 'disk.all.read', sem: 1, type: 3, units: { units: NO_UNITS, text: 'count / sec', utilization: false } },
      ],
      columns: [
        { plot: 0, instId: 1, instName: '1 minute', values: Float64Array.from([0.5, 0.25, NaN]) },
        { plot: 0, instId: 5, instName: '5, minute', values: Float64Array.from([1, 2, 3]) },
        { plot: 2, instId: -1, instName: '', values: Float64Array.from([NaN, 10, 20]) },
      ],
    };
    const chart: ChartSpec = {
      id: 'c1', title: 't', style: 'line', yScale: { mode: 'auto' }, legend: true, rate: true, hidden: [],
      plots: [
        { id: 'p1', sourceId: 's1', metric: 'kernel.all.load', instances: { kind: 'all' } },
        { id: 'p2', sourceId: 's1', metric: 'nope', instances: { kind: 'all' } },
        { id: 'p3', sourceId: 's1', metric: 'disk.all.read', instances: { kind: 'all' } },
      ],
    };
    const cols = chartColumns(chart, new Map([['s1', block]]), new Map([['s1', 'h']]), false);
    expect(cols.map((c) => c.header)).toEqual(['kernel.all.load[1 minute]', 'kernel.all.load[5, minute]', 'disk.all.read (count / sec)']);
    expect(formatCsv(block.timestamps, cols, UTC_ZONE)).toBe(
      'Time (UTC),kernel.all.load[1 minute],"kernel.all.load[5, minute]",disk.all.read (count / sec)\r\n' +
        '1970-01-01T00:00:00.000+00:00,0.5,1,\r\n' +
        '1970-01-01T00:00:01.000+00:00,0.25,2,10\r\n' +
        '1970-01-01T00:00:02.000+00:00,,3,20\r\n',
    );
  });
});
