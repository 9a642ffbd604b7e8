// Per-metric, per-instance interpolation state (archive-format.md §7.4.3), kept for every
// metric a context has ever been asked for in INTERP mode, as libpcp keeps its pmidcntl and
// instcntl tables: the bounds found so far (times, kind, and a reference to the value inside
// the record it came from), the "no records before/after" limits learnt by searching, and the
// instance's lifetime from the indom metadata for large domains. Columnar typed arrays, one
// slot per instance, so the scan loops allocate nothing.
import type { Desc, ValueSet } from '../types';
import { PM_IN_NULL, PM_INDOM_NULL } from '../types';
import type { LogRecord } from './log-record';
import { timestampSub } from './log-time';
import type { ReplayMetadata } from './replay-source';
import type { Timestamp } from '../types';

/** Bound kinds (libpcp's S_* flags): exactly one of the first three, plus SCANNED. */
export const S_UNDEFINED = 1;
export const S_MARK = 2;
export const S_VALUE = 4;
export const S_SCANNED = 16;

/** libpcp builds instance lifetimes only for domains that ever held this many instances. */
const CALIPER_THRESHOLD = 16;

export class MetricControl {
  /** libpcp's valfmt for the metric, fixed by the first record with values; -1 before. */
  valfmt = -1;
  /** Instances this fetch will return, or a negative error code. */
  numval = 0;
  /** numval of the previous fetch of this metric, -1 after positioning. */
  lastNumval = -1;
  /** The fetch that last asked for this metric (detects a pmid named twice in one fetch). */
  fetchStamp = 0;
  /** The fetch whose result last got a value set for this metric, and that set. */
  builtStamp = 0;
  builtSet: ValueSet | undefined = undefined;
  /** The instance ids of the last set built: the next set with the same ids shares them
   *  (results are never written to), so a replay does not allocate them per fetch. */
  lastInst: Int32Array = new Int32Array(0);
  /** Instance ids in libpcp's hash-table order (the order values come out in). */
  readonly inst: Int32Array;
  private readonly slotOf: Map<number, number>;
  readonly tPrior: Float64Array;
  readonly tNext: Float64Array;
  readonly tFirst: Float64Array;
  readonly tLast: Float64Array;
  readonly tBirth: Float64Array;
  readonly tDeath: Float64Array;
  readonly sPrior: Uint8Array;
  readonly sNext: Uint8Array;
  readonly search: Uint8Array;
  readonly inResult: Uint8Array;
  /** inResult and numval as the first pass of the last want list set them (the profile's
   *  choice), restored when the next fetch asks for the same. */
  readonly wanted: Uint8Array;
  nWanted = 0;
  /** Where the bound values live: the record and the offset of the value word. */
  readonly recPrior: (LogRecord | null)[];
  readonly recNext: (LogRecord | null)[];
  readonly offPrior: Int32Array;
  readonly offNext: Int32Array;

  constructor(
    readonly pmid: number,
    /** Undefined when the archive set has no descriptor (PM_ERR_PMID_LOG). */
    readonly desc: Desc | undefined,
    instances: Int32Array,
  ) {
    this.inst = hashOrder(instances);
    const n = this.inst.length;
    this.slotOf = new Map();
    for (let i = 0; i < n; i++) this.slotOf.set(this.inst[i], i);
    this.tPrior = new Float64Array(n).fill(-1);
    this.tNext = new Float64Array(n).fill(-1);
    this.tFirst = new Float64Array(n).fill(-1);
    this.tLast = new Float64Array(n).fill(-1);
    this.tBirth = new Float64Array(n).fill(-1);
    this.tDeath = new Float64Array(n).fill(-1);
    this.sPrior = new Uint8Array(n).fill(S_UNDEFINED);
    this.sNext = new Uint8Array(n).fill(S_UNDEFINED);
    this.search = new Uint8Array(n);
    this.inResult = new Uint8Array(n);
    this.wanted = new Uint8Array(n);
    this.recPrior = new Array<LogRecord | null>(n).fill(null);
    this.recNext = new Array<LogRecord | null>(n).fill(null);
    this.offPrior = new Int32Array(n);
    this.offNext = new Int32Array(n);
  }

  get size(): number {
    return this.inst.length;
  }

  /**
   * The slot for a value's instance id, or -1. A singular metric has one slot that takes a
   * value of any instance id, as in libpcp.
   */
  slot(inst: number): number {
    const s = this.slotOf.get(inst);
    if (s !== undefined) return s;
    const any = this.slotOf.get(PM_IN_NULL);
    return any ?? -1;
  }

  /** Forgets both bounds of slot i (after positioning, bounds not bracketing t). */
  resetBounds(i: number): void {
    this.tPrior[i] = -1;
    this.tNext[i] = -1;
    this.sPrior[i] = S_UNDEFINED;
    this.sNext[i] = S_UNDEFINED;
    this.recPrior[i] = null;
    this.recNext[i] = null;
  }
}

/**
 * libpcp iterates a metric's instances through a hash table pre-sized to the instance count:
 * bucket k = (inst as unsigned) mod n for k = 0…n-1, each bucket newest-added first. Values
 * come out of an interpolated fetch in that order.
 */
function hashOrder(union: Int32Array): Int32Array {
  const n = union.length;
  if (n <= 1) return union.slice();
  const buckets: number[][] = Array.from({ length: n }, () => []);
  for (const inst of union) buckets[(inst >>> 0) % n].unshift(inst);
  const out = new Int32Array(n);
  let k = 0;
  for (const b of buckets) for (const inst of b) out[k++] = inst;
  return out;
}

/** Creates the control for a metric, with instance lifetimes for large domains (time_caliper). */
export function newMetricControl(pmid: number, meta: ReplayMetadata, base: Timestamp): MetricControl {
  const desc = meta.desc(pmid as Desc['pmid']);
  if (!desc) return new MetricControl(pmid, undefined, new Int32Array(0));
  if (desc.indom === PM_INDOM_NULL) return new MetricControl(pmid, desc, Int32Array.of(PM_IN_NULL));
  const union = meta.indomUnion(desc.indom) ?? new Int32Array(0);
  const mc = new MetricControl(pmid, desc, union);
  applyCalipers(mc, meta, base);
  return mc;
}

/** t_birth / t_death per instance, from the domain's observations (archive-format.md §7.4.4). */
function applyCalipers(mc: MetricControl, meta: ReplayMetadata, base: Timestamp): void {
  const desc = mc.desc as Desc;
  const observations = meta.indomObservations(desc.indom);
  let maxInst = 0;
  for (const o of observations) {
    if (o.instances.length > maxInst) {
      maxInst = o.instances.length;
      if (maxInst >= CALIPER_THRESHOLD) break;
    }
  }
  if (maxInst < CALIPER_THRESHOLD) return;
  // Walking newest first: an instance's death is the time of the observation after the latest
  // one that lists it; its birth is the earliest observation that lists it.
  const birth = new Map<number, number>();
  const death = new Map<number, number>();
  let newer = -1;
  for (const o of observations) {
    const t = timestampSub(o.time, base);
    for (const inst of o.instances) {
      if (!birth.has(inst)) death.set(inst, newer);
      birth.set(inst, t);
    }
    newer = t;
  }
  for (let i = 0; i < mc.size; i++) {
    const inst = mc.inst[i];
    const b = birth.get(inst);
    if (b === undefined) continue;
    mc.tBirth[i] = b;
    mc.tDeath[i] = death.get(inst) as number;
  }
}
