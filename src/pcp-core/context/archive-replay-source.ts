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
import type { InDom, PmId, Timestamp } from '../types';

/** Bytes of spans read ahead and kept per volume: the 8 samples a stepped replay asks ahead
 *  (interp-grid.ts) on 200 KB records take about 3.2 MB. */
const SPAN_BUDGET = 8 * 1024 * 1024;
/** At least this much of a span lies before / after its index entry: where entries crowd
 *  together (a few bytes apart at a volume's start, or around a <mark>) the records a
 *  re-seek reads still lie in the span (a record back, a few forwards; more is read on
 *  demand). Also the span's reach where a neighbouring entry is missing. */
const BEFORE_ENTRY = 32 * 1024;
const AFTER_ENTRY = 128 * 1024;
/** Bytes a span is extended by when a re-seek reads just past it (VolumeReads.extension). */
const EXTEND = 128 * 1024;
/** Bytes a span reaches back past the farthest a re-seek to the entry after t has read
 *  (ReachBack): records of a burst differ in size from interval to interval. */
const REACH_SLACK = 8 * 1024;
/** However far apart the index entries are, a span reaches no further than this. */
const MAX_BEFORE = 1024 * 1024;
const MAX_AFTER = 2 * 1024 * 1024;

/** A span starting at most this far past the previous one's end is read from that end: the
 *  reads then run forwards through the file, and a source that reads ahead (dropped files,
 *  HTTP) answers them from a few large reads. In Chromium a Blob read costs about 0.5 ms of
 *  CPU (worker, browser I/O threads) besides ~1.8 ms per MB it carries (360 reads of 400 KB:
 *  410–890 ms; the same bytes in 35 reads: 220–350 ms), so a gap under ~280 KB is cheaper to
 *  read than to skip, a larger one is not (the whole 1.3 GB archive on 361 points read 200 MB
 *  of spans; the 328 MB QA archive at 4 intervals per step read all of its 313 MB when gaps of
 *  a megabyte were read). */
const COALESCE_GAP = 256 * 1024;

/** Bytes read ahead: [start, end) of a volume, in flight or read. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly bytes: Promise<Uint8Array>;
  /** Replay has read from it: over budget, such spans go before those still to be used. */
  used: boolean;
  /** For a re-seek to the index entry after t: that entry's offset (ReachBack), and how
   *  far before it the replay has read from this span. */
  entryAfter?: number;
  readBack?: number;
}

/** Re-seeks to the entry after t whose reach back is remembered (ReachBack). */
const REACH_SPANS = 8;

/**
 * The spans of the last REACH_SPANS re-seeks to the index entry after t that the replay has
 * read from, shared by a set's volumes: how far back before that entry they read (the records
 * holding the metrics' lower bounds). The last few, not all: near an archive's start a re-seek
 * may read further back than any later one (metrics appearing, counters' first values).
 */
interface ReachBack {
  readonly spans: Span[];
}

/** The farthest the remembered re-seeks have read back, or undefined before any. */
function farthestBack(reach: ReachBack): number | undefined {
  if (reach.spans.length === 0) return undefined;
  let n = 0;
  for (const s of reach.spans) n = Math.max(n, s.readBack ?? 0);
  return n;
}

/**
 * One volume's reads, with spans read ahead on request (a stepped replay's next samples).
 * A span is exactly the records around an index entry, not the volume's blocks: at one sample
 * per several records a block read for each sample read four times the bytes replay decodes.
 * A read inside a span is answered from it; a span whose read failed answers with the
 * replay's own read, which then meets (and reports) the failure.
 */
class VolumeReads {
  private readonly spans: Span[] = [];

  constructor(
    private readonly source: ByteSource,
    private readonly reach: ReachBack = { spans: [] },
  ) {}

  get size(): number {
    return this.source.size;
  }

  /** Starts reading [start, end) unless a span read ahead covers it; `entryAfter`: see Span. */
  prefetch(start: number, end: number, entryAfter?: number): void {
    let from = Math.max(0, start);
    const to = Math.min(end, this.source.size);
    if (to <= from || this.covering(from, to)) return;
    const last = this.spans[this.spans.length - 1];
    if (last && from > last.end && from - last.end <= COALESCE_GAP) from = last.end;
    let held = to - from;
    for (const s of this.spans) held += s.end - s.start;
    while (held > SPAN_BUDGET && this.spans.length > 0) {
      const i = this.spans.findIndex((s) => s.used);
      const [old] = this.spans.splice(Math.max(i, 0), 1);
      if (old) held -= old.end - old.start;
    }
    const span: Span = { start: from, end: to, bytes: this.source.read(from, to - from), used: false, entryAfter };
    this.spans.push(span);
    // A failed read ahead is forgotten: the replay's own read of these bytes reports it.
    span.bytes.catch(() => {
      const i = this.spans.indexOf(span);
      if (i >= 0) this.spans.splice(i, 1);
    });
  }

  private covering(from: number, to: number): Span | undefined {
    for (let i = this.spans.length - 1; i >= 0; i--) {
      const s = this.spans[i];
      if (s && s.start <= from && to <= s.end) return s;
    }
    return undefined;
  }

  /**
   * A span joining the last one used where [offset, offset+length) lies just past its end (a
   * re-seek reading on to a record past t) or just before its start (reading back to one
   * before t): a read of EXTEND bytes or so, where the replay's own read would be a 1 MiB block.
   */
  private extension(offset: number, length: number): Span | undefined {
    let used: Span | undefined;
    for (let i = this.spans.length - 1; i >= 0 && !used; i--) if (this.spans[i]?.used) used = this.spans[i];
    if (!used) return undefined;
    const end = offset + length;
    let from: number;
    let to: number;
    if (offset >= used.start && end > used.end && offset < used.end + EXTEND) [from, to] = [Math.min(offset, used.end), Math.max(end, used.end + EXTEND)];
    else if (end <= used.end && offset < used.start && end > used.start - EXTEND) [from, to] = [Math.min(offset, used.start - EXTEND), Math.max(end, used.start)];
    else return undefined;
    from = Math.max(0, from);
    to = Math.min(to, this.source.size);
    // A length word no record has (a damaged volume) is read as before, not held in a span.
    if (to <= from || offset < from || end > to || to - from > MAX_AFTER) return undefined;
    this.prefetch(from, to, used.entryAfter);
    return this.covering(offset, end);
  }

  /** A forward pass of about `length` bytes from `offset` follows (ByteSource.startPass);
   *  `fresh`: its reader reads the source's fresh bytes itself, where it can (readFresh). */
  startPass(offset: number, length: number, fresh = false): void {
    if (fresh && this.source.readFresh) return;
    this.source.startPass?.(Math.max(0, offset), length);
  }

  /** Bytes [offset, offset+length) from a span read ahead, or undefined when none covers them
   *  (nor lies just before or after them: then that span is extended to cover them). */
  ahead(offset: number, length: number): Promise<Uint8Array> | undefined {
    const s = this.covering(offset, offset + length) ?? this.extension(offset, length);
    if (!s) return undefined;
    if (s.entryAfter !== undefined) {
      if (!s.used) this.reach.spans.push(s);
      if (this.reach.spans.length > REACH_SPANS) this.reach.spans.shift();
      if (offset < s.entryAfter) s.readBack = Math.max(s.readBack ?? 0, s.entryAfter - offset);
    }
    s.used = true;
    return s.bytes.then(
      (b) => b.subarray(offset - s.start, offset - s.start + length),
      () => this.source.read(offset, length),
    );
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    return this.source.read(offset, length);
  }

  /** Forgets the spans read ahead (idle: a drawn view keeps no archive bytes). */
  release(): void {
    this.spans.length = 0;
  }
}

/** The replay input over an opened set, and its read-ahead for stepped replay. */
export interface ArchiveReplay {
  readonly replay: ReplaySet;
  /** Hint: a re-seek to `at` will follow; its neighbourhood is read ahead. */
  readonly prefetch: (at: Timestamp) => void;
  /** Drops the bytes read ahead and not yet used (a cache: reads work as before). */
  readonly release: () => void;
  /** Hint: a sequential replay from `from` to `to` follows; reading forwards starts there.
   *  `fresh`: the replay reads the volumes that can read fresh bytes itself (LogCursor KeptReads). */
  readonly prefetchPass: (from: Timestamp, to: Timestamp, fresh?: boolean) => void;
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
  const reach: ReachBack = { spans: [] };
  const reads: Map<number, VolumeReads>[] = [];
  /** Per archive: its answers for volumes (undefined too: missing, bad label), kept. */
  const answers: Map<number, ReplayVolume | undefined | Promise<ReplayVolume | undefined>>[] = [];
  const addArchive = async (a: Archive): Promise<void> => {
    const volumes = new Map<number, ReplayVolume | undefined | Promise<ReplayVolume | undefined>>();
    const mine = new Map<number, VolumeReads>();
    const replayVolume = (v: number, source: ByteSource): ReplayVolume => {
      const r = new VolumeReads(source, reach);
      mine.set(v, r);
      const fresh = typeof source.readFresh === 'function';
      return {
        file: a.files.volumes.get(v),
        size: source.size,
        read: (offset, length) => r.read(offset, length),
        ahead: (offset, length) => r.ahead(offset, length),
        readAhead: async () => source.readAhead?.(0, source.size),
        readFresh: fresh ? (offset, length) => source.readFresh?.(offset, length) ?? source.read(offset, length) : undefined,
      };
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
  /** The archive holding `at` (the last one starting at or before it), and the index entry
   *  __pmLogSetTime will position at (the nearer either side: roughly, a hint). */
  const entryAt = (at: Timestamp): { readonly i: number; readonly e: number; readonly vol: number; readonly offset: number } | undefined => {
    let i = 0;
    while (i + 1 < archives.length && compare(archives[i + 1]?.start, at) <= 0) i++;
    const ix = archives[i]?.index;
    if (!ix || ix.length === 0) return undefined;
    const j = firstNotBefore(ix, at);
    const after = j < ix.length ? ix.sec[j] + ix.nsec[j] / 1e9 - (at.sec + at.nsec / 1e9) : Infinity;
    const before = j > 0 ? at.sec + at.nsec / 1e9 - (ix.sec[j - 1] + ix.nsec[j - 1] / 1e9) : Infinity;
    const e = after <= before ? j : j - 1;
    if (e < 0 || e >= ix.length) return undefined;
    return { i, e, vol: ix.vol[e], offset: ix.offData[e] };
  };
  const prefetch = (at: Timestamp): void => {
    const hit = entryAt(at);
    const ix = hit && archives[hit.i]?.index;
    if (!hit || !ix) return;
    // Index entries lie on record boundaries. With t between entries lo and hi = lo+1, a
    // re-seek positions at the nearer one, backs up over a record or reads backwards to the
    // first record not after t, and reads forwards to the first record past t: often the one
    // at hi (ending by the entry after hi). The bounds of metrics missing from the records
    // near t lie further: where pmlogger writes each interval's records in one burst (an
    // entry per burst, as in the QA archive 20180416.10.00), the lower ones are in the burst
    // at lo even when t lies nearer hi. So the span runs from lo (or a bit before) to the
    // entry after hi (the span from the entry before the nearer one to the one after it
    // missed hi's record when the nearer one was lo: a 1 MiB block read in every other sample).
    // A record wanted just beyond the span extends it (VolumeReads.extension).
    // Where the re-seek is to hi (t nearer it), it reads back from hi only as far as the
    // lower bounds lie: on the grid the charts and pmchart use (the archive's start plus k
    // steps, a few ms before each burst) one 15 KB record, then forwards the 180 KB one at
    // hi, and the 180 KB record at lo was read ahead unused (half the bytes of a whole-
    // archive view of CPU, disk, network and memory; the Overview's hinv.ncpu is logged in
    // the 180 KB records only, so its re-seeks read that one too). So once re-seeks to hi
    // have shown how far back they read (the last few: ReachBack), such spans start that far
    // (and BEFORE_ENTRY at least) before hi, never before lo.
    const { i, e, vol, offset: off } = hit;
    const sameVol = (k: number): boolean => k >= 0 && k < ix.length && ix.vol[k] === vol;
    const lo = compare({ sec: ix.sec[e], nsec: ix.nsec[e] }, at) <= 0 ? e : e - 1;
    const hi = lo + 1;
    const fromLo = sameVol(lo) ? Math.min(ix.offData[lo], off - BEFORE_ENTRY) : off - BEFORE_ENTRY;
    const known = farthestBack(reach);
    // Not at a volume's end, where the last burst may be cut short (pmlogextract -T).
    const start = e === hi && known !== undefined && sameVol(hi + 1) ? Math.max(fromLo, off - Math.max(BEFORE_ENTRY, known + REACH_SLACK)) : fromLo;
    const end = Math.max(sameVol(hi) && sameVol(hi + 1) ? ix.offData[hi + 1] : 0, off + AFTER_ENTRY);
    reads[i]?.get(vol)?.prefetch(Math.max(start, off - MAX_BEFORE), Math.min(end, off + MAX_AFTER), e === hi ? off : undefined);
  };
  const prefetchPass = (from: Timestamp, to: Timestamp, fresh = false): void => {
    const a = entryAt(from);
    if (!a) return;
    // As far as the index says the pass goes in that volume (its end, past the last entry).
    const b = entryAt(to);
    const length = b && b.i === a.i && b.vol === a.vol ? b.offset - a.offset + BEFORE_ENTRY + AFTER_ENTRY : Infinity;
    reads[a.i]?.get(a.vol)?.startPass(a.offset - BEFORE_ENTRY, length, fresh);
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
  const release = (): void => {
    // The next view may want other metrics, whose lower bounds lie further back.
    reach.spans.length = 0;
    for (const perArchive of reads) for (const r of perArchive.values()) r.release();
  };
  const append = async (files: ArchiveFiles): Promise<boolean> => {
    if (!(await set.append(files))) return false;
    await addArchive(set.archives[set.archives.length - 1]);
    newestFirst.clear();
    return true;
  };
  return { replay: { archives, meta }, prefetch, prefetchPass, release, follow, append };
}

function compare(a: Timestamp | undefined, b: Timestamp): number {
  if (!a) return 1;
  return a.sec !== b.sec ? a.sec - b.sec : a.nsec - b.nsec;
}
