// pmFetch in PM_MODE_INTERP (archive-format.md §7.4): values at the context's current time t,
// computed from the nearest observations either side of t, then t advances by the delta
// (even when the fetch fails with PM_ERR_EOL). This follows libpcp 6.0.3's __pmLogFetchInterp
// pass by pass, because its results depend on state: bounds carried over between fetches,
// limits learnt by earlier searches, which records a fetch reads (and so which <mark>s it
// crosses), and where the previous fetch left the read position.
//
// Hot path (a replay runs this once per sample): a fetch is a generator that yields only
// where bytes must be waited for, so a fetch whose records are decoded or resident (nearly
// every one) runs to its end synchronously, without a promise. The generator only reads;
// the passes over the wanted instances are small methods on lists kept from fetch to fetch,
// so V8 compiles each quickly and a rare path (a <mark>, the archive end) recompiles little.
import { PM_ERR_EOL, PM_ERR_LOGREC, PM_ERR_PMID_LOG, PM_ERR_TYPE } from '../errors';
import type { AtomValue, FetchRun, PmId, Result, Timestamp, ValueSet, ValueSetShape } from '../types';
import { PM_ID_NULL, PM_INDOM_NULL, PM_SEM_COUNTER, PM_SEM_DISCRETE, isNumericType } from '../types';
import type { InstanceProfile } from './instance-profile';
import { controlsKey, updateBounds, UPD_MARK_BACK, UPD_MARK_FORW, UPD_MARK_NONE, type BoundsContext, type IgnoreMarks, type ScanState, type WantList } from './interp-bounds';
import type { MetricControl } from './interp-state';
import { newMetricControl, S_MARK, S_SCANNED, S_UNDEFINED } from './interp-state';
import { interpolatedNumber, interpolatedValue } from './interp-value';
import { archiveEndOfCurrent } from './log-end';
import { MODE_BACK, MODE_FORW, type LogCursor, type ReadOutcome } from './log-cursor';
import { PM_VAL_DPTR, PM_VAL_INSITU } from './log-record';
import { setTime } from './log-seek';
import { advanceTimestamp, secondsBetween, timestampSub } from './log-time';

export interface InterpOptions {
  /** PCP_COUNTER_WRAP set in the environment. */
  readonly counterWrap: boolean;
  readonly ignoreMarks: IgnoreMarks;
}

/** A failed interpolated fetch: a negative code; `advanced` tells whether libpcp moved the
 *  origin on (it does not for the corrupt-archive early returns). */
export interface InterpFailure {
  readonly error: number;
  readonly advanced: boolean;
}

/** Outcome of one interpolated fetch: the result, or why there is none. */
export type InterpOutcome = Result | InterpFailure;

export function isInterpFailure(out: InterpOutcome): out is InterpFailure {
  return 'error' in out;
}

/** What a fetch waits for when bytes are not at hand (a read, a seek, the archive end). */
type Wait = Promise<unknown>;
type FetchSteps = Generator<Wait, InterpOutcome, unknown>;

const EOL_ADVANCED: InterpFailure = { error: PM_ERR_EOL, advanced: true };

function failure(error: number, advanced: boolean): InterpFailure {
  return { error, advanced };
}

/** Runs the rest of a fetch that had to wait: each awaited value is handed back to it. */
async function finish(steps: FetchSteps, first: Wait): Promise<InterpOutcome> {
  let wait = first;
  for (;;) {
    const r = steps.next(await wait);
    if (r.done) return r.value;
    wait = r.value;
  }
}

/** No roll is needed before the rest of a pass (selectBack / selectForw). */
const NO_ROLL = -1;

/**
 * Want-list indices of the instances still searching for a bound, in the order libpcp keeps
 * them (t_first descending for the backward search, t_last ascending for the forward one).
 */
class Unbound {
  list = new Int32Array(16);
  n = 0;

  reset(capacity: number): void {
    if (this.list.length < capacity) this.list = new Int32Array(capacity);
    this.n = 0;
  }

  insert(at: number, w: number): void {
    this.list.copyWithin(at + 1, at, this.n);
    this.list[at] = w;
    this.n++;
  }

  remove(at: number): void {
    this.list.copyWithin(at, at + 1, this.n);
    this.n--;
  }
}

export class InterpEngine {
  private readonly controls = new Map<number, MetricControl>();
  /** Per-fetch working state, kept to avoid allocating it for every fetch. */
  private fetchStamp = 0;
  private readonly want: WantList = { metric: [], slot: [], n: 0 };
  private readonly scan: ScanState = { done: 0, seenMark: false };
  private readonly bctx: BoundsContext;
  /** buildResult's instance ids before they are copied into the result. */
  private scratch = new Int32Array(16);
  /** The metrics of the current fetch: the first nRequested entries. */
  private readonly requested: MetricControl[] = [];
  private nRequested = 0;
  /** The last run's value set shapes: the next run gives the same arrays when nothing in them
   *  changed (most runs of a replay), not new ones. Never changed once made. */
  private lastShape: ValueSetShape[] | undefined = undefined;
  /** The pmids and profile version the want list was built for (a replay asks the same
   *  every fetch, and then only the per-instance flags are reset). */
  private readonly wantPmids: number[] = [];
  private wantProfile = -1;
  private readonly unboundBack = new Unbound();
  private readonly unboundForw = new Unbound();
  /** Instances searching backwards / forwards in this fetch, and whether it rolled yet. */
  private back = 0;
  private forw = 0;
  private doneRoll = false;
  /** The t of the last fetch when it was answered at hand, and its direction; −1 once
   *  anything else happened since (a fetch that read, a new mode, a grown archive): a run
   *  (fetchRun) goes on only from such a fetch. */
  private atHandT = -1;
  private atHandDirection = 0;

  constructor(
    private readonly cursor: LogCursor,
    private readonly options: InterpOptions,
  ) {
    this.bctx = { cursor, controls: this.controls, controlsKey: controlsKey(), trackedPmids: new Uint32Array(0), want: this.want, ignoreMarks: options.ignoreMarks };
  }

  /** __pmLogResetInterp (pmSetMode): forget bounds that no longer bracket the new origin. */
  resetBounds(origin: Timestamp): void {
    this.atHandT = -1;
    const tReq = timestampSub(origin, this.cursor.base);
    for (const mc of this.controls.values()) {
      for (let i = 0; i < mc.size; i++) {
        if (mc.tPrior[i] > tReq || mc.tNext[i] < tReq) mc.resetBounds(i);
      }
    }
  }

  /**
   * A followed archive grew (ReplaySession.grown): what was learned at the old end is
   * forgotten: "nothing after t" (t_last, giveUpForw), records now lying past it, and the
   * bounds found there (a <mark> at an end that has moved, the last record of an archive
   * whose later writes arrived after a new one joined).
   */
  forgetEnd(): void {
    this.atHandT = -1;
    for (const mc of this.controls.values()) {
      mc.tLast.fill(-1);
      for (let i = 0; i < mc.size; i++) mc.resetBounds(i);
    }
  }

  private control(pmid: number): MetricControl {
    let mc = this.controls.get(pmid);
    if (!mc) {
      mc = newMetricControl(pmid, this.cursor.set.meta, this.cursor.base);
      this.controls.set(pmid, mc);
      this.bctx.controlsKey = controlsKey();
      this.bctx.trackedPmids = Uint32Array.from(this.controls.keys());
    }
    return mc;
  }

  /**
   * One interpolated fetch at `origin`, reading in `direction` (the sign of the delta: 1, -1,
   * or 0 for a zero delta, which libpcp treats as "not forwards" in some tests and "not
   * backwards" in others). Synchronous unless it has to wait for bytes; then a promise.
   */
  fetch(pmids: readonly PmId[], origin: Timestamp, direction: number, profile: InstanceProfile): InterpOutcome | Promise<InterpOutcome> {
    const atHand = this.fetchAtHand(pmids, origin, direction, profile);
    if (atHand !== undefined) return atHand;
    const steps = this.steps(pmids, origin, direction, profile);
    const first = steps.next();
    return first.done ? first.value : finish(steps, first.value);
  }

  /**
   * The fetch when it reads no record — most fetches of a replay, whose bounds still bracket
   * t — as `steps` does it then, without a generator (a generator made and run per sample
   * costs a replay more than the passes themselves). Undefined when the fetch has to read
   * (positioning, the archive end, a roll or a search): then `steps` does the whole fetch,
   * and what was done here it does again (the want list, the position, the passes' flags).
   */
  private fetchAtHand(pmids: readonly PmId[], origin: Timestamp, direction: number, profile: InstanceProfile): InterpOutcome | undefined {
    const cursor = this.cursor;
    this.atHandT = -1;
    if (!cursor.serial) return undefined;
    const tReq = timestampSub(origin, cursor.base);
    if (tReq < -0.001 || tReq > cursor.interpEnd + 0.001) return undefined;
    const stamp = ++this.fetchStamp;
    this.wantList(pmids, profile, stamp);
    if (cursor.restorePosition() < 0) return undefined;
    this.beginBack();
    if (this.selectBack(0, tReq, direction) !== NO_ROLL || this.back > 0) return undefined;
    this.beginForw();
    if (this.selectForw(0, tReq, direction) !== NO_ROLL || this.forw > 0) return undefined;
    this.qualify(tReq, this.scan.seenMark);
    const result = this.buildResult(pmids, origin, tReq, stamp);
    this.atHandT = tReq;
    this.atHandDirection = direction;
    return result;
  }

  /**
   * Up to `max` fetches at `first`, first + delta, ... right after a fetch answered at hand
   * (fetchAtHand), each exactly that fetch made again at its time, for as long as only the
   * interpolated values can change: every time the passes compare t with (an instance's
   * bounds, t_first, t_last, birth and death, the archive end) lies before the last fetch's
   * t or after the run's. Within that span each pass answers as it did (no roll, no search,
   * the same instances qualify) and the value sets keep their shape. Stops early at a value
   * that is no safe number (interpolatedNumber). Fills `run`; returns its count (0: none,
   * the caller fetches one by one).
   */
  fetchRun(pmids: readonly PmId[], first: Timestamp, deltaSec: number, deltaNsec: number, direction: number, profile: InstanceProfile, max: number, run: FetchRun): number {
    run.count = 0;
    const t0 = this.atHandT;
    const cursor = this.cursor;
    if (t0 < 0 || direction <= 0 || direction !== this.atHandDirection || max <= 0 || !cursor.serial) return 0;
    if (!this.sameRequest(pmids, profile.version)) return 0;
    const until = this.runHorizon(t0);
    if (!(until > t0)) return 0;
    const sets = this.runShape(pmids);
    if (!sets) return 0;
    run.sets = sets;
    let width = 0;
    for (let p = 0; p < sets.length; p++) if (sets[p].numval > 0) width += sets[p].numval;
    run.width = width;
    const wrap = this.options.counterWrap;
    const requested = this.requested;
    // One origin stepped in place through the run: no object per fetch.
    const origin = { sec: first.sec, nsec: first.nsec };
    const base = cursor.base;
    let k = 0;
    samples: for (; k < max; k++) {
      const t = secondsBetween(origin.sec, origin.nsec, base.sec, base.nsec);
      if (!(t > t0 && t < until)) break;
      const row = k * width;
      if (row + width > run.values.length) {
        const grown = new Float64Array(Math.max(2 * run.values.length, row + width));
        grown.set(run.values);
        run.values = grown;
      }
      if (k >= run.sec.length) {
        const sGrown = new Float64Array(2 * run.sec.length);
        sGrown.set(run.sec);
        run.sec = sGrown;
        const nGrown = new Int32Array(2 * run.nsec.length);
        nGrown.set(run.nsec);
        run.nsec = nGrown;
      }
      const values = run.values;
      let c = row;
      for (let m = 0; m < this.nRequested; m++) {
        const mc = requested[m];
        if (mc.numval <= 0) continue;
        for (let i = 0; i < mc.size; i++) {
          if (!mc.inResult[i]) continue;
          const v = interpolatedNumber(mc, i, t, wrap);
          if (v === undefined) break samples;
          values[c++] = v;
        }
      }
      run.sec[k] = origin.sec;
      run.nsec[k] = origin.nsec;
      advanceTimestamp(origin, deltaSec, deltaNsec);
    }
    run.count = k;
    if (k > 0) {
      this.fetchStamp += k;
      this.atHandT = secondsBetween(run.sec[k - 1], run.nsec[k - 1], base.sec, base.nsec);
    }
    return k;
  }

  /**
   * The end (exclusive) of the span after t0 in which the passes of an at-hand fetch answer as
   * they did at t0: the earliest time they compare t with that is not before t0 (t0 itself
   * when one equals it).
   */
  private runHorizon(t0: number): number {
    let until = this.cursor.interpEnd + 0.001;
    const want = this.want;
    for (let w = 0; w < want.n; w++) {
      const mc = want.metric[w];
      const i = want.slot[w];
      until = earliestFrom(t0, until, mc.tPrior[i]);
      until = earliestFrom(t0, until, mc.tNext[i]);
      until = earliestFrom(t0, until, mc.tFirst[i]);
      until = earliestFrom(t0, until, mc.tLast[i]);
      until = earliestFrom(t0, until, mc.tBirth[i]);
      until = earliestFrom(t0, until, mc.tDeath[i]);
    }
    return until;
  }

  /**
   * The value sets' shape in a run: each requested metric named once and numeric (or without
   * a descriptor), its qualifying instances in slot order as buildResult lists them. Undefined
   * when the run cannot hold these metrics.
   */
  private runShape(pmids: readonly PmId[]): ValueSetShape[] | undefined {
    if (this.nRequested !== pmids.length) return undefined; // PM_ID_NULL or a pmid named twice
    const last = this.lastShape;
    let same = last !== undefined && last.length === this.nRequested;
    for (let m = 0; m < this.nRequested; m++) {
      const mc = this.requested[m];
      if (mc.desc && !isNumericType(mc.desc.type)) return undefined;
      if (same && last) same = shapeHolds(last[m], mc);
    }
    if (same && last) return last;
    const sets: ValueSetShape[] = [];
    for (let m = 0; m < this.nRequested; m++) {
      const mc = this.requested[m];
      let n = 0;
      if (mc.numval > 0) for (let i = 0; i < mc.size; i++) if (mc.inResult[i]) n++;
      const inst = new Int32Array(n);
      if (n > 0) for (let i = 0, q = 0; i < mc.size; i++) if (mc.inResult[i]) inst[q++] = mc.inst[i];
      sets.push({ pmid: mc.pmid as PmId, numval: mc.numval > 0 ? n : mc.numval, valfmt: resultValfmt(mc, n), inst });
    }
    this.lastShape = sets;
    return sets;
  }

  /** Before the second pass: no search done, no <mark> seen, no roll, no instance unbound. */
  private beginBack(): void {
    const scan = this.scan;
    scan.done = 0;
    scan.seenMark = false;
    this.doneRoll = false;
    this.back = 0;
    this.unboundBack.reset(this.want.n);
  }

  /** Before the third pass: no instance unbound above t. */
  private beginForw(): void {
    this.forw = 0;
    this.unboundForw.reset(this.want.n);
  }

  /** The fetch's reading; it yields what it must wait for and is handed back the awaited value. */
  private *steps(pmids: readonly PmId[], origin: Timestamp, direction: number, profile: InstanceProfile): FetchSteps {
    const cursor = this.cursor;
    const tReq = timestampSub(origin, cursor.base);
    if (tReq < -0.001) return EOL_ADVANCED;
    if (tReq > cursor.interpEnd + 0.001) {
      const end = (yield archiveEndOfCurrent(cursor)) as Awaited<ReturnType<typeof archiveEndOfCurrent>>;
      if (typeof end !== 'number') cursor.interpEnd = timestampSub(end, cursor.base);
      if (tReq > cursor.interpEnd && cursor.cur >= cursor.archiveCount - 1) return EOL_ADVANCED;
    }

    const stamp = ++this.fetchStamp;
    this.wantList(pmids, profile, stamp);
    const bctx = this.bctx;

    if (!cursor.serial) {
      // Gross positioning from the index, then fine tuning back (or forward) to t.
      yield setTime(cursor, origin, direction > 0 ? MODE_FORW : MODE_BACK);
      cursor.rememberPosition();
      const fineDir = direction > 0 ? MODE_BACK : MODE_FORW;
      for (;;) {
        const rec = cursor.tryCachedRead(fineDir) ?? ((yield cursor.cachedRead(fineDir)) as ReadOutcome);
        if (typeof rec === 'number') break;
        if (direction > 0 ? rec.t <= tReq : rec.t > tReq) break;
        cursor.rememberPosition();
        const u = updateBounds(bctx, tReq, rec, UPD_MARK_NONE, null, null);
        const sts = typeof u === 'number' ? u : ((yield u) as number);
        if (sts < 0) return failure(sts, false);
      }
      cursor.serial = true;
      for (let m = 0; m < this.nRequested; m++) this.requested[m].lastNumval = -1;
    }

    const sts = cursor.restorePosition();
    if (sts < 0) return failure(sts, true);
    const scan = this.scan;

    // Second pass: which instances still need a lower bound (rolling forwards first when
    // replaying forwards and some lower bound is missing or past t).
    this.beginBack();
    for (let w = this.selectBack(0, tReq, direction); w !== NO_ROLL; w = this.selectBack(w, tReq, direction)) {
      const r = yield* this.roll(tReq, direction);
      if (r < 0) return failure(r, false);
    }
    if (this.back > 0) {
      const s = cursor.restorePosition();
      if (s < 0) return failure(s, true);
      scan.done = 0;
      while (scan.done < this.back) {
        const rec = cursor.tryCachedRead(MODE_BACK) ?? ((yield cursor.cachedRead(MODE_BACK)) as ReadOutcome);
        if (typeof rec === 'number') {
          if (rec === PM_ERR_LOGREC) return failure(rec, false);
          break; // start of the archive set
        }
        if (direction < 0 && rec.t >= tReq) cursor.rememberPosition();
        const b = updateBounds(bctx, tReq, rec, UPD_MARK_BACK, scan, scan);
        const u = typeof b === 'number' ? b : ((yield b) as number);
        if (u < 0) return failure(u, false);
        this.retireBack(rec.t);
      }
      this.giveUpBack(tReq);
    }

    // Third pass: which instances still need an upper bound (rolling backwards first when
    // replaying backwards).
    this.beginForw();
    for (let w = this.selectForw(0, tReq, direction); w !== NO_ROLL; w = this.selectForw(w, tReq, direction)) {
      const r = yield* this.roll(tReq, direction);
      if (r < 0) return failure(r, false);
    }
    if (this.forw > 0) {
      const s = cursor.restorePosition();
      if (s < 0) return failure(s, true);
      scan.done = 0;
      while (scan.done < this.forw) {
        const rec = cursor.tryCachedRead(MODE_FORW) ?? ((yield cursor.cachedRead(MODE_FORW)) as ReadOutcome);
        if (typeof rec === 'number') {
          if (rec === PM_ERR_LOGREC) return failure(rec, false);
          break; // end of the archive set
        }
        if (direction > 0 && rec.t <= tReq) cursor.rememberPosition();
        const f = updateBounds(bctx, tReq, rec, UPD_MARK_FORW, scan, scan);
        const u = typeof f === 'number' ? f : ((yield f) as number);
        if (u < 0) return failure(u, false);
        this.retireForw(rec.t);
      }
      this.giveUpForw(tReq);
    }

    this.qualify(tReq, scan.seenMark);
    return this.buildResult(pmids, origin, tReq, stamp);
  }

  /**
   * First pass: the metrics and the instances this fetch wants, in libpcp's want order
   * (built by prepending, so reversed).
   */
  private wantList(pmids: readonly PmId[], profile: InstanceProfile, stamp: number): void {
    if (this.sameRequest(pmids, profile.version)) {
      this.resetWanted(stamp);
      return;
    }
    const want = this.want;
    const requested = this.requested;
    let nRequested = 0;
    want.n = 0;
    for (let p = 0; p < pmids.length; p++) {
      const pmid = pmids[p];
      if (pmid === PM_ID_NULL) continue;
      const mc = this.control(pmid);
      if (mc.fetchStamp === stamp) continue; // libpcp would corrupt its want list here
      mc.fetchStamp = stamp;
      requested[nRequested++] = mc;
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
        mc.wanted[i] = mc.inResult[i];
      }
      mc.nWanted = mc.numval;
    }
    this.nRequested = nRequested;
    this.wantPmids.length = 0;
    for (let p = 0; p < pmids.length; p++) this.wantPmids.push(pmids[p]);
    this.wantProfile = profile.version;
    for (let a = 0, b = want.n - 1; a < b; a++, b--) {
      const m = want.metric[a];
      want.metric[a] = want.metric[b];
      want.metric[b] = m;
      const x = want.slot[a];
      want.slot[a] = want.slot[b];
      want.slot[b] = x;
    }
  }

  private sameRequest(pmids: readonly PmId[], profileVersion: number): boolean {
    const last = this.wantPmids;
    if (profileVersion !== this.wantProfile || pmids.length !== last.length) return false;
    for (let p = 0; p < pmids.length; p++) if (pmids[p] !== last[p]) return false;
    return true;
  }

  /** The want list of the previous fetch, kept: its metrics' per-instance flags as the first
   *  pass leaves them (the later passes and qualify change them). */
  private resetWanted(stamp: number): void {
    for (let m = 0; m < this.nRequested; m++) {
      const mc = this.requested[m];
      mc.fetchStamp = stamp;
      if (!mc.desc) {
        mc.numval = PM_ERR_PMID_LOG;
        continue;
      }
      mc.numval = mc.nWanted;
      for (let i = 0; i < mc.size; i++) {
        mc.search[i] = 0;
        mc.inResult[i] = mc.wanted[i];
      }
    }
  }

  /**
   * The second pass from want-list entry `from`: marks the instances that must search back
   * for a lower bound. Returns the entry before whose test libpcp rolls forwards (the caller
   * rolls, then resumes there), or NO_ROLL at the end of the list.
   */
  private selectBack(from: number, tReq: number, direction: number): number {
    const want = this.want;
    const unbound = this.unboundBack;
    for (let w = from; w < want.n; w++) {
      const mc = want.metric[w];
      const i = want.slot[w];
      const tFirst = mc.tFirst[i];
      if (tFirst >= 0 && tReq < tFirst) continue;
      if (mc.tBirth[i] >= 0 && tReq < mc.tBirth[i]) continue;
      if (mc.tDeath[i] >= 0 && tReq > mc.tDeath[i]) continue;
      const tPrior = mc.tPrior[i];
      if ((tPrior < 0 || tPrior > tReq) && this.back === 0 && !this.doneRoll) {
        this.doneRoll = true;
        if (direction > 0) return w;
      }
      const sPrior = mc.sPrior[i];
      // The bounds as read above (nothing changed them since): an element access met only on
      // a rare path (after a <mark>) would deoptimize this method the first time it runs.
      if (
        ((sPrior & S_UNDEFINED) !== 0 && (sPrior & S_SCANNED) === 0) ||
        (tPrior > tReq && (direction < 0 || (sPrior & S_SCANNED) === 0)) ||
        ((mc.sNext[i] & S_MARK) !== 0 && tPrior === tReq)
      ) {
        this.back++;
        mc.search[i] = 1;
        // Descending t_first: before the first entry whose t_first is not greater.
        let at = 0;
        while (at < unbound.n && !(tFirst >= want.metric[unbound.list[at]].tFirst[want.slot[unbound.list[at]]])) at++;
        unbound.insert(at, w);
      }
    }
    return NO_ROLL;
  }

  /** After a record at `t` read backwards: instances known to have nothing before their
   *  t_first stop searching once the scan has passed it. */
  private retireBack(t: number): void {
    const want = this.want;
    const unbound = this.unboundBack;
    for (let k = 0; k < unbound.n; ) {
      const w = unbound.list[k];
      const mc = want.metric[w];
      const i = want.slot[w];
      if (mc.tFirst[i] < t) break;
      if (mc.search[i]) {
        mc.search[i] = 0;
        mc.sPrior[i] |= S_SCANNED;
        this.scan.done++;
        unbound.remove(k);
      } else {
        k++;
      }
    }
  }

  /** The backward search is over: what is still unbound learns that nothing lies before t. */
  private giveUpBack(tReq: number): void {
    const want = this.want;
    const unbound = this.unboundBack;
    for (let k = 0; k < unbound.n; k++) {
      const w = unbound.list[k];
      const mc = want.metric[w];
      const i = want.slot[w];
      if (((mc.sPrior[i] & S_UNDEFINED) !== 0 || mc.tPrior[i] > tReq) && mc.tFirst[i] < tReq) {
        mc.tFirst[i] = tReq;
        mc.sPrior[i] |= S_SCANNED;
      }
      mc.search[i] = 0;
    }
  }

  /** The third pass from entry `from`, as selectBack for upper bounds (rolling backwards). */
  private selectForw(from: number, tReq: number, direction: number): number {
    const want = this.want;
    const unbound = this.unboundForw;
    for (let w = from; w < want.n; w++) {
      const mc = want.metric[w];
      const i = want.slot[w];
      const tLast = mc.tLast[i];
      if (tLast >= 0 && tReq > tLast) continue;
      if (mc.tBirth[i] >= 0 && tReq < mc.tBirth[i]) continue;
      if (mc.tDeath[i] >= 0 && tReq > mc.tDeath[i]) continue;
      const tNext = mc.tNext[i];
      if ((tNext < 0 || tNext < tReq) && this.forw === 0 && !this.doneRoll) {
        this.doneRoll = true;
        if (direction < 0) return w;
      }
      const sNext = mc.sNext[i];
      // The bounds as read above (see selectBack).
      if (
        ((sNext & S_UNDEFINED) !== 0 && (sNext & S_SCANNED) === 0) ||
        (tNext < tReq && (direction > 0 || (sNext & S_SCANNED) === 0)) ||
        ((mc.sPrior[i] & S_MARK) !== 0 && tNext === tReq)
      ) {
        this.forw++;
        mc.search[i] = 1;
        // Ascending t_last: before the first entry whose t_last is not smaller.
        let at = 0;
        while (at < unbound.n && !(tLast <= want.metric[unbound.list[at]].tLast[want.slot[unbound.list[at]]])) at++;
        unbound.insert(at, w);
      }
    }
    return NO_ROLL;
  }

  /** After a record at `t` read forwards: instances with nothing after their t_last stop. */
  private retireForw(t: number): void {
    const want = this.want;
    const unbound = this.unboundForw;
    for (let k = 0; k < unbound.n; ) {
      const w = unbound.list[k];
      const mc = want.metric[w];
      const i = want.slot[w];
      const tLast = mc.tLast[i];
      if (tLast > t) break;
      if (mc.search[i] && tLast >= 0) {
        mc.search[i] = 0;
        mc.sNext[i] |= S_SCANNED;
        this.scan.done++;
        unbound.remove(k);
      } else {
        k++;
      }
    }
  }

  /** The forward search is over: what is still unbound learns that nothing lies after t. */
  private giveUpForw(tReq: number): void {
    const want = this.want;
    const unbound = this.unboundForw;
    for (let k = 0; k < unbound.n; k++) {
      const w = unbound.list[k];
      const mc = want.metric[w];
      const i = want.slot[w];
      const tLast = mc.tLast[i];
      if (mc.tNext[i] < tReq && (tLast < 0 || tReq < tLast)) {
        mc.tLast[i] = tReq;
        mc.sNext[i] |= S_SCANNED;
      }
      mc.search[i] = 0;
    }
  }

  /** do_roll: read on in the direction of replay up to t, updating bounds as we go. */
  private *roll(tReq: number, direction: number): Generator<Wait, number, unknown> {
    const cursor = this.cursor;
    const bctx = this.bctx;
    const scan = this.scan;
    let last: number;
    if (direction > 0) {
      for (;;) {
        const rec = cursor.tryCachedRead(MODE_FORW) ?? ((yield cursor.cachedRead(MODE_FORW)) as ReadOutcome);
        if (typeof rec === 'number') {
          last = rec;
          break;
        }
        if (rec.t > tReq) return 0;
        cursor.rememberPosition();
        const f = updateBounds(bctx, tReq, rec, UPD_MARK_FORW, null, scan);
        const u = typeof f === 'number' ? f : ((yield f) as number);
        if (u < 0) return u;
      }
    } else {
      for (;;) {
        const rec = cursor.tryCachedRead(MODE_BACK) ?? ((yield cursor.cachedRead(MODE_BACK)) as ReadOutcome);
        if (typeof rec === 'number') {
          last = rec;
          break;
        }
        if (rec.t < tReq) return 0;
        cursor.rememberPosition();
        const b = updateBounds(bctx, tReq, rec, UPD_MARK_BACK, null, scan);
        const u = typeof b === 'number' ? b : ((yield b) as number);
        if (u < 0) return u;
      }
    }
    return last === PM_ERR_LOGREC ? last : 0;
  }

  /** Decides which wanted instances get a value (archive-format.md §7.4.4). */
  private qualify(tReq: number, seenMark: boolean): void {
    const want = this.want;
    for (let w = 0; w < want.n; w++) {
      const mc = want.metric[w];
      const i = want.slot[w];
      const desc = mc.desc;
      if (!desc) continue;
      const sPrior = mc.sPrior[i];
      const tPrior = mc.tPrior[i];
      const noPrior = (sPrior & (S_MARK | S_UNDEFINED)) !== 0 || tPrior > tReq;
      if (desc.sem === PM_SEM_DISCRETE) {
        const tBirth = mc.tBirth[i];
        const tDeath = mc.tDeath[i];
        if (noPrior || (tBirth !== -1 && tBirth > tReq) || (tDeath !== -1 && tReq > tDeath)) {
          mc.numval--;
          mc.inResult[i] = 0;
        }
        continue;
      }
      if (noPrior || (mc.sNext[i] & (S_MARK | S_UNDEFINED)) !== 0 || mc.tNext[i] < tReq) {
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

  private buildResult(pmids: readonly PmId[], origin: Timestamp, tReq: number, stamp: number): Result {
    const sets: ValueSet[] = new Array<ValueSet>(pmids.length);
    for (let p = 0; p < pmids.length; p++) {
      const pmid = pmids[p];
      if (pmid === PM_ID_NULL) {
        sets[p] = { pmid, numval: 0, valfmt: 0, inst: new Int32Array(0), values: [] };
        continue;
      }
      const mc = this.controls.get(pmid) as MetricControl;
      // A pmid named twice in one fetch gets the set built for its first mention.
      const again = mc.builtStamp === stamp ? mc.builtSet : undefined;
      sets[p] = again ?? this.valueSet(mc, tReq, stamp);
    }
    return { timestamp: origin, sets };
  }

  private valueSet(mc: MetricControl, tReq: number, stamp: number): ValueSet {
    // Instance ids gather in a reused scratch array and are copied out once, exactly sized
    // (or not at all when they are those of the metric's previous set).
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
    const valfmt = resultValfmt(mc, values.length);
    let inst = mc.lastInst;
    if (!sameIds(inst, scratch, values.length)) inst = mc.lastInst = scratch.slice(0, values.length);
    const set: ValueSet = { pmid: mc.pmid as PmId, numval, valfmt, inst, values };
    mc.builtStamp = stamp;
    mc.builtSet = set;
    mc.lastNumval = mc.numval;
    return set;
  }
}

/** A result's valfmt for a metric with `n` values: values built from blocks come back as
 *  PM_VAL_DPTR; insitu ones keep the archive's. */
function resultValfmt(mc: MetricControl, n: number): number {
  return n > 0 && mc.valfmt !== PM_VAL_INSITU ? PM_VAL_DPTR : Math.max(mc.valfmt, PM_VAL_INSITU);
}

/** Whether runShape would make `shape` again for `mc`: the same pmid, numval, valfmt and
 *  qualifying instances in slot order. */
function shapeHolds(shape: ValueSetShape, mc: MetricControl): boolean {
  if (shape.pmid !== mc.pmid) return false;
  let n = 0;
  if (mc.numval > 0) {
    const inst = shape.inst;
    for (let i = 0; i < mc.size; i++) {
      if (!mc.inResult[i]) continue;
      if (n >= inst.length || inst[n] !== mc.inst[i]) return false;
      n++;
    }
    if (n !== inst.length) return false;
  } else if (shape.inst.length !== 0) return false;
  return shape.numval === (mc.numval > 0 ? n : mc.numval) && shape.valfmt === resultValfmt(mc, n);
}

/** min(until, x) when x is not before t0 (a time before t0, or unset at −1, changes nothing). */
function earliestFrom(t0: number, until: number, x: number): number {
  return x >= t0 && x < until ? x : until;
}

/** Whether `ids` holds exactly the first `n` entries of `scratch`. */
function sameIds(ids: Int32Array, scratch: Int32Array, n: number): boolean {
  if (ids.length !== n) return false;
  for (let i = 0; i < n; i++) if (ids[i] !== scratch[i]) return false;
  return true;
}
