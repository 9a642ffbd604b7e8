// What `pminfo -f -a ARCHIVE` prints for a metric's values: pminfo fetches each metric alone
// (batch size 1 for archives) after pmSetMode(PM_MODE_FORW) from the archive's start, so the
// values are those of the first record holding the metric (for a derived metric, the first
// holding any operand); a fetch that fails prints "NAME: pmFetch: ERROR" instead of the
// metric. Instances are named by pmGetInDom at that record's time, which pminfo caches for
// the last indom asked (a run of metrics on one indom keeps the first answer); an instance
// not named there prints pmNameInDom's error line and its bare number. Values are
// pmPrintValue's text (pcp-core/print-value.ts).
import type { ArchiveSet } from '../pcp-core/archive/archive-set';
import { PM_MODE_FORW, type Context } from '../pcp-core/context/context';
import { PM_ERR_INST, isPmError, pmErrStr } from '../pcp-core/errors';
import { printValueText } from '../pcp-core/print-value';
import type { Zone } from '../pcp-core/time';
import { localZone } from './values-time';
import { PM_INDOM_NULL, formatInDom, type Desc, type InDom, type InstanceList, type PmId, type Timestamp, type ValueSet } from '../pcp-core/types';

export class PminfoValues {
  private cachedIndom: InDom = PM_INDOM_NULL;
  private cachedList: InstanceList | undefined;
  /** pmLocaltime's zone, for event record times. */
  private zone: Zone | undefined;

  constructor(
    private readonly set: ArchiveSet,
    private readonly ctx: Context,
  ) {}

  /** pmSetMode(FORW, start) then pmFetch of the one metric. */
  async fetch(pmid: PmId): Promise<{ readonly set: ValueSet; readonly timestamp: Timestamp } | { readonly fetchError: number }> {
    this.ctx.setMode(PM_MODE_FORW, this.set.label.start);
    try {
      const r = await this.ctx.fetch([pmid]);
      return { set: r.sets[0], timestamp: r.timestamp };
    } catch (e) {
      if (isPmError(e)) return { fetchError: e.code };
      throw e;
    }
  }

  private instances(indom: InDom, t: Timestamp): InstanceList | undefined {
    if (indom !== this.cachedIndom) {
      this.cachedIndom = indom;
      this.cachedList = this.set.metadata.indomAt(indom, t);
    }
    return this.cachedList;
  }

  /** mydump's lines for the fetched value set. */
  format(desc: Desc, vs: ValueSet, t: Timestamp): string {
    if (vs.numval === 0) return 'No value(s) available!\n';
    if (vs.numval < 0) return `Error: ${pmErrStr(vs.numval)}\n`;
    let out = '';
    for (let j = 0; j < vs.numval; j++) {
      const inst = vs.inst[j];
      if (desc.indom === PM_INDOM_NULL) out += '   ';
      else {
        const list = this.instances(desc.indom, t);
        const k = list ? list.instances.indexOf(inst) : -1;
        if (list && k >= 0) out += `    inst [${inst} or "${list.names[k]}"]`;
        else out += `pmNameIndom: indom=${formatInDom(desc.indom)} inst=${inst}: ${pmErrStr(PM_ERR_INST)}\n    inst [${inst}]`;
      }
      out += ` value ${printValueText(desc.type, vs.values[j], (this.zone ??= localZone()))}\n`;
    }
    return out;
  }
}
