// ArchiveWriter on synthetic data, read back by our own reader: every value type (32/64-bit
// extremes, float, double, strings, aggregates, both event kinds with missed records),
// error-coded and empty value sets, instance domains that grow, shrink and rename (delta and
// full records), label sets, help text and <mark>s; plus the layout rules pmlogcheck and
// pmdumplog rely on (labels, index entries). PCP's own tools check the output in
// extract-window.conformance.test.ts.
import { describe, expect, it } from 'vitest';
import { openArchiveSet } from '../archive';
import { allRecords } from '../replay/testing/archive-set-records';
import { TYPE_INDOM, TYPE_INDOM_DELTA } from '../archive/meta-records';
import { PM_LABEL_CONTEXT, PM_LABEL_INDOM } from '../context/context';
import { memoryFileSet } from '../io';
import { PM_TYPE_64, PM_VAL_DPTR, PM_VAL_SPTR, type Timestamp } from '../types';
import { ArchiveWriter, type ArchiveImage } from './archive-writer';
import { at, build, D, desc, DESCS, events, set, T0 } from './testing/synthetic';

async function readBack(img: ArchiveImage) {
  const s = await openArchiveSet(memoryFileSet('syn', [['syn.meta', img.meta], ['syn.index', img.index], ['syn.0', img.volume]]), 'syn');
  const { records: recs, failure } = await allRecords(s);
  expect(failure).toBeNull();
  return { s, recs };
}

describe('ArchiveWriter', () => {
  it('writes what our reader reads back, value for value', async () => {
    const { s, recs } = await readBack(build());
    expect(s.label).toMatchObject({ version: 3, pid: 4242, hostname: 'synthetic.example', timezone: 'UTC', zoneinfo: ':Etc/UTC', start: at(0), vol: 0 });
    expect(recs.map((r) => [r.timestamp.sec - T0, r.timestamp.nsec, r.mark, r.sets.length])).toEqual([[0, 0, false, 10], [10, 5, false, 3], [10, 6, true, 0], [20, 0, false, 1], [20, 0, false, 1]]);
    const first = recs[0];
    const values = Object.fromEntries((first?.sets ?? []).map((v) => [v.pmid, v.values]));
    expect(values[DESCS.i32.pmid]).toEqual([-2147483648]);
    expect(values[DESCS.u32.pmid]).toEqual([4294967295]);
    expect(values[DESCS.i64.pmid]).toEqual([-9223372036854775808n]);
    expect(values[DESCS.u64.pmid]).toEqual([18446744073709551615n, 0n, 9007199254740993n]);
    expect(values[DESCS.flt.pmid]).toEqual([1.5]);
    expect(values[DESCS.dbl.pmid]).toEqual([Math.PI, -0]);
    expect(values[DESCS.str.pmid]).toEqual(['héllo wörld']);
    expect(values[DESCS.agg.pmid]).toEqual([Uint8Array.from([1, 2, 3, 4, 5])]);
    expect(values[DESCS.evt.pmid]).toEqual([events(false)]);
    expect(values[DESCS.hev.pmid]).toEqual([events(true)]);
    expect(first?.sets.find((v) => v.pmid === DESCS.u64.pmid)?.inst).toEqual(Int32Array.from([1, 3, 5]));
    expect(recs[1]?.sets.map((v) => [v.pmid, v.numval])).toEqual([[DESCS.u64.pmid, 1], [DESCS.str.pmid, -12350], [DESCS.flt.pmid, 0]]);
    await s.close();
  });

  it('writes the metadata: descriptors with every name, help text, instance domains over time, labels', async () => {
    const { s } = await readBack(build());
    const m = s.metadata;
    for (const d of Object.values(DESCS)) expect(m.desc(d.pmid)).toEqual(d);
    expect(m.pmns.nameAll(DESCS.u32.pmid).sort()).toEqual(['syn.alias.u32', 'syn.u32']);
    expect(m.text({ pmid: DESCS.i32.pmid }, 'help')).toBe('longer help\nover two lines');
    expect(m.text({ pmid: DESCS.i32.pmid }, 'oneline')).toBe('one line');
    expect(m.text({ indom: D }, 'oneline')).toBe('the synthetic domain');
    const names = (t: Timestamp) => m.indomAt(D, t)?.names;
    expect(names(at(5))).toEqual(['one', 'two', 'three', 'four', 'five']);
    expect(names(at(15))).toEqual(['one', 'two', 'three', 'four']);
    expect(names(at(25))).toEqual(['uno', 'two', 'three', 'four']);
    expect(m.indomObservations(D).map((o) => o.delta)).toEqual([false, true, false]);
    expect(m.labelSets(PM_LABEL_CONTEXT, 0xffffffff, at(1))[0]?.labels).toEqual([{ name: 'hostname', value: '"synthetic.example"', flags: 1 }, { name: 'userid', value: '1000', flags: 0x81 }]);
    expect(m.labelSets(PM_LABEL_INDOM, D, at(1))[0]?.labels).toEqual([{ name: 'model', value: '"RGB"', flags: 4 }]);
    await s.close();
  });

  it('lays the files out as PCP does: labels, record framing, index entries', () => {
    const img = build();
    for (const [bytes, vol] of [[img.meta, -1], [img.index, -2], [img.volume, 0]] as const) {
      const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      expect([v.getUint32(0), v.getUint32(4), v.getInt32(24), v.getUint32(804)]).toEqual([808, 0x50052603, vol, 808]);
    }
    expect(img.volume.length % 4).toBe(0);
    const ix = new DataView(img.index.buffer, img.index.byteOffset, img.index.byteLength);
    const entries = [];
    for (let o = 808; o + 32 <= img.index.length; o += 32) entries.push([ix.getUint32(o) - T0, ix.getInt32(o + 12), Number(ix.getBigUint64(o + 24))]);
    // First record, the record after the shrink (new indom metadata), the first record at 20
    // (renamed instance), and the closing entry.
    expect(entries.map((e) => e[0])).toEqual([0, 10, 20, 20]);
    expect(entries[0]?.[2]).toBe(808);
    expect(entries[entries.length - 1]?.[2]).toBeLessThan(img.volume.length);
    // The instance domain records: full, delta, full.
    const mv = new DataView(img.meta.buffer, img.meta.byteOffset, img.meta.byteLength);
    const types: number[] = [];
    for (let o = 808; o < img.meta.length; o += mv.getUint32(o)) types.push(mv.getUint32(o + 4));
    expect(types.filter((t) => t === TYPE_INDOM || t === TYPE_INDOM_DELTA)).toEqual([TYPE_INDOM, TYPE_INDOM_DELTA, TYPE_INDOM]);
  });

  it('refuses records out of time order, values it cannot encode, and an empty archive', () => {
    const w = new ArchiveWriter({ pid: 1, hostname: 'h', timezone: 'UTC', zoneinfo: '' });
    expect(() => w.finish()).toThrow(/no records/);
    w.desc(DESCS.str, ['syn.str']);
    w.record(at(5), []);
    expect(() => w.record(at(4), [])).toThrow(/time order/);
    expect(() => w.record(at(6), [set(DESCS.str, PM_VAL_SPTR, [[-1, 42]])])).toThrow(/cannot be written as type 6/);
    expect(() => w.record(at(6), [set(desc(99, PM_TYPE_64), PM_VAL_DPTR, [[-1, 1n]])])).toThrow(/no descriptor/);
  });
});
