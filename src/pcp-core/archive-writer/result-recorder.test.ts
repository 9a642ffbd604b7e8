// ResultRecorder over a scripted live Context (a test fake; pmcd itself is the oracle in
// result-recorder.conformance.test.ts): what it records reads back through our own reader —
// the metadata first, an instance domain grown by a new instance, only the recorded metrics
// of a wider result, a <mark> at a reconnect, results out of order refused, and the cap.
import { describe, expect, it } from 'vitest';
import { openArchiveSet } from '../archive';
import { allRecords } from '../replay/testing/archive-set-records';
import type { Context } from '../context/context';
import { PmError, PM_ERR_TEXT } from '../errors';
import { memoryFileSet } from '../io';
import { PM_VAL_INSITU, type InstanceList, type PmId, type Result } from '../types';
import type { ArchiveImage } from './archive-writer';
import { ResultRecorder } from './result-recorder';
import { D, DESCS, T0 } from './testing/synthetic';

const I32 = DESCS.i32;
const DBL = DESCS.dbl;

function fakeLive(instances: () => InstanceList): Context {
  const descs = new Map([[I32.pmid, I32], [DBL.pmid, DBL]]);
  const names = new Map<PmId, string[]>([[I32.pmid, ['syn.i32']], [DBL.pmid, ['syn.dbl', 'syn.alias.dbl']]]);
  const fail = (): Promise<never> => Promise.reject(new Error('not used'));
  return {
    source: { kind: 'live', target: 'fake', hostname: 'fake.example', timezone: 'UTC', zoneinfo: 'Etc/UTC' },
    lookupNames: fail,
    nameAll: (id) => Promise.resolve(names.get(id) ?? []),
    children: fail,
    traverse: fail,
    lookupDescs: (ids) => Promise.resolve(ids.map((id) => descs.get(id) ?? -12357)),
    getInDom: () => Promise.resolve(instances()),
    lookupText: (target, kind) => ('pmid' in target && kind === 'oneline' ? Promise.resolve(`one line of ${target.pmid}`) : Promise.reject(new PmError(PM_ERR_TEXT))),
    lookupLabels: fail,
    setMode: () => undefined,
    changeProfile: () => undefined,
    fetch: fail,
    close: () => Promise.resolve(),
  };
}

const result = (sec: number, epoch: number, dbl: [number, number][], i32 = sec): Result => ({
  timestamp: { sec: T0 + sec, nsec: 250_000_000 },
  epoch,
  sets: [
    { pmid: I32.pmid, numval: 1, valfmt: PM_VAL_INSITU, inst: Int32Array.of(-1), values: [i32] },
    { pmid: DBL.pmid, numval: dbl.length, valfmt: 1, inst: Int32Array.from(dbl.map((p) => p[0])), values: dbl.map((p) => p[1]) },
    // A metric of the same fetch the recording does not include (another chart's).
    { pmid: 12345 as PmId, numval: 1, valfmt: PM_VAL_INSITU, inst: Int32Array.of(-1), values: [7] },
  ],
});

async function readBack(img: ArchiveImage) {
  const s = await openArchiveSet(memoryFileSet('rec', [['rec.meta', img.meta], ['rec.index', img.index], ['rec.0', img.volume]]), 'rec');
  const { records, failure } = await allRecords(s);
  expect(failure).toBeNull();
  return { s, records };
}

describe('ResultRecorder', () => {
  it('records the recorded metrics of each result with their metadata', async () => {
    let insts: InstanceList = { instances: Int32Array.of(1, 2), names: ['one', 'two'] };
    const ctx = fakeLive(() => insts);
    const rec = await ResultRecorder.create(ctx, [I32.pmid, DBL.pmid, DBL.pmid], { pid: 1, capBytes: 1 << 20 });
    expect(rec.metrics).toEqual([I32.pmid, DBL.pmid]);
    expect(await rec.take(result(0, 1, [[1, 0.5], [2, 1.5]]))).toBe(true);
    insts = { instances: Int32Array.of(1, 2, 3), names: ['one', 'two', 'three'] };
    await rec.take(result(1, 1, [[1, 0.75], [2, 2.5], [3, 9]]));
    // pmcd restarted between these two: a <mark> goes in between.
    await rec.take(result(2, 2, [[1, 1], [3, 10]]));
    expect(rec.records).toBe(4);
    const { s, records } = await readBack(rec.finish());
    expect(s.label).toMatchObject({ version: 3, hostname: 'fake.example', timezone: 'UTC', zoneinfo: ':Etc/UTC', start: { sec: T0, nsec: 250_000_000 } });
    expect(records.map((r) => [r.timestamp.sec - T0, r.mark, r.sets.map((x) => x.pmid)])).toEqual([
      [0, false, [I32.pmid, DBL.pmid]],
      [1, false, [I32.pmid, DBL.pmid]],
      [1, true, []],
      [2, false, [I32.pmid, DBL.pmid]],
    ]);
    expect(records[1]?.sets[1]?.values).toEqual([0.75, 2.5, 9]);
    expect(records[3]?.sets[0]?.values).toEqual([2]);
    expect(s.metadata.pmns.nameAll(DBL.pmid)).toEqual(['syn.dbl', 'syn.alias.dbl']);
    expect(s.metadata.text({ pmid: I32.pmid }, 'oneline')).toBe(`one line of ${I32.pmid}`);
    expect(s.metadata.indomAt(D, { sec: T0, nsec: 250_000_000 })?.names).toEqual(['one', 'two']);
    expect(s.metadata.indomAt(D, { sec: T0 + 1, nsec: 250_000_000 })?.names).toEqual(['one', 'two', 'three']);
  });

  it('refuses a result that is not later than the last', async () => {
    const rec = await ResultRecorder.create(fakeLive(() => ({ instances: Int32Array.of(1), names: ['one'] })), [I32.pmid], { pid: 1, capBytes: 1 << 20 });
    await rec.take(result(5, 1, [[1, 1]]));
    await expect(rec.take(result(5, 1, [[1, 1]]))).rejects.toThrow(/not later than the last/);
  });

  it('stops taking results at the cap and keeps what it has', async () => {
    const rec = await ResultRecorder.create(fakeLive(() => ({ instances: Int32Array.of(1), names: ['one'] })), [I32.pmid], { pid: 1, capBytes: 4000 });
    let n = 0;
    while (await rec.take(result(n, 1, [[1, n]]))) n++;
    expect(rec.capped).toBe(true);
    expect(await rec.take(result(n + 1, 1, [[1, 0]]))).toBe(false);
    const { records } = await readBack(rec.finish());
    expect(records).toHaveLength(n + 1);
    expect(rec.bytes).toBeGreaterThanOrEqual(4000);
  });

  it('says so when none of the metrics can be recorded', async () => {
    await expect(ResultRecorder.create(fakeLive(() => ({ instances: Int32Array.of(), names: [] })), [999 as PmId], { pid: 1, capBytes: 1 << 20 })).rejects.toThrow(/nothing to record/);
  });
});
