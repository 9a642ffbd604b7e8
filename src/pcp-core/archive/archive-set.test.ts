import { describe, expect, it } from 'vitest';
import { openArchiveSet } from './open-archive-set';
import type { ArchiveRecord } from '../replay/archive-records';
import { allRecords as readAll, sessionOf } from '../replay/testing/archive-set-records';
import { formatIsoUtc } from '../time/format';
import { memoryFileSet } from '../io/listed-file-set';
import { PmError, PM_ERR_LOGCHANGETYPE, PM_ERR_LOGHOST, PM_ERR_LOGOVERLAP } from '../errors';
import { PM_TYPE_U32, PM_TYPE_U64, type EventArray } from '../types';
import { archiveFiles, buildArchive, encodeLabel, payload, type ArchiveSpec } from './testing/archive-builder';
import { INDOM_PI, PMID_AGG, PMID_CTR, PMID_DISC, PMID_ERR, PMID_EVENT, PMID_FLOAT, PMID_HREVENT, PMID_INST, PMID_PI, PMID_STR, at, demoFileSet, demoSpec } from './testing/demo-archive';

async function allRecords(fs: ReturnType<typeof memoryFileSet>, name: string): Promise<{ records: ArchiveRecord[]; failure: PmError | null }> {
  return readAll(await openArchiveSet(fs, name));
}

function valueOf(rec: ArchiveRecord, id: number): unknown[] {
  const vs = rec.sets.find((s) => s.pmid === id);
  return vs ? [...vs.values] : [];
}

describe.each([2, 3] as const)('the demo archive, V%i', (version) => {
  it('opens with its label and merged metadata', async () => {
    const set = await openArchiveSet(demoFileSet(version), 'demo');
    expect(set.label).toMatchObject({ version, hostname: 'testhost', timezone: 'UTC', vol: 0, start: at(0) });
    expect(set.label.zoneinfo).toBe(version === 3 ? ':Etc/UTC' : '');
    const meta = set.metadata;
    expect(meta.descCount).toBe(10);
    expect(meta.desc(PMID_CTR)).toMatchObject({ type: PM_TYPE_U64, sem: 1, units: { dimCount: 1 } });
    expect(meta.pmns.lookup('demo.alias.disc')).toBe(PMID_DISC);
    expect(meta.pmns.nameAll(PMID_DISC).sort()).toEqual(['demo.alias.disc', 'demo.disc']);
    expect(meta.text({ pmid: PMID_CTR }, 'oneline')).toBe('a counter');
    expect(meta.text({ pmid: PMID_CTR }, 'help')).toBe('A counter,\nwith help.\n');
    expect(() => meta.text({ pmid: PMID_INST }, 'help')).toThrow(PmError);
    expect(meta.labelSets(4, INDOM_PI, at(5))[0]?.labels).toEqual([{ name: 'model', value: '"RGB"', flags: 4 }]);
    // Instances: A, B from t=0; at t=30 A leaves and C arrives (a delta in V3, a full record in V2).
    expect(meta.indomAt(INDOM_PI, at(29))).toEqual({ instances: Int32Array.from([1, 2]), names: ['A', 'B'] });
    expect(meta.indomAt(INDOM_PI, at(30))).toEqual({ instances: Int32Array.from([2, 3]), names: ['B', 'C'] });
    expect(meta.indomAt(INDOM_PI, { sec: at(0).sec - 1, nsec: 0 })).toBeUndefined();
    expect(meta.indomUnion(INDOM_PI)).toEqual({ instances: Int32Array.from([2, 3, 1]), names: ['B', 'C', 'A'] });
    const life = meta.instanceLifetimes(INDOM_PI);
    expect(life.get(1)).toEqual({ inst: 1, birth: at(0), death: at(30) });
    expect(life.get(3)).toEqual({ inst: 3, birth: at(30), death: null });
    expect(await (await sessionOf(set)).archiveEnd()).toEqual(at(40));
  });

  it('reads every record with values decoded by descriptor type', async () => {
    const { records, failure } = await allRecords(demoFileSet(version), 'demo');
    expect(failure).toBeNull();
    expect(records.map((r) => [formatIsoUtc(r.timestamp), r.mark])).toEqual([
      ['2023-11-14T22:13:20.000000000Z', false],
      ['2023-11-14T22:13:30.000000000Z', false],
      ['2023-11-14T22:13:40.001000000Z', true],
      [version === 3 ? '2023-11-14T22:13:50.000000500Z' : '2023-11-14T22:13:50.000000000Z', false],
      ['2023-11-14T22:14:00.000000000Z', false],
    ]);
    const [r0, r1, , r3] = records as [ArchiveRecord, ArchiveRecord, ArchiveRecord, ArchiveRecord];
    expect(valueOf(r0, PMID_CTR)).toEqual([1000n]);
    expect(valueOf(r0, PMID_INST)).toEqual([10.5]);
    expect(valueOf(r0, PMID_DISC)).toEqual([5]);
    expect(valueOf(r0, PMID_STR)).toEqual(['alpha']);
    expect(valueOf(r0, PMID_FLOAT)).toEqual([7.4375]);
    const pi = r0.sets.find((s) => s.pmid === PMID_PI);
    expect(pi && [...pi.inst]).toEqual([1, 2]);
    expect(pi?.values).toEqual([100, -200]);
    expect(valueOf(r1, PMID_CTR)).toEqual([18446744073709551615n]);
    expect(valueOf(r1, PMID_AGG)).toEqual([Uint8Array.from([1, 2, 3, 0xff, 0])]);
    expect(valueOf(r1, PMID_FLOAT)).toEqual([Math.fround(0.1)]);
    expect(r1.sets.find((s) => s.pmid === PMID_ERR)?.numval).toBe(-12350);
    expect(r1.sets.find((s) => s.pmid === PMID_STR)?.numval).toBe(0);
    const lo = valueOf(r3, PMID_EVENT)[0] as EventArray;
    expect(lo.highres).toBe(false);
    expect(lo.records[0]).toMatchObject({ time: at(29, 123_456_000), flags: 1, nparams: 2 });
    expect(lo.records[0]?.params.map((p) => [p.type, p.value])).toEqual([
      [PM_TYPE_U32, 42],
      [6, 'hello'],
    ]);
    expect(lo.records[1]).toMatchObject({ flags: 0x80000000, nparams: 3, params: [] });
    const hi = valueOf(r3, PMID_HREVENT)[0] as EventArray;
    expect(hi.records[0]?.time).toEqual(at(29, 123_456_789));
  });

  it('positions by time with the index in both directions', async () => {
    const set = await openArchiveSet(demoFileSet(version), 'demo');
    const session = await sessionOf(set);
    // pmFetchArchive from 15 s: the index entry at 20.001 s is closer; fine tuning backs up
    // over the record at 10 s, which is then skipped as before the origin.
    await session.setMode(2, at(15));
    expect((await session.fetchArchiveRecord()).timestamp).toEqual(at(20, 1_000_000));
    // Backwards, the closer entry (end of volume 0) is used as is: the mark at 20.001 s is
    // after the origin and skipped.
    await session.setMode(3, at(15));
    expect((await session.fetchArchiveRecord()).timestamp).toEqual(at(10));
    expect((await session.fetchArchiveRecord()).timestamp).toEqual(at(0));
    await expect(session.fetchArchiveRecord()).rejects.toMatchObject({ code: -12370 });
  });
});

function small(start: number, host = 'testhost', type = PM_TYPE_U64): ArchiveSpec {
  return {
    version: 3,
    start: at(start),
    hostname: host,
    meta: [{ kind: 'desc', pmid: PMID_CTR, type, sem: 1, names: ['demo.ctr'] }],
    volumes: [0, 10, 20].map((s) => ({ time: at(start + s), sets: [{ pmid: PMID_CTR, values: [{ inst: -1, vtype: type, payload: payload.u64(BigInt(start + s)) }] }] })),
  };
}

function filesOf(specs: Record<string, ArchiveSpec>): ReturnType<typeof memoryFileSet> {
  return memoryFileSet(
    'multi',
    Object.entries(specs).flatMap(([name, spec]) => archiveFiles(`d/${name}`, buildArchive(spec))),
  );
}

describe('archive sets', () => {
  it('sorts by start time and stitches with synthesised marks both ways', async () => {
    const fs = filesOf({ b: small(100), a: small(0) });
    const { records } = await allRecords(fs, 'd/b,d/a');
    expect(records.map((r) => [r.timestamp.sec - at(0).sec, r.timestamp.nsec, r.mark, r.synthetic])).toEqual([
      [0, 0, false, false],
      [10, 0, false, false],
      [20, 0, false, false],
      [20, 1_000_000, true, true],
      [100, 0, false, false],
      [110, 0, false, false],
      [120, 0, false, false],
    ]);
    const set = await openArchiveSet(fs, 'd');
    expect(set.archives.map((a) => a.name)).toEqual(['d/a', 'd/b']);
    const session = await sessionOf(set);
    await session.setMode(3, at(200));
    const back: Array<[number, number, boolean]> = [];
    for (;;) {
      try {
        const r = await session.fetchArchiveRecord();
        back.push([r.timestamp.sec - at(0).sec, r.timestamp.nsec, r.numpmid === 0]);
      } catch (e) {
        expect(e).toMatchObject({ code: -12370 });
        break;
      }
    }
    expect(back).toEqual([
      [120, 0, false],
      [110, 0, false],
      [100, 0, false],
      [99, 999_000_000, true],
      [20, 0, false],
      [10, 0, false],
      [0, 0, false],
    ]);
  });

  it('rejects two archives starting together, another host, or a changed type', async () => {
    await expect(openArchiveSet(filesOf({ a: small(0), b: small(0) }), 'd/a,d/b')).rejects.toMatchObject({ code: PM_ERR_LOGOVERLAP });
    await expect(openArchiveSet(filesOf({ a: small(0), b: small(50, 'other') }), 'd/a,d/b')).rejects.toMatchObject({ code: PM_ERR_LOGHOST });
    await expect(openArchiveSet(filesOf({ a: small(0), b: small(50, 'testhost', PM_TYPE_U32) }), 'd/a,d/b')).rejects.toMatchObject({ code: PM_ERR_LOGCHANGETYPE });
    // The same archive twice is opened once.
    const set = await openArchiveSet(filesOf({ a: small(0) }), 'd/a,d/a');
    expect(set.archives).toHaveLength(1);
  });

  it('reports PM_ERR_LOGOVERLAP when the next archive starts before the previous ended', async () => {
    const { records, failure } = await allRecords(filesOf({ a: small(0), b: small(15) }), 'd');
    // a's records, the mark at a's end + 1 ms, then the overlap error.
    expect(records.map((r) => r.timestamp.sec - at(0).sec)).toEqual([0, 10, 20, 20]);
    expect(failure?.code).toBe(PM_ERR_LOGOVERLAP);
  });
});

describe('opening one archive (§3.3 checks across its files)', () => {
  const files = (mutate: (f: Map<string, Uint8Array>) => void): ReturnType<typeof memoryFileSet> => {
    const f = buildArchive(small(0));
    mutate(f);
    return memoryFileSet('one', archiveFiles('x', f));
  };
  const relabel = (f: Map<string, Uint8Array>, suffix: string, label: Uint8Array): void => {
    const old = f.get(suffix) as Uint8Array;
    const next = new Uint8Array(label.length + old.length - 808);
    next.set(label);
    next.set(old.subarray(808), label.length);
    f.set(suffix, next);
  };

  it('accepts a missing index; refuses an index or metadata holding only a label', async () => {
    expect((await openArchiveSet(files((f) => f.delete('index')), 'x')).archives[0]?.index.length).toBe(0);
    await expect(openArchiveSet(files((f) => f.set('index', (f.get('index') as Uint8Array).slice(0, 808))), 'x')).rejects.toMatchObject({ code: -12354 });
    await expect(openArchiveSet(files((f) => f.set('meta', (f.get('meta') as Uint8Array).slice(0, 808))), 'x')).rejects.toMatchObject({ code: -12354 });
  });

  it('refuses labels that disagree on version, PID or host, or carry the wrong volume', async () => {
    await expect(openArchiveSet(files((f) => relabel(f, 'index', encodeLabel({ version: 3, start: at(0), vol: -2, pid: 1 }))), 'x')).rejects.toMatchObject({ code: -12372 });
    await expect(openArchiveSet(files((f) => relabel(f, 'meta', encodeLabel({ version: 3, start: at(0), vol: -1, hostname: 'other' }))), 'x')).rejects.toMatchObject({ code: -12372 });
    await expect(openArchiveSet(files((f) => relabel(f, 'meta', encodeLabel({ version: 2, start: at(0), vol: -1 }))), 'x')).rejects.toMatchObject({ code: -12372 });
    await expect(openArchiveSet(files((f) => relabel(f, '0', encodeLabel({ version: 3, start: at(0), vol: 1 }))), 'x')).rejects.toMatchObject({ code: -12372 });
    // Start times are not compared.
    const set = await openArchiveSet(files((f) => relabel(f, 'index', encodeLabel({ version: 3, start: at(99), vol: -2 }))), 'x');
    expect(set.start).toEqual(at(0));
  });

  it('skips a later volume that is missing or has a bad label, as libpcp does', async () => {
    const spec = demoFileSet(3);
    const set = await openArchiveSet(spec, 'demo');
    expect(set.archives[0]?.volumeNumbers).toEqual([0, 1]);
    const bad = buildArchive(demoSpec(3));
    relabel(bad, '1', encodeLabel({ version: 3, start: at(0), vol: 7 }));
    const { records, failure } = await allRecords(memoryFileSet('d', archiveFiles('demo', bad)), 'demo');
    expect(failure).toBeNull();
    expect(records).toHaveLength(3);
  });
});
