// The archive implementation of Context (pmNewContext(PM_CONTEXT_ARCHIVE, names)): metadata
// lookups answered from the archive reader's merged metadata (archive-format.md §4, §8), and
// replay — pmSetMode FORW/BACK/INTERP, pmFetch, pmFetchArchive, pmGetArchiveEnd, instance
// profiles — by replay/replay-session.ts, which reproduces libpcp 6.0.3 exactly. Works the
// same in the worker, the CLI and the tests; the FileSet decides where bytes come from.
import { openArchiveSet, type ArchiveSet, type OpenArchiveSetOptions } from '../archive';
import { PM_ERR_INDOM_LOG, PM_ERR_MODE, PM_ERR_PMID, PM_ERR_PMID_LOG, PmError } from '../errors';
import type { FileSet } from '../io/file-set';
import { expandArchiveList, resolveArchive } from '../io/archive-files';
import { openStored } from '../io/open-stored';
import { releaseIoCaches } from '../io/release-caches';
import type { IgnoreMarks } from '../replay/interp-bounds';
import { ReplaySession } from '../replay/replay-session';
import { volumeBlockCache } from '../replay/volume-bytes';
import type { Desc, FetchRun, InDom, InstanceList, PmId, Result, Timestamp } from '../types';
import { replaySetOf, type ArchiveReplay } from './archive-replay-source';
import { PM_MODE_BACK, PM_MODE_FORW, PM_MODE_INTERP, type Context, type ContextSource, type LabelSet, type PmnsChild, type ProfileChange, type ReplayMode, type TextKind } from './context';

/** Times a new archive found while following may fail to open before that is an error. */
const NEW_ARCHIVE_LOOKS = 3;
/** Times the archive before a new one is followed after the new one joined. */
const SETTLE_LOOKS = 5;

export interface ArchiveContextOptions extends OpenArchiveSetOptions {
  /** PCP_COUNTER_WRAP is set (libpcp reads the environment; the core is told). */
  readonly counterWrap?: boolean;
  /** PCP_IGNORE_MARK_RECORDS, already parsed: unset, empty (all marks), or a gap. */
  readonly ignoreMarks?: IgnoreMarks;
}

/** pmNewContext(PM_CONTEXT_ARCHIVE, spec) over a FileSet: `spec` is a name, a comma list or a
 *  directory, as libpcp accepts them. Rejects with PmError (libpcp's codes) naming the file. */
export async function openArchiveContext(fs: FileSet, spec: string, options: ArchiveContextOptions = {}): Promise<ArchiveContext> {
  const set = await openArchiveSet(fs, spec, { readAhead: true, ...options, open: options.open ?? ((path: string) => openStored(fs, path)) });
  try {
    return await ArchiveContext.fromSet(set, options, spec);
  } catch (e) {
    await set.close();
    throw e;
  }
}

export class ArchiveContext implements Context {
  readonly source: ContextSource;
  /** Replay state; setMode's positioning is queued here and awaited by the next call. */
  private pending: Promise<void> = Promise.resolve();
  /** Whether `pending` may still hold work (saves an await per fetch when it does not). */
  private queued = false;
  /** New archives that could not be opened yet (pmlogger still creating them): looks so far. */
  private readonly notYet = new Map<string, number>();
  /** Archives a newer one joined after: followed a few more times (looks left), as their
   *  last writes may reach the reader after the new archive's first ones (a copy, a network
   *  file system). A record cut short there would otherwise stay cut in the middle of the set. */
  private readonly settling = new Map<number, number>();

  private constructor(
    readonly set: ArchiveSet,
    readonly session: ReplaySession,
    private readonly readAhead: (at: Timestamp) => void,
    private readonly releaseAhead: () => void,
    private readonly readPass: ArchiveReplay['prefetchPass'],
    private readonly followSet: ArchiveReplay['follow'],
    private readonly appendSet: ArchiveReplay['append'],
    /** The name it was opened with: a directory in it is listed again when following, as new
     *  archives there join the set. */
    private readonly spec: string | undefined,
  ) {
    const label = set.label;
    this.source = {
      kind: 'archive',
      names: set.names,
      hostname: label.hostname,
      timezone: label.timezone,
      zoneinfo: label.zoneinfo.replace(/^:/, ''),
      start: label.start,
    };
  }

  /** A context over an already opened ArchiveSet (it takes ownership: close() closes it);
   *  `spec`, the name it was opened with, is listed again by follow. */
  static async fromSet(set: ArchiveSet, options: ArchiveContextOptions = {}, spec?: string): Promise<ArchiveContext> {
    const { replay, prefetch, prefetchPass, release, follow, append } = await replaySetOf(set);
    return new ArchiveContext(set, new ReplaySession(replay, { counterWrap: options.counterWrap, ignoreMarks: options.ignoreMarks }), prefetch, release, prefetchPass, follow, append, spec);
  }

  // ----- metadata -----

  lookupNames(names: readonly string[]): Promise<Array<PmId | number>> {
    return Promise.resolve(names.map((n) => this.set.metadata.pmns.lookup(n)));
  }

  nameAll(id: PmId): Promise<string[]> {
    const names = this.set.metadata.pmns.nameAll(id);
    return names.length > 0 ? Promise.resolve(names) : Promise.reject(new PmError(PM_ERR_PMID));
  }

  children(name: string): Promise<PmnsChild[]> {
    // Deferred so a throw (PM_ERR_NAME, PM_ERR_TEXT, ...) becomes the rejection.
    return Promise.resolve().then(() => this.set.metadata.pmns.children(name));
  }

  traverse(name: string): Promise<string[]> {
    // Deferred so a throw (PM_ERR_NAME, PM_ERR_TEXT, ...) becomes the rejection.
    return Promise.resolve().then(() => this.set.metadata.pmns.traverse(name));
  }

  lookupDescs(ids: readonly PmId[]): Promise<Array<Desc | number>> {
    return Promise.resolve(ids.map((id) => this.set.metadata.desc(id) ?? PM_ERR_PMID_LOG));
  }

  /** With `at` undefined, every instance ever listed (pmGetInDomArchive); else as of `at`. */
  getInDom(id: InDom, at?: Timestamp): Promise<InstanceList> {
    const md = this.set.metadata;
    const list = at === undefined ? md.indomUnion(id) : md.indomAt(id, at);
    return list ? Promise.resolve(list) : Promise.reject(new PmError(PM_ERR_INDOM_LOG));
  }

  lookupText(target: { readonly pmid: PmId } | { readonly indom: InDom }, kind: TextKind): Promise<string> {
    // Deferred so a throw (PM_ERR_NAME, PM_ERR_TEXT, ...) becomes the rejection.
    return Promise.resolve().then(() => this.set.metadata.text(target, kind));
  }

  /** Label sets in force at the current replay time (archives record them over time). */
  lookupLabels(level: number, ident: number): Promise<LabelSet[]> {
    return Promise.resolve([...this.set.metadata.labelSets(level, ident, this.session.origin)]);
  }

  // ----- replay -----

  /**
   * pmSetMode. A bad mode (PM_MODE_LIVE) throws PM_ERR_MODE at once; the positioning itself
   * reads records, so it is queued and the next fetch waits for it (libpcp ignores a failed
   * positioning here and lets the next fetch report it; so does this).
   */
  setMode(mode: ReplayMode, origin?: Timestamp, deltaNs?: bigint): void {
    if (mode !== PM_MODE_INTERP && mode !== PM_MODE_FORW && mode !== PM_MODE_BACK) throw new PmError(PM_ERR_MODE);
    this.session.setModeState(mode, origin, deltaNs ?? 0n);
    this.pending = this.pending.then(() => this.session.position());
    this.queued = true;
  }

  /** Waits for queued positioning; its failure (an I/O error) is reported once, here. */
  private async settle(): Promise<void> {
    const p = this.pending;
    this.pending = Promise.resolve();
    this.queued = false;
    await p;
  }

  changeProfile(change: ProfileChange): void {
    this.session.changeProfile(change);
  }

  /** Hint that a pmSetMode to `at` and a fetch will follow: the bytes there are read ahead. */
  prefetch(at: Timestamp): void {
    this.readAhead(at);
  }

  /** Hint that a sequential replay from `from` to `to` follows: reading forwards starts there. */
  prefetchPass(from: Timestamp, to: Timestamp): void {
    this.readPass(from, to);
  }

  /** Idle: the replay's decoded records go (views that keep read bytes alive), and with them
   *  the byte caches every open archive shares. */
  releaseMemory(): void {
    this.session.cursor.forgetRecords();
    this.releaseAhead();
    volumeBlockCache.clear();
    releaseIoCaches();
  }

  fetch(ids: readonly PmId[]): Promise<Result> {
    // Not an async function: the session's promise is returned as is, one promise less per
    // sample of a long replay.
    if (this.queued) return this.settle().then(() => this.session.fetch(ids));
    return this.session.fetch(ids);
  }

  /** pmFetch without a promise when the session has the values at hand (Context.fetchEager). */
  fetchEager(ids: readonly PmId[]): Result | Promise<Result> {
    if (this.queued) return this.settle().then(() => this.session.fetch(ids));
    return this.session.fetchEager(ids);
  }

  /** Context.fetchRun: the session's run, none while an operation is queued. */
  fetchRun(ids: readonly PmId[], max: number, run: FetchRun): number {
    if (this.queued) {
      run.count = 0;
      return 0;
    }
    return this.session.fetchRun(ids, max, run);
  }

  /** pmFetchArchive: the next record as stored, <mark> records included (no sets). */
  async fetchArchive(): Promise<Result> {
    await this.settle();
    return this.session.fetchArchive();
  }

  /** fetchArchive's timestamp alone, the record's values left undecoded. */
  async fetchArchiveStamp(): Promise<Timestamp> {
    await this.settle();
    return this.session.fetchArchiveStamp();
  }

  /** pmGetArchiveEnd: the time of the last valid record of the latest archive. */
  async archiveEnd(): Promise<Timestamp> {
    await this.settle();
    return this.session.archiveEnd();
  }

  /**
   * Follows an archive pmlogger is still writing: its latest archive's files are listed again
   * in `fs` (the FileSet it was opened from), its index, new metadata and grown or new volumes
   * read, and the new end returned (pmGetArchiveEnd). Opened from a directory (libpcp's set of
   * all archives there), the directory is listed again too: an archive that appeared since
   * (pmlogger restarted, pmlogger_daily's new day) joins the set after the latest, and the
   * end moves into it. The replay position is kept: a fetch continues where it was, across
   * the join as in any set, and times before the end can still be asked for.
   */
  async follow(fs: FileSet): Promise<Timestamp> {
    await this.settle();
    for (const [i, looks] of this.settling) {
      const { fromVol } = await this.followSet(await resolveArchive(fs, this.set.archives[i].name), i);
      this.session.grown(i, fromVol);
      if (looks <= 1) this.settling.delete(i);
      else this.settling.set(i, looks - 1);
    }
    const last = this.set.archives[this.set.archives.length - 1];
    const { archive, fromVol } = await this.followSet(await resolveArchive(fs, last.name));
    this.session.grown(archive, fromVol);
    if (this.spec !== undefined) {
      const known = new Set(this.set.names);
      // pmlogger's names (YYYYMMDD.HH.MM, -NN for a restart) sort as they start.
      const added = (await expandArchiveList(fs, this.spec)).filter((n) => !known.has(n)).sort();
      for (const name of added) {
        let joined: boolean;
        try {
          joined = await this.appendSet(await resolveArchive(fs, name));
        } catch (e) {
          // Found while pmlogger creates it (a .meta before its .0, a label half written): it
          // is looked at again next time, and only an archive that stays unreadable is an error.
          const looks = (this.notYet.get(name) ?? 0) + 1;
          this.notYet.set(name, looks);
          if (looks >= NEW_ARCHIVE_LOOKS) throw e;
          break;
        }
        this.notYet.delete(name);
        // One not holding data yet: later ones wait for it (the set stays in start order).
        if (!joined) break;
        this.settling.set(this.set.archives.length - 2, SETTLE_LOOKS);
        this.session.grown(this.set.archives.length - 1, 0);
      }
    }
    return this.session.archiveEnd();
  }

  /** The current replay time (c_origin): where the next fetch looks. */
  get origin(): Timestamp {
    return this.session.origin;
  }

  /** The current mode (PM_MODE_FORW after opening). */
  get mode(): number {
    return this.session.currentMode;
  }

  /** The INTERP delta as last set by setMode (signed nanoseconds; 0 after opening). */
  get deltaNs(): bigint {
    return this.session.deltaNs;
  }

  /** pmDestroyContext. A queued positioning still running finishes first; if it failed, the
   *  archive is closed all the same and that failure is then reported. */
  async close(): Promise<void> {
    try {
      await this.settle();
    } finally {
      await this.set.close();
    }
  }
}
