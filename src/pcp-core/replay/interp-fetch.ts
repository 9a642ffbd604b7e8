// pmFetch in PM_MODE_INTERP (archive-format.md §7.4): values at the context's current time t,
// computed from the nearest observations either side of t, then t advances by the delta
// (even when the fetch fails with PM_ERR_EOL). This follows libpcp 6.0.3's __pmLogFetchInterp
// pass by pass, because its results depend on state: bounds carried over between fetches,
// limits learnt by earlier searches, which records a fetch reads (and so which <mark>s it
// crosses), and where the previous fetch left the read position.
import { PM_ERR_EOL, PM_ERR_LOGREC, PM_ERR_PMID_LOG, PM_ERR_TYPE } from '../errors';
import type { AtomValue, PmId, Result, Timestamp, ValueSet } from '../types';
import { PM_ID_NULL, PM_INDOM_NULL, PM_SEM_COUNTER, PM_SEM_DISCRETE, isNumericType } from '../types';
import type { InstanceProfile } from './instance-profile';
import { updateBounds, UPD_MARK_BACK, UPD_MARK_FORW, UPD_MARK_NONE, type BoundsContext, type IgnoreMarks, type ScanState, type WantList } from './interp-bounds';
import type { MetricControl} from './interp-state';
import { newMetricControl, S_MARK, S_SCANNED, S_UNDEFINED } from './interp-state';
import { interpolatedValue } from './interp-value';
import { archiveEndOfCurrent } from './log-end';
import { MODE_BACK, MODE_FORW, type LogCursor } from './log-cursor';
import { PM_VAL_DPTR, PM_VAL_INSITU } from './log-record';
import { setTime } from './log-seek';
import { timestampSub } from './log-time';

const isUndefined = (s: number): boolean => (s & S_UNDEFINED) !== 0;
const isMark = (s: number): boolean => (s & S_MARK) !== 0;
const isScanned = (s: number): boolean => (s & S_SCANNED) !== 0;

export interface InterpOptions {
  /** PCP_COUNTER_WRAP set in the environment. */
  readonly counterWrap: boolean;
  readonly ignoreMarks: IgnoreMarks;
}

/** Outcome of one interpolated fetch: a result, or a negative code; `advanced` tells whether
 *  libpcp moved the origin on (it does not for the corrupt-archive early returns). */
export type InterpOutcome = { readonly result: Result } | { readonly error: number; readonly advanced: boolean };

export class InterpEngine {
  private readonly controls = new Map<number, MetricControl>();
  /** Per-fetch working state, kept to avoid allocating it for every fetch. */
  private fetchStamp = 0;
  private readonly want: WantList = { metric: [], slot: [], n: 0 };
  private readonly scan: ScanState = { done: 0, seenMark: false };
  private readonly bctx: BoundsContext;
  /** buildResult's instance ids before they are copied into the result. */
  private scratch = new Int32Array(16);

  constructor(
    private readonly cursor: LogCursor,
    private readonly options: InterpOptions,
  ) {
    this.bctx = { cursor, controls: this.controls, want: this.want, ignoreMarks: options.ignoreMarks };
  }

  /** __pmLogResetInterp (pmSetMode): forget bounds that no longer bracket the new origin. */
  resetBounds(origin: Timestamp): void {
    const tReq = timestampSub(origin, this.cursor.base);
    for (const mc of this.controls.values()) {
      for (let i = 0; i < mc.size; i++) {
        if ((mc.tPrior[i]) > tReq || (mc.tNext[i]) < tReq) mc.resetBounds(i);
      }
    }
  }

  private control(pmid: number): MetricControl {
    let mc = this.controls.get(pmid);
    if (!mc) {
      mc = newMetricControl(pmid, this.cursor.set.meta, this.cursor.base);
      this.controls.set(pmid, mc);
    }
    return mc;
  }

  /**
   * One interpolated fetch at `origin`, reading in `direction` (the sign of the delta: 1, -1,
   * or 0 for a zero delta, which libpcp treats as "not forwards" in some tests and "not
   * backwards" in others).
   */
  async fetch(pmids: readonly PmId[], origin: Timestamp, direction: number, profile: InstanceProfile): Promise<InterpOutcome> {
    const cursor = this.cursor;
    const tReq = timestampSub(origin, cursor.base);
    if (tReq < -0.001) return { error: PM_ERR_EOL, advanced: true };
    if (tReq > cursor.interpEnd + 0.001) {
      const end = await archiveEndOfCurrent(cursor);
      if (typeof end !== 'number') cursor.interpEnd = timestampSub(end, cursor.base);
      if (tReq > cursor.interpEnd && cursor.cur >= cursor.archiveCount - 1) return { error: PM_ERR_EOL, advanced: true };
    }

    // First pass: the metrics and the instances this fetch wants, in libpcp's want order
    // (built by prepending, so reversed). The lists are reused from fetch to fetch.
    const stamp = ++this.fetchStamp;
    const requested: MetricControl[] = [];
    const want = this.want;
    want.n = 0;
    for (const pmid of pmids) {
      if (pmid === PM_ID_NULL) continue;
      const mc = this.control(pmid);
      if (mc.fetchStamp === stamp) continue; // libpcp would corrupt its want list here
      mc.fetchStamp = stamp;
      requested.push(mc);
      mc.numval = 0;
      if (!mc.desc) {
        mc.numval = PM_ERR_PMID_LOG;
        continue;
      }
      const indom = mc.desc.indom;
      for (let i = 0; i < mc.size; i++) {
        mc.search[i] = 0;
        if (indom === PM_INDOM_NULL || profile.includes(indom, mc.inst[i])) {
          mc.inResult[i] = 1;
          want.metric[want.n] = mc;
          want.slot[want.n++] = i;
          mc.numval++;
        } else {
          mc.inResult[i] = 0;
        }
      }
    }
    for (let a = 0, b = want.n - 1; a < b; a++, b--) {
      const m = want.metric[a];
      want.metric[a] = want.metric[b];
      want.metric[b] = m;
      const x = want.slot[a];
      want.slot[a] = want.slot[b];
      want.slot[b] = x;
    }
    const bctx = this.bctx;

    if (!cursor.serial) {
      // Gross positioning from the index, then fine tuning back (or forward) to t.
      await setTime(cursor, origin, direction > 0 ? MODE_FORW : MODE_BACK);
      cursor.rememberPosition();
      for (;;) {
        const fineDir = direction > 0 ? MODE_BACK : MODE_FORW;
        const rec = cursor.tryCachedRead(fineDir) ?? (await cursor.cachedRead(fineDir));
        if (typeof rec === 'number') break;
        if (direction > 0 ? rec.t <= tReq : rec.t > tReq) break;
        cursor.rememberPosition();
        let sts = updateBounds(bctx, tReq, rec, UPD_MARK_NONE, null, null);
        if (typeof sts !== 'number') sts = await sts;
        if (sts < 0) return { error: sts, advanced: false };
      }
      cursor.serial = true;
      for (const mc of requested) mc.lastNumval = -1;
    }

    const sts = cursor.restorePosition();
    if (sts < 0) return { error: sts, advanced: true };
    const scan = this.scan;
    scan.done = 0;
    scan.seenMark = false;
    let doneRoll = false;

    // Second pass: which instances still need a lower bound.
    const unboundBack: number[] = [];
    let back = 0;
    for (let w = 0; w < want.n; w++) {
      const mc = want.metric[w];
      const i = want.slot[w];
      const tFirst = mc.tFirst[i];
      if (tFirst >= 0 && tReq < tFirst) continue;
      if ((mc.tBirth[i]) >= 0 && tReq < (mc.tBirth[i])) continue;
      if ((mc.tDeath[i]) >= 0 && tReq > (mc.tDeath[i])) continue;
      const tPrior = mc.tPrior[i];
      if ((tPrior < 0 || tPrior > tReq) && back === 0 && !doneRoll) {
        doneRoll = true;
        if (direction > 0) {
          const r = await this.roll(bctx, tReq, direction, scan);
          if (r < 0) return { error: r, advanced: false };
        }
      }
      const sPrior = mc.sPrior[i];
      if (
        (isUndefined(sPrior) && !isScanned(sPrior)) ||
        ((mc.tPrior[i]) > tReq && (direction < 0 || !isScanned(sPrior))) ||
        (isMark(mc.sNext[i]) && (mc.tPrior[i]) === tReq)
      ) {
        back++;
        mc.search[i] = 1;
        // Descending t_first: before the first entry whose t_first is not greater.
        let at = 0;
        while (at < unboundBack.length && !(tFirst >= (want.metric[unboundBack[at]]).tFirst[want.slot[unboundBack[at]]])) at++;
        unboundBack.splice(at, 0, w);
      }
    }

    if (back > 0) {
      const s = cursor.restorePosition();
      if (s < 0) return { error: s, advanced: true };
      scan.done = 0;
      while (scan.done < back) {
        const rec = cursor.tryCachedRead(MODE_BACK) ?? (await cursor.cachedRead(MODE_BACK));
        if (typeof rec === 'number') {
          if (rec === PM_ERR_LOGREC) return { error: rec, advanced: false };
          break; // start of the archive set
        }
        if (direction < 0 && rec.t >= tReq) cursor.rememberPosition();
        let u = updateBounds(bctx, tReq, rec, UPD_MARK_BACK, scan, scan);
        if (typeof u !== 'number') u = await u;
        if (u < 0) return { error: u, advanced: false };
        // Instances known to have nothing before t_first can stop searching once we pass it.
        for (let k = 0; k < unboundBack.length; ) {
          const w = unboundBack[k];
          const mc = want.metric[w];
          const i = want.slot[w];
          if ((mc.tFirst[i]) < rec.t) break;
          if (mc.search[i]) {
            mc.search[i] = 0;
            mc.sPrior[i] = (mc.sPrior[i]) | S_SCANNED;
            scan.done++;
            unboundBack.splice(k, 1);
          } else {
            k++;
          }
        }
      }
      for (const w of unboundBack) {
        const mc = want.metric[w];
        const i = want.slot[w];
        if ((isUndefined(mc.sPrior[i]) || (mc.tPrior[i]) > tReq) && (mc.tFirst[i]) < tReq) {
          mc.tFirst[i] = tReq;
          mc.sPrior[i] = (mc.sPrior[i]) | S_SCANNED;
        }
        mc.search[i] = 0;
      }
    }

    // Third pass: which instances still need an upper bound.
    const unboundForw: number[] = [];
    let forw = 0;
    for (let w = 0; w < want.n; w++) {
      const mc = want.metric[w];
      const i = want.slot[w];
      const tLast = mc.tLast[i];
      if (tLast >= 0 && tReq > tLast) continue;
      if ((mc.tBirth[i]) >= 0 && tReq < (mc.tBirth[i])) continue;
      if ((mc.tDeath[i]) >= 0 && tReq > (mc.tDeath[i])) continue;
      const tNext = mc.tNext[i];
      if ((tNext < 0 || tNext < tReq) && forw === 0 && !doneRoll) {
        doneRoll = true;
        if (direction < 0) {
          const r = await this.roll(bctx, tReq, direction, scan);
          if (r < 0) return { error: r, advanced: false };
        }
      }
      const sNext = mc.sNext[i];
      if (
        (isUndefined(sNext) && !isScanned(sNext)) ||
        ((mc.tNext[i]) < tReq && (direction > 0 || !isScanned(sNext))) ||
        (isMark(mc.sPrior[i]) && (mc.tNext[i]) === tReq)
      ) {
        forw++;
        mc.search[i] = 1;
        // Ascending t_last: before the first entry whose t_last is not smaller.
        let at = 0;
        while (at < unboundForw.length && !(tLast <= (want.metric[unboundForw[at]]).tLast[want.slot[unboundForw[at]]])) at++;
        unboundForw.splice(at, 0, w);
      }
    }

    if (forw > 0) {
      const s = cursor.restorePosition();
      if (s < 0) return { error: s, advanced: true };
      scan.done = 0;
      while (scan.done < forw) {
        const rec = cursor.tryCachedRead(MODE_FORW) ?? (await cursor.cachedRead(MODE_FORW));
        if (typeof rec === 'number') {
          if (rec === PM_ERR_LOGREC) return { error: rec, advanced: false };
          break; // end of the archive set
        }
        if (direction > 0 && rec.t <= tReq) cursor.rememberPosition();
        let u = updateBounds(bctx, tReq, rec, UPD_MARK_FORW, scan, scan);
        if (typeof u !== 'number') u = await u;
        if (u < 0) return { error: u, advanced: false };
        for (let k = 0; k < unboundForw.length; ) {
          const w = unboundForw[k];
          const mc = want.metric[w];
          const i = want.slot[w];
          const tLast = mc.tLast[i];
          if (tLast > rec.t) break;
          if (mc.search[i] && tLast >= 0) {
            mc.search[i] = 0;
            mc.sNext[i] = (mc.sNext[i]) | S_SCANNED;
            scan.done++;
            unboundForw.splice(k, 1);
          } else {
            k++;
          }
        }
      }
      for (const w of unboundForw) {
        const mc = want.metric[w];
        const i = want.slot[w];
        const tLast = mc.tLast[i];
        if ((mc.tNext[i]) < tReq && (tLast < 0 || tReq < tLast)) {
          mc.tLast[i] = tReq;
          mc.sNext[i] = (mc.sNext[i]) | S_SCANNED;
        }
        mc.search[i] = 0;
      }
    }

    this.qualify(want, tReq, scan.seenMark);
    return { result: this.buildResult(pmids, origin, tReq) };
  }

  /** do_roll: read on in the direction of replay up to t, updating bounds as we go. */
  private async roll(bctx: BoundsContext, tReq: number, direction: number, scan: ScanState): Promise<number> {
    const cursor = this.cursor;
    let last: number;
    if (direction > 0) {
      for (;;) {
        const rec = cursor.tryCachedRead(MODE_FORW) ?? (await cursor.cachedRead(MODE_FORW));
        if (typeof rec === 'number') {
          last = rec;
          break;
        }
        if (rec.t > tReq) return 0;
        cursor.rememberPosition();
        let u = updateBounds(bctx, tReq, rec, UPD_MARK_FORW, null, scan);
        if (typeof u !== 'number') u = await u;
        if (u < 0) return u;
      }
    } else {
      for (;;) {
        const rec = cursor.tryCachedRead(MODE_BACK) ?? (await cursor.cachedRead(MODE_BACK));
        if (typeof rec === 'number') {
          last = rec;
          break;
        }
        if (rec.t < tReq) return 0;
        cursor.rememberPosition();
        let u = updateBounds(bctx, tReq, rec, UPD_MARK_BACK, null, scan);
        if (typeof u !== 'number') u = await u;
        if (u < 0) return u;
      }
    }
    return last === PM_ERR_LOGREC ? last : 0;
  }

  /** Decides which wanted instances get a value (archive-format.md §7.4.4). */
  private qualify(want: WantList, tReq: number, seenMark: boolean): void {
    for (let w = 0; w < want.n; w++) {
      const mc = want.metric[w];
      const i = want.slot[w];
      const desc = mc.desc;
      if (!desc) continue;
      const sPrior = mc.sPrior[i];
      const tPrior = mc.tPrior[i];
      if (desc.sem === PM_SEM_DISCRETE) {
        const tBirth = mc.tBirth[i];
        const tDeath = mc.tDeath[i];
        if (isMark(sPrior) || isUndefined(sPrior) || tPrior > tReq || (tBirth !== -1 && tBirth > tReq) || (tDeath !== -1 && tReq > tDeath)) {
          mc.numval--;
          mc.inResult[i] = 0;
        }
        continue;
      }
      const sNext = mc.sNext[i];
      if (isMark(sPrior) || isUndefined(sPrior) || tPrior > tReq || isMark(sNext) || isUndefined(sNext) || (mc.tNext[i]) < tReq) {
        mc.numval--;
        mc.inResult[i] = 0;
      } else if (desc.sem === PM_SEM_COUNTER) {
        if (!isNumericType(desc.type)) {
          mc.numval = PM_ERR_TYPE;
        } else if (seenMark && mc.lastNumval > 0) {
          // A <mark> was crossed since the last fetch that returned values: no values now,
          // so clients do not compute a rate across the gap.
          mc.numval--;
          mc.inResult[i] = 0;
        }
      }
    }
  }

  private buildResult(pmids: readonly PmId[], origin: Timestamp, tReq: number): Result {
    const sets: ValueSet[] = [];
    const built = pmids.length > 1 ? new Map<number, ValueSet>() : undefined;
    for (const pmid of pmids) {
      if (pmid === PM_ID_NULL) {
        sets.push({ pmid, numval: 0, valfmt: 0, inst: new Int32Array(0), values: [] });
        continue;
      }
      const again = built?.get(pmid);
      if (again) {
        sets.push(again);
        continue;
      }
      const mc = this.controls.get(pmid) as MetricControl;
      // Instance ids gather in a reused scratch array and are copied out once, exactly sized
      // (Int32Array.from over a number[] went through the iterator protocol every fetch).
      if (this.scratch.length < mc.size) this.scratch = new Int32Array(mc.size);
      const scratch = this.scratch;
      const values: AtomValue[] = [];
      if (mc.numval > 0) {
        for (let i = 0; i < mc.size; i++) {
          if (!mc.inResult[i]) continue;
          const v = interpolatedValue(mc, i, tReq, this.options.counterWrap);
          if (v === undefined) continue;
          scratch[values.length] = mc.inst[i];
          values.push(v);
        }
      }
      // libpcp reports numval as counted, even if a value was then left out (only possible
      // with records stamped before the archive start); we report what is there.
      const numval = mc.numval > 0 ? values.length : mc.numval;
      // Values built from blocks come back as PM_VAL_DPTR; insitu ones keep the archive's.
      const valfmt = values.length > 0 && mc.valfmt !== PM_VAL_INSITU ? PM_VAL_DPTR : Math.max(mc.valfmt, PM_VAL_INSITU);
      const set: ValueSet = { pmid, numval, valfmt, inst: scratch.slice(0, values.length), values };
      built?.set(pmid, set);
      sets.push(set);
      mc.lastNumval = mc.numval;
    }
    return { timestamp: origin, sets };
  }
}
