// One archive (archive-format.md §1, §3.3): opened as libpcp's __pmLogOpen opens it — the
// label of the lowest data volume, then the .index label, then the .meta label, each checked
// for version, volume, PID and host; then all of .meta (into the set's shared metadata) and
// all of .index. Data volumes are opened lazily, only their labels are read until records are
// asked for, so opening a huge archive reads nothing of its data beyond one label.
import type { ByteSource } from '../io/byte-source';
import type { ArchiveFiles } from '../io/archive-files';
import { compressionOf } from '../io/compression';
import { posixBasename } from '../io/posix-path';
import { DecodeError, PM_ERR_LABEL, PM_ERR_LOGHOST, PmError } from '../errors';
import type { Timestamp } from '../types';
import { readLabel, type ArchiveLabel } from './label';
import { PM_LOG_VOL_META, PM_LOG_VOL_TI, logFormat, type LogFormat } from './log-format';
import { loadMeta, loadMetaTail, wholeRecordsEnd, type MetaCounts } from './meta-loader';
import type { ArchiveMetadata } from './metadata';
import { TemporalIndex, decodeTemporalIndex } from './temporal-index';

/** Opens a stored file as uncompressed bytes (the io layer's openStored). */
export type OpenStoredFile = (path: string) => Promise<ByteSource>;

export interface ArchiveOpenOptions {
  /** Reject unknown V3 feature bits, as an ordinary pmNewContext does (default true). */
  readonly checkFeatures?: boolean;
  /** For a member of a set: the host every archive must name (else PM_ERR_LOGHOST). */
  readonly expectHost?: string;
  /** Start decompressing the first data volume now (see ArchiveSetOptions.readAhead). */
  readonly readAhead?: boolean;
}

/** What Archive.open's steps share. */
interface OpenArgs {
  readonly files: ArchiveFiles;
  /** Opens a file that a failed open closes again. */
  readonly openFile: OpenStoredFile;
  readonly open: OpenStoredFile;
  readonly meta: ArchiveMetadata;
  readonly checkFeatures: boolean;
  readonly volumeNumbers: number[];
  readonly options: ArchiveOpenOptions;
}

export class Archive {
  /** Data volumes by number; null once a volume failed to open (libpcp skips it). */
  private readonly volumeCache = new Map<number, Promise<ByteSource | null>>();

  private constructor(
    /** The name it was asked for. */
    readonly name: string,
    private filesNow: ArchiveFiles,
    /** Label of the lowest data volume: the archive's label. */
    readonly label: ArchiveLabel,
    readonly format: LogFormat,
    private indexNow: TemporalIndex,
    /** Volume numbers present, ascending. */
    private volumesNow: readonly number[],
    readonly metaCounts: MetaCounts,
    /** Size of the .meta (uncompressed) when the archive opened. */
    readonly metaSize: number,
    /** Where the .meta's whole records end: a followed archive's next metadata starts here. */
    private metaEnd: number,
    private readonly open: OpenStoredFile,
    private readonly checkFeatures: boolean,
    firstVolume: ByteSource,
    lastVolume: Promise<ByteSource | null> | undefined,
  ) {
    this.volumeCache.set(this.minVol, Promise.resolve(firstVolume));
    // A last volume whose label was still being written when it was opened ahead (pmlogger
    // just began it) is opened again at first use, as it would have been without the read ahead.
    const maxVol = this.maxVol;
    if (lastVolume) this.volumeCache.set(maxVol, lastVolume.then((source) => source ?? this.openVolume(maxVol, this.files.volumes.get(maxVol) as string)));
  }

  get files(): ArchiveFiles {
    return this.filesNow;
  }

  get index(): TemporalIndex {
    return this.indexNow;
  }

  get volumeNumbers(): readonly number[] {
    return this.volumesNow;
  }

  get minVol(): number {
    return this.volumeNumbers[0];
  }

  get maxVol(): number {
    return this.volumeNumbers[this.volumeNumbers.length - 1];
  }

  get start(): Timestamp {
    return this.label.start;
  }

  /**
   * Opens the archive whose files are `files`, loading its metadata into `meta` (shared by
   * the archives of a set). Throws PmError with libpcp's code for each failure.
   */
  static async open(files: ArchiveFiles, open: OpenStoredFile, meta: ArchiveMetadata, options: ArchiveOpenOptions = {}): Promise<Archive> {
    const checkFeatures = options.checkFeatures ?? true;
    const volumeNumbers = [...files.volumes.keys()].sort((a, b) => a - b);
    const minVol = volumeNumbers[0];
    if (minVol === undefined) throw new PmError(PM_ERR_LABEL, undefined, files.base);
    const opened: ByteSource[] = [];
    const openFile = async (path: string): Promise<ByteSource> => {
      const source = await open(path);
      opened.push(source);
      return source;
    };
    try {
      return await Archive.openFiles({ files, openFile, open, meta, checkFeatures, volumeNumbers, options }, minVol);
    } catch (e) {
      await Promise.allSettled(opened.map((s) => s.close()));
      throw e;
    }
  }

  private static async openFiles(args: OpenArgs, minVol: number): Promise<Archive> {
    const { files, openFile, open, checkFeatures, volumeNumbers, options } = args;
    // 1. The lowest volume's label is the archive's label.
    const firstSource = await openFile(files.volumes.get(minVol) as string);
    const label = await readLabel(firstSource, { vol: minVol, checkFeatures });
    // Failures are not lost: they surface when the volume is read.
    if (options.readAhead) {
      void firstSource.readAhead?.(0, firstSource.size);
      // Replay begins at the first record: plain bytes read ahead while the metadata loads.
      firstSource.startPass?.(0, Infinity);
    }
    const format = logFormat(label.version);
    const labelOnlySize = format.labelSize;
    // pmGetArchiveEnd, which follows every open in the engine, reads the end of the last
    // volume: it is opened now and its end read (for .xz, its whole decode) while the
    // metadata loads. Failures are not lost: the read of the end reports them.
    let lastVolume: Promise<ByteSource | null> | undefined;
    const maxVol = volumeNumbers[volumeNumbers.length - 1];
    if (options.readAhead && maxVol !== minVol) {
      // Opened with `open`, not `openFile`: its open may finish after a failure below, which
      // then closes it itself (Archive.open's clean-up would already have run).
      lastVolume = Archive.openDataVolume(open, files.volumes.get(maxVol) as string, maxVol, checkFeatures, labelOnlySize);
      void lastVolume.then((source) => source?.read(Math.max(0, source.size - 4), Math.min(4, source.size))).catch(() => undefined);
    }
    try {
      return await Archive.openRest(args, label, firstSource, lastVolume);
    } catch (e) {
      await lastVolume?.then((source) => source?.close()).catch(() => undefined);
      throw e;
    }
  }

  /** Steps 2-6 of openFiles: index and metadata labels, metadata and index loaded. */
  private static async openRest(args: OpenArgs, label: ArchiveLabel, firstSource: ByteSource, lastVolume: Promise<ByteSource | null> | undefined): Promise<Archive> {
    const { files, openFile, open, meta, checkFeatures, volumeNumbers, options } = args;
    const format = logFormat(label.version);
    const labelOnlySize = format.labelSize;
    const mismatch = (source: string, detail: string): never => {
      throw new DecodeError(PM_ERR_LABEL, source, 0, 'label', detail);
    };
    // 2. The index label: same version, PID and host.
    let indexSource: ByteSource | undefined;
    if (files.index !== undefined) {
      indexSource = await openFile(files.index);
      const ti = await readLabel(indexSource, { vol: PM_LOG_VOL_TI, checkFeatures, labelOnlySize });
      if (ti.version !== label.version) mismatch(indexSource.name, `version ${ti.version} differs from the data volume's ${label.version}`);
      if (ti.pid !== label.pid || ti.hostname !== label.hostname) mismatch(indexSource.name, `PID or host differs from the data volume's label`);
    }
    // 3. The metadata label: same version.
    const metaSource = await openFile(files.meta);
    const ml = await readLabel(metaSource, { vol: PM_LOG_VOL_META, checkFeatures, labelOnlySize });
    if (ml.version !== label.version) mismatch(metaSource.name, `version ${ml.version} differs from the data volume's ${label.version}`);
    // 4. Every archive of a set is from one host.
    if (options.expectHost !== undefined && label.hostname !== options.expectHost) {
      throw new PmError(PM_ERR_LOGHOST, undefined, files.name);
    }
    // 5. All of the metadata, then all of the index.
    const metaBytes = await metaSource.read(0, metaSource.size);
    const metaCounts = loadMeta(metaBytes, metaSource.name, format, meta);
    const metaEnd = wholeRecordsEnd(metaBytes, format.labelSize);
    let index = TemporalIndex.EMPTY;
    if (indexSource) index = decodeTemporalIndex(await indexSource.read(0, indexSource.size), format);
    // 6. The metadata label names the same PID and host as the data.
    if (ml.pid !== label.pid || ml.hostname !== label.hostname) mismatch(metaSource.name, `PID or host differs from the data volume's label`);
    await metaSource.close();
    if (indexSource) await indexSource.close();
    return new Archive(files.name, files, label, format, index, volumeNumbers, metaCounts, metaBytes.length, metaEnd, open, checkFeatures, firstSource, lastVolume);
  }

  /** Re-reads this archive's metadata into `meta` (libpcp reloads it on switching archives). */
  async reloadMeta(meta: ArchiveMetadata): Promise<void> {
    const source = await this.open(this.files.meta);
    try {
      loadMeta(await source.read(0, source.size), source.name, this.format, meta);
    } finally {
      await source.close();
    }
  }

  /**
   * Data volume `vol` (uncompressed bytes, label included), opened and its label checked on
   * first use; null when the volume is absent or its label is bad (libpcp then skips it).
   * Records are read from it by the replay cursor (replay/log-cursor.ts).
   */
  volume(vol: number): Promise<ByteSource | null> {
    let v = this.volumeCache.get(vol);
    if (!v) {
      const path = this.files.volumes.get(vol);
      v = path === undefined ? Promise.resolve(null) : this.openVolume(vol, path);
      this.volumeCache.set(vol, v);
    }
    return v;
  }

  /**
   * Data volume `vol`'s size (uncompressed) for pmlogcheck's index checks (file-check.ts):
   * null when the archive has no such volume; undefined when knowing it means decompressing
   * the whole file (only plain and .xz files tell it cheaply). No label is read.
   */
  async volumeSize(vol: number): Promise<number | null | undefined> {
    const path = this.files.volumes.get(vol);
    if (path === undefined) return null;
    // A volume replay has opened answers at once; one whose label failed is looked at afresh.
    const opened = await this.volumeCache.get(vol)?.catch(() => null);
    if (opened) return opened.size;
    const compression = compressionOf(path);
    if (compression !== undefined && compression.suffix !== '.xz') return undefined;
    // pmlogcheck says "file missing" for a volume it cannot open, whatever the reason.
    const source = await this.open(path).catch(() => null);
    if (!source) return null;
    try {
      return source.size;
    } finally {
      await source.close();
    }
  }

  private openVolume(vol: number, path: string): Promise<ByteSource | null> {
    return Archive.openDataVolume(this.open, path, vol, this.checkFeatures, this.format.labelSize);
  }

  /** Data volume `vol` at `path` with its label checked; null when the label is bad. */
  private static async openDataVolume(open: OpenStoredFile, path: string, vol: number, checkFeatures: boolean, labelOnlySize: number): Promise<ByteSource | null> {
    let source: ByteSource | undefined;
    try {
      source = await open(path);
      await readLabel(source, { vol, checkFeatures, labelOnlySize });
      return source;
    } catch (e) {
      // A label cut short must not leave its file open for the garbage collector.
      await source?.close();
      if (e instanceof PmError) return null;
      throw e;
    }
  }

  /**
   * Follows an archive pmlogger is still writing (`files`: its files listed again): the
   * temporal index read again, the metadata records added since the last look loaded into
   * `meta`, and the highest volume known before, any earlier one whose size changed, and any
   * new ones opened afresh (a file's size is taken when it is opened). libpcp stats its last volume at each pmGetArchiveEnd but
   * reads the index and metadata only when opening; following reads them too, so metrics
   * and instances logged later are known. Returns the lowest volume number opened afresh and
   * the sources it replaced, which the caller closes once nothing reads them.
   */
  async follow(files: ArchiveFiles, meta: ArchiveMetadata): Promise<{ readonly fromVol: number; readonly replaced: ByteSource[] }> {
    const fromVol = Math.min(this.maxVol, await this.lowestGrownVolume(files));
    const numbers = [...files.volumes.keys()].filter((v) => v >= this.minVol).sort((a, b) => a - b);
    if (files.index !== undefined) {
      const source = await this.open(files.index);
      try {
        this.indexNow = decodeTemporalIndex(await source.read(0, source.size), this.format);
      } finally {
        await source.close();
      }
    }
    const metaSource = await this.open(files.meta);
    try {
      this.metaEnd = loadMetaTail(await metaSource.read(0, metaSource.size), this.metaEnd, metaSource.name, meta);
    } finally {
      await metaSource.close();
    }
    this.filesNow = files;
    this.volumesNow = numbers;
    const replaced: ByteSource[] = [];
    for (const [vol, source] of this.volumeCache) {
      if (vol < fromVol) continue;
      this.volumeCache.delete(vol);
      const old = await source.catch(() => null);
      if (old) replaced.push(old);
    }
    return { fromVol, replaced };
  }

  /**
   * The lowest opened volume below the highest whose file is now longer or shorter than when
   * it was opened (Infinity when none). pmlogger finishes a volume before it starts the next,
   * but files copied or synced into a followed folder can arrive in any order, so a volume
   * may still grow after a later one appeared. Compressed volumes are never written in
   * place, so they are not looked at again.
   */
  private async lowestGrownVolume(files: ArchiveFiles): Promise<number> {
    for (const vol of [...this.volumeCache.keys()].sort((a, b) => a - b)) {
      if (vol >= this.maxVol) break;
      const path = files.volumes.get(vol);
      if (path === undefined || compressionOf(posixBasename(path)) !== undefined) continue;
      // A volume that failed to open reports that when it is read; there is no size to compare.
      const old = await this.volumeCache.get(vol)?.catch(() => null);
      if (!old) continue;
      const now = await this.open(path);
      const size = now.size;
      await now.close();
      if (size !== old.size) return vol;
    }
    return Infinity;
  }

  /** Closes every opened volume. */
  async close(): Promise<void> {
    const readers = await Promise.all([...this.volumeCache.values()]);
    this.volumeCache.clear();
    await Promise.all(readers.map((r) => (r ? r.close() : Promise.resolve())));
  }
}
