import { describe, expect, it } from 'vitest';
import { loadMeta } from './meta-loader';
import { ArchiveMetadata } from './metadata';
import { LOG_FORMAT_V2, LOG_FORMAT_V3, type LogVersion } from './log-format';
import { DecodeError, PM_ERR_LOGCHANGEINDOM, PM_ERR_LOGCHANGESEM, PM_ERR_LOGCHANGEUNITS, PM_ERR_LOGREC, PM_ERR_RECTYPE, PM_ERR_TEXT } from '../errors';
import { PM_TYPE_U32, indom, pmid } from '../types';
import { ByteWriter } from '../io/byte-writer';
import { encodeLabel, encodeMetaRecord, frame, type LabelsSpec, type MetaSpec } from './testing/archive-builder';

const t = (s: number, ns = 0) => ({ sec: 1_700_000_000 + s, nsec: ns });
const ID = pmid(29, 0, 5);
const IND = indom(29, 1);

function image(version: LogVersion, records: ReadonlyArray<MetaSpec | Uint8Array>): Uint8Array {
  const w = new ByteWriter().bytes(encodeLabel({ version, start: t(0), vol: -1 }));
  for (const r of records) w.bytes(r instanceof Uint8Array ? r : encodeMetaRecord(r, version));
  return w.finish();
}

function load(version: LogVersion, records: ReadonlyArray<MetaSpec | Uint8Array>, meta = new ArchiveMetadata()): ArchiveMetadata {
  loadMeta(image(version, records), 'x.meta', version === 3 ? LOG_FORMAT_V3 : LOG_FORMAT_V2, meta);
  return meta;
}

function failure(f: () => unknown): { code: number; text: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof DecodeError) return { code: e.code, text: e.describe() };
    throw e;
  }
  throw new Error('no failure');
}

const desc: MetaSpec = { kind: 'desc', pmid: ID, type: PM_TYPE_U32, indom: IND, sem: 3, names: ['sample.colour'] };

describe('metadata loading', () => {
  it('rebuilds V3 delta instance domains (§4.3) and keeps them by time (§4.4)', () => {
    const meta = load(3, [
      desc,
      { kind: 'indom', time: t(0), indom: IND, instances: [[2, 'green'], [0, 'red'], [1, 'blue']] },
      { kind: 'indom', form: 'delta', time: t(10), indom: IND, instances: [[0, null], [7, 'violet']] },
      // A deletion of an absent instance is ignored; an addition of a present one keeps the old name.
      { kind: 'indom', form: 'delta', time: t(20), indom: IND, instances: [[99, null], [1, 'azure']] },
      // Full records with no instances are dropped.
      { kind: 'indom', time: t(25), indom: IND, instances: [] },
      { kind: 'indom', time: t(30), indom: IND, instances: [[5, 'five']] },
    ]);
    const at = (s: number) => {
      const l = meta.indomAt(IND, t(s));
      return l && Array.from(l.instances, (id, i) => `${id}:${l.names[i]}`).join(' ');
    };
    expect(at(0)).toBe('0:red 1:blue 2:green');
    expect(at(15)).toBe('1:blue 2:green 7:violet');
    expect(at(25)).toBe('1:blue 2:green 7:violet');
    expect(at(30)).toBe('5:five');
    expect(meta.indomAt(IND)?.names).toEqual(['five']);
    expect(meta.indomObservations(IND).map((o) => [o.delta, o.storedCount])).toEqual([
      [false, 3],
      [true, 2],
      [true, 2],
      [false, 1],
    ]);
    expect(meta.indomMaxInstances(IND)).toBe(3);
  });

  it('keeps the later of two observations at one time, and one copy of duplicates', () => {
    const meta = load(2, [
      desc,
      { kind: 'indom', time: t(0), indom: IND, instances: [[1, 'a']] },
      { kind: 'indom', time: t(0), indom: IND, instances: [[2, 'b']] },
      { kind: 'indom', time: t(0), indom: IND, instances: [[1, 'a']] },
    ]);
    expect(meta.indomAt(IND, t(0))?.names).toEqual(['a']);
    expect(meta.indomObservations(IND)).toHaveLength(2);
  });

  it('merges descriptors and names, and rejects changed descriptors (§4.1)', () => {
    const meta = load(3, [desc, { ...desc, names: ['sample.dupnames.colour'] }]);
    expect(meta.pmns.nameAll(ID).sort()).toEqual(['sample.colour', 'sample.dupnames.colour']);
    for (const [change, code] of [
      [{ sem: 4 }, PM_ERR_LOGCHANGESEM],
      [{ indom: indom(29, 2) }, PM_ERR_LOGCHANGEINDOM],
      [{ units: 0x00100000 }, PM_ERR_LOGCHANGEUNITS],
    ] as const) {
      expect(failure(() => load(3, [desc, { ...desc, ...change }])).code).toBe(code);
    }
  });

  it('loads help text (later replaces earlier) and label sets, pruning repeats (§4.5, §4.6)', () => {
    const ctx = (time: number, sets: LabelsSpec['sets']) => ({ kind: 'labels', time: t(time), type: 1, ident: 0, sets }) as MetaSpec;
    const inst = (time: number, sets: ReadonlyArray<[number, string]>) =>
      ({ kind: 'labels', time: t(time), type: 32, ident: IND, sets: sets.map(([i, v]) => ({ inst: i, labels: [{ name: 'n', value: v }] })) }) as MetaSpec;
    const meta = load(3, [
      desc,
      { kind: 'text', type: 5, ident: ID, text: 'old' },
      { kind: 'text', type: 5, ident: ID, text: 'new' },
      ctx(0, [{ labels: [{ name: 'hostname', value: '"h"' }] }]),
      ctx(10, [{ labels: [{ name: 'hostname', value: '"h"' }] }]),
      inst(0, [[1, '"x"'], [2, '"y"']]),
      inst(10, [[1, '"x"'], [2, '"z"']]),
    ]);
    expect(meta.text({ pmid: ID }, 'oneline')).toBe('new');
    // Help falls back to the one-line text.
    expect(meta.text({ pmid: ID }, 'help')).toBe('new');
    expect(() => meta.text({ indom: IND }, 'oneline')).toThrow(expect.objectContaining({ code: -12369 }));
    expect(() => meta.text({ pmid: pmid(1, 1, 1) }, 'oneline')).toThrow(expect.objectContaining({ code: PM_ERR_TEXT }));
    expect(meta.labelSets(1, 0, t(20))[0]?.json).toBe('{"hostname":"h"}');
    // libpcp drops what the t=10 record repeats from t=0: only instance 2's set is left there.
    expect(meta.labelSets(32, IND, t(20)).map((s) => s.inst)).toEqual([2]);
    expect(meta.labelSets(32, IND, t(5)).map((s) => s.inst)).toEqual([1, 2]);
    expect(meta.labelSets(32, IND, { sec: 0, nsec: 0 })).toEqual([]);
  });

  it('gives libpcp verdicts for damaged metadata (§9.1)', () => {
    const good = encodeMetaRecord(desc, 3);
    const broken = (f: (v: DataView, b: Uint8Array) => void): Uint8Array => {
      const b = good.slice();
      f(new DataView(b.buffer), b);
      return b;
    };
    expect(failure(() => load(3, [broken((v) => v.setUint32(4, 9))])).code).toBe(PM_ERR_RECTYPE);
    expect(failure(() => load(3, [broken((v, b) => v.setUint32(b.length - 4, 7))])).code).toBe(PM_ERR_LOGREC);
    expect(failure(() => load(3, [good.subarray(0, good.length - 2)])).code).toBe(PM_ERR_LOGREC);
    expect(failure(() => load(3, [broken((v) => v.setInt32(0, -5))])).code).toBe(PM_ERR_LOGREC);
    // Fewer than 8 bytes at the end are ignored; no descriptor at all is an error.
    expect(load(3, [desc, new Uint8Array(5)]).descCount).toBe(1);
    expect(failure(() => load(3, [])).code).toBe(PM_ERR_LOGREC);
    // Instance domain records: negative ids and string offsets past the table.
    const indomRec = encodeMetaRecord({ kind: 'indom', time: t(0), indom: IND, instances: [[1, 'a'], [2, 'b']] }, 3);
    const badId = indomRec.slice();
    new DataView(badId.buffer).setInt32(28, -1);
    expect(failure(() => load(3, [desc, badId])).text).toContain('bad instance identifier (-1)');
    const badOff = indomRec.slice();
    new DataView(badOff.buffer).setInt32(40, 76);
    expect(failure(() => load(3, [desc, badOff])).text).toContain('bad string index (76) > max index based on record length (4)');
    // A corrupted label set (GH #475).
    const lab = encodeMetaRecord({ kind: 'labels', time: t(0), type: 1, ident: 0, sets: [{ labels: [{ name: 'a', value: '1' }] }] }, 3);
    new DataView(lab.buffer).setInt32(32 + 4 + 4 + 7, 1702259043);
    expect(failure(() => load(3, [desc, lab])).text).toContain('corrupted labelset. nlabels=1702259043');
  });

  it('skips a help text record of no known kind without its trailer, as libpcp does', () => {
    // The skipped record's trailer is read as the next header: a length with type = the
    // following record's length word, i.e. an unknown type.
    const text = encodeMetaRecord({ kind: 'text', type: 0, ident: ID, text: 'x' }, 3);
    expect(failure(() => load(3, [desc, text, desc])).code).toBe(PM_ERR_RECTYPE);
  });

  it('treats a 32-byte descriptor as one with no names (§4.1)', () => {
    const w = new ByteWriter().u32(1).u32(ID).i32(PM_TYPE_U32).u32(IND).i32(3).u32(0);
    const meta = load(3, [frame(w.finish())]);
    expect(meta.desc(ID)).toBeDefined();
    expect(meta.pmns.size).toBe(0);
  });
});
