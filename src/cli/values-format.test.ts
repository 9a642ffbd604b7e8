import { describe, expect, it } from 'vitest';
import { PM_INDOM_NULL, PM_SEM_INSTANT, PM_TYPE_DOUBLE, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64, type Desc, type PmId, type Timestamp } from '../pcp-core/types';
import { TableBuilder } from './values-format';
import type { Sample, SampledMetric, SampleRun, SampleValue } from './values-sampler';

const UNITS = { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 };

function metric(name: string, type: number, indom: number, names: Record<number, string> = {}): SampledMetric {
  const desc: Desc = { pmid: 1 as PmId, type, indom: indom as Desc['indom'], sem: PM_SEM_INSTANT, units: UNITS };
  return { name, desc, rate: false, instName: (i) => names[i] ?? String(i) };
}

function sample(sec: number, ...values: (readonly [number, SampleValue])[][]): Sample {
  return { time: { sec, nsec: 0 }, values };
}

/** The data rows of a finished table (after the preamble, the blank line and the heading). */
function rows(table: string, headings: number): string[] {
  const lines = table.split('\n');
  return lines.slice(lines.indexOf('') + 1 + headings, -1);
}

describe('TableBuilder', () => {
  // The rows are written as bytes; a row with a non-ASCII text is built as a string. Both
  // must lay out alike: widths in UTF-16 units as padStart counts them.
  it('lays out rows with non-ASCII texts as the ASCII ones', () => {
    const metrics = [metric('m.str', PM_TYPE_STRING, PM_INDOM_NULL), metric('m.num', PM_TYPE_U32, 7, { 1: 'één', 2: 'b' })];
    const formatTime = (t: Timestamp): string => (t.sec === 2 ? `t${t.sec}·` : `t${t.sec}_`);
    const table = new TableBuilder(metrics, formatTime);
    table.add(sample(1, [[-1, 'ab']], [[1, 5], [2, 123456]]));
    table.add(sample(2, [[-1, 'é']], [[2, 7]]));
    table.add(sample(3, [[-1, 'éé']], []));
    table.add(sample(4, [], [[1, 99]]));
    const out = table.finish({ source: 's', host: 'h', timeLabel: 'UTC', raw: false });
    const [r1, r2, r3, r4] = rows(out, 2);
    // Every row as long as the first (same widths), "?" where a value is missing.
    expect([r2, r3, r4].map((r) => r.length)).toEqual([r1.length, r1.length, r1.length]);
    expect(r1).toMatch(/^t1_ +"ab" +5 +123456$/);
    expect(r2).toMatch(/^t2· +"é" +\? +7$/);
    expect(r3).toMatch(/^t3_ +"éé" +\? +\?$/);
    expect(r4).toMatch(/^t4_ +\? +99 +\?$/);
    // Right-aligned: the string columns end at the same place.
    expect(r2.indexOf('"é"') + 3).toBe(r1.indexOf('"ab"') + 4);
  });

  // A SampleRun is the same samples in columns: the table must come out byte for byte as from
  // the samples one by one (missing values, zeros of both signs, NaN, 64-bit raw values that
  // one path gives as bigints and the other as numbers, a column first seen inside the run).
  it('takes a SampleRun as it takes the same samples one by one', () => {
    const metrics = [metric('m.u64', PM_TYPE_U64, PM_INDOM_NULL), metric('m.dbl', PM_TYPE_DOUBLE, 7, { 1: 'a', 2: 'bb' })];
    const time = (t: Timestamp): string => `t${t.sec}`;
    const u64 = [5, 5, 900719925474099, 0];
    const dbl = [[1.5, null], [0, -0], [NaN, 2.25], [null, 1e300]];
    const one = new TableBuilder(metrics, time);
    const both = new TableBuilder(metrics, time);
    const before = sample(0, [[-1, 7n]], [[1, 3]]);
    one.add(before);
    both.addAll([before]);
    for (let k = 0; k < 4; k++) one.add(sample(k + 1, [[-1, BigInt(u64[k])]], [[1, dbl[k][0]], [2, dbl[k][1]]]));
    const width = 3;
    const values = new Float64Array(4 * width);
    const missing = new Uint8Array(4 * width);
    for (let k = 0; k < 4; k++) {
      const row = [u64[k], dbl[k][0], dbl[k][1]];
      row.forEach((v, c) => {
        if (v === null) missing[k * width + c] = 1;
        else values[k * width + c] = v;
      });
    }
    const run: SampleRun = { count: 4, sec: Float64Array.of(1, 2, 3, 4), nsec: new Int32Array(4), inst: [Int32Array.of(-1), Int32Array.of(1, 2)], values, missing, width };
    both.addAll([run]);
    const info = { source: 's', host: 'h', timeLabel: 'UTC', raw: false };
    expect(both.finish(info)).toBe(one.finish(info));
  });

  // Most rows of a run repeat the row above (interpolation between records): those keep no
  // cells and are written as a copy of the row above, and the times may be written as bytes.
  // Either way the table must be the one the samples give one by one: repeated rows after a
  // change, a missing value repeated, a zero after a negative zero, NaN twice (never "the
  // same"), a time longer than the others.
  it('writes rows repeating the row above, and times written as bytes, as the samples give them', () => {
    const metrics = [metric('m.dbl', PM_TYPE_DOUBLE, 7, { 1: 'a', 2: 'bb' })];
    const time = (t: Timestamp): string => (t.sec === 6 ? `t${t.sec}-longer` : `t${t.sec}`);
    const writeTime = (sec: number, nsec: number, out: Uint8Array, at: number): number => {
      if (sec === 6) return -1; // left to formatTime
      const text = time({ sec, nsec });
      for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
      return at + text.length;
    };
    const dbl = [[1.5, null], [1.5, null], [1.5, null], [-0, 2], [0, 2], [0, 2], [NaN, 2], [NaN, 2], [3, 4], [3, 4]];
    const one = new TableBuilder(metrics, time);
    for (let k = 0; k < dbl.length; k++) one.add(sample(k + 1, [[1, dbl[k][0]], [2, dbl[k][1]]]));
    const width = 2;
    const values = new Float64Array(dbl.length * width);
    const missing = new Uint8Array(dbl.length * width);
    dbl.forEach((row, k) =>
      row.forEach((v, c) => {
        if (v === null) missing[k * width + c] = 1;
        else values[k * width + c] = v;
      }),
    );
    const run: SampleRun = { count: dbl.length, sec: Float64Array.from(dbl, (_, k) => k + 1), nsec: new Int32Array(dbl.length), inst: [Int32Array.of(1, 2)], values, missing, width };
    const info = { source: 's', host: 'h', timeLabel: 'UTC', raw: false };
    const expected = one.finish(info);
    for (const writer of [undefined, writeTime]) {
      const runs = new TableBuilder(metrics, time, {}, writer);
      runs.addAll([run]);
      expect(runs.finish(info)).toBe(expected);
    }
    expect(rows(expected, 2)[2]).toMatch(/^t3 +1\.500 +\?$/);
  });
});
