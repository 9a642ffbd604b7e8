// pmlogger's job over results someone else fetched (pmchart's Record): the caller hands over
// each pmFetch result of a live context as it arrives, and the recorder writes the recorded
// metrics' value sets into a V3 archive (archive-writer.ts) — so recording adds no fetch of
// its own. Metadata as pmlogger writes it: every descriptor with its names and help text
// before the first record, each instance domain at the first record that uses it and again
// (as a delta when smaller) whenever a result carries an instance the archive has not yet
// described (pmGetInDom then, as pmlogger re-reads a changed domain), and a <mark> where the
// context reconnected to pmcd (Result.epoch), so no rate spans a pmcd restart. Label sets are
// not recorded (pmlogger's are context labels; docs/deviations.md). Memory is bounded by
// `capBytes`: past it the recorder keeps what it has and takes no more (`capped`).
import type { Context } from '../context/context';
import { PmError } from '../errors';
import { PM_TEXT_HELP, PM_TEXT_INDOM, PM_TEXT_ONELINE, PM_TEXT_PMID } from '../archive/meta-records';
import { PM_INDOM_NULL, type Desc, type InDom, type PmId, type Result, type Timestamp } from '../types';
import { compareTimestamps } from '../time/timestamp';
import { ArchiveWriter, type ArchiveImage } from './archive-writer';
import { ArchiveWriteError } from './encode-meta';

export interface RecorderOptions {
  /** The label's PID (pmlogger writes its own; a browser has none). */
  readonly pid: number;
  /** Bytes of archive (.meta + .index + volume) past which no more records are taken. */
  readonly capBytes: number;
}

/** A PMAPI answer, or undefined where PMAPI says there is none (PmError); other errors throw. */
async function orUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof PmError) return undefined;
    throw e;
  }
}

export class ResultRecorder {
  private readonly writer: ArchiveWriter;
  /** Recorded metrics by pmid. */
  private readonly descs = new Map<PmId, Desc>();
  /** Per instance domain written: the instances the archive describes so far. */
  private readonly described = new Map<InDom, Set<number>>();
  private last: Timestamp | undefined;
  private epoch: number | undefined;
  private full = false;

  private constructor(
    private readonly ctx: Context,
    private readonly options: RecorderOptions,
  ) {
    const src = ctx.source;
    // A live source's zoneinfo comes without the label's leading ':'.
    const zoneinfo = src.zoneinfo === '' || src.zoneinfo.startsWith(':') ? src.zoneinfo : `:${src.zoneinfo}`;
    this.writer = new ArchiveWriter({ pid: options.pid, hostname: src.hostname, timezone: src.timezone, zoneinfo });
  }

  /**
   * A recorder of `pmids` of `ctx`: their descriptors, names and help text are read now
   * (pmids without a descriptor are left out; `metrics` says which are recorded).
   */
  static async create(ctx: Context, pmids: readonly PmId[], options: RecorderOptions): Promise<ResultRecorder> {
    const r = new ResultRecorder(ctx, options);
    const unique = [...new Set(pmids)];
    const descs = unique.length > 0 ? await ctx.lookupDescs(unique) : [];
    for (const [i, pmid] of unique.entries()) {
      const d = descs[i];
      if (d === undefined || typeof d === 'number') continue;
      r.descs.set(pmid, d);
      r.writer.desc(d, (await orUndefined(ctx.nameAll(pmid))) ?? []);
      await r.helpText({ pmid }, PM_TEXT_PMID, pmid);
      if (d.indom !== PM_INDOM_NULL && !r.described.has(d.indom)) {
        r.described.set(d.indom, new Set());
        await r.helpText({ indom: d.indom }, PM_TEXT_INDOM, d.indom);
      }
    }
    if (r.descs.size === 0) throw new ArchiveWriteError('nothing to record: none of the metrics has a descriptor');
    return r;
  }

  /** The pmids a fetch must include for this recorder. */
  get metrics(): readonly PmId[] {
    return [...this.descs.keys()];
  }

  get records(): number {
    return this.writer.recordCount;
  }

  /** Bytes written so far (all three files). */
  get bytes(): number {
    return this.writer.bytes;
  }

  /** The cap was reached: later results are not recorded. */
  get capped(): boolean {
    return this.full;
  }

  private async helpText(target: { readonly pmid: PmId } | { readonly indom: InDom }, kind: number, ident: number): Promise<void> {
    const lookup = (k: 'oneline' | 'help'): Promise<string | undefined> => orUndefined(this.ctx.lookupText(target, k));
    const oneline = await lookup('oneline');
    const help = await lookup('help');
    if (oneline !== undefined) this.writer.text(kind | PM_TEXT_ONELINE, ident, oneline);
    if (help !== undefined && help !== oneline) this.writer.text(kind | PM_TEXT_HELP, ident, help);
  }

  /**
   * Records the recorded metrics' value sets of one fetch result. Results older than the
   * last one are refused (an archive's records are in time order). Returns false once capped.
   */
  async take(result: Result): Promise<boolean> {
    if (this.full) return false;
    const sets = result.sets.filter((s) => this.descs.has(s.pmid));
    if (sets.length === 0) return true;
    const t = result.timestamp;
    if (this.last && compareTimestamps(t, this.last) <= 0) throw new ArchiveWriteError(`result at ${t.sec}.${t.nsec} is not later than the last recorded one`);
    // A reconnect: pmcd (and its counters) may have restarted; a <mark> breaks the rate.
    if (this.last && result.epoch !== this.epoch) this.writer.mark(this.last);
    this.epoch = result.epoch;
    for (const s of sets) {
      const indom = this.descs.get(s.pmid)?.indom ?? PM_INDOM_NULL;
      const known = this.described.get(indom);
      if (indom === PM_INDOM_NULL || !known || s.numval <= 0) continue;
      let unseen = false;
      for (let j = 0; j < s.numval && !unseen; j++) unseen = !known.has(s.inst[j] ?? -1);
      if (!unseen) continue;
      const list = await this.ctx.getInDom(indom);
      this.writer.indom(t, indom, list);
      this.described.set(indom, new Set(list.instances));
    }
    this.writer.record(t, sets);
    this.last = t;
    if (this.writer.bytes >= this.options.capBytes) this.full = true;
    return !this.full;
  }

  /** The archive so far; throws ArchiveWriteError when no result was recorded. */
  finish(): ArchiveImage {
    return this.writer.finish();
  }
}
