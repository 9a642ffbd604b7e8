// The sampling loop of `pmdash values`, with pmval's semantics (derived-units-conversion.md
// §8.2, archive-format.md §7.4): on an archive, INTERP fetches at origin, origin + Δ, ... of
// all the metrics at once; counters (unless raw) become rates against the previous sample —
// value difference over pmval's interval (long-double seconds, time counters scaled into a
// utilisation), no value on the first sample, when the previous sample lacked the instance,
// or on a decrease (unless PCP_COUNTER_WRAP). Works on any Context; the caller says whether
// it replays an archive (INTERP) or samples live (a fetch every interval).
import { PM_MODE_INTERP, type Context } from '../pcp-core/context/context';
import { PM_ERR_EOL, isPmError } from '../pcp-core/errors';
import { pmvalDeltaOfReals, pmvalRate, pmvalTimeScale } from '../pcp-core/rate';
import { longDoubleSeconds, timestampFromNs, timestampToNs, timestampToReal } from '../pcp-core/time/timestamp';
import type { AtomValue, Desc, FetchRun, PmId, Result, Timestamp, ValueSet } from '../pcp-core/types';
import { PM_SEM_COUNTER, fetchRunTime, isNumericType, newFetchRun, sameEpoch } from '../pcp-core/types';
import { toDouble } from '../pcp-core/values';

export interface SampledMetric {
  readonly name: string;
  readonly desc: Desc;
  /** Rate-converted (a counter and not raw). */
  readonly rate: boolean;
  /** Instance names by id (for output). */
  readonly instName: (inst: number) => string;
}

/** One instance's output: a number, bigint (exact 64-bit raw value), string, or null. */
export type SampleValue = number | bigint | string | null;

export interface Sample {
  readonly time: Timestamp;
  /** Per metric (same order as the metric list): [instance id, value] in result order. */
  readonly values: readonly (readonly (readonly [number, SampleValue])[])[];
}

/**
 * Consecutive archive samples taken from one Context.fetchRun, in columns: what the table
 * takes without a Sample, a pair and a value per instance and sample.
 */
export interface SampleRun {
  readonly count: number;
  /** Sample k's time is (sec[k], nsec[k]). */
  readonly sec: Float64Array;
  readonly nsec: Int32Array;
  /** Per metric (same order as the metric list): the instances of its columns, in result
   *  order, the same in every sample of the run. */
  readonly inst: readonly Int32Array[];
  /** Sample k's value in column c (metric after metric, instance after instance) at
   *  values[k * width + c], a number (rates and raw numeric values alike) ... */
  readonly values: Float64Array;
  /** ... unless missing[k * width + c] is 1: no value (a Sample's null). */
  readonly missing: Uint8Array;
  readonly width: number;
}

/** What a batch holds: samples, or (for a table plan) runs of them. */
export type Taken = Sample | SampleRun;

export function isSampleRun(t: Taken): t is SampleRun {
  return 'count' in t;
}

export interface SamplingPlan {
  /** First sample time (already in pmval's precision: whole microseconds). */
  readonly origin: Timestamp;
  /** Δ between samples in nanoseconds (pmval: whole milliseconds). */
  readonly deltaNs: bigint;
  /** Number of fetches; undefined: until the end of the archive (PM_ERR_EOL or `finish`). */
  readonly samples?: number;
  /** Stop once a result is stamped after this time (pmval's -T / archive end). */
  readonly finish?: Timestamp;
  /** Replay an archive in INTERP mode (else sample live, a fetch every Δ). */
  readonly archive: boolean;
  /**
   * A followed archive (--follow): waits until the archive's end has reached the sample's
   * time (the archive read again as pmlogger grows it), so each sample is taken as a live
   * one would be, once its time has come. Samples then go out one by one.
   */
  readonly follow?: (t: Timestamp) => Promise<void>;
  readonly counterWrap: boolean;
  /**
   * Archive samples may come as SampleRuns (the table takes them; the other outputs take
   * Samples). A replay between two records is then made as one run of fetches (Context.
   * fetchRun), its values in columns, without a Result, Sample and pair per sample.
   */
  readonly runs?: boolean;
}

function rawOutput(v: AtomValue, type: number): SampleValue {
  if (typeof v === 'number') return isNumericType(type) ? v : null;
  if (typeof v === 'bigint' || typeof v === 'string') return v;
  return null;
}

/** Samples per batch when replaying an archive (live sources yield each sample alone); the
 *  event loop turns once a batch (a turn costs a replay about as much as a few dozen fetches). */
const ARCHIVE_BATCH = 256;

/**
 * What the sampling carries from sample to sample: the previous result and its time (for
 * rates) and the -T limit. `take` turns a fetch result into its sample.
 */
class SampleTaker {
  private prev: Result | undefined = undefined;
  private prevReal = 0;
  /** takeRun's sample times as reals (scratch). */
  private reals = new Float64Array(256);
  private readonly scales: readonly number[];
  private readonly finish: number;
  private readonly wrap: boolean;

  constructor(
    private readonly metrics: readonly SampledMetric[],
    plan: SamplingPlan,
  ) {
    this.scales = metrics.map((m) => pmvalTimeScale(m.desc));
    this.finish = plan.finish ? timestampToReal(plan.finish) : Infinity;
    this.wrap = plan.counterWrap;
  }

  /** The sample of `result`, or undefined when it is stamped after -T (the sampling ends). */
  take(result: Result): Sample | undefined {
    // Converted once per sample: it serves the -T test here and both intervals it ends or starts.
    const real = timestampToReal(result.timestamp);
    if (real > this.finish) return undefined;
    // A live context that reconnected since the previous sample: no rate across the two
    // connections (Result.epoch), as pmval, whose fetch fails first, never makes one.
    const prev = this.prev && sameEpoch(this.prev, result) ? this.prev : undefined;
    const sample: Sample = { time: result.timestamp, values: sampleValues(this.metrics, this.scales, result, prev, this.prevReal, real, this.wrap) };
    this.prev = result;
    this.prevReal = real;
    return sample;
  }

  /**
   * The samples of `run` (up to the first stamped after -T), as `take` would take its fetches
   * one by one. Undefined when the first is after -T; `done` then tells the sampling is over.
   */
  takeRun(run: FetchRun): { taken: SampleRun | undefined; done: boolean } {
    if (this.reals.length < run.count) this.reals = new Float64Array(Math.max(run.count, 2 * this.reals.length));
    const reals = this.reals;
    let count = run.count;
    for (let k = 0; k < run.count; k++) {
      reals[k] = longDoubleSeconds(run.sec[k], run.nsec[k]);
      if (reals[k] > this.finish) {
        count = k;
        break;
      }
    }
    const done = count < run.count;
    if (count === 0) return { taken: undefined, done };
    const width = run.width;
    const values = new Float64Array(count * width);
    const missing = new Uint8Array(count * width);
    const inst: Int32Array[] = [];
    const prev = this.prev;
    let col = 0;
    for (let j = 0; j < this.metrics.length; j++) {
      const set = run.sets[j];
      const n = set.numval > 0 ? set.numval : 0;
      inst.push(set.inst);
      if (n > 0) rateColumns(this.metrics[j], this.scales[j], run, col, set.inst, count, reals, prev?.sets[j], this.prevReal, this.wrap, values, missing);
      col += n;
    }
    const sec = run.sec.slice(0, count);
    const nsec = run.nsec.slice(0, count);
    this.prev = lastResult(run, count);
    this.prevReal = reals[count - 1];
    return { taken: { count, sec, nsec, inst, values, missing, width }, done };
  }
}

/**
 * Columns [col, col + ids.length) of a run's output (the instances `ids`): the fetched
 * values (raw), or each sample's rate against the one before it (the sample before the run:
 * `pset`, taken at `prevReal`), as sampleValues makes them.
 */
function rateColumns(m: SampledMetric, scale: number, run: FetchRun, col: number, ids: Int32Array, count: number, reals: Float64Array, pset: ValueSet | undefined, prevReal: number, wrap: boolean, values: Float64Array, missing: Uint8Array): void {
  const width = run.width;
  const n = ids.length;
  const input = run.values;
  if (!m.rate) {
    for (let k = 0; k < count; k++) for (let q = 0; q < n; q++) values[k * width + col + q] = input[k * width + col + q];
    return;
  }
  // The first sample: against the sample before the run, instance by instance.
  const first = pset !== undefined && pset.numval > 0;
  const delta0 = first ? pmvalDeltaOfReals(scale, prevReal, reals[0]) : 0;
  for (let q = 0; q < n; q++) {
    const r = first ? rateOf(m, pset, ids[q], input[col + q], delta0, wrap) : null;
    if (r === null) missing[col + q] = 1;
    else values[col + q] = r;
  }
  // The others: against the sample before, whose instances are the same.
  for (let k = 1; k < count; k++) {
    const delta = pmvalDeltaOfReals(scale, reals[k - 1], reals[k]);
    for (let q = 0; q < n; q++) {
      const at = k * width + col + q;
      const r = rateBetween(m, input[at - width], input[at], delta, wrap);
      if (r === null) missing[at] = 1;
      else values[at] = r;
    }
  }
}

/** fillBatch's outcome when the sampling is over: the archive's end (PM_ERR_EOL) or -T. */
const SAMPLING_DONE = 0;
/** fillBatch's outcome when it stopped with the batch open: more samples may follow. */
const SAMPLING_PAUSED = 1;

/** A batch being filled: what it holds, and how many samples that is. */
interface Batch {
  items: Taken[];
  samples: number;
}

/**
 * Up to `count` more archive samples, fetched and taken synchronously into `batch` (the
 * common case: a replay has nearly every sample at hand), in runs where the context makes
 * them (`run` given); stops early at a fetch that must wait for bytes, returning its promise.
 * A plain function with the loop inside, not the loop of the generator below: V8 compiles a
 * hot loop in a small function within a few hundred iterations, where a generator's loop
 * runs in baseline code until the whole generator, with all it inlines, is compiled —
 * thousands of samples into a replay.
 */
function fillBatch(ctx: Context, pmids: readonly PmId[], taker: SampleTaker, batch: Batch, count: number, run: FetchRun | undefined): Promise<Result> | number {
  const end = batch.samples + count;
  while (batch.samples < end) {
    if (run && ctx.fetchRun && ctx.fetchRun(pmids, end - batch.samples, run) > 0) {
      const { taken, done } = taker.takeRun(run);
      if (taken) {
        batch.items.push(taken);
        batch.samples += taken.count;
      }
      if (done) return SAMPLING_DONE;
      continue;
    }
    let out: Result | Promise<Result>;
    try {
      out = ctx.fetchEager ? ctx.fetchEager(pmids) : ctx.fetch(pmids);
    } catch (e) {
      if (isPmError(e) && e.code === PM_ERR_EOL) return SAMPLING_DONE;
      throw e;
    }
    if (out instanceof Promise) return out;
    const sample = taker.take(out);
    if (!sample) return SAMPLING_DONE;
    batch.items.push(sample);
    batch.samples++;
  }
  return SAMPLING_PAUSED;
}

/**
 * pmval's sampling, in batches (the caller writes them as they come): on an archive, up to
 * ARCHIVE_BATCH samples per yield, so a long replay does not pay two generator round trips
 * per sample (in SampleRuns too with `plan.runs`); live, each sample as soon as it is fetched.
 */
export function sampleBatches(ctx: Context, metrics: readonly SampledMetric[], pmids: readonly PmId[], plan: SamplingPlan & { readonly runs: true }): AsyncGenerator<Taken[]>;
export function sampleBatches(ctx: Context, metrics: readonly SampledMetric[], pmids: readonly PmId[], plan: SamplingPlan & { readonly runs?: false }): AsyncGenerator<Sample[]>;
export async function* sampleBatches(ctx: Context, metrics: readonly SampledMetric[], pmids: readonly PmId[], plan: SamplingPlan): AsyncGenerator<Taken[]> {
  if (plan.archive) ctx.setMode(PM_MODE_INTERP, plan.origin, plan.deltaNs);
  const taker = new SampleTaker(metrics, plan);
  const total = plan.samples ?? Infinity;
  if (plan.archive && !plan.follow) {
    const run = plan.runs ? newFetchRun() : undefined;
    let batch: Batch = { items: [], samples: 0 };
    let k = 0;
    try {
      while (k < total) {
        const before = batch.samples;
        const out = fillBatch(ctx, pmids, taker, batch, Math.min(total - k, ARCHIVE_BATCH - batch.samples), run);
        k += batch.samples - before;
        if (out === SAMPLING_DONE) break;
        if (typeof out !== 'number') {
          const sample = taker.take(await out);
          if (!sample) break;
          batch.items.push(sample);
          batch.samples++;
          k++;
        }
        if (batch.samples >= ARCHIVE_BATCH) {
          // Fetches from decoded archive bytes never wait for I/O; once a batch the event loop
          // takes the completions of volumes decompressed ahead in another process.
          await new Promise((r) => setImmediate(r));
          yield batch.items;
          batch = { items: [], samples: 0 };
        }
      }
    } catch (e) {
      if (!(isPmError(e) && e.code === PM_ERR_EOL)) {
        // The samples before the failure go out first, as they would one by one.
        if (batch.items.length > 0) yield batch.items;
        throw e;
      }
    }
    if (batch.items.length > 0) yield batch.items;
    return;
  }
  // Live, or a followed archive: each sample alone, as soon as its time has come.
  for (let k = 0; k < total; k++) {
    if (!plan.archive && k > 0) await new Promise((r) => setTimeout(r, Number(plan.deltaNs / 1_000_000n)));
    if (plan.follow) await plan.follow(timestampFromNs(timestampToNs(plan.origin) + plan.deltaNs * BigInt(k)));
    let result: Result;
    try {
      result = await ctx.fetch(pmids);
    } catch (e) {
      if (isPmError(e) && e.code === PM_ERR_EOL) break;
      throw e;
    }
    const sample = taker.take(result);
    if (!sample) break;
    yield [sample];
  }
}

/**
 * One sample's values: raw, or as rates against the previous result (`prev`, taken at
 * `prevReal` seconds; undefined on the first sample or across a reconnection). A function of
 * its own, not the loop body of the generator above: called once per sample, V8 compiles it
 * once it is hot, where a generator's loop runs in baseline code until the whole generator,
 * with all it inlines, is compiled.
 */
function sampleValues(metrics: readonly SampledMetric[], scales: readonly number[], result: Result, prev: Result | undefined, prevReal: number, real: number, wrap: boolean): (readonly [number, SampleValue])[][] {
  const values: (readonly [number, SampleValue])[][] = [];
  for (let j = 0; j < metrics.length; j++) {
    const m = metrics[j];
    const set = result.sets[j];
    const out: [number, SampleValue][] = [];
    values.push(out);
    if (!set || set.numval <= 0) continue;
    if (!m.rate) {
      for (let i = 0; i < set.numval; i++) out.push([set.inst[i], rawOutput(set.values[i], m.desc.type)]);
      continue;
    }
    const pset = prev?.sets[j];
    // The interval is the same for every instance: computed once per metric and sample.
    const delta = prev && pset && pset.numval > 0 ? pmvalDeltaOfReals(scales[j], prevReal, real) : 0;
    for (let i = 0; i < set.numval; i++) {
      out.push([set.inst[i], pset && pset.numval > 0 ? rateOf(m, pset, set.inst[i], set.values[i], delta, wrap) : null]);
    }
  }
  return values;
}

/** The run's last sample as the Result its fetch gives (values as numbers): the sample before
 *  whatever is taken next. */
function lastResult(run: FetchRun, count: number): Result {
  const sets: ValueSet[] = [];
  let c = (count - 1) * run.width;
  for (const shape of run.sets) {
    const values: number[] = [];
    for (let q = 0; q < shape.numval; q++) values.push(run.values[c++]);
    sets.push({ ...shape, values });
  }
  return { timestamp: fetchRunTime(run, count - 1), sets };
}

function rateOf(m: SampledMetric, pset: ValueSet, inst: number, v: AtomValue, delta: number, wrap: boolean): number | null {
  const k = pset.inst.indexOf(inst);
  if (k < 0) return null;
  return rateBetween(m, pset.values[k], v, delta, wrap);
}

/** pmval's rate from `prev` to `v` over `delta`, or null for none. */
function rateBetween(m: SampledMetric, prev: AtomValue, v: AtomValue, delta: number, wrap: boolean): number | null {
  const r = pmvalRate(toDouble(prev, m.desc.type), toDouble(v, m.desc.type), delta, m.desc.type, wrap);
  // A decrease (no wrap) is NaN: no value, as pmval's "!"; an infinity (no time between) is kept.
  return Number.isNaN(r) ? null : r;
}

/** Whether pmval converts this metric to a rate. */
export function isRateConverted(desc: Desc, raw: boolean): boolean {
  return !raw && desc.sem === PM_SEM_COUNTER && isNumericType(desc.type);
}
