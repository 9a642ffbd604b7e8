// The instance profile of a context (pmAddProfile / pmDelProfile), with libpcp 6.0.3's exact
// semantics: a global include/exclude state plus per-indom entries whose instance list
// inverts that entry's state. A live context sends it to pmcd as a PROFILE PDU
// (pdu-protocol.md §3.10); `includes` answers the same question client-side.
import { EINVAL, PmError, PM_ERR_PROFILESPEC, pmErrStr } from '../errors';
import { PM_INDOM_NULL, type InDom } from '../types';
import type { ProfileChange } from '../types';

export const PM_PROFILE_INCLUDE = 0;
export const PM_PROFILE_EXCLUDE = 1;

interface Entry {
  state: number;
  instances: number[];
}

export class InstanceProfile {
  private state = PM_PROFILE_INCLUDE;
  /** In creation order, as libpcp appends them (the PDU lists them in this order). */
  private readonly entries = new Map<InDom, Entry>();
  /** Bumped on every change, so a sender knows whether its copy is current. */
  version = 0;

  /** Applies pmAddProfile ('add') or pmDelProfile ('delete'). */
  apply(change: ProfileChange): void {
    const indom = change.indom ?? PM_INDOM_NULL;
    const list = change.instances ?? [];
    if (indom === PM_INDOM_NULL && change.instances !== undefined && change.instances.length > 0) {
      throw new PmError(PM_ERR_PROFILESPEC, pmErrStr(PM_ERR_PROFILESPEC), 'changeProfile');
    }
    if (list.some((i) => !Number.isInteger(i))) throw new PmError(EINVAL, 'instance ids must be integers', 'changeProfile');
    this.version++;
    const include = change.op === 'add';
    if (indom === PM_INDOM_NULL) {
      // Everything: reset to one global state and forget every entry.
      this.entries.clear();
      this.state = include ? PM_PROFILE_INCLUDE : PM_PROFILE_EXCLUDE;
      return;
    }
    let entry = this.entries.get(indom);
    if (!entry) {
      // libpcp 6.0.3 starts a new entry as EXCLUDE for both add and delete (profile.c).
      entry = { state: PM_PROFILE_EXCLUDE, instances: [] };
      this.entries.set(indom, entry);
    }
    if (list.length === 0) {
      entry.state = include ? PM_PROFILE_INCLUDE : PM_PROFILE_EXCLUDE;
      entry.instances = [];
      return;
    }
    // The list holds the exceptions to the entry's state: adding to an INCLUDE entry, or
    // deleting from an EXCLUDE entry, removes exceptions; the other two add them.
    const grow = include ? entry.state === PM_PROFILE_EXCLUDE : entry.state === PM_PROFILE_INCLUDE;
    if (grow) {
      for (const i of list) if (!entry.instances.includes(i)) entry.instances.push(i);
    } else {
      entry.instances = entry.instances.filter((i) => !list.includes(i));
    }
  }

  /** __pmInProfile: whether a fetch returns `inst` of `indom`. */
  includes(indom: InDom, inst: number): boolean {
    const entry = this.entries.get(indom);
    if (!entry) return this.state === PM_PROFILE_INCLUDE;
    const listed = entry.instances.includes(inst);
    return entry.state === PM_PROFILE_INCLUDE ? !listed : listed;
  }

  /** The profile as the PROFILE PDU carries it. */
  snapshot(): { state: number; entries: Array<{ indom: InDom; state: number; instances: number[] }> } {
    return {
      state: this.state,
      entries: [...this.entries].map(([indom, e]) => ({ indom, state: e.state, instances: [...e.instances] })),
    };
  }
}
