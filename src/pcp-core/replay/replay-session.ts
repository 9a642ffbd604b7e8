// The replay half of an archive context (archive-format.md §7): mode, origin and delta as
// pmSetMode sets them, the instance profile, and pmFetch / pmFetchArchive / pmGetArchiveEnd
// dispatched to FORW/BACK serial reading or to the INTERP engine. ArchiveContext adds the
// metadata lookups on top; tests drive this directly over fixture archives.
import { DecodeError, PM_ERR_LOGFILE, PM_ERR_LOGOVERLAP, PM_ERR_LOGREC, PM_ERR_MODE, PmError } from '../errors';
import type { FetchRun, PmId, Result, Timestamp } from '../types';
import type { ProfileChange } from '../types';
import { fetchRunTime } from '../types';
import { InstanceProfile } from './instance-profile';
import type { IgnoreMarks } from './interp-bounds';
import { InterpEngine, isInterpFailure, type InterpOutcome } from './interp-fetch';
import { LogCursor, MODE_BACK, MODE_FORW, type KeptReads } from './log-cursor';
import type { LogRecord } from './log-record';
import { archiveEndOfSet } from './log-end';
import { setTime } from './log-seek';
import { addTimestamp, splitDeltaNs } from './log-time';
import type { ReplaySet } from './replay-source';
import { resultForPmids, resultForRecord, serialRead } from './serial-fetch';

export const PM_MODE_INTERP = 1;
export const PM_MODE_FORW = MODE_FORW;
export const PM_MODE_BACK = MODE_BACK;

export interface ReplayOptions {
  /** PCP_COUNTER_WRAP is set (any value). */
  readonly counterWrap?: boolean;
  /** PCP_IGNORE_MARK_RECORDS: unset (default), empty, or an interval in seconds. */
  readonly ignoreMarks?: IgnoreMarks;
  /** The reader keeps the records it reads (an export: log-cursor.ts KeptReads). */
  readonly kept?: KeptReads;
}

/** A rejected promise carrying what a synchronous step threw (as an async pmFetch would). */
function rejection(e: unknown): Promise<never> {
  return Promise.resolve().then(() => {
    throw e;
  });
}

export class ReplaySession {
  readonly cursor: LogCursor;
  readonly profile = new InstanceProfile();
  private readonly interp: InterpEngine;
  private mode = PM_MODE_FORW;
  /** The current time (c_origin). */
  private originTs: Timestamp;
  private deltaSec = 0;
  private deltaNsec = 0;
  /** Sign of the INTERP delta: 1, -1, or 0. */
  private direction = 0;

  constructor(readonly set: ReplaySet, options: ReplayOptions = {}) {
    this.cursor = new LogCursor(set, options.kept);
    this.originTs = this.cursor.base;
    this.interp = new InterpEngine(this.cursor, {
      counterWrap: options.counterWrap ?? false,
      ignoreMarks: options.ignoreMarks ?? { kind: 'none' },
    });
  }

  get origin(): Timestamp {
    return this.originTs;
  }

  get currentMode(): number {
    return this.mode;
  }

  /** The INTERP delta as set (signed nanoseconds). */
  get deltaNs(): bigint {
    return BigInt(this.deltaSec) * 1_000_000_000n + BigInt(this.deltaNsec);
  }

  /** pmSetMode for an archive: FORW, BACK or INTERP; `origin` undefined keeps the time. */
  async setMode(mode: number, origin: Timestamp | undefined, deltaNs: bigint = 0n): Promise<void> {
    this.setModeState(mode, origin, deltaNs);
    await this.position();
  }

  /** The synchronous half of pmSetMode: mode, origin, delta and direction, stale bounds dropped. */
  setModeState(mode: number, origin: Timestamp | undefined, deltaNs: bigint = 0n): void {
    if (mode !== PM_MODE_INTERP && mode !== PM_MODE_FORW && mode !== PM_MODE_BACK) throw new PmError(PM_ERR_MODE);
    if (origin) this.originTs = origin;
    this.mode = mode;
    const d = splitDeltaNs(deltaNs);
    this.deltaSec = d.sec;
    this.deltaNsec = d.nsec;
    this.direction = deltaNs > 0n ? 1 : deltaNs < 0n ? -1 : 0;
    this.interp.resetBounds(this.originTs);
  }

  /** The reading half of pmSetMode: index positioning at the origin (failures are left for
   *  the next fetch to meet, as libpcp does). */
  async position(): Promise<void> {
    const mode = this.mode;
    const dir = mode === PM_MODE_INTERP ? (this.direction > 0 ? MODE_FORW : MODE_BACK) : mode === PM_MODE_BACK ? MODE_BACK : MODE_FORW;
    await setTime(this.cursor, this.originTs, dir);
  }

  /** pmFetch. Rejects with PmError (PM_ERR_EOL at either end). */
  fetch(pmids: readonly PmId[]): Promise<Result> {
    try {
      const out = this.fetchEager(pmids);
      return out instanceof Promise ? out : Promise.resolve(out);
    } catch (e) {
      return rejection(e);
    }
  }

  /**
   * pmFetch, answered synchronously when no bytes must be waited for (nearly every INTERP
   * fetch of a replay); else a promise. Throws or rejects with PmError.
   */
  fetchEager(pmids: readonly PmId[]): Result | Promise<Result> {
    // A corrupt record is named only by the read that met it, never by an earlier one.
    this.cursor.lastCorrupt = undefined;
    if (this.mode !== PM_MODE_INTERP) return this.fetchSerial(pmids);
    const when = this.originTs;
    const out = this.interp.fetch(pmids, when, this.direction, this.profile);
    if (out instanceof Promise) return out.then((o) => this.interpDone(when, o));
    return this.interpDone(when, out);
  }

  /**
   * INTERP fetches made as a run (InterpEngine.fetchRun) after one answered at hand: up to
   * `max` of them, each the fetch fetchEager would make, the origin moved past the last. 0
   * when the run cannot go on (then fetch one by one).
   */
  fetchRun(pmids: readonly PmId[], max: number, run: FetchRun): number {
    if (this.mode !== PM_MODE_INTERP) {
      run.count = 0;
      return 0;
    }
    const n = this.interp.fetchRun(pmids, this.originTs, this.deltaSec, this.deltaNsec, this.direction, this.profile, max, run);
    if (n > 0) {
      this.cursor.lastCorrupt = undefined;
      this.originTs = addTimestamp(fetchRunTime(run, n - 1), this.deltaSec, this.deltaNsec);
    }
    return n;
  }

  /** After an interpolated fetch at `when`: the origin moves on (unless libpcp's early return
   *  keeps it); the result, or the failure thrown as a PmError. */
  private interpDone(when: Timestamp, out: InterpOutcome): Result {
    const failed = isInterpFailure(out);
    if (!failed || out.advanced) this.originTs = addTimestamp(when, this.deltaSec, this.deltaNsec);
    if (failed) throw this.failure(out.error);
    return out;
  }

  private async fetchSerial(pmids: readonly PmId[]): Promise<Result> {
    const dir = this.mode === PM_MODE_BACK ? MODE_BACK : MODE_FORW;
    const out = await serialRead(this.cursor, dir, this.originTs, pmids);
    if ('error' in out) throw this.failure(out.error);
    this.originTs = out.record.timestamp;
    return resultForPmids(out.record, pmids, this.set.meta, this.profile);
  }

  /** pmFetchArchive: the next record as stored, <mark>s included; PM_ERR_MODE in INTERP. */
  async fetchArchive(): Promise<Result> {
    const out = await this.readArchive();
    if (typeof out === 'number') throw this.failure(out);
    return resultForRecord(out, this.set.meta);
  }

  /**
   * pmFetchArchive's timestamp alone: the same read, checks and errors, without decoding the
   * record's value sets (an archive's logging interval is probed from its first records).
   */
  async fetchArchiveStamp(): Promise<Timestamp> {
    const out = await this.readArchive();
    if (typeof out === 'number') throw this.failure(out);
    return out.timestamp;
  }

  /**
   * pmFetchArchive without decoding: the record's checked bytes (for readers that format
   * straight from them, as dump does). A damaged record fails with a DecodeError naming the
   * volume file, the record's offset and what is wrong with it.
   */
  async fetchArchiveRecord(): Promise<LogRecord> {
    const before = this.cursor.lastCorrupt;
    const out = await this.readArchive();
    if (typeof out !== 'number') return out;
    const at = this.cursor.lastCorrupt;
    // As the archive reader named them: the archive the cursor is in (moved into, for
    // PM_ERR_LOGOVERLAP) for a missing volume or an overlap.
    if (out === PM_ERR_LOGFILE || out === PM_ERR_LOGOVERLAP) throw new PmError(out, undefined, this.cursor.archive.name);
    if (out !== PM_ERR_LOGREC) throw new PmError(out);
    if (at && at !== before) throw new DecodeError(PM_ERR_LOGREC, at.file, at.at, 'data record', at.detail);
    throw this.endFailure();
  }

  private async readArchive(): Promise<LogRecord | number> {
    if (this.mode === PM_MODE_INTERP) throw new PmError(PM_ERR_MODE);
    const dir = this.mode === PM_MODE_BACK ? MODE_BACK : MODE_FORW;
    const out = await serialRead(this.cursor, dir, this.originTs, []);
    if ('error' in out) return out.error;
    this.originTs = out.record.timestamp;
    return out.record;
  }

  /** A fetch's error code as a PmError; a corrupt record is named by volume and offset. */
  private failure(code: number): PmError {
    const at = this.cursor.lastCorrupt;
    if (code === PM_ERR_LOGREC && at) return new PmError(code, undefined, `${at.volume} at offset ${at.offset}`);
    return new PmError(code);
  }

  /** pmGetArchiveEnd. */
  async archiveEnd(): Promise<Timestamp> {
    this.cursor.lastCorrupt = undefined;
    const end = await archiveEndOfSet(this.cursor);
    if (typeof end === 'number') throw this.failure(end);
    return end;
  }

  /** pmGetArchiveEnd, a failure naming the archive whose end cannot be found. */
  async archiveEndNamed(): Promise<Timestamp> {
    const end = await archiveEndOfSet(this.cursor);
    if (typeof end !== 'number') return end;
    throw end === PM_ERR_LOGREC ? this.endFailure() : new PmError(end);
  }

  /** PM_ERR_LOGREC from pmGetArchiveEnd: no valid record at the end of the archive the
   *  cursor was looking at (pmGetArchiveEnd leaves it in the last one on failure). */
  private endFailure(): DecodeError {
    return new DecodeError(PM_ERR_LOGREC, this.cursor.archive.name, 0, '', 'cannot locate the end of the archive');
  }

  /**
   * A followed archive grew (context/archive-replay-source.ts follow): the cursor reads its
   * volumes from `fromVol` on afresh and finds the end again, and interpolation forgets what
   * it learned at the old end (no later record, an instance not seen again: t_last).
   */
  grown(archive: number, fromVol: number): void {
    this.cursor.forgetVolumes(archive, fromVol);
    this.interp.forgetEnd();
  }

  /** pmAddProfile / pmDelProfile (the context's profile, libpcp 6.0.3 semantics). */
  changeProfile(change: ProfileChange): void {
    this.profile.apply(change);
  }
}
