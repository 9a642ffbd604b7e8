// The synthetic archive unit tests share: a small set of metrics of every storage kind
// (in-situ 32-bit and float, 64-bit, double, string, aggregate, event and high-resolution
// event arrays, an error-coded value set), an instance domain that changes (a V3 delta), help
// text, labels, a <mark>, two data volumes and an index. Built for V2 or V3.
import { memoryFileSet, type ListedFileSet } from '../../io/listed-file-set';
import { PM_TYPE_32, PM_TYPE_AGGREGATE, PM_TYPE_DOUBLE, PM_TYPE_EVENT, PM_TYPE_FLOAT, PM_TYPE_HIGHRES_EVENT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64, pmid, indom, type Timestamp } from '../../types';
import type { LogVersion } from '../log-format';
import { ByteWriter } from '../../io/byte-writer';
import { archiveFiles, buildArchive, payload, type ArchiveSpec, type MetaSpec, type RecordSpec } from './archive-builder';

export const T0 = 1_700_000_000;
export const at = (s: number, ns = 0): Timestamp => ({ sec: T0 + s, nsec: ns });

export const PMID_CTR = pmid(60, 0, 1); // U64 counter
export const PMID_INST = pmid(60, 0, 2); // DOUBLE instant
export const PMID_DISC = pmid(60, 0, 3); // U32 discrete, in-situ
export const PMID_STR = pmid(60, 0, 4); // STRING
export const PMID_PI = pmid(60, 1, 1); // 32 counter with instances
export const PMID_FLOAT = pmid(60, 0, 5); // FLOAT, in-situ (old style) and in a block
export const PMID_AGG = pmid(60, 0, 6); // AGGREGATE
export const PMID_EVENT = pmid(60, 2, 1); // EVENT
export const PMID_HREVENT = pmid(60, 2, 2); // HIGHRES_EVENT
export const PMID_ERR = pmid(60, 0, 7); // U32, error-coded
export const INDOM_PI = indom(60, 1);

/** An event array payload: one record with a U32 and a string parameter, one missed. */
export function eventPayload(highres: boolean, t: Timestamp): Uint8Array {
  const w = new ByteWriter().i32(2);
  if (highres) w.i64(BigInt(t.sec)).i64(BigInt(t.nsec));
  else w.i32(t.sec).i32(Math.floor(t.nsec / 1000));
  w.u32(1).i32(2); // POINT, 2 params
  w.u32(pmid(60, 3, 1)).u32((PM_TYPE_U32 << 24) | 8).u32(42);
  w.u32(pmid(60, 3, 2)).u32((PM_TYPE_STRING << 24) | 9).bytes(new TextEncoder().encode('hello')).u8(0x7e).u8(0x7e).u8(0x7e);
  if (highres) w.i64(BigInt(t.sec)).i64(BigInt(t.nsec));
  else w.i32(t.sec).i32(Math.floor(t.nsec / 1000));
  w.u32(0x80000000).i32(3); // MISSED, 3 missed events
  return w.finish();
}

function meta(version: LogVersion): MetaSpec[] {
  const delta = version === 3;
  return [
    { kind: 'desc', pmid: PMID_CTR, type: PM_TYPE_U64, sem: 1, units: 0x00100000, names: ['demo.ctr'] },
    { kind: 'desc', pmid: PMID_INST, type: PM_TYPE_DOUBLE, sem: 3, names: ['demo.inst'] },
    { kind: 'desc', pmid: PMID_DISC, type: PM_TYPE_U32, sem: 4, names: ['demo.disc', 'demo.alias.disc'] },
    { kind: 'desc', pmid: PMID_STR, type: PM_TYPE_STRING, sem: 3, names: ['demo.str'] },
    { kind: 'desc', pmid: PMID_PI, type: PM_TYPE_32, sem: 1, indom: INDOM_PI, names: ['demo.pi'] },
    { kind: 'indom', time: at(0), indom: INDOM_PI, instances: [[2, 'B'], [1, 'A']] },
    { kind: 'desc', pmid: PMID_FLOAT, type: PM_TYPE_FLOAT, sem: 3, names: ['demo.float'] },
    { kind: 'desc', pmid: PMID_AGG, type: PM_TYPE_AGGREGATE, sem: 4, names: ['demo.agg'] },
    { kind: 'desc', pmid: PMID_EVENT, type: PM_TYPE_EVENT, sem: 3, names: ['demo.events.lo'] },
    { kind: 'desc', pmid: PMID_HREVENT, type: PM_TYPE_HIGHRES_EVENT, sem: 3, names: ['demo.events.hi'] },
    { kind: 'desc', pmid: PMID_ERR, type: PM_TYPE_U32, sem: 3, names: ['demo.err'] },
    { kind: 'text', type: 4 | 1, ident: PMID_CTR, text: 'a counter' },
    { kind: 'text', type: 4 | 2, ident: PMID_CTR, text: 'A counter,\nwith help.\n' },
    { kind: 'labels', time: at(0), type: 1, ident: 0xffffffff, sets: [{ labels: [{ name: 'hostname', value: '"testhost"' }] }] },
    { kind: 'labels', time: at(0), type: 4, ident: INDOM_PI, sets: [{ labels: [{ name: 'model', value: '"RGB"' }] }] },
    delta
      ? { kind: 'indom', form: 'delta', time: at(30), indom: INDOM_PI, instances: [[1, null], [3, 'C']] }
      : { kind: 'indom', time: at(30), indom: INDOM_PI, instances: [[2, 'B'], [3, 'C']] },
  ];
}

function records(): { vol0: RecordSpec[]; vol1: RecordSpec[] } {
  const u32 = (inst: number, v: number) => ({ inst, insitu: v });
  const vol0: RecordSpec[] = [
    {
      time: at(0),
      sets: [
        { pmid: PMID_CTR, values: [{ inst: -1, vtype: PM_TYPE_U64, payload: payload.u64(1000n) }] },
        { pmid: PMID_INST, values: [{ inst: -1, vtype: PM_TYPE_DOUBLE, payload: payload.f64(10.5) }] },
        { pmid: PMID_DISC, values: [u32(-1, 5)] },
        { pmid: PMID_STR, values: [{ inst: -1, vtype: PM_TYPE_STRING, payload: payload.string('alpha') }] },
        { pmid: PMID_PI, values: [u32(1, 100), u32(2, -200)] },
        { pmid: PMID_FLOAT, values: [{ inst: -1, insitu: 0x40ee0000 }] }, // 7.4375 in-situ
      ],
    },
    {
      time: at(10),
      sets: [
        { pmid: PMID_CTR, values: [{ inst: -1, vtype: PM_TYPE_U64, payload: payload.u64(18446744073709551615n) }] },
        { pmid: PMID_AGG, values: [{ inst: -1, vtype: PM_TYPE_AGGREGATE, payload: payload.bytes([1, 2, 3, 0xff, 0]) }] },
        { pmid: PMID_FLOAT, values: [{ inst: -1, vtype: PM_TYPE_FLOAT, payload: payload.f32(0.1) }] },
        { pmid: PMID_ERR, error: -12350 },
        { pmid: PMID_STR, values: [] },
      ],
    },
    { time: at(20, 1_000_000), mark: true },
  ];
  const vol1: RecordSpec[] = [
    {
      time: at(30, 500),
      sets: [
        { pmid: PMID_EVENT, valfmt: 2, values: [{ inst: -1, vtype: PM_TYPE_EVENT, payload: eventPayload(false, at(29, 123_456_000)) }] },
        { pmid: PMID_HREVENT, valfmt: 2, values: [{ inst: -1, vtype: PM_TYPE_HIGHRES_EVENT, payload: eventPayload(true, at(29, 123_456_789)) }] },
        { pmid: PMID_PI, values: [u32(2, 7), u32(3, 8)] },
      ],
    },
    { time: at(40), sets: [{ pmid: PMID_CTR, values: [{ inst: -1, vtype: PM_TYPE_U64, payload: payload.u64(5n) }] }] },
  ];
  return { vol0, vol1 };
}

export function demoSpec(version: LogVersion, overrides: Partial<ArchiveSpec> = {}): ArchiveSpec {
  const { vol0, vol1 } = records();
  return {
    version,
    start: at(0),
    hostname: 'testhost',
    timezone: 'UTC',
    zoneinfo: version === 3 ? ':Etc/UTC' : '',
    meta: meta(version),
    volumes: new Map([
      [0, vol0],
      [1, vol1],
    ]),
    ...overrides,
  };
}

/** The demo archive as a FileSet holding `demo.meta`, `demo.index`, `demo.0`, `demo.1`. */
export function demoFileSet(version: LogVersion, overrides: Partial<ArchiveSpec> = {}): ListedFileSet {
  return memoryFileSet('demo', archiveFiles('demo', buildArchive(demoSpec(version, overrides))));
}
