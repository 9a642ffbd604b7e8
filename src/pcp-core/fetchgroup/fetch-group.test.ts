// Unit tests of FetchGroup over a scripted Context: rate priming (PM_ERR_AGAIN), discrete
// retention, PM_ERR_TOOBIG, sorted instances, sentinels after a failed fetch, casts.
import { describe, expect, it } from 'vitest';
import type { Context } from '../context/context';
import { PM_ERR_AGAIN, PM_ERR_EOL, PM_ERR_TOOBIG, PM_ERR_VALUE, PmError } from '../errors';
import type { Desc, InstanceList, PmId, Result } from '../types';
import { NO_UNITS, PM_INDOM_NULL, PM_SEM_COUNTER, PM_SEM_DISCRETE, PM_TYPE_DOUBLE, PM_TYPE_STRING, PM_TYPE_U32, indom, pmid } from '../types';
import { FetchGroup } from './fetch-group';

const CTR = pmid(1, 0, 1);
const DISC = pmid(1, 0, 2);
const INDOM = indom(1, 1);

function scripted(results: (Result | number)[]): Context {
  let k = 0;
  const descs = new Map<number, Desc>([
    [CTR, { pmid: CTR, type: PM_TYPE_U32, indom: INDOM, sem: PM_SEM_COUNTER, units: NO_UNITS }],
    [DISC, { pmid: DISC, type: PM_TYPE_U32, indom: PM_INDOM_NULL, sem: PM_SEM_DISCRETE, units: NO_UNITS }],
  ]);
  const names: Record<string, PmId> = { 'x.ctr': CTR, 'x.disc': DISC };
  const list: InstanceList = { instances: Int32Array.of(0, 1, 2), names: ['a', 'b', 'c'] };
  return {
    source: { kind: 'live', target: 'test', hostname: 'test', timezone: 'UTC', zoneinfo: '' },
    lookupNames: (ns) => Promise.resolve(ns.map((n) => names[n] ?? -12357)),
    nameAll: () => Promise.resolve([]),
    children: () => Promise.resolve([]),
    traverse: () => Promise.resolve([]),
    lookupDescs: (ids) => Promise.resolve(ids.map((id) => descs.get(id) ?? -12358)),
    getInDom: () => Promise.resolve(list),
    lookupText: () => Promise.reject(new PmError(-12349)),
    lookupLabels: () => Promise.resolve([]),
    setMode: () => undefined,
    changeProfile: () => undefined,
    fetch: () => {
      const r = results[k++];
      return typeof r === 'number' || r === undefined ? Promise.reject(new PmError(r ?? PM_ERR_EOL)) : Promise.resolve(r);
    },
    close: () => Promise.resolve(),
  };
}

const at = (sec: number, ctr: [number, number][], disc: number | null): Result => ({
  timestamp: { sec, nsec: 0 },
  sets: [
    { pmid: CTR, numval: ctr.length, valfmt: 0, inst: Int32Array.from(ctr.map(([i]) => i)), values: ctr.map(([, v]) => v) },
    disc === null ? { pmid: DISC, numval: 0, valfmt: 0, inst: new Int32Array(0), values: [] } : { pmid: DISC, numval: 1, valfmt: 0, inst: Int32Array.of(-1), values: [disc] },
  ],
});

describe('FetchGroup', () => {
  it('rates need a previous fetch; instances come out sorted; TOOBIG; discrete values stay', async () => {
    const fg = new FetchGroup(
      scripted([at(10, [[2, 30], [0, 10], [1, 20]], 5), at(12, [[1, 24], [0, 16], [2, 30]], null), at(14, [[0, 18], [1, 20]], 6), PM_ERR_EOL]),
    );
    const item = await fg.extendItem('x.ctr', PM_TYPE_DOUBLE, { instance: 'a' });
    const all = await fg.extendIndom('x.ctr', PM_TYPE_STRING, 3, { scale: 'instant' });
    const small = await fg.extendIndom('x.ctr', PM_TYPE_U32, 2);
    const disc = await fg.extendItem('x.disc', PM_TYPE_U32);
    const ts = fg.extendTimestamp();

    expect(await fg.fetch()).toBe(0);
    expect(item).toMatchObject({ status: PM_ERR_AGAIN });
    expect(item.value).toBeNaN();
    expect([...all.codes]).toEqual([0, 1, 2]);
    expect(all.names).toEqual(['a', 'b', 'c']);
    expect(all.values).toEqual(['10', '20', '30']);
    expect(small).toMatchObject({ status: PM_ERR_TOOBIG, num: 0 });
    expect(disc).toMatchObject({ value: 5, status: 0 });
    expect(ts.value).toEqual({ sec: 10, nsec: 0 });

    expect(await fg.fetch()).toBe(0);
    expect(item).toMatchObject({ value: 3, status: 0 });
    expect(disc).toMatchObject({ value: 5, status: 0 }); // absent: the last value stays

    expect(await fg.fetch()).toBe(0);
    expect(item).toMatchObject({ value: 1, status: 0 });
    expect(small.num).toBe(2);
    expect([...small.statuses]).toEqual([0, PM_ERR_VALUE]); // b decreased
    expect(small.values[1]).toBe(4294967295);
    expect(disc.value).toBe(6);

    expect(await fg.fetch()).toBe(PM_ERR_EOL);
    expect(item).toMatchObject({ status: PM_ERR_VALUE });
    expect(item.value).toBeNaN();
    expect(disc).toMatchObject({ value: 6, status: PM_ERR_VALUE });
  });
});
