// A context's instance profile: which instances of each instance domain a fetch returns
// (pmAddProfile / pmDelProfile). Semantics of libpcp 6.0.3's profile.c: a global default
// (include or exclude everything), and per-domain entries holding a state plus an exception
// list. A domain first named by pmAddProfile(indom, list) or pmDelProfile(indom, list) starts
// as "exclude all"; an empty list resets the domain to include-all (add) or exclude-all (del).
import { PM_ERR_PROFILESPEC, PmError } from '../errors';
import type { InDom } from '../types';
import { PM_INDOM_NULL } from '../types';

interface DomainProfile {
  include: boolean;
  /** Instances that invert the domain's default. */
  exceptions: number[];
}

export class InstanceProfile {
  private globalInclude = true;
  private readonly domains = new Map<number, DomainProfile>();

  /** __pmInProfile. */
  includes(indom: InDom, inst: number): boolean {
    const p = this.domains.get(indom);
    if (!p) return this.globalInclude;
    return p.exceptions.includes(inst) ? !p.include : p.include;
  }

  /** True when every instance of every domain is included (no filtering needed). */
  get includesAll(): boolean {
    return this.globalInclude && this.domains.size === 0;
  }

  /** pmAddProfile: an empty list (or PM_INDOM_NULL) includes all. */
  add(indom: InDom | null, instances?: readonly number[]): void {
    this.change(true, indom, instances);
  }

  /** pmDelProfile: an empty list (or PM_INDOM_NULL) excludes all. */
  delete(indom: InDom | null, instances?: readonly number[]): void {
    this.change(false, indom, instances);
  }

  private change(add: boolean, indom: InDom | null, instances?: readonly number[]): void {
    const list = instances ?? [];
    const nullIndom = indom === null || indom === PM_INDOM_NULL;
    if (nullIndom && list.length > 0) throw new PmError(PM_ERR_PROFILESPEC);
    if (nullIndom) {
      this.globalInclude = add;
      this.domains.clear();
      return;
    }
    let p = this.domains.get(indom);
    if (!p) {
      // Both calls start a new domain entry in the "exclude all" state (libpcp 6.0.3).
      p = { include: false, exceptions: [] };
      this.domains.set(indom, p);
    }
    if (list.length === 0) {
      p.include = add;
      p.exceptions = [];
      return;
    }
    // Adding to an include-all domain removes exceptions; adding to exclude-all appends them.
    if (add === p.include) {
      p.exceptions = p.exceptions.filter((i) => !list.includes(i));
    } else {
      for (const i of list) if (!p.exceptions.includes(i)) p.exceptions.push(i);
    }
  }
}
