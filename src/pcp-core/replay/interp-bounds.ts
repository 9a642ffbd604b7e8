// Bound maintenance for interpolation (archive-format.md §7.4.3, §7.4.6): each record read
// while serving an INTERP fetch may become the nearest lower or upper bound of any
// (metric, instance) the context has ever interpolated; a <mark> becomes a bound of the
// instances requested by this fetch. The rules follow libpcp's update_bounds, including how
// bounds are shuffled between prior and next, which searches a record completes, and the
// PCP_IGNORE_MARK_RECORDS peek at the records around a mark.
import { PM_ERR_LOGREC } from '../errors';
import { PM_TYPE_32, PM_TYPE_FLOAT, PM_TYPE_U32 } from '../types';
import { MODE_BACK, MODE_FORW, type LogCursor } from './log-cursor';
import { blockOffset, PM_VAL_DPTR, PM_VAL_INSITU, PM_VAL_SPTR, valuePairOffset, vsetNumval, vsetPmid, vsetValfmt, type LogRecord } from './log-record';
import { S_MARK, S_SCANNED, S_VALUE, type MetricControl } from './interp-state';

/** How a record read is used: fine positioning ignores marks; rolls and searches do not. */
export const UPD_MARK_NONE = 0;
export const UPD_MARK_FORW = 1;
export const UPD_MARK_BACK = 2;

/** PCP_IGNORE_MARK_RECORDS: unset, set empty (ignore all marks), or a gap in seconds. */
export type IgnoreMarks = { readonly kind: 'none' } | { readonly kind: 'all' } | { readonly kind: 'gap'; readonly seconds: number };

/** The (metric, slot) pairs requested by the current fetch, in libpcp's want-list order:
 *  the first `n` entries of the two arrays (kept allocated from fetch to fetch). */
export interface WantList {
  readonly metric: MetricControl[];
  readonly slot: number[];
  n: number;
}

/** Counters shared with the caller: searches completed and whether a <mark> was crossed. */
export interface ScanState {
  done: number;
  seenMark: boolean;
}

export interface BoundsContext {
  readonly cursor: LogCursor;
  readonly controls: ReadonlyMap<number, MetricControl>;
  /** Numbers the current set of `controls` (controlsKey()); a new one whenever it grows. */
  controlsKey: number;
  /** The pmids of `controls`, for a record's look-up by comparison (a few, most often). */
  trackedPmids: Uint32Array;
  readonly want: WantList;
  readonly ignoreMarks: IgnoreMarks;
}

let lastControlsKey = 0;

/** A number no other set of controls has had (records are shared by every engine). */
export function controlsKey(): number {
  return ++lastControlsKey;
}

/** trackedVsets' scratch: one record's indices before they are copied out (every record read
 *  made an array as long as its value sets). */
let trackedScratch = new Int32Array(512);
const NO_TRACKED = new Int32Array(0);

/** Above this many tracked pmids a record's look-up goes through the Map. */
const COMPARE_MAX = 8;

/** The record's value sets that `ctx` tracks, in record order (memoised in the record). */
function trackedVsets(ctx: BoundsContext, rec: LogRecord): Int32Array {
  if (rec.boundsKey === ctx.controlsKey) return rec.boundsVsets;
  const numpmid = rec.numpmid;
  if (trackedScratch.length < numpmid) trackedScratch = new Int32Array(Math.max(numpmid, 2 * trackedScratch.length));
  const ks = trackedScratch;
  const pmids = ctx.trackedPmids;
  let n = 0;
  if (pmids.length <= COMPARE_MAX) {
    for (let k = 0; k < numpmid; k++) {
      const pmid = vsetPmid(rec, k);
      for (let p = 0; p < pmids.length; p++) {
        if (pmids[p] === pmid) {
          ks[n++] = k;
          break;
        }
      }
    }
  } else {
    for (let k = 0; k < numpmid; k++) if (ctx.controls.has(vsetPmid(rec, k))) ks[n++] = k;
  }
  rec.boundsVsets = n === 0 ? NO_TRACKED : ks.slice(0, n);
  rec.boundsKey = ctx.controlsKey;
  return rec.boundsVsets;
}

function valfmtSuits(type: number, valfmt: number): boolean {
  if (type === PM_TYPE_32 || type === PM_TYPE_U32) return valfmt === PM_VAL_INSITU;
  if (type === PM_TYPE_FLOAT) return valfmt === PM_VAL_INSITU || valfmt === PM_VAL_DPTR || valfmt === PM_VAL_SPTR;
  return valfmt === PM_VAL_DPTR || valfmt === PM_VAL_SPTR;
}

/**
 * With PCP_IGNORE_MARK_RECORDS=<interval>: whether the records either side of this mark are
 * at most that far apart. libpcp finds them by reading forwards once and backwards three
 * times and then forwards twice from wherever the mark was read, so the net position is
 * unchanged when all reads succeed (which neighbours are found depends on the direction the
 * mark was read in, exactly as in libpcp).
 */
async function markGapIgnored(ctx: BoundsContext, gap: number): Promise<boolean> {
  const c = ctx.cursor;
  const saveArch = c.cur;
  const saveVol = c.vol;
  const saveOffset = c.offset;
  let tNext = -1;
  let tPrior = -1;
  const restore = (): void => {
    c.changeArchive(saveArch);
    c.vol = saveVol;
    c.offset = saveOffset;
  };
  const next = await c.read(MODE_FORW);
  if (typeof next !== 'number') {
    tNext = next.t;
    if (typeof (await c.read(MODE_BACK)) === 'number' || typeof (await c.read(MODE_BACK)) === 'number') {
      restore();
    } else {
      const prior = await c.read(MODE_BACK);
      if (typeof prior !== 'number') {
        tPrior = prior.t;
        if (typeof (await c.read(MODE_FORW)) === 'number' || typeof (await c.read(MODE_FORW)) === 'number') restore();
      }
    }
  }
  return tPrior !== -1 && tNext !== -1 && tNext - tPrior <= gap;
}

/** A <mark> under PCP_IGNORE_MARK_RECORDS=interval: applied unless its neighbours are close. */
async function gapMark(ctx: BoundsContext, gap: number, tReq: number, rec: LogRecord, mode: number, scan: ScanState | null, seen: ScanState | null): Promise<number> {
  if (await markGapIgnored(ctx, gap)) return 0;
  if (mode !== UPD_MARK_NONE) markBounds(ctx.want, rec.t, tReq, mode, scan, seen);
  return 0;
}

/**
 * update_bounds: 0, or PM_ERR_LOGREC when a metric's value encoding is inconsistent.
 * Synchronous except for a mark under PCP_IGNORE_MARK_RECORDS=interval, which reads records.
 */
export function updateBounds(ctx: BoundsContext, tReq: number, rec: LogRecord, mode: number, scan: ScanState | null, seen: ScanState | null): number | Promise<number> {
  const tThis = rec.t;
  if (rec.numpmid === 0) {
    if (ctx.ignoreMarks.kind === 'all') return 0;
    if (ctx.ignoreMarks.kind === 'gap') return gapMark(ctx, ctx.ignoreMarks.seconds, tReq, rec, mode, scan, seen);
    if (mode === UPD_MARK_NONE) return 0;
    markBounds(ctx.want, tThis, tReq, mode, scan, seen);
    return 0;
  }
  const tracked = trackedVsets(ctx, rec);
  for (let t = 0; t < tracked.length; t++) {
    const k = tracked[t];
    const mc = ctx.controls.get(vsetPmid(rec, k)) as MetricControl;
    const numval = vsetNumval(rec, k);
    if (numval <= 0) continue;
    const valfmt = vsetValfmt(rec, k);
    if (mc.valfmt === -1) {
      if (!valfmtSuits(mc.desc ? mc.desc.type : -1, valfmt)) return PM_ERR_LOGREC;
      mc.valfmt = valfmt;
    } else if (mc.valfmt !== valfmt) {
      return PM_ERR_LOGREC;
    }
    for (let j = 0; j < numval; j++) {
      const pair = valuePairOffset(rec, k, j);
      const i = mc.slot(rec.view.getInt32(pair));
      if (i < 0) continue;
      const valueOff = valfmt === PM_VAL_INSITU ? pair + 4 : blockOffset(rec.view.getUint32(pair + 4));
      valueBounds(mc, i, rec, valueOff, tThis, tReq, mode, scan);
    }
  }
  return 0;
}

function valueBounds(mc: MetricControl, i: number, rec: LogRecord, off: number, tThis: number, tReq: number, mode: number, scan: ScanState | null): void {
  let tPrior = mc.tPrior[i];
  let tNext = mc.tNext[i];
  if (tThis <= tReq && (tPrior > tReq || tThis >= tPrior)) {
    if (tPrior < tNext && tPrior >= tReq) {
      // The old lower bound is really above t: it becomes the upper bound.
      mc.tNext[i] = tNext = tPrior;
      mc.sNext[i] = (mc.sPrior[i]) & ~S_SCANNED;
      mc.recNext[i] = mc.recPrior[i];
      mc.offNext[i] = mc.offPrior[i];
    }
    mc.tPrior[i] = tPrior = tThis;
    mc.sPrior[i] = S_VALUE;
    mc.recPrior[i] = rec;
    mc.offPrior[i] = off;
    if (mode === UPD_MARK_BACK && scan && mc.search[i]) {
      mc.search[i] = 0;
      scan.done++;
      mc.sPrior[i] = S_VALUE | S_SCANNED;
    }
  }
  if (tThis >= tReq && (tNext < tReq || tThis <= tNext)) {
    if (tPrior < tNext && tNext <= tReq) {
      mc.tPrior[i] = tNext;
      mc.sPrior[i] = (mc.sNext[i]) & ~S_SCANNED;
      mc.recPrior[i] = mc.recNext[i];
      mc.offPrior[i] = mc.offNext[i];
    }
    mc.tNext[i] = tThis;
    mc.sNext[i] = S_VALUE;
    mc.recNext[i] = rec;
    mc.offNext[i] = off;
    if (mode === UPD_MARK_FORW && scan && mc.search[i]) {
      mc.search[i] = 0;
      scan.done++;
      mc.sNext[i] = S_VALUE | S_SCANNED;
    }
  }
}

function markBounds(want: WantList, tThis: number, tReq: number, mode: number, scan: ScanState | null, seen: ScanState | null): void {
  for (let w = 0; w < want.n; w++) {
    const mc = want.metric[w];
    const i = want.slot[w];
    const tPrior = mc.tPrior[i];
    if (tThis <= tReq && (tThis >= tPrior || tPrior > tReq)) {
      mc.tPrior[i] = tThis;
      mc.sPrior[i] = S_MARK;
      if (mode === UPD_MARK_BACK) {
        if (mc.search[i] && scan) {
          mc.search[i] = 0;
          scan.done++;
          mc.sPrior[i] = S_MARK | S_SCANNED;
        }
      } else if (seen) {
        seen.seenMark = true;
      }
      mc.recPrior[i] = null;
    }
    const tNext = mc.tNext[i];
    if (tThis >= tReq && (tThis <= tNext || tNext < 0 || tNext < tReq)) {
      mc.tNext[i] = tThis;
      mc.sNext[i] = S_MARK;
      if (mode === UPD_MARK_FORW) {
        if (mc.search[i] && scan) {
          mc.search[i] = 0;
          scan.done++;
          mc.sNext[i] = S_MARK | S_SCANNED;
        }
      } else if (seen) {
        seen.seenMark = true;
      }
      mc.recNext[i] = null;
    }
  }
}
