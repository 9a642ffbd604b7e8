// Fetchgroups against python3-pcp's pmapi.fetchgroup (test/oracle/fetchgroup.py) on QA
// archives: the same registrations (items, indoms, event fields, timestamps; scale strings,
// output types, instance names) and fetches, in FORW and INTERP modes; every status, value
// (sentinels included), instance code and name must be identical.
import { describe, expect, it } from 'vitest';
import { DirFileSet } from '../../node/dir-file-set';
import { QA_ARCHIVES } from '../../../test/oracle';
import { comparable, runOracle, runOurs, type FetchGroupScenario, type FetchGroupTranscript } from '../../../test/fetchgroup-compare';
import { openArchiveContext } from '../context/archive-context';
import { PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import { FetchGroup } from './fetch-group';

type Scenario = FetchGroupScenario;

async function ours(sc: Scenario): Promise<FetchGroupTranscript> {
  const ctx = await openArchiveContext(new DirFileSet('/'), sc.archive, { counterWrap: sc.env?.PCP_COUNTER_WRAP !== undefined });
  return runOurs(sc, ctx, new FetchGroup(ctx, { counterWrap: sc.env?.PCP_COUNTER_WRAP !== undefined }));
}

const Q = (a: string): string => `${QA_ARCHIVES}/${a}`;
const BOZO = Q('bozo-disk');
const B0: [number, number] = [1489620673, 870437000];

const SCENARIOS: Scenario[] = [
  {
    name: 'bozo-disk FORW: rates, scales, casts, discrete, TOOBIG, strings',
    archive: BOZO,
    regs: [
      { kind: 'timestamp' },
      { kind: 'item', metric: 'disk.dev.read', type: PM_TYPE_DOUBLE, instance: 'sdd' },
      { kind: 'item', metric: 'disk.dev.read', type: PM_TYPE_32, instance: 'sdd', scale: 'count x 10^-6' },
      { kind: 'item', metric: 'disk.dev.read', type: PM_TYPE_U64, instance: 'sda', scale: 'instant' },
      { kind: 'item', metric: 'disk.dev.read', type: PM_TYPE_STRING, instance: 'sdb', scale: 'count/min' },
      { kind: 'item', metric: 'disk.dev.avactive', type: PM_TYPE_DOUBLE, instance: 'sdd' },
      { kind: 'item', metric: 'disk.dev.avactive', type: PM_TYPE_DOUBLE, instance: 'sdd', scale: 'millisec' },
      { kind: 'item', metric: 'disk.dev.avactive', type: PM_TYPE_DOUBLE, instance: 'sdd', scale: 'sec/sec' },
      { kind: 'item', metric: 'disk.dev.avactive', type: PM_TYPE_FLOAT, instance: 'sdd', scale: 'sec/min' },
      { kind: 'item', metric: 'disk.dev.read_bytes', type: PM_TYPE_U32, instance: 'sdd', scale: 'Mbyte/hour' },
      { kind: 'item', metric: 'disk.dev.scheduler', type: PM_TYPE_DOUBLE, instance: 'sdd' },
      { kind: 'item', metric: 'disk.dev.scheduler', type: PM_TYPE_STRING, instance: 'sda' },
      { kind: 'item', metric: 'hinv.ncpu', type: PM_TYPE_STRING },
      { kind: 'item', metric: 'hinv.ncpu', type: PM_TYPE_64 },
      { kind: 'item', metric: 'hinv.physmem', type: PM_TYPE_DOUBLE, scale: 'Gbyte' },
      { kind: 'item', metric: 'hinv.physmem', type: PM_TYPE_U32, scale: 'Gbyte' },
      { kind: 'indom', metric: 'disk.dev.total', type: PM_TYPE_DOUBLE, maxnum: 3 },
      { kind: 'indom', metric: 'disk.dev.total', type: PM_TYPE_U64, maxnum: 10, scale: 'count/sec' },
      { kind: 'indom', metric: 'disk.dev.scheduler', type: PM_TYPE_STRING, maxnum: 10 },
      { kind: 'indom', metric: 'hinv.ncpu', type: PM_TYPE_32, maxnum: 2 },
      { kind: 'item', metric: 'disk.dev.read', type: PM_TYPE_DOUBLE, instance: 'nosuchdisk' },
      { kind: 'item', metric: 'disk.dev.read', type: PM_TYPE_DOUBLE, scale: 'Kbyte', instance: 'sda' },
      { kind: 'item', metric: 'disk.dev.read', type: PM_TYPE_DOUBLE, scale: 'bogus', instance: 'sda' },
      { kind: 'item', metric: 'disk.dev.read', type: PM_TYPE_DOUBLE },
      { kind: 'item', metric: 'no.such.metric', type: PM_TYPE_DOUBLE },
    ],
    fetches: 40,
  },
  {
    name: 'bozo-disk INTERP 7.3 s: the same registrations',
    archive: BOZO,
    mode: { mode: 'interp', origin: B0, delta: [7, 300000000] },
    regs: [
      { kind: 'timestamp' },
      { kind: 'item', metric: 'disk.dev.read', type: PM_TYPE_DOUBLE, instance: 'sdd' },
      { kind: 'item', metric: 'disk.dev.avactive', type: PM_TYPE_DOUBLE, instance: 'sdd', scale: 'sec/sec' },
      { kind: 'item', metric: 'hinv.ncpu', type: PM_TYPE_U32 },
      { kind: 'indom', metric: 'disk.dev.total', type: PM_TYPE_DOUBLE, maxnum: 10 },
      { kind: 'indom', metric: 'disk.dev.scheduler', type: PM_TYPE_STRING, maxnum: 10 },
    ],
    fetches: 30,
  },
  {
    name: 'wrap: decreases without PCP_COUNTER_WRAP (U32 and 32 as rates and raw)',
    archive: Q('uwrap'),
    regs: [
      { kind: 'item', metric: 'sample.wrap.ulong', type: PM_TYPE_DOUBLE },
      { kind: 'item', metric: 'sample.wrap.ulong', type: PM_TYPE_U32, scale: 'instant' },
      { kind: 'timestamp' },
    ],
    fetches: 30,
  },
  {
    name: 'wrap: with PCP_COUNTER_WRAP',
    archive: Q('uwrap'),
    regs: [{ kind: 'item', metric: 'sample.wrap.ulong', type: PM_TYPE_DOUBLE }, { kind: 'indom', metric: 'sample.wrap.ulong', type: PM_TYPE_64, maxnum: 1 }],
    fetches: 30,
    env: { PCP_COUNTER_WRAP: '1' },
  },
  {
    name: 'wrap: signed 32-bit counter and sign errors',
    archive: Q('wrap'),
    regs: [
      { kind: 'item', metric: 'sample.wrap.long', type: PM_TYPE_DOUBLE },
      { kind: 'item', metric: 'sample.wrap.long', type: PM_TYPE_U32, scale: 'instant' },
      { kind: 'item', metric: 'sample.wrap.long', type: PM_TYPE_STRING, scale: 'instant' },
    ],
    fetches: 25,
  },
  {
    name: 'omnibus_v3 FORW: strings, floats, 64-bit, events',
    archive: Q('omnibus_v3'),
    regs: [
      { kind: 'item', metric: 'sample.string.hullo', type: PM_TYPE_STRING },
      { kind: 'item', metric: 'sample.string.hullo', type: PM_TYPE_64 },
      { kind: 'item', metric: 'sample.float.million', type: PM_TYPE_STRING },
      { kind: 'item', metric: 'sample.double.million', type: PM_TYPE_STRING },
      { kind: 'item', metric: 'sample.longlong.bin_ctr', type: PM_TYPE_DOUBLE, instance: 'bin-100' },
      { kind: 'indom', metric: 'sample.ulonglong.bin_ctr', type: PM_TYPE_U64, maxnum: 20, scale: 'count/hour' },
      { kind: 'indom', metric: 'sample.colour', type: PM_TYPE_FLOAT, maxnum: 5 },
      { kind: 'event', metric: 'sampledso.event.records', field: 'event.flags', type: PM_TYPE_U32, maxnum: 20 },
      { kind: 'timestamp' },
    ],
    fetches: 40,
  },
  {
    name: 'eventrec FORW: event fields, highres events, TOOBIG, casts',
    archive: Q('eventrec'),
    regs: [
      { kind: 'event', metric: 'sample.event.records', instance: 'fungus', field: 'sample.event.param_double', type: PM_TYPE_DOUBLE, maxnum: 10 },
      { kind: 'event', metric: 'sample.event.records', instance: 'fungus', field: 'sample.event.param_string', type: PM_TYPE_STRING, maxnum: 10 },
      { kind: 'event', metric: 'sample.event.records', instance: 'fungus', field: 'sample.event.type', type: PM_TYPE_STRING, maxnum: 2 },
      { kind: 'event', metric: 'sample.event.records', instance: 'bogus', field: 'sample.event.param_u64', type: PM_TYPE_32, maxnum: 10 },
      { kind: 'event', metric: 'sample.event.records', instance: 'fungus', field: 'sample.event.param_32', type: PM_TYPE_U32, maxnum: 10 },
      { kind: 'event', metric: 'sample.event.records', instance: 'fungus', field: 'sample.event.type', type: PM_TYPE_U32, maxnum: 10, scale: 'rate' },
      { kind: 'event', metric: 'sample.event.records', field: 'sample.event.type', type: PM_TYPE_U32, maxnum: 10 },
      { kind: 'event', metric: 'sample.event.no_indom_records', field: 'sample.event.param_string', type: PM_TYPE_STRING, maxnum: 10 },
      { kind: 'event', metric: 'sample.event.highres_records', instance: 'bogus', field: 'sample.event.param_string', type: PM_TYPE_STRING, maxnum: 10 },
      { kind: 'event', metric: 'sample.colour', instance: 'red', field: 'sample.event.type', type: PM_TYPE_U32, maxnum: 10 },
      { kind: 'item', metric: 'sample.colour', instance: 'green', type: PM_TYPE_DOUBLE },
      { kind: 'timestamp' },
    ],
    fetches: 12,
  },
];

describe('fetchgroups match python3-pcp', () => {
  for (const sc of SCENARIOS) {
    it(sc.name, async () => {
      const [a, b] = await Promise.all([ours(sc), runOracle(sc)]);
      expect(comparable(a)).toEqual(comparable(b));
    });
  }
});
