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
import { PM_TYPE_64, PM_VAL_DPTR, PM_VAL_INSITU, PM_VAL_SPTR, type Timestamp } from '../types';
import { ArchiveWriter, type ArchiveImage } from './archive-writer';
import { ArchiveByteWriter, utf8Length } from './byte-writer';
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

  it('writes each label entry at its name and value in the JSON, ASCII or not', async () => {
    const w = new ArchiveWriter({ pid: 1, hostname: 'h', timezone: 'UTC', zoneinfo: '' });
    w.desc(DESCS.i32, ['syn.i32']);
    const sets = [
      { inst: -1, json: '{"y":"x","x" : "y","n":[1,2],"z":{"y":1}}', nlabels: 4, labels: [{ name: 'y', value: '"x"', flags: 4 }, { name: 'x', value: '"y"', flags: 4 }, { name: 'n', value: '[1,2]', flags: 4 }, { name: 'z', value: '{"y":1}', flags: 4 }] },
      { inst: -1, json: '{"café":"crème","b":"é"}', nlabels: 2, labels: [{ name: 'café', value: '"crème"', flags: 4 }, { name: 'b', value: '"é"', flags: 4 }] },
    ];
    sets.forEach((ls, k) => w.labels(at(0), PM_LABEL_INDOM, D + k, [ls]));
    w.record(at(0), [set(DESCS.i32, PM_VAL_INSITU, [[-1, 7]])]);
    const { s } = await readBack(w.finish());
    sets.forEach((ls, k) => expect(s.metadata.labelSets(PM_LABEL_INDOM, D + k, at(1))[0]?.labels).toEqual(ls.labels));
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

  it('copies records as stored: V3 bytes unchanged, V2 records with the V3 header and pointers one word on', async () => {
    const img = build();
    const v = new DataView(img.volume.buffer, img.volume.byteOffset, img.volume.byteLength);
    // The synthetic archive's first record (every value type, in-situ and pointer sets).
    const v3 = img.volume.slice(808, 808 + v.getUint32(808));
    // The same record as a V2 volume stores it: timeval header, pointers one word less.
    const r = new DataView(v3.buffer);
    const len = r.getUint32(0);
    const v2 = new Uint8Array(len - 4);
    const w2 = new DataView(v2.buffer);
    w2.setUint32(0, len - 4);
    w2.setUint32(4, r.getUint32(4));
    w2.setUint32(8, r.getInt32(12) / 1000);
    v2.set(v3.subarray(16, len - 4), 12);
    w2.setUint32(len - 8, len - 4);
    let p = 16;
    for (let i = 0; i < w2.getInt32(12); i++) {
      const numval = w2.getInt32(p + 4);
      if (numval > 0 && w2.getInt32(p + 8) !== 0) for (let j = 0; j < numval; j++) w2.setUint32(p + 16 + 8 * j, w2.getUint32(p + 16 + 8 * j) - 1);
      p += numval > 0 ? 12 + 8 * numval : 8;
    }
    for (const [raw, version] of [[v3, 3], [v2, 2]] as const) {
      const w = new ArchiveWriter({ pid: 1, hostname: 'synthetic.example', timezone: 'UTC', zoneinfo: '' });
      for (const [name, d] of Object.entries(DESCS)) w.desc(d, [`syn.${name}`]);
      w.indom(at(0), D, { instances: Int32Array.of(1, 2, 3, 4, 5), names: ['one', 'two', 'three', 'four', 'five'] });
      w.recordRaw(at(0), raw, version);
      const out = w.finish();
      expect(out.volume.subarray(808)).toEqual(v3);
      const { recs } = await readBack(out);
      const { recs: want } = await readBack(img);
      expect(recs[0]?.sets).toEqual(want[0]?.sets);
    }
  });
});

describe('utf8Length', () => {
  it('counts what TextEncoder writes, without encoding', () => {
    for (const s of ['', 'cpu0', 'Größe', '磁盘', '😀 emoji', 'lone \ud800 high', 'lone \udc00 low', 'end \ud83d']) {
      expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
    }
  });
});

describe('ArchiveByteWriter.text', () => {
  it('writes in place what TextEncoder writes, ASCII or not, and says how many bytes', () => {
    for (const s of ['', 'cpu0', 'Größe', '磁盘', '😀 emoji', 'lone \ud800 high', 'lone \udc00 low', 'end \ud83d', 'ascii then ü']) {
      const w = new ArchiveByteWriter(4);
      w.u8(7);
      const n = w.text(s);
      const expected = new TextEncoder().encode(s);
      expect(n).toBe(expected.length);
      expect([...w.current()]).toEqual([7, ...expected]);
    }
  });
});

describe('a V2 record larger than what is left of the current chunk', () => {
  it('starts a new chunk instead of doubling the one being written', () => {
    const w = new ArchiveWriter({ pid: 1, hostname: 'h', timezone: 'UTC', zoneinfo: '' });
    w.desc(DESCS.i32, ['m']);
    // A V2 record: length, 8-byte timestamp, numpmid 0, trailer; 300 KB of it is padding the
    // reader never sees, enough to overflow the first 256 KB chunk.
    const len = 300 * 1024;
    const raw = new Uint8Array(len);
    const view = new DataView(raw.buffer);
    view.setUint32(0, len);
    view.setUint32(4, T0);
    view.setInt32(12, 0);
    view.setUint32(len - 4, len);
    w.recordRaw(at(0), raw, 2);
    w.recordRaw(at(1), raw, 2);
    const image = w.finish();
    expect(image.volumeParts.length).toBeGreaterThanOrEqual(2);
    expect(image.volume.length).toBe(808 + 2 * (len + 4));
  });
});

describe('instance domains in increasing order (the merge) and in any order (the maps)', () => {
  // One history through both: adds, deletes, a rename, an unchanged set (repeated or not), a
  // set emptied, non-ASCII names. The lists in decreasing order take the general path.
  const history: ReadonlyArray<readonly [number, ReadonlyArray<readonly [number, string]>, boolean]> = [
    [0, [[1, 'one'], [2, 'two'], [3, 'drei'], [7, 'sieben']], false],
    [1, [[1, 'one'], [2, 'two'], [3, 'drei'], [7, 'sieben']], false],
    [2, [[1, 'one'], [2, 'two'], [3, 'drei'], [7, 'sieben']], true],
    [3, [[1, 'one'], [3, 'drei'], [7, 'sieben'], [9, 'neun ü']], false],
    [4, [[1, 'one'], [3, 'trois'], [7, 'sieben'], [9, 'neun ü']], false],
    [5, [[1, 'one'], [2, '磁盘 two'], [3, 'trois'], [7, 'sieben'], [9, 'neun ü'], [11, 'elf']], false],
    [6, [], false],
    [7, [[4, 'vier']], false],
  ];
  const write = (order: (e: ReadonlyArray<readonly [number, string]>) => ReadonlyArray<readonly [number, string]>): ArchiveImage => {
    const w = new ArchiveWriter({ pid: 1, hostname: 'h', timezone: 'UTC', zoneinfo: '' });
    w.desc(DESCS.u64, ['m']);
    for (const [s, entries, repeat] of history) {
      const e = order(entries);
      w.indom(at(s), D, { instances: Int32Array.from(e, ([i]) => i), names: e.map(([, n]) => n) }, repeat);
    }
    w.record(at(8), [set(DESCS.u64, PM_VAL_DPTR, [[4, 1n]])]);
    return w.finish();
  };

  it('writes the same records, delta or full alike', async () => {
    const image = write((e) => e);
    const sorted = image.meta;
    const reversed = write((e) => [...e].reverse()).meta;
    // The full records list the instances as given; each has the same records of the same sizes.
    const frames = (meta: Uint8Array): number[][] => {
      const v = new DataView(meta.buffer, meta.byteOffset, meta.byteLength);
      const out: number[][] = [];
      for (let p = 0; p < meta.length; p += v.getUint32(p)) out.push([v.getUint32(p), v.getUint32(p + 4)]);
      return out;
    };
    expect(frames(sorted)).toEqual(frames(reversed));
    expect(frames(sorted).map(([, t]) => t).filter((t) => t === TYPE_INDOM || t === TYPE_INDOM_DELTA)).toEqual([TYPE_INDOM, TYPE_INDOM, TYPE_INDOM_DELTA, TYPE_INDOM, TYPE_INDOM_DELTA, TYPE_INDOM, TYPE_INDOM]);
    const { s } = await readBack(image);
    const obs = s.metadata.indomObservations(D).map((o) => [o.stamp.sec - T0, [...o.set.instances], [...o.set.names]]);
    expect(obs).toEqual(history.filter(([, e], k) => k !== 1 && e.length > 0).map(([t, e]) => [t, e.map(([i]) => i), e.map(([, n]) => n)]));
  });
});

describe('a volume size estimate', () => {
  it('keeps records given as its own as views, a V2 record made V3 in place: the same bytes as a copy', async () => {
    // A V2 record (16-byte header): an in-situ value set, a pointer set of two U64 values, their blocks.
    const v2 = (k: number): Uint8Array<ArrayBuffer> => {
      const b = new Uint8Array(92);
      const v = new DataView(b.buffer);
      v.setUint32(0, 92);
      v.setUint32(4, T0 + k);
      v.setUint32(8, 250_000);
      v.setInt32(12, 2);
      v.setUint32(16, DESCS.i32.pmid);
      v.setInt32(20, 1);
      v.setInt32(24, PM_VAL_INSITU);
      v.setInt32(28, -1);
      v.setInt32(32, 7 + k);
      v.setUint32(36, DESCS.u64.pmid);
      v.setInt32(40, 2);
      v.setInt32(44, PM_VAL_DPTR);
      v.setInt32(48, 1);
      v.setUint32(52, (64 + 8) / 4);
      v.setInt32(56, 2);
      v.setUint32(60, (76 + 8) / 4);
      for (const [off, val] of [[64, 10n + BigInt(k)], [76, 2n ** 63n]] as const) {
        v.setUint32(off, (3 << 24) | 12);
        v.setBigUint64(off + 4, val);
      }
      v.setUint32(88, 92);
      return b;
    };
    const write = (kept: boolean): { image: ArchiveImage; given: Uint8Array<ArrayBuffer>[] } => {
      const w = new ArchiveWriter({ pid: 1, hostname: 'h', timezone: 'UTC', zoneinfo: '' });
      w.desc(DESCS.i32, ['i32']);
      w.desc(DESCS.u64, ['u64']);
      w.indom(at(0), D, { instances: Int32Array.from([1, 2]), names: ['one', 'two'] });
      const given: Uint8Array<ArrayBuffer>[] = [];
      for (let k = 0; k < 4; k++) {
        const rec = v2(k);
        given.push(rec);
        w.recordRaw({ sec: T0 + k, nsec: 250_000_000 }, rec, 2, undefined, kept);
        if (k === 1) w.mark({ sec: T0 + k, nsec: 500_000_000 });
        if (k === 2) w.record({ sec: T0 + k, nsec: 600_000_000 }, [set(DESCS.i32, PM_VAL_INSITU, [[-1, 99]])]);
      }
      return { image: w.finish(), given };
    };
    const copied = write(false);
    const kept = write(true);
    expect(kept.image.volume).toEqual(copied.image.volume);
    expect(kept.image.index).toEqual(copied.image.index);
    expect(kept.image.meta).toEqual(copied.image.meta);
    // Copied, the records given are untouched; kept, they are the volume's parts.
    expect(copied.given.every((b, k) => b.every((x, i) => x === v2(k)[i]))).toBe(true);
    for (const b of kept.given) expect(kept.image.volumeParts.some((p) => p.buffer === b.buffer)).toBe(true);
    const { recs } = await readBack(kept.image);
    expect(recs.map((r) => r.sets.map((x) => x.values))).toEqual([[[7], [10n, 2n ** 63n]], [[8], [11n, 2n ** 63n]], [], [[9], [12n, 2n ** 63n]], [[99]], [[10], [13n, 2n ** 63n]]]);
  });

  it('changes how the volume is held, never its bytes', () => {
    // 70 V3 records of 100 KB (a 7 MB volume) with no estimate, an estimate below, at and far
    // above it: the same volume; the estimate's first chunk holds what it can, whole.
    const len = 100 * 1024;
    const raw = new Uint8Array(len);
    const view = new DataView(raw.buffer);
    view.setUint32(0, len);
    view.setInt32(16, 0);
    view.setUint32(len - 4, len);
    const write = (volumeBytes?: number): ArchiveImage => {
      const w = new ArchiveWriter({ pid: 1, hostname: 'h', timezone: 'UTC', zoneinfo: '' }, { volumeBytes });
      w.desc(DESCS.i32, ['m']);
      for (let k = 0; k < 70; k++) {
        view.setUint32(4, T0 + k);
        raw.fill(k, 20, len - 4);
        w.recordRaw(at(k), raw, 3);
      }
      return w.finish();
    };
    const plain = write();
    expect(plain.volumeParts.length).toBeGreaterThan(1);
    for (const estimate of [5e6, 70 * len, 60e6]) {
      const image = write(estimate);
      // (Compared by hand: a deep equality of megabytes takes minutes.)
      expect(image.volume.length).toBe(plain.volume.length);
      expect(image.volume.every((b, i) => b === plain.volume[i])).toBe(true);
      expect(image.index).toEqual(plain.index);
      if (estimate >= 70 * len) expect(image.volumeParts.length).toBe(1);
      // Far above: the part handed on is the volume's own size, not the estimate's.
      expect(image.volumeParts.every((p) => p.buffer.byteLength < 2 * image.volume.length)).toBe(true);
    }
  });
});
