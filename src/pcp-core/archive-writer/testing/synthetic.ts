// A synthetic archive for the writer's tests: every value type (32/64-bit extremes, float,
// double, strings, aggregates, both event kinds with missed records), error-coded and empty
// value sets, an instance domain that shrinks (delta) and renames (full), labels, help text
// and a <mark>. Used by archive-writer.test.ts (our reader) and
// archive-writer.conformance.test.ts (pmlogcheck, pmdumplog).
import { PM_LABEL_CONTEXT, PM_LABEL_INDOM } from '../../context/context';
import {
  NO_UNITS,
  PM_EVENT_FLAG_MISSED,
  PM_EVENT_FLAG_POINT,
  PM_INDOM_NULL,
  PM_SEM_COUNTER,
  PM_SEM_INSTANT,
  PM_TYPE_32,
  PM_TYPE_64,
  PM_TYPE_AGGREGATE,
  PM_TYPE_DOUBLE,
  PM_TYPE_EVENT,
  PM_TYPE_FLOAT,
  PM_TYPE_HIGHRES_EVENT,
  PM_TYPE_STRING,
  PM_TYPE_U32,
  PM_TYPE_U64,
  PM_VAL_DPTR,
  PM_VAL_INSITU,
  PM_VAL_SPTR,
  indom,
  pmid,
  type AtomValue,
  type Desc,
  type InstanceList,
  type Timestamp,
} from '../../types';
import { ArchiveWriter, type ArchiveImage } from '../archive-writer';
import type { ValueSetToWrite } from '../encode-record';

export const T0 = 1_700_000_000;
export const at = (s: number, nsec = 0): Timestamp => ({ sec: T0 + s, nsec });
export const D = indom(29, 7);
export const desc = (item: number, type: number, sem = PM_SEM_INSTANT, dom = PM_INDOM_NULL): Desc => ({ pmid: pmid(29, 0, item), type, indom: dom, sem, units: NO_UNITS });
export const DESCS = {
  i32: desc(1, PM_TYPE_32, PM_SEM_COUNTER),
  u32: desc(2, PM_TYPE_U32),
  i64: desc(3, PM_TYPE_64),
  u64: desc(4, PM_TYPE_U64, PM_SEM_COUNTER, D),
  flt: desc(5, PM_TYPE_FLOAT),
  dbl: desc(6, PM_TYPE_DOUBLE, PM_SEM_INSTANT, D),
  str: desc(7, PM_TYPE_STRING),
  agg: desc(8, PM_TYPE_AGGREGATE),
  evt: desc(9, PM_TYPE_EVENT),
  hev: desc(10, PM_TYPE_HIGHRES_EVENT),
};
const list = (...pairs: [number, string][]): InstanceList => ({ instances: Int32Array.from(pairs.map((p) => p[0])), names: pairs.map((p) => p[1]) });
export const set = (d: Desc, valfmt: number, pairs: [number, AtomValue][]): ValueSetToWrite => ({ pmid: d.pmid, numval: pairs.length, valfmt, inst: Int32Array.from(pairs.map((p) => p[0])), values: pairs.map((p) => p[1]) });
export const events = (highres: boolean) => ({
  kind: 'events' as const,
  highres,
  records: [
    { time: { sec: T0 - 5, nsec: highres ? 123456789 : 123456000 }, flags: PM_EVENT_FLAG_POINT, nparams: 3, params: [
      { pmid: pmid(29, 1, 1), type: PM_TYPE_STRING, value: 'fetch #0' },
      { pmid: pmid(29, 1, 2), type: PM_TYPE_U64, value: 18446744073709551615n },
      { pmid: pmid(29, 1, 3), type: PM_TYPE_DOUBLE, value: -0.5 },
    ] },
    { time: { sec: T0 - 4, nsec: 0 }, flags: PM_EVENT_FLAG_MISSED, nparams: 7, params: [] },
  ],
});

export function build(): ArchiveImage {
  const w = new ArchiveWriter({ pid: 4242, hostname: 'synthetic.example', timezone: 'UTC', zoneinfo: ':Etc/UTC' });
  for (const [name, d] of Object.entries(DESCS)) w.desc(d, [`syn.${name}`, ...(name === 'u32' ? ['syn.alias.u32'] : [])]);
  w.text(4 | 1, DESCS.i32.pmid, 'one line');
  w.text(4 | 2, DESCS.i32.pmid, 'longer help\nover two lines');
  w.text(8 | 1, D, 'the synthetic domain');
  w.labels(at(0), PM_LABEL_CONTEXT, 0xffffffff, [{ inst: -1, json: '{"hostname":"synthetic.example","userid":1000}', nlabels: 2, labels: [{ name: 'hostname', value: '"synthetic.example"', flags: 1 }, { name: 'userid', value: '1000', flags: 0x81 }] }]);
  w.labels(at(0), PM_LABEL_INDOM, D, [{ inst: -1, json: '{"model": "RGB"}', nlabels: 1, labels: [{ name: 'model', value: '"RGB"', flags: 4 }] }]);
  w.indom(at(0), D, list([1, 'one'], [2, 'two'], [3, 'three'], [4, 'four'], [5, 'five']));
  w.record(at(0), [
    set(DESCS.i32, PM_VAL_INSITU, [[-1, -2147483648]]),
    set(DESCS.u32, PM_VAL_INSITU, [[-1, 4294967295]]),
    set(DESCS.i64, PM_VAL_DPTR, [[-1, -9223372036854775808n]]),
    set(DESCS.u64, PM_VAL_DPTR, [[1, 18446744073709551615n], [3, 0n], [5, 9007199254740993n]]),
    set(DESCS.flt, PM_VAL_DPTR, [[-1, 1.5]]),
    set(DESCS.dbl, PM_VAL_DPTR, [[2, Math.PI], [4, -0]]),
    set(DESCS.str, PM_VAL_SPTR, [[-1, 'héllo wörld']]),
    set(DESCS.agg, PM_VAL_SPTR, [[-1, Uint8Array.from([1, 2, 3, 4, 5])]]),
    set(DESCS.evt, PM_VAL_SPTR, [[-1, events(false)]]),
    set(DESCS.hev, PM_VAL_SPTR, [[-1, events(true)]]),
  ]);
  // Fewer instances (a delta is smaller), an error code, an empty set.
  w.indom(at(10), D, list([1, 'one'], [2, 'two'], [3, 'three'], [4, 'four']));
  w.record(at(10, 5), [set(DESCS.u64, PM_VAL_DPTR, [[1, 18446744073709551615n]]), { pmid: DESCS.str.pmid, numval: -12350, valfmt: 0, inst: new Int32Array(0), values: [] }, { pmid: DESCS.flt.pmid, numval: 0, valfmt: 0, inst: new Int32Array(0), values: [] }]);
  w.mark(at(10, 6));
  // A renamed instance: a delta cannot say that, so a full record follows.
  w.indom(at(20), D, list([1, 'uno'], [2, 'two'], [3, 'three'], [4, 'four']));
  w.record(at(20), [set(DESCS.dbl, PM_VAL_DPTR, [[1, 2.25]])]);
  w.record(at(20), [set(DESCS.i32, PM_VAL_INSITU, [[-1, 7]])]);
  return w.finish();
}

