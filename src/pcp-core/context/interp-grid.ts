// Interpolated fetches on a time grid (origin, origin + Δ, …), the two ways libpcp clients
// replay an archive:
//   - sequential: one pmSetMode(PM_MODE_INTERP, origin, Δ), then a pmFetch per sample (pmval,
//     pmrep). Each fetch reads on from where the last one stopped: every record between two
//     samples is read, so a window costs what its bytes cost.
//   - stepped: pmSetMode(PM_MODE_INTERP, t_k, Δ) before each pmFetch (pmtime driving pmchart).
//     Each setMode positions through the temporal index (__pmLogSetTime), so a window costs
//     about the same per sample whatever the archive's size.
// The values are libpcp's for the loop chosen; the two loops can differ where the interpolation
// state carried from fetch to fetch matters (a <mark>, an instance appearing between samples).
// The choice is one rule, here: stepped when the step spans at least STEPPED_MIN_INTERVALS
// logging intervals (then most records between two samples would be read for nothing).
import { isPmError, type PmError } from '../errors';
import type { PmId, Result, Timestamp } from '../types';
import { PM_MODE_INTERP, type Context } from './context';

/**
 * Steps of at least this many logging intervals are replayed stepped. Measured on the QA
 * archive 20180416.10.00 (a ~200 KB record every 10 s), cold, Overview metrics: at 1.6
 * intervals per step a seek per sample costs 2.5× sequential replay, at 3.3 about the same,
 * at 9 (the whole 1.3 GB archive on 720 points) sequential costs 1.5–2× stepped.
 */
export const STEPPED_MIN_INTERVALS = 4;

export type InterpReplay = 'sequential' | 'stepped';

/** Stepped replay asks the context to read this many samples ahead (several reads in flight
 *  instead of one at a time; Context.prefetch). */
const PREFETCH_SAMPLES = 8;

/** The grid: `count` samples at origin + k·deltaNs, k = 0 … count − 1. */
export interface InterpGrid {
  readonly origin: Timestamp;
  /** Positive: grids run forwards. */
  readonly deltaNs: bigint;
  readonly count: number;
}

/**
 * How to replay a grid with step `deltaNs` over an archive logged every `loggingIntervalNs`
 * (0 when unknown: sequential, the safe default).
 */
export function interpReplayFor(deltaNs: bigint, loggingIntervalNs: bigint): InterpReplay {
  return loggingIntervalNs > 0n && deltaNs > 0n && deltaNs >= BigInt(STEPPED_MIN_INTERVALS) * loggingIntervalNs ? 'stepped' : 'sequential';
}

const NS = 1_000_000_000n;

/** origin + k·deltaNs, exactly (nanosecond integers). */
export function gridTime(grid: InterpGrid, k: number): Timestamp {
  const ns = BigInt(grid.origin.sec) * NS + BigInt(grid.origin.nsec) + BigInt(k) * grid.deltaNs;
  const sec = ns >= 0n ? ns / NS : -((-ns + NS - 1n) / NS);
  return { sec: Number(sec), nsec: Number(ns - sec * NS) };
}

/**
 * Fetches `pmids` at every grid time in PM_MODE_INTERP, sequentially or stepped, and hands each
 * outcome to `each(k, result or PmError)`; `each` returning false stops the loop. Errors other
 * than PmError are thrown. The context is left in PM_MODE_INTERP.
 */
export async function fetchInterpGrid(
  ctx: Context,
  pmids: readonly PmId[],
  grid: InterpGrid,
  replay: InterpReplay,
  each: (k: number, out: Result | PmError) => boolean,
): Promise<void> {
  const stepped = replay === 'stepped' && grid.deltaNs > 0n;
  if (!stepped) {
    // Every record from the origin on is read: reading forwards starts at once, not only
    // after the replay has read its first megabytes one block at a time.
    ctx.prefetchPass?.(grid.origin, gridTime(grid, grid.count - 1));
    ctx.setMode(PM_MODE_INTERP, grid.origin, grid.deltaNs);
  } else for (let k = 0; k < Math.min(grid.count, PREFETCH_SAMPLES); k++) ctx.prefetch?.(gridTime(grid, k));
  for (let k = 0; k < grid.count; k++) {
    if (stepped) {
      if (k + PREFETCH_SAMPLES < grid.count) ctx.prefetch?.(gridTime(grid, k + PREFETCH_SAMPLES));
      ctx.setMode(PM_MODE_INTERP, gridTime(grid, k), grid.deltaNs);
    }
    let out: Result | PmError;
    try {
      out = await ctx.fetch(pmids);
    } catch (e) {
      if (!isPmError(e)) throw e;
      out = e;
    }
    if (!each(k, out)) return;
  }
}
