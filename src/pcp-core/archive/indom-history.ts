// The observations of one instance domain over time (archive-format.md §4.2–4.4): kept in
// time order as libpcp keeps them (addindom in logmeta.c), V3 deltas rebuilt into full sets
// (§4.3), looked up by time (the latest observation at or before T), and summarised as the
// union of every instance ever listed (pmGetInDomArchive) and per-instance lifetimes (the
// calipers of INTERP, §7.4.4). Fed by metadata.ts; read by replay and the CLI.
import type { InstanceList, Timestamp } from '../types';
import { compareTimestamps } from '../time/timestamp';
import { TYPE_INDOM_DELTA, type IndomRecord } from './meta-records';

/** One observation as stored, entries sorted by instance id (libpcp's addinsts). */
interface StoredObservation {
  readonly stamp: Timestamp;
  readonly delta: boolean;
  readonly instances: Int32Array;
  readonly names: ReadonlyArray<string | null>;
}

/** An observation with its full instance set (deltas applied). */
export interface IndomObservation {
  readonly stamp: Timestamp;
  /** True when the record on disk was a V3 delta. */
  readonly delta: boolean;
  /** Entries in the record as stored (a delta's additions and deletions). */
  readonly storedCount: number;
  readonly set: InstanceList;
}

/** When each instance was listed: the INTERP calipers (§7.4.4). */
export interface InstanceLifetime {
  readonly inst: number;
  /** Time of the earliest observation listing the instance. */
  readonly birth: Timestamp;
  /** Time of the observation after the latest one listing it; null while still listed. */
  readonly death: Timestamp | null;
}

/**
 * Sorts `instances` in place by id, stably, as addinsts does (equal ids keep their order);
 * returns the stored position of each sorted entry, or undefined when already in order.
 */
function sortEntries(instances: Int32Array): number[] | undefined {
  const n = instances.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) if ((instances[i]) < (instances[i - 1])) sorted = false;
  if (sorted) return undefined;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => (instances[a]) - (instances[b]) || a - b);
  const ids = Int32Array.from(order, (i) => instances[i]);
  instances.set(ids);
  return order;
}

/**
 * An observation as added: the names follow the ids' order, decoded only when first asked for
 * (meta-records.ts). A class, not an object literal with a getter: an archive holds thousands
 * of these, and a literal with an accessor is built the slow way each time.
 */
class Stored implements StoredObservation {
  readonly stamp: Timestamp;
  readonly delta: boolean;
  private decoded: ReadonlyArray<string | null> | undefined;

  constructor(
    private readonly rec: IndomRecord,
    readonly instances: Int32Array,
    private readonly order: readonly number[] | undefined,
  ) {
    this.stamp = rec.stamp;
    this.delta = rec.type === TYPE_INDOM_DELTA;
  }

  get names(): ReadonlyArray<string | null> {
    const order = this.order;
    const rec = this.rec;
    this.decoded ??= order ? order.map((i) => rec.names[i] ?? null) : rec.names;
    return this.decoded;
  }
}

function sameObservation(a: StoredObservation, b: StoredObservation): boolean {
  if (a.instances.length !== b.instances.length) return false;
  for (let i = 0; i < a.instances.length; i++) {
    if (a.instances[i] !== b.instances[i] || a.names[i] !== b.names[i]) return false;
  }
  return true;
}

/** Applies a delta (§4.3) to the previous full set. */
function applyDelta(prev: InstanceList, delta: StoredObservation): InstanceList {
  const present = new Map<number, string>();
  for (let i = 0; i < prev.instances.length; i++) present.set(prev.instances[i], prev.names[i]);
  for (let j = 0; j < delta.instances.length; j++) {
    const inst = delta.instances[j];
    const name = delta.names[j];
    if (name === null || name === undefined) present.delete(inst);
    else if (!present.has(inst)) present.set(inst, name);
  }
  const ids = Int32Array.from(present.keys()).sort();
  return { instances: ids, names: Array.from(ids, (id) => present.get(id) as string) };
}

const EMPTY: InstanceList = Object.freeze({ instances: new Int32Array(0), names: [] });

export class IndomHistory {
  /** Ascending time; equal times in libpcp's chain order (the last one wins a lookup). */
  private readonly stored: StoredObservation[] = [];
  private rebuilt: IndomObservation[] | null = null;

  /** Adds a record (libpcp drops records with no entries, and exact duplicates at one time). */
  add(rec: IndomRecord): void {
    if (rec.numinst <= 0) return;
    const instances = rec.instances.slice();
    const order = sortEntries(instances);
    const obs = new Stored(rec, instances, order);
    // Insert after every observation at or before this time.
    let at = this.stored.length;
    while (at > 0 && compareTimestamps((this.stored[at - 1]).stamp, obs.stamp) > 0) at--;
    // An identical observation at the same time moves to the head of its time slot.
    for (let i = at - 1; i >= 0 && compareTimestamps((this.stored[i]).stamp, obs.stamp) === 0; i--) {
      if (sameObservation(this.stored[i], obs)) {
        this.stored.splice(at, 0, this.stored[i]);
        this.stored.splice(i, 1);
        this.rebuilt = null;
        return;
      }
    }
    this.stored.splice(at, 0, obs);
    this.rebuilt = null;
  }

  get size(): number {
    return this.stored.length;
  }

  /** Every observation in time order, deltas rebuilt. */
  observations(): readonly IndomObservation[] {
    if (this.rebuilt) return this.rebuilt;
    const out: IndomObservation[] = [];
    let prev: InstanceList = EMPTY;
    for (const s of this.stored) {
      // A delta with no full record before it is rebuilt against an empty set (libpcp
      // reports "no full indom record" and leaves it unusable).
      // A full record's names stay undecoded until asked for: a caller after the times or
      // the instance ids (export, INTERP's calipers) need not decode every name ever logged.
      // (An object literal, its names an own property: a set may be posted to the page.)
      const set: InstanceList = s.delta ? applyDelta(prev, s) : { instances: s.instances, get names() { return s.names as string[]; } };
      out.push({ stamp: s.stamp, delta: s.delta, storedCount: s.instances.length, set });
      prev = set;
    }
    this.rebuilt = out;
    return out;
  }

  /** The instances in force at `t` (latest observation ≤ t), or undefined if none is. */
  at(t: Timestamp): InstanceList | undefined {
    const obs = this.observations();
    let lo = 0;
    let hi = obs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareTimestamps((obs[mid]).stamp, t) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? undefined : (obs[lo - 1]).set;
  }

  /** The latest observation (libpcp's lookup with no time). */
  latest(): InstanceList | undefined {
    const obs = this.observations();
    return obs.length === 0 ? undefined : (obs[obs.length - 1]).set;
  }

  /**
   * pmGetInDomArchive: every instance ever listed, walking observations newest first; each
   * instance appears once, at its first sighting in that walk, with that (newest) name.
   */
  union(): InstanceList {
    const obs = this.observations();
    const seen = new Set<number>();
    const ids: number[] = [];
    const names: string[] = [];
    for (let k = obs.length - 1; k >= 0; k--) {
      const set = (obs[k]).set;
      for (let i = 0; i < set.instances.length; i++) {
        const inst = set.instances[i];
        if (seen.has(inst)) continue;
        seen.add(inst);
        ids.push(inst);
        names.push(set.names[i]);
      }
    }
    return { instances: Int32Array.from(ids), names };
  }

  /** The largest number of instances in any one observation. */
  maxInstances(): number {
    let max = 0;
    for (const o of this.observations()) max = Math.max(max, o.set.instances.length);
    return max;
  }

  /**
   * Per instance: birth (earliest observation listing it) and death (the observation that
   * follows the latest one listing it), computed as libpcp's time_caliper walks the chain
   * newest to oldest, over rebuilt sets.
   */
  lifetimes(): Map<number, InstanceLifetime> {
    const obs = this.observations();
    const out = new Map<number, { inst: number; birth: Timestamp; death: Timestamp | null }>();
    let later: Timestamp | null = null;
    for (let k = obs.length - 1; k >= 0; k--) {
      const o = obs[k];
      for (const inst of o.set.instances) {
        const life = out.get(inst);
        if (life) life.birth = o.stamp;
        else out.set(inst, { inst, birth: o.stamp, death: later });
      }
      later = o.stamp;
    }
    return out;
  }
}
