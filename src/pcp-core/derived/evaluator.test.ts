// Evaluator case tables (derived-units-conversion.md §4): C integer arithmetic (wrapping U32,
// 32, 64, U64), instance pairing and churn, delta()/rate() history, ternary picking by
// position, name filters, aggregates at the edges, and errors passing through, on a small
// in-memory context.
import { describe, expect, it } from 'vitest';
import { MemoryContext, type MemoryMetric, type MemoryRecord } from '../../../test/derived/memory-context';
import { indom, makeUnits } from '../../../test/derived/units-helpers';
import { DerivedContext } from './derived-context';
import { DerivedRegistry } from './registry';
import { PM_INDOM_NULL, PM_SEM_COUNTER, PM_SEM_INSTANT, pmid, PM_TYPE_32, PM_TYPE_64, PM_TYPE_FLOAT, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import type { AtomValue, PmId } from '../types';

const P = indom(1, 1);
const metric = (name: string, item: number, type: number, sem: number, ind = PM_INDOM_NULL): MemoryMetric => ({
  name,
  desc: { pmid: pmid(1, 0, item), type, sem, indom: ind, units: makeUnits({ dimCount: 1 }) },
});
const METRICS = [
  metric('c.u32', 1, PM_TYPE_U32, PM_SEM_COUNTER),
  metric('c.i32', 2, PM_TYPE_32, PM_SEM_COUNTER),
  metric('c.u64', 3, PM_TYPE_U64, PM_SEM_COUNTER, P),
  metric('v.i64', 4, PM_TYPE_64, PM_SEM_INSTANT),
  metric('v.flt', 5, PM_TYPE_FLOAT, PM_SEM_INSTANT, P),
  metric('p.a', 6, PM_TYPE_U32, PM_SEM_INSTANT, P),
  metric('p.b', 7, PM_TYPE_U32, PM_SEM_INSTANT, P),
  metric('g.one', 8, PM_TYPE_U32, PM_SEM_INSTANT),
];
const id = (name: string): number => METRICS.find((m) => m.name === name)?.desc.pmid as number;
const NAMES = { instances: Int32Array.from([1, 2, 3, 4]), names: ['0001 init', '0002 bash', 'sda', 'sdb'] };

/** Record k: a second apart; values chosen to wrap and to churn instances. */
const RECORDS: MemoryRecord[] = [
  { u32: 4294967290, i32: 2147483640, u64: [[1, 18446744073709551610n], [2, 5n]], i64: -9223372036854775808n, flt: [[1, 0.1], [2, 0.2]], a: [[1, 10], [2, 20], [3, 30]], b: [[3, 3], [1, 1]], g: 1 },
  { u32: 5, i32: -2147483640, u64: [[1, 4n], [2, 7n]], i64: 5n, flt: [[1, 16777217], [2, 1]], a: [[2, 21], [4, 40]], b: [[2, 2], [4, 4], [1, 1]], g: 0 },
  { u32: 7, i32: -2147483630, u64: [[2, 9n], [3, 1n]], i64: 6n, flt: [], a: [], b: [[1, 1]], g: -12351 },
].map((r, k) => ({
  timestamp: { sec: 1000 + k, nsec: 0 },
  values: new Map<number, ReadonlyArray<readonly [number, AtomValue]> | number>([
    [id('c.u32'), [[-1, r.u32]]],
    [id('c.i32'), [[-1, r.i32]]],
    [id('c.u64'), r.u64 as Array<[number, bigint]>],
    [id('v.i64'), [[-1, r.i64]]],
    [id('v.flt'), r.flt as Array<[number, number]>],
    [id('p.a'), r.a as Array<[number, number]>],
    [id('p.b'), r.b as Array<[number, number]>],
    [id('g.one'), typeof r.g === 'number' && r.g < 0 ? r.g : [[-1, r.g]]],
  ]),
}));

/** The metric's values in each record: { instance: value }, or the error code. */
async function series(text: string): Promise<Array<Record<number, AtomValue> | number>> {
  const registry = new DerivedRegistry();
  registry.register('t.m', text);
  const ctx = new DerivedContext(new MemoryContext(METRICS, new Map([[P, [{ at: { sec: 0, nsec: 0 }, list: NAMES }]]]), RECORDS), { registry });
  const ids = (await ctx.lookupNames(['t.m'])) as PmId[];
  const [d] = await ctx.lookupDescs(ids);
  if (typeof d === 'number') throw new Error(`bind failed: ${d}`);
  const out: Array<Record<number, AtomValue> | number> = [];
  for (let k = 0; k < RECORDS.length; k++) {
    const s = (await ctx.fetch(ids)).sets[0];
    if (s === undefined) throw new Error('no set');
    if (s.numval < 0) out.push(s.numval);
    else out.push(Object.fromEntries([...s.inst].map((inst, i) => [inst, s.values[i]])));
  }
  return out;
}

describe('C integer arithmetic', () => {
  it.each([
    ['instant(c.u32) + 10', [{ [-1]: 4 }, { [-1]: 15 }, { [-1]: 17 }]],
    ['delta(c.u32)', [{}, { [-1]: -4294967285n }, { [-1]: 2n }]],
    ['delta(c.i32)', [{}, { [-1]: 16 }, { [-1]: 10 }]],
    ['rate(c.u32)', [{}, { [-1]: 11 }, { [-1]: 2 }]],
    ['rate(c.i32)', [{}, { [-1]: 16 }, { [-1]: 10 }]],
    ['c.i32 * 2', [{ [-1]: 4294967280 }, { [-1]: 16 }, { [-1]: 36 }]],
    ['sum(c.u64)', [{ [-1]: 18446744073709551615n }, { [-1]: 11n }, { [-1]: 10n }]],
    ['-v.i64', [{ [-1]: -9223372036854775808n }, { [-1]: -5n }, { [-1]: -6n }]],
    ['v.i64 - 1', [{ [-1]: 9223372036854775807n }, { [-1]: 4n }, { [-1]: 5n }]],
    ['mkconst(4294967295, type=u32) + instant(c.u32)', [{ [-1]: 4294967289 }, { [-1]: 4 }, { [-1]: 6 }]],
  ])('%s', async (text, expected) => {
    expect(await series(text)).toEqual(expected);
  });
  it('FLOAT arithmetic rounds to single precision', async () => {
    const s = await series('v.flt + v.flt');
    expect(s[0]).toEqual({ 1: Math.fround(Math.fround(0.1) * 2), 2: Math.fround(Math.fround(0.2) * 2) });
    expect((s[1] as Record<number, number>)[1]).toBe(33554432);
    // (float)16777217 is 16777216; 8388608 + 0.5 rounds to even in single precision.
    expect((await series('avg(v.flt)'))[1]).toEqual({ [-1]: 8388608 });
  });
});

describe('instances', () => {
  it('pairs instances by id in the left operand\'s order, dropping unmatched ones', async () => {
    expect(await series('p.a + p.b')).toEqual([{ 1: 11, 3: 33 }, { 2: 23, 4: 44 }, {}]);
    expect(await series('p.b + p.a')).toEqual([{ 3: 33, 1: 11 }, { 2: 23, 4: 44 }, {}]);
  });
  it('delta() keeps only instances present in both samples', async () => {
    expect(await series('delta(p.b)')).toEqual([{}, { 1: 0n }, { 1: 0n }]);
    expect(await series('delta(c.u64)')).toEqual([{}, { 1: Number(4n - 18446744073709551610n), 2: 2 }, { 2: 2 }]);
  });
  it('a singular guard applies to every instance; an instanced guard picks by position', async () => {
    expect(await series('c.u32 > 100 ? p.a : p.a * 2')).toEqual([{ 1: 10, 2: 20, 3: 30 }, { 2: 42, 4: 80 }, {}]);
    expect(await series('p.a > 15 ? p.a : mkconst(0, semantics=instant, units=count)')).toEqual([{ 1: 0, 2: 20, 3: 30 }, { 2: 21, 4: 40 }, {}]);
  });
  it('name filters match the full name or its first word (exact), the first word (regex)', async () => {
    expect(await series('p.a[0001]')).toEqual([{ 1: 10 }, {}, {}]);
    expect(await series('p.a[0002 bash]')).toEqual([{ 2: 20 }, { 2: 21 }, {}]);
    expect(await series('matchinst(/^0+[12]$/, p.a)')).toEqual([{ 1: 10, 2: 20 }, { 2: 21 }, {}]);
    expect(await series('matchinst(!/init/, p.a)')).toEqual([{ 1: 10, 2: 20, 3: 30 }, { 2: 21, 4: 40 }, {}]);
    expect(await series('(p.a + p.b)[sda]')).toEqual([{ 3: 33 }, {}, {}]);
  });
});

describe('aggregates and errors at the edges', () => {
  it.each([
    ['count(p.a)', [{ [-1]: 3 }, { [-1]: 2 }, { [-1]: 0 }]],
    ['sum(p.a)', [{ [-1]: 60 }, { [-1]: 61 }, { [-1]: 0 }]],
    ['avg(p.a)', [{ [-1]: 20 }, { [-1]: 30.5 }, { [-1]: 0 }]],
    ['max(p.a)', [{ [-1]: 30 }, { [-1]: 40 }, {}]],
    ['min(p.a)', [{ [-1]: 10 }, { [-1]: 21 }, {}]],
    ['scalar(p.a)', [{ [-1]: 10 }, { [-1]: 21 }, {}]],
    ['g.one + 1', [{ [-1]: 2 }, { [-1]: 1 }, -12351]],
    ['count(g.one)', [{ [-1]: 1 }, { [-1]: 1 }, { [-1]: 0 }]],
    ['g.one ? 1 : 2', [{ [-1]: 1 }, { [-1]: 2 }, -12351]],
  ])('%s', async (text, expected) => {
    expect(await series(text)).toEqual(expected);
  });
});
