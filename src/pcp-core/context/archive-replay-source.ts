// Adapter from the archive reader (src/pcp-core/archive: ArchiveSet, merged metadata) to the
// replay engine's input (replay/replay-source.ts). Data volumes are opened (labels checked)
// when replay first asks for them — the lowest one, opened with the archive, at once: opening
// every volume here checked every label, and for an xz volume that meant decompressing it,
// before `metrics -d` could print a descriptor. Their bytes are read lazily, block by block,
// as records are needed — or ahead, when a stepped replay says where
// its next samples are (prefetch): a re-seek per sample otherwise waits on one read at a time.
import type { Archive, ArchiveSet } from '../archive';
import type { ArchiveFiles } from '../io/archive-files';
import type { ByteSource } from '../io/byte-source';
import { firstNotBefore } from '../replay/log-seek';
import type { InDomObservation, ReplayArchive, ReplayMetadata, ReplaySet, ReplayVolume } from '../replay/replay-source';
import { BLOCK_SIZE } from '../replay/volume-bytes';
import type { InDom, PmId, Timestamp } from '../types';

/** Blocks read ahead and not yet used, per volume: a few samples' worth, bounded memory. */
const PREFETCH_BLOCKS = 24;
/** Blocks a volume remembers as read: a window read again (another chart) is not read ahead again. */
const READ_MEMORY = 8192;
/** Around the index entry a re-seek starts from, the bytes it usually reads (a record back, a
 *  couple forwards on pmlogger's ~100 KB index spacing); more is read on demand. */
const BEFORE_ENTRY = 32 * 1024;
const AFTER_ENTRY = 384 * 1024;

/**
 * One volume's reads, with blocks (VolumeBytes' alignment) read ahead on request. A read the
 * replay makes is answered from a block read ahead when one covers it; a block read ahead
 * that failed is dropped and the replay's own read then meets (and reports) the failure.
 */
class VolumeReads {
  private readonly ahead = new Map<number, Promise<Uint8Array>>();
  private readonly read = new Set<number>();

  constructor(private readonly source: ByteSource) {}

  get size(): number {
    return this.source.size;
  }

  private remember(block: number): void {
    if (this.read.size >= READ_MEMORY) this.read.clear();
    this.read.add(block);
  }

  /** Starts reading the blocks covering [offset, offset+length) not read before. */
  prefetch(offset: number, length: number): void {
    const first = Math.max(0, Math.floor(offset / BLOCK_SIZE));
    const last = Math.floor((Math.min(offset + length, this.source.size) - 1) / BLOCK_SIZE);
    for (let b = first; b <= last; b++) {
      if (this.read.has(b) || this.ahead.has(b)) continue;
      if (this.ahead.size >= PREFETCH_BLOCKS) {
        const oldest = this.ahead.keys().next().value;
        if (oldest !== undefined) this.ahead.delete(oldest);
      }
      this.remember(b);
      const p = this.source.read(b * BLOCK_SIZE, BLOCK_SIZE);
      this.ahead.set(b, p);
      // A failed read ahead is forgotten: the replay's own read of these bytes reports it.
      p.catch(() => this.ahead.delete(b));
    }
  }

  async bytes(offset: number, length: number): Promise<Uint8Array> {
    const b = Math.floor(offset / BLOCK_SIZE);
    const pending = Math.floor((offset + length - 1) / BLOCK_SIZE) === b ? this.ahead.get(b) : undefined;
    if (pending) {
      const block = await pending.catch(() => undefined);
      if (block) {
        // A whole block goes to VolumeBytes' cache: no need to keep it here too.
        if (offset === b * BLOCK_SIZE && length === BLOCK_SIZE) this.ahead.delete(b);
        const start = offset - b * BLOCK_SIZE;
        return block.subarray(start, Math.min(start + length, block.length));
      }
    }
    if (offset % BLOCK_SIZE === 0 && length === BLOCK_SIZE) this.remember(b);
    return this.source.read(offset, length);
  }
}

/** The replay input over an opened set, and its read-ahead for stepped replay. */
export interface ArchiveReplay {
  readonly replay: ReplaySet;
  /** Hint: a re-seek to `at` will follow; its neighbourhood is read ahead. */
  readonly prefetch: (at: Timestamp) => void;
  /**
   * Follows the latest archive (or `archive`) as it grows (ArchiveSet.follow with its files listed again):
   * the volumes opened afresh are opened here, so replay finds them at once; the cursor must
   * then forget its own view of them (LogCursor.forgetVolumes). Returns what changed.
   */
  readonly follow: (files: ArchiveFiles, archive?: number) => Promise<{ readonly archive: number; readonly fromVol: number }>;
  /** A new latest archive joins the set (ArchiveSet.append); replay reads on into it. */
  readonly append: (files: ArchiveFiles) => Promise<boolean>;
}

export async function replaySetOf(set: ArchiveSet): Promise<ArchiveReplay> {
  const archives: ReplayArchive[] = [];
  const reads: Map<number, VolumeReads>[] = [];
  /** Per archive: its answers for volumes (undefined too: missing, bad label), kept. */
  const answers: Map<number, ReplayVolume | undefined | Promise<ReplayVolume | undefined>>[] = [];
  const addArchive = async (a: Archive): Promise<void> => {
    const volumes = new Map<number, ReplayVolume | undefined | Promise<ReplayVolume | undefined>>();
    const mine = new Map<number, VolumeReads>();
    const replayVolume = (v: number, source: ByteSource): ReplayVolume => {
      const r = new VolumeReads(source);
      mine.set(v, r);
      return { file: a.files.volumes.get(v), size: source.size, read: (offset, length) => r.bytes(offset, length), readAhead: async () => source.readAhead?.(0, source.size) };
    };
    const volume = (v: number): ReplayVolume | undefined | Promise<ReplayVolume | undefined> => {
      if (volumes.has(v)) return volumes.get(v);
      const opening = a.volume(v).then((source) => {
        const rv = source ? replayVolume(v, source) : undefined;
        volumes.set(v, rv);
        return rv;
      });
      volumes.set(v, opening);
      return opening;
    };
    await volume(a.minVol);
    answers.push(volumes);
    reads.push(mine);
    // Getters: a followed archive's volumes and index change (follow below).
    archives.push({
      name: a.name,
      version: a.format.version,
      labelSize: a.format.labelSize,
      start: a.start,
      get minVol() {
        return a.minVol;
      },
      get maxVol() {
        return a.maxVol;
      },
      volume,
      get index() {
        return a.index;
      },
    });
  };
  for (const a of set.archives) await addArchive(a);
  const md = set.metadata;
  const newestFirst = new Map<number, readonly InDomObservation[]>();
  const meta: ReplayMetadata = {
    desc: (pmid: PmId) => md.desc(pmid),
    indomUnion: (indom: InDom) => md.indomUnion(indom)?.instances,
    indomObservations(indom: InDom) {
      let obs = newestFirst.get(indom);
      if (!obs) {
        // The reader keeps time order; libpcp's chain (and its caliper walk) is newest first.
        obs = md
          .indomObservations(indom)
          .map((o) => ({ time: o.stamp, instances: o.set.instances }))
          .reverse();
        newestFirst.set(indom, obs);
      }
      return obs;
    },
  };
  const prefetch = (at: Timestamp): void => {
    // The archive holding `at` (the last one starting at or before it), then the index entry
    // __pmLogSetTime will position at.
    let i = 0;
    while (i + 1 < archives.length && compare(archives[i + 1]?.start, at) <= 0) i++;
    const ix = archives[i]?.index;
    if (!ix || ix.length === 0) return;
    const j = firstNotBefore(ix, at);
    // The nearer of the entries either side, as __pmLogSetTime picks (roughly: a hint).
    const after = j < ix.length ? ix.sec[j] + ix.nsec[j] / 1e9 - (at.sec + at.nsec / 1e9) : Infinity;
    const before = j > 0 ? at.sec + at.nsec / 1e9 - (ix.sec[j - 1] + ix.nsec[j - 1] / 1e9) : Infinity;
    const e = after <= before ? j : j - 1;
    if (e < 0 || e >= ix.length) return;
    reads[i]?.get(ix.vol[e])?.prefetch(ix.offData[e] - BEFORE_ENTRY, BEFORE_ENTRY + AFTER_ENTRY);
  };
  const follow = async (files: ArchiveFiles, which?: number): Promise<{ archive: number; fromVol: number }> => {
    const { archive, fromVol, replaced } = await set.follow(files, which);
    const a = set.archives[archive];
    const volumes = answers[archive];
    for (const v of [...volumes.keys()]) if (v >= fromVol) volumes.delete(v);
    for (const v of [...(reads[archive]?.keys() ?? [])]) if (v >= fromVol) reads[archive]?.delete(v);
    for (const v of a.volumeNumbers) if (v >= fromVol) await archives[archive]?.volume(v);
    newestFirst.clear();
    await Promise.all(replaced.map((s) => s.close()));
    return { archive, fromVol };
  };
  const append = async (files: ArchiveFiles): Promise<boolean> => {
    if (!(await set.append(files))) return false;
    await addArchive(set.archives[set.archives.length - 1]);
    newestFirst.clear();
    return true;
  };
  return { replay: { archives, meta }, prefetch, follow, append };
}

function compare(a: Timestamp | undefined, b: Timestamp): number {
  if (!a) return 1;
  return a.sec !== b.sec ? a.sec - b.sec : a.nsec - b.nsec;
}
