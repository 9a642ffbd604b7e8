// The `bozo-disk` QA archive's records as derived-units-conversion.md §10.1 lists them, as a
// MemoryContext: hinv.* in R0 only, disk.dev.* (indom 60.1, sda … sde) in R1 … R4. The
// §10.2/§10.3 vectors checked in unit tests run on it.
import { MemoryContext, type MemoryMetric, type MemoryRecord } from './memory-context';
import { indom, makeUnits } from './units-helpers';
import { PM_INDOM_NULL, PM_SEM_COUNTER, PM_SEM_DISCRETE, PM_SEM_INSTANT, PM_TYPE_32, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64, pmid } from '../../src/pcp-core/types';
import type { AtomValue, Desc, Timestamp } from '../../src/pcp-core/types';

export const DISK = indom(60, 1);
export const PARTITIONS = indom(60, 10);

const desc = (id: [number, number, number], type: number, sem: number, units: Partial<Desc['units']>, ind = PM_INDOM_NULL): Desc => ({
  pmid: pmid(...id),
  type,
  sem,
  indom: ind,
  units: makeUnits(units),
});

export const METRICS: MemoryMetric[] = [
  { name: 'hinv.physmem', desc: desc([60, 1, 9], PM_TYPE_U32, PM_SEM_DISCRETE, { dimSpace: 1, scaleSpace: 2 }) },
  { name: 'hinv.pagesize', desc: desc([60, 1, 11], PM_TYPE_U32, PM_SEM_DISCRETE, { dimSpace: 1 }) },
  { name: 'hinv.ncpu', desc: desc([60, 0, 32], PM_TYPE_U32, PM_SEM_DISCRETE, {}) },
  { name: 'hinv.machine', desc: desc([60, 18, 7], PM_TYPE_STRING, PM_SEM_DISCRETE, {}) },
  { name: 'disk.dev.read', desc: desc([60, 0, 4], PM_TYPE_U64, PM_SEM_COUNTER, { dimCount: 1 }, DISK) },
  { name: 'disk.dev.write', desc: desc([60, 0, 5], PM_TYPE_U64, PM_SEM_COUNTER, { dimCount: 1 }, DISK) },
  { name: 'disk.dev.read_bytes', desc: desc([60, 0, 38], PM_TYPE_U32, PM_SEM_COUNTER, { dimSpace: 1, scaleSpace: 1 }, DISK) },
  { name: 'disk.dev.avactive', desc: desc([60, 0, 46], PM_TYPE_U32, PM_SEM_COUNTER, { dimTime: 1, scaleTime: 2 }, DISK) },
  { name: 'disk.dev.queue', desc: desc([60, 0, 47], PM_TYPE_32, PM_SEM_INSTANT, {}, DISK) },
  { name: 'disk.partitions.read', desc: desc([60, 10, 0], PM_TYPE_U64, PM_SEM_COUNTER, { dimCount: 1 }, PARTITIONS) },
];
export const ID = Object.fromEntries(METRICS.map((m) => [m.name, m.desc.pmid])) as Record<string, number>;

const NAMES = ['sda', 'sdb', 'sdc', 'sdd', 'sde'];
const T0 = 1_500_000_000;
const at = (s: number, us: number): Timestamp => ({ sec: T0 + s, nsec: us * 1000 });
const disk = (vals: readonly number[], big = false): Array<readonly [number, AtomValue]> => vals.map((v, i) => [i, big ? BigInt(v) : v] as const);

const ROWS: Array<{ t: Timestamp; read: number[]; write: number[]; bytes: number[]; active: number[] }> = [
  { t: at(13, 890965), read: [265812, 543494, 180884, 310566, 236884], write: [709130, 851328, 62544, 847612, 980350], bytes: [7330602, 9231402, 2070215, 8155530, 7943702], active: [2912792, 4066232, 49032, 3386872, 3208652] },
  { t: at(23, 891401), read: [265862, 543494, 180884, 310985, 236884], write: [709419, 851343, 62958, 849468, 980354], bytes: [7331674, 9231402, 2070215, 8164742, 7943702], active: [2913252, 4066332, 49076, 3390784, 3208668] },
  { t: at(33, 891167), read: [265862, 543494, 180884, 311329, 236884], write: [709420, 851544, 62958, 849486, 980368], bytes: [7331674, 9231402, 2070215, 8179786, 7943702], active: [2913260, 4066476, 49076, 3391664, 3208740] },
  { t: at(43, 891451), read: [265862, 543494, 180884, 311764, 236884], write: [709431, 851553, 62958, 849517, 980376], bytes: [7331674, 9231402, 2070215, 8199226, 7943702], active: [2913260, 4066516, 49076, 3392344, 3208740] },
];

export function bozoDisk(kind: 'archive' | 'live' = 'archive'): MemoryContext {
  const records: MemoryRecord[] = [
    {
      timestamp: at(13, 872619),
      values: new Map<number, ReadonlyArray<readonly [number, AtomValue]>>([
        [ID['hinv.physmem'], [[-1, 32075]]],
        [ID['hinv.pagesize'], [[-1, 4096]]],
        [ID['hinv.ncpu'], [[-1, 12]]],
        [ID['hinv.machine'], [[-1, 'x86_64']]],
      ]),
    },
    ...ROWS.map((r) => ({
      timestamp: r.t,
      values: new Map<number, ReadonlyArray<readonly [number, AtomValue]>>([
        [ID['disk.dev.read'], disk(r.read, true)],
        [ID['disk.dev.write'], disk(r.write, true)],
        [ID['disk.dev.read_bytes'], disk(r.bytes)],
        [ID['disk.dev.avactive'], disk(r.active)],
        [ID['disk.dev.queue'], disk([0, -2, 5, 7, -9])],
      ]),
    })),
  ];
  const list = { instances: Int32Array.from([0, 1, 2, 3, 4]), names: NAMES };
  return new MemoryContext(METRICS, new Map([[DISK, [{ at: at(13, 0), list }]]]), records, kind);
}
