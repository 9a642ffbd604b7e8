// An archive context's archives (archive-format.md §8): each opened in list order (libpcp's
// initarchive), its metadata merged into one ArchiveMetadata, the archives kept sorted by
// label start time; two different archives with the same start fail with PM_ERR_LOGOVERLAP,
// archives from another host with PM_ERR_LOGHOST, conflicting descriptors with
// PM_ERR_LOGCHANGE*. Records are read, and pmGetArchiveEnd answered, by the replay cursor
// (replay/log-cursor.ts) over these archives. Input: resolved files (io/archive-files.ts) and
// a way to open them.
import type { ArchiveFiles } from '../io/archive-files';
import type { ByteSource } from '../io/byte-source';
import { PM_ERR_LOGOVERLAP, PmError } from '../errors';
import type { PmId, Timestamp } from '../types';
import { Archive, type OpenStoredFile } from './archive';
import type { ArchiveLabel } from './label';
import { ArchiveMetadata } from './metadata';
import { checkDescs, type ArchiveWarning } from './desc-check';
import { checkFileRecords, checkIndex } from './file-check';
import { compareTimestamps } from '../time/timestamp';

export interface ArchiveSetOptions {
  /** Reject unknown V3 feature bits, as an ordinary pmNewContext does (default true). */
  readonly checkFeatures?: boolean;
  /** For readers of records: a lone archive's first volume is decompressed while its
   *  metadata loads, where decompression happens off this thread (ByteSource.readAhead). */
  readonly readAhead?: boolean;
}

export class ArchiveSet {
  private constructor(
    /** The archives, sorted by label start time (a followed set gains later ones: append). */
    private readonly sorted: Archive[],
    /** Everything the .meta files say, merged. */
    readonly metadata: ArchiveMetadata,
    /** The names of its archives, the names it was opened with first, in the order given. */
    private readonly namesNow: string[],
    private readonly open: OpenStoredFile,
    private readonly checkFeatures: boolean | undefined,
  ) {}

  /** The archives, sorted by label start time. */
  get archives(): readonly Archive[] {
    return this.sorted;
  }

  /** The names the set was opened with, in the order given, then those appended. */
  get names(): readonly string[] {
    return this.namesNow;
  }

  /**
   * Opens the archives `list` names (as io/archive-files.ts resolved them), in list order, as
   * pmNewContext does. Throws PmError with libpcp's code; nothing stays open on failure.
   */
  static async open(list: readonly ArchiveFiles[], open: OpenStoredFile, options: ArchiveSetOptions = {}): Promise<ArchiveSet> {
    const metadata = new ArchiveMetadata();
    const sorted: Archive[] = [];
    try {
      for (const files of list) {
        const archive = await Archive.open(files, open, metadata, {
          checkFeatures: options.checkFeatures,
          expectHost: sorted[0]?.label.hostname,
          readAhead: options.readAhead === true && list.length === 1,
        });
        // Insert by start time; the same name at the same time is the same archive.
        let i = 0;
        let ignore = false;
        for (; i < sorted.length; i++) {
          const c = compareTimestamps(archive.start, (sorted[i]).start);
          if (c < 0) break;
          if (c === 0) {
            if (files.name === (sorted[i]).name) {
              ignore = true;
              break;
            }
            await archive.close();
            throw new PmError(PM_ERR_LOGOVERLAP, undefined, `${files.name} and ${(sorted[i]).name} start at the same time`);
          }
        }
        if (ignore) await archive.close();
        else sorted.splice(i, 0, archive);
      }
      // libpcp then switches to the earliest archive, which reloads its metadata on top.
      if (sorted.length > 1) await (sorted[0]).reloadMeta(metadata);
    } catch (e) {
      await Promise.allSettled(sorted.map((a) => a.close()));
      throw e;
    }
    return new ArchiveSet(sorted, metadata, list.map((f) => f.name), open, options.checkFeatures);
  }

  /**
   * What pmlogcheck would warn of in the .meta and .index of the set's archives, in its
   * words and order: its pass-0 refusals (file-check.ts; it checks nothing more then), else
   * the temporal index (pass 1) and the descriptors (pass 2, desc-check.ts). libpcp opens
   * such archives, so does the set; the user is told once.
   */
  async warnings(): Promise<ArchiveWarning[]> {
    const nameOf = (id: PmId): string | undefined => this.metadata.pmns.nameAll(id)[0];
    const out: ArchiveWarning[] = [];
    for (const a of this.archives) {
      const refused = checkFileRecords(a.name, a.format.version, a.metaCounts.offVersion, a.index, a.format.indexEntrySize);
      if (refused.length > 0) {
        out.push(...refused);
        continue;
      }
      const sizes = new Map<number, number | null | undefined>();
      for (const vol of new Set(a.index.vol)) if (vol >= 0) sizes.set(vol, await a.volumeSize(vol));
      if (a.index.length === 0) out.push({ file: `${a.name}.index`, message: `${a.name}: warning temporal index is missing` });
      out.push(...checkIndex(a.index, { archive: a.name, labelSize: a.format.labelSize, labelStart: a.label.start, metaSize: a.metaSize, volumeSize: (vol) => sizes.get(vol) }));
      out.push(...checkDescs(a.name, a.metaCounts.descIds.flatMap((id) => this.metadata.desc(id) ?? []), nameOf));
    }
    return out;
  }

  /** pmGetArchiveLabel: the label of the earliest archive. */
  get label(): ArchiveLabel {
    return (this.archives[0]).label;
  }

  /** Label start of the earliest archive: the origin after opening. */
  get start(): Timestamp {
    return this.label.start;
  }

  /**
   * Follows one of the set's archives as pmlogger grows it (Archive.follow): the latest, or
   * (`i`) the one before a new archive joined, while its last writes may still arrive.
   * `files` are its files listed again. Returns which archive changed, from which volume, and
   * the sources replaced (to be closed once nothing reads them).
   */
  async follow(files: ArchiveFiles, i = this.archives.length - 1): Promise<{ readonly archive: number; readonly fromVol: number; readonly replaced: ByteSource[] }> {
    const changed = await (this.sorted[i]).follow(files, this.metadata);
    return { archive: i, ...changed };
  }

  /**
   * A followed set's new archive (pmlogger started again, or pmlogger_daily's new day, in a
   * directory followed as one set): opened as pmNewContext would have opened it with the
   * others, after the latest. Returns false, with nothing kept open, while it holds no data
   * record yet (pmlogger has written its labels only): the caller looks again later. An
   * archive starting before the latest one cannot be put in its place under a cursor that
   * may be past it: PM_ERR_LOGOVERLAP naming both.
   */
  async append(files: ArchiveFiles): Promise<boolean> {
    const last = this.sorted[this.sorted.length - 1];
    const archive = await Archive.open(files, this.open, this.metadata, { checkFeatures: this.checkFeatures, expectHost: this.label.hostname });
    try {
      if (compareTimestamps(archive.start, last.start) <= 0) {
        throw new PmError(PM_ERR_LOGOVERLAP, undefined, `${files.name} starts before ${last.name}, which is being followed`);
      }
      const first = await archive.volume(archive.minVol);
      if (!first || first.size <= archive.format.labelSize) {
        await archive.close();
        return false;
      }
    } catch (e) {
      await archive.close();
      throw e;
    }
    this.sorted.push(archive);
    this.namesNow.push(files.name);
    // As at opening: the earliest archive's metadata is loaded on top of the others'.
    await (this.sorted[0]).reloadMeta(this.metadata);
    return true;
  }

  async close(): Promise<void> {
    await Promise.all(this.archives.map((a) => a.close()));
  }
}
