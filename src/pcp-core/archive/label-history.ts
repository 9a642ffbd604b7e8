// Label sets over time, per (level, identifier) (archive-format.md §4.5), with libpcp 6.0.3's
// bookkeeping (addlabel and check_dup_labels in logmeta.c): records of one key are kept
// newest first, a record joins after those with the same time, and after each archive's
// metadata is loaded, label sets that a newer record repeats from the record just before it
// are dropped from the newer record (and a record left empty is dropped). A lookup at T
// returns the newest record at or before T, so it can hold fewer sets than were written.
import { PM_ID_NULL, type Timestamp } from '../types';
import { PM_LABEL_COMPOUND, PM_LABEL_CONTEXT, PM_LABEL_OPTIONAL } from '../types';
import { compareTimestamps } from '../time/timestamp';
import type { LabelRecord, StoredLabelSet } from './meta-records';

interface Entry {
  readonly stamp: Timestamp;
  sets: StoredLabelSet[];
}

/** The key libpcp files a record under: level without the flag bits; context ident is null. */
function keyOf(type: number, ident: number): string {
  const level = type & ~(PM_LABEL_COMPOUND | PM_LABEL_OPTIONAL);
  return `${level}:${level === PM_LABEL_CONTEXT ? PM_ID_NULL : ident >>> 0}`;
}

function sameSet(a: StoredLabelSet, b: StoredLabelSet): boolean {
  if (a.inst !== b.inst || a.nlabels !== b.nlabels) return false;
  // Every label of a is in b by name, with the same value (samelabelset).
  for (const la of a.labels) {
    const lb = b.labels.find((l) => l.name === la.name);
    if (!lb || lb.value !== la.value) return false;
  }
  return true;
}

export class LabelHistory {
  /** Per key, newest first. */
  private readonly chains = new Map<string, Entry[]>();

  add(rec: LabelRecord): void {
    const key = keyOf(rec.type, rec.ident);
    let chain = this.chains.get(key);
    if (!chain) this.chains.set(key, (chain = []));
    // After every entry at or after this time (newest-first order).
    let at = 0;
    while (at < chain.length && compareTimestamps((chain[at]).stamp, rec.stamp) >= 0) at++;
    chain.splice(at, 0, { stamp: rec.stamp, sets: [...rec.sets] });
  }

  /** check_dup_labels: run after each archive's metadata has been loaded. */
  pruneDuplicates(): void {
    for (const chain of this.chains.values()) {
      for (let i = 0; i + 1 < chain.length; ) {
        const newer = chain[i];
        const older = chain[i + 1];
        newer.sets = newer.sets.filter((s) => !older.sets.some((o) => sameSet(s, o)));
        if (newer.sets.length === 0) chain.splice(i, 1);
        else i++;
      }
    }
  }

  /**
   * The label sets of (level, ident) in force at `t` (newest record ≤ t), or the newest of
   * all when `t` is undefined; [] when there are none.
   */
  at(type: number, ident: number, t?: Timestamp): readonly StoredLabelSet[] {
    const chain = this.chains.get(keyOf(type, ident));
    if (!chain || chain.length === 0) return [];
    if (t === undefined) return (chain[0]).sets;
    for (const e of chain) if (compareTimestamps(e.stamp, t) <= 0) return e.sets;
    return [];
  }

  /** The time of the first record of (level, ident) after `t` (when what `at` answers may
   *  change next), or undefined when none is later. */
  changeAfter(type: number, ident: number, t: Timestamp): Timestamp | undefined {
    const chain = this.chains.get(keyOf(type, ident));
    if (!chain) return undefined;
    // Newest first: the oldest later record is the last one found later than t.
    for (let i = chain.length - 1; i >= 0; i--) if (compareTimestamps(chain[i].stamp, t) > 0) return chain[i].stamp;
    return undefined;
  }

  /** Every (level, ident) with label records, for listings. */
  keys(): Array<{ level: number; ident: number }> {
    return [...this.chains.keys()].map((k) => {
      const [level, ident] = k.split(':').map(Number) as [number, number];
      return { level, ident };
    });
  }
}
