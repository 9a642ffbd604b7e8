// The PMAPI data model shared by every layer: identifiers, descriptors, units, timestamps and
// fetch results. Numeric codes keep libpcp's values (docs: archive-format.md §2.4–2.6,
// derived-units-conversion.md §1) so they grep against PCP's sources.

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A metric identifier: domain (9 bits), cluster (12), item (10), stored unsigned. */
export type PmId = Brand<number, 'PmId'>;
/** An instance domain identifier: domain (9 bits), serial (22), stored unsigned. */
export type InDom = Brand<number, 'InDom'>;

export const PM_ID_NULL = 0xffffffff as PmId;
export const PM_INDOM_NULL = 0xffffffff as InDom;
export const PM_IN_NULL = -1;
/** Domain reserved for derived and dynamic metrics. */
export const DYNAMIC_PMID_DOMAIN = 511;

export function pmid(domain: number, cluster: number, item: number): PmId {
  return (((domain & 0x1ff) << 22) | ((cluster & 0xfff) << 10) | (item & 0x3ff)) >>> 0 as PmId;
}
export function pmidDomain(id: PmId): number {
  return (id >>> 22) & 0x1ff;
}
export function pmidCluster(id: PmId): number {
  return (id >>> 10) & 0xfff;
}
export function pmidItem(id: PmId): number {
  return id & 0x3ff;
}
/** pmIDStr: `domain.cluster.item`, or `PM_ID_NULL`. */
export function formatPmId(id: PmId): string {
  return id === PM_ID_NULL ? 'PM_ID_NULL' : `${pmidDomain(id)}.${pmidCluster(id)}.${pmidItem(id)}`;
}
/** Parses `domain.cluster.item`; undefined when the text is not of that form. */
export function parsePmId(text: string): PmId | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!m) return undefined;
  const [d, c, i] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (d > 0x1ff || c > 0xfff || i > 0x3ff) return undefined;
  return pmid(d, c, i);
}

export function indom(domain: number, serial: number): InDom {
  return (((domain & 0x1ff) << 22) | (serial & 0x3fffff)) >>> 0 as InDom;
}
export function indomDomain(id: InDom): number {
  return (id >>> 22) & 0x1ff;
}
export function indomSerial(id: InDom): number {
  return id & 0x3fffff;
}
/** pmInDomStr: `domain.serial`, or `PM_INDOM_NULL`. */
export function formatInDom(id: InDom): string {
  return id === PM_INDOM_NULL ? 'PM_INDOM_NULL' : `${indomDomain(id)}.${indomSerial(id)}`;
}

/** Metric data types (pmDesc.type, value-block vtype). */
export const PM_TYPE_NOSUPPORT = -1;
export const PM_TYPE_32 = 0;
export const PM_TYPE_U32 = 1;
export const PM_TYPE_64 = 2;
export const PM_TYPE_U64 = 3;
export const PM_TYPE_FLOAT = 4;
export const PM_TYPE_DOUBLE = 5;
export const PM_TYPE_STRING = 6;
export const PM_TYPE_AGGREGATE = 7;
export const PM_TYPE_AGGREGATE_STATIC = 8;
export const PM_TYPE_EVENT = 9;
export const PM_TYPE_HIGHRES_EVENT = 10;
export const PM_TYPE_UNKNOWN = 255;

/** Semantics (pmDesc.sem). Code 2 is obsolete. */
export const PM_SEM_COUNTER = 1;
export const PM_SEM_INSTANT = 3;
export const PM_SEM_DISCRETE = 4;

/** Value formats of a value set. */
export const PM_VAL_INSITU = 0;
export const PM_VAL_DPTR = 1;
export const PM_VAL_SPTR = 2;

/** pmTypeStr. */
export function formatType(type: number): string {
  switch (type) {
    case PM_TYPE_NOSUPPORT: return 'NO_SUPPORT';
    case PM_TYPE_32: return '32';
    case PM_TYPE_U32: return 'U32';
    case PM_TYPE_64: return '64';
    case PM_TYPE_U64: return 'U64';
    case PM_TYPE_FLOAT: return 'FLOAT';
    case PM_TYPE_DOUBLE: return 'DOUBLE';
    case PM_TYPE_STRING: return 'STRING';
    case PM_TYPE_AGGREGATE: return 'AGGREGATE';
    case PM_TYPE_AGGREGATE_STATIC: return 'AGGREGATE_STATIC';
    case PM_TYPE_EVENT: return 'EVENT';
    case PM_TYPE_HIGHRES_EVENT: return 'HIGHRES_EVENT';
    case PM_TYPE_UNKNOWN: return 'UNKNOWN';
    default: return '???';
  }
}

/** pmSemStr. */
export function formatSem(sem: number): string {
  switch (sem) {
    case PM_SEM_COUNTER: return 'counter';
    case PM_SEM_INSTANT: return 'instant';
    case PM_SEM_DISCRETE: return 'discrete';
    default: return '???';
  }
}

export function isNumericType(type: number): boolean {
  return type >= PM_TYPE_32 && type <= PM_TYPE_DOUBLE;
}

/**
 * pmUnits, unpacked. Dimensions are signed powers; scales are PM_SPACE_* (powers of 1024),
 * PM_TIME_* (nsec … hour) and PM_COUNT_* (powers of ten). A scale means nothing when its
 * dimension is zero.
 */
export interface Units {
  readonly dimSpace: number;
  readonly dimTime: number;
  readonly dimCount: number;
  readonly scaleSpace: number;
  readonly scaleTime: number;
  readonly scaleCount: number;
}

export const NO_UNITS: Units = Object.freeze({ dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 });

/** Unpacks the on-the-wire pmUnits word (archive-format.md §2.5). */
export function decodeUnits(word: number): Units {
  return {
    dimSpace: (word << 0) >> 28,
    dimTime: (word << 4) >> 28,
    dimCount: (word << 8) >> 28,
    scaleSpace: (word >>> 16) & 0xf,
    scaleTime: (word >>> 12) & 0xf,
    scaleCount: (word << 20) >> 28,
  };
}

/** Packs units into the on-the-wire word; the low 8 bits are zero padding in PCP 6. */
export function encodeUnits(u: Units): number {
  return (
    (((u.dimSpace & 0xf) << 28) |
      ((u.dimTime & 0xf) << 24) |
      ((u.dimCount & 0xf) << 20) |
      ((u.scaleSpace & 0xf) << 16) |
      ((u.scaleTime & 0xf) << 12) |
      ((u.scaleCount & 0xf) << 8)) >>>
    0
  );
}

/** A metric descriptor (pmDesc). */
export interface Desc {
  readonly pmid: PmId;
  readonly type: number;
  readonly indom: InDom;
  readonly sem: number;
  readonly units: Units;
}

/**
 * An exact point in time: whole seconds since the epoch plus nanoseconds (0 ≤ nsec < 1e9).
 * `sec` is a double holding an integer, exact for any date a real archive holds.
 */
export interface Timestamp {
  readonly sec: number;
  readonly nsec: number;
}

/** One instance domain as known at some time: parallel arrays, sorted by instance id. */
export interface InstanceList {
  readonly instances: Int32Array;
  readonly names: readonly string[];
}

/** An event record inside a PM_TYPE_EVENT / PM_TYPE_HIGHRES_EVENT value. */
export interface EventRecord {
  readonly time: Timestamp;
  readonly flags: number;
  /** For a record with PM_EVENT_FLAG_MISSED, the number of events missed; else params.length. */
  readonly nparams: number;
  readonly params: readonly EventParam[];
}
export interface EventParam {
  readonly pmid: PmId;
  readonly type: number;
  readonly value: AtomValue;
}
export const PM_EVENT_FLAG_POINT = 1;
export const PM_EVENT_FLAG_START = 2;
export const PM_EVENT_FLAG_END = 4;
export const PM_EVENT_FLAG_ID = 8;
export const PM_EVENT_FLAG_PARENT = 16;
export const PM_EVENT_FLAG_MISSED = 0x80000000;

export interface EventArray {
  readonly kind: 'events';
  readonly highres: boolean;
  readonly records: readonly EventRecord[];
}

/**
 * A decoded value (pmAtomValue): numbers for 32-bit integers, FLOAT and DOUBLE; bigint for
 * 64-bit integers so they stay exact; string; bytes for aggregates; events.
 */
export type AtomValue = number | bigint | string | Uint8Array | EventArray;

/**
 * The values of one metric in one result (pmValueSet). `numval < 0` is a PCP error code and
 * then there are no values; `inst[i]` pairs with `values[i]`.
 */
export interface ValueSet {
  readonly pmid: PmId;
  readonly numval: number;
  readonly valfmt: number;
  readonly inst: Int32Array;
  readonly values: readonly AtomValue[];
}

/** A fetch result (pmResult / pmHighResResult). `numpmid = 0` in a record is a <mark>. */
export interface Result {
  readonly timestamp: Timestamp;
  readonly sets: readonly ValueSet[];
  /**
   * Live contexts only: which connection to pmcd answered (1 for the first, one more per
   * reconnect). Two results of different epochs must not make a rate or a delta: pmcd and
   * its PMDAs may have restarted in between, and their counters with them
   * (pdu-protocol.md §5.2). Undefined for archives.
   */
  readonly epoch?: number;
}

/** A value set's shape without its values: what every fetch of a FetchRun shares. */
export type ValueSetShape = Omit<ValueSet, 'values'>;

/**
 * Consecutive INTERP fetches of the same metrics whose value sets differ only in their values
 * (Context.fetchRun, a replay between records): the sets' shape once, each fetch's values as
 * numbers (each equal to the AtomValue the fetch would give, a 64-bit one as a safe integer).
 */
export interface FetchRun {
  /** Fetches in the run. */
  count: number;
  /** Per pmid asked for, in order: its value set's shape, the same in every fetch of the run. */
  sets: ValueSetShape[];
  /** Fetch k's timestamp is (sec[k], nsec[k]), for k < count: in columns, no object per
   *  fetch (a long replay made thousands of them, most surviving a young-generation GC). */
  sec: Float64Array;
  nsec: Int32Array;
  /** Fetch k's values at values[k * width + c]; column c runs through the sets' values in order. */
  values: Float64Array;
  /** Values per fetch: the sum of the sets' numval > 0. */
  width: number;
}

/** An empty FetchRun to fill (and refill: its arrays are reused). */
export function newFetchRun(): FetchRun {
  return { count: 0, sets: [], sec: new Float64Array(256), nsec: new Int32Array(256), values: new Float64Array(256), width: 0 };
}

/** Fetch k's timestamp of a FetchRun, as an object. */
export function fetchRunTime(run: FetchRun, k: number): Timestamp {
  return { sec: run.sec[k], nsec: run.nsec[k] };
}

/** Whether `prev` may be the earlier end of a rate or delta ending at `cur` (see Result.epoch). */
export function sameEpoch(prev: Result, cur: Result): boolean {
  return prev.epoch === cur.epoch;
}

/** An empty value set: the metric was fetched but has no values (or has an error code). */
export function emptyValueSet(id: PmId, numval = 0): ValueSet {
  return { pmid: id, numval, valfmt: PM_VAL_INSITU, inst: new Int32Array(0), values: [] };
}

// ----- context vocabulary shared by archive/, replay/, pdu/ and context/ -----

/** pmLookupText / pmLookupInDomText selectors. */
export type TextKind = 'oneline' | 'help';

/** Label hierarchy levels (PM_LABEL_*), with libpcp's codes. */
export const PM_LABEL_CONTEXT = 1;
export const PM_LABEL_DOMAIN = 2;
export const PM_LABEL_INDOM = 4;
export const PM_LABEL_CLUSTER = 8;
export const PM_LABEL_ITEM = 16;
export const PM_LABEL_INSTANCES = 32;
export const PM_LABEL_COMPOUND = 0x40;
export const PM_LABEL_OPTIONAL = 0x80;

export interface Label {
  readonly name: string;
  /** JSON value text: strings keep their quotes. */
  readonly value: string;
  readonly flags: number;
}

/** One pmLabelSet: the JSON object text and its parsed entries. */
export interface LabelSet {
  /** Instance id for PM_LABEL_INSTANCES sets, else PM_IN_NULL. */
  readonly inst: number;
  readonly json: string;
  readonly labels: readonly Label[];
}

/** An instance profile entry: pmAddProfile / pmDelProfile for one indom (or all). */
export type ProfileChange =
  | { readonly op: 'add'; readonly indom: InDom | null; readonly instances?: readonly number[] }
  | { readonly op: 'delete'; readonly indom: InDom | null; readonly instances?: readonly number[] };
