// What the replay engine needs from an opened archive set: per archive its label facts, its
// data volumes as random-access bytes and its temporal index, plus the merged metadata of the
// whole set (descriptors, instance-domain history). The archive reader (src/pcp-core/archive)
// provides this through a thin adapter (context/archive-replay-source.ts); tests build it from
// synthetic records. Kept minimal on purpose: the positioning rules of libpcp (log-cursor.ts)
// work on byte offsets, so they need bytes, not decoded records.
import type { Desc, InDom, PmId, Timestamp } from '../types';

/** One data volume (`B.N`) whose label was checked (magic, version, `vol` field). */
export interface ReplayVolume {
  /** The file, as errors naming a damaged record give it (default: base name + volume). */
  readonly file?: string;
  /** Uncompressed size in bytes, label included. */
  readonly size: number;
  /** Bytes [offset, offset+length), shorter only at the end of the volume. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * Bytes [offset, offset+length) when they were read ahead (a stepped replay's next samples),
   * else undefined: then `read` them.
   */
  ahead?(offset: number, length: number): Promise<Uint8Array> | undefined;
  /** Hint that the whole volume will be read soon (see ByteSource.readAhead). */
  readAhead?(): Promise<void>;
  /** `read` into an ArrayBuffer no one else holds (ByteSource.readFresh), where the source can. */
  readFresh?(offset: number, length: number): Promise<Uint8Array>;
}

/** The temporal index of one archive (archive-format.md §6), entries in file order. */
export interface TemporalIndexEntries {
  readonly length: number;
  readonly sec: Float64Array;
  readonly nsec: Int32Array;
  readonly vol: Int32Array;
  /** Offset in data volume `vol` (V3 offsets are 64-bit; any real one fits a double). */
  readonly offData: Float64Array;
}

export interface ReplayArchive {
  /** Base name, as named in messages. */
  readonly name: string;
  /** 2 or 3. */
  readonly version: number;
  /** 132 (V2) or 808 (V3): where records start in every volume. */
  readonly labelSize: number;
  readonly start: Timestamp;
  /** Lowest and highest volume numbers found among the archive's files. */
  readonly minVol: number;
  readonly maxVol: number;
  /**
   * The volume, or undefined when missing or its label does not check (libpcp skips it). A
   * volume not opened yet answers with a promise (opening checks its label): volumes beyond
   * the first are opened only when replay reaches them, so metadata-only work opens none.
   */
  volume(vol: number): ReplayVolume | undefined | Promise<ReplayVolume | undefined>;
  readonly index: TemporalIndexEntries;
}

/** One observation of an instance domain, fully rebuilt from any delta records (§4.3). */
export interface InDomObservation {
  readonly time: Timestamp;
  /** Sorted ascending. */
  readonly instances: Int32Array;
}

export interface ReplayMetadata {
  /** The merged descriptor of a pmid, or undefined when the archive set has none. */
  desc(pmid: PmId): Desc | undefined;
  /**
   * Every instance ever listed for the domain (pmGetInDomArchive), in libpcp's order: walking
   * the observations newest first, each observation's instances in ascending id order, first
   * occurrence kept. Undefined when the domain has no metadata.
   */
  indomUnion(indom: InDom): Int32Array | undefined;
  /** All observations of the domain, newest first (ties: later in file order first). */
  indomObservations(indom: InDom): readonly InDomObservation[];
}

/** An archive set sorted by label start time, with its merged metadata. */
export interface ReplaySet {
  readonly archives: readonly ReplayArchive[];
  readonly meta: ReplayMetadata;
}
