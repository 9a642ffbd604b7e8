// Block cache over one data volume: replay reads records one at a time, forwards and
// backwards, and re-reads the same neighbourhood from fetch to fetch (archive-format.md §7.3),
// so bytes are fetched from the ByteSource in aligned blocks and kept in an LRU that every
// volume shares (16 per volume held 16 MiB for each volume ever read). A record inside one
// block is returned as a view (no copy); one spanning blocks is read whole.
import type { ReplayVolume } from './replay-source';
import { ByteCache, cacheOwner } from '../io/byte-cache';

// 1 MiB blocks: few ByteSource reads (each one a round trip through the platform's I/O)
// for the mostly sequential access of a replay.
export const BLOCK_SIZE = 1 << 20;

/** Blocks of every volume being replayed share this budget (io/README.md budgets): a
 *  neighbourhood of 16 blocks stays resident. */
export const volumeBlockCache = new ByteCache(16 * BLOCK_SIZE);

export class VolumeBytes {
  private readonly owner = cacheOwner('vol');
  private readonly blocks = volumeBlockCache;

  constructor(
    readonly volume: ReplayVolume,
    /** As fetch errors name the volume: base name and volume number. */
    readonly name: string,
    /** The file it was read from (compression suffix and all). */
    readonly file: string = name,
  ) {}

  get size(): number {
    return this.volume.size;
  }

  private async block(index: number): Promise<Uint8Array> {
    const hit = this.blocks.get(this.owner + index);
    if (hit) return hit;
    const bytes = await this.volume.read(index * BLOCK_SIZE, BLOCK_SIZE);
    this.blocks.set(this.owner + index, bytes);
    return bytes;
  }

  /** Bytes [offset, offset+length) clipped to the volume: shorter only at its end. */
  async bytes(offset: number, length: number): Promise<Uint8Array> {
    const end = Math.min(offset + length, this.size);
    if (offset < 0 || end <= offset) return new Uint8Array(0);
    const first = Math.floor(offset / BLOCK_SIZE);
    const last = Math.floor((end - 1) / BLOCK_SIZE);
    if (first === last) {
      // Bytes read ahead for a re-seek are used as they are: reading their block instead
      // would read a megabyte per sample of a stepped replay.
      const ahead = this.blocks.get(this.owner + first) ? undefined : this.volume.ahead?.(offset, end - offset);
      if (ahead) return ahead;
      const b = await this.block(first);
      const start = offset - first * BLOCK_SIZE;
      return b.subarray(start, Math.min(start + (end - offset), b.length));
    }
    // A record across blocks: one read of the source. Decompressed sources answer with a view
    // of the bytes they hold (assembling it from blocks was a copy per such record); file and
    // HTTP sources with one read, about what assembling costs.
    return this.volume.ahead?.(offset, end - offset) ?? this.volume.read(offset, end - offset);
  }

  /** Bytes [offset, offset+length) if they lie in one resident block, else undefined. */
  tryBytes(offset: number, length: number): Uint8Array | undefined {
    const first = Math.floor(offset / BLOCK_SIZE);
    if (offset < 0 || length <= 0 || Math.floor((offset + length - 1) / BLOCK_SIZE) !== first) return undefined;
    const b = this.blocks.get(this.owner + first);
    if (!b) return undefined;
    const start = offset - first * BLOCK_SIZE;
    return start + length <= b.length ? b.subarray(start, start + length) : undefined;
  }

  /** The word at `offset` if its 4 bytes lie in one resident block, else undefined (no
   *  subarray: this runs once per record read). */
  tryWord(offset: number): number | undefined {
    const first = Math.floor(offset / BLOCK_SIZE);
    if (offset < 0 || Math.floor((offset + 3) / BLOCK_SIZE) !== first) return undefined;
    const b = this.blocks.get(this.owner + first);
    if (!b) return undefined;
    const i = offset - first * BLOCK_SIZE;
    if (i + 4 > b.length) return undefined;
    return (b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3];
  }

  /** A big-endian 32-bit word at `offset`, or undefined if fewer than 4 bytes remain. */
  async word(offset: number): Promise<number | undefined> {
    const b = await this.bytes(offset, 4);
    if (b.length < 4) return undefined;
    return ((b[0]) << 24) | ((b[1]) << 16) | ((b[2]) << 8) | (b[3]);
  }
}

/** A forward pass's spans: bytes per read and reads in flight ahead of the one in use (as
 *  the read-ahead of dropped files, read-ahead-source.ts: 4 MiB × 4 measured best in Chromium). */
export const STREAM_SPAN_BYTES = 4 * 1024 * 1024;
export const STREAM_DEPTH = 4;
/** How far past the pass's end the spans read ahead reach. */
const STREAM_TAIL_BYTES = 1024 * 1024;

/** ArrayBuffers a StreamVolumeBytes read fresh: its answers are views of them (ownsBytes). */
const freshBuffers = new WeakSet<ArrayBufferLike>();

/** Whether `bytes` are a view of bytes a StreamVolumeBytes read fresh (no cache holds them). */
export function ownsBytes(bytes: Uint8Array): boolean {
  return freshBuffers.has(bytes.buffer);
}

/** Per fresh buffer, the byte range [lo, hi) its reader changed (changingBytes). */
const changedRanges = new WeakMap<ArrayBufferLike, { lo: number; hi: number }>();

/**
 * The reader is about to change `bytes` (ownsBytes: its own, e.g. a V2 record made V3 in
 * place): the StreamVolumeBytes that read them answers no later read from them, but reads
 * those bytes again (an archive's end looked for after its last records were copied).
 */
export function changingBytes(bytes: Uint8Array): void {
  const lo = bytes.byteOffset;
  const hi = lo + bytes.byteLength;
  const r = changedRanges.get(bytes.buffer);
  if (!r) changedRanges.set(bytes.buffer, { lo, hi });
  else {
    r.lo = Math.min(r.lo, lo);
    r.hi = Math.max(r.hi, hi);
  }
}

/** Whether bytes [from, to) of `b` (a view of a whole span) lie in a range changed since read. */
function changed(b: Uint8Array, from: number, to: number): boolean {
  const r = changedRanges.get(b.buffer);
  return r !== undefined && b.byteOffset + from < r.hi && b.byteOffset + to > r.lo;
}

interface StreamSpan {
  readonly start: number;
  readonly end: number;
  readonly read: Promise<Uint8Array>;
  /** The bytes once read (for the synchronous tryBytes and tryWord). */
  bytes?: Uint8Array;
}

/**
 * A volume read once forwards by a reader that keeps what it reads (an archive export hands
 * the records on as views, into its .tar): bytes come in spans read fresh from the source
 * (ReplayVolume.readFresh), past every cache, several spans ahead of the one in use and no
 * further than `end` (the pass's end, when known). Every answer is a view of a span (a record
 * across two spans is joined into an array of its own): none is a view of a cached buffer,
 * so the reader may keep or transfer them (ownsBytes). Reads elsewhere (a seek, an archive's
 * end) start spans there.
 */
export class StreamVolumeBytes extends VolumeBytes {
  private spans: StreamSpan[] = [];
  /** The span last read from. */
  private current: StreamSpan | undefined;

  constructor(
    volume: ReplayVolume,
    name: string,
    file: string,
    /** The volume's ReplayVolume.readFresh. */
    private readonly readFresh: (offset: number, length: number) => Promise<Uint8Array>,
    /** Where the pass ends (undefined: the volume's end): no span is read ahead past it. */
    private readonly end: number | undefined = undefined,
  ) {
    super(volume, name, file);
  }

  private readSpan(start: number, end: number): StreamSpan {
    const span: StreamSpan = {
      start,
      end,
      read: this.readFresh(start, end - start).then((b) => {
        freshBuffers.add(b.buffer);
        span.bytes = b;
        return b;
      }),
    };
    // A failed read is reported by the read that awaits it (one read ahead may never be).
    span.read.catch(() => undefined);
    this.spans.push(span);
    return span;
  }

  /** Bytes [offset, end) read from the volume again, outside the spans (see changingBytes). */
  private async readAgain(offset: number, end: number): Promise<Uint8Array> {
    const b = await this.readFresh(offset, end - offset);
    freshBuffers.add(b.buffer);
    return b;
  }

  private spanAt(offset: number): StreamSpan | undefined {
    return this.spans.find((s) => s.start <= offset && offset < s.end);
  }

  /** The span holding `offset`, read now if none does (up to the next span held: a seek's
   *  read back from the window's first record reads those bytes only, not a span again). */
  private span(offset: number, upTo = offset + STREAM_SPAN_BYTES): StreamSpan {
    const held = this.spanAt(offset);
    if (held) return held;
    let end = Math.min(this.size, upTo);
    for (const s of this.spans) if (s.start > offset && s.start < end) end = s.start;
    return this.readSpan(offset, end);
  }

  /**
   * `s` is now the span read from: the spans after it are read ahead (the depth, no further
   * than the pass's end), and those the pass has left behind are forgotten here (records read
   * from them keep them).
   */
  private use(s: StreamSpan): void {
    if (s === this.current) return;
    this.current = s;
    this.spans = this.spans.filter((x) => x.end > s.start - STREAM_SPAN_BYTES || x === s);
    const limit = Math.min(this.size, this.end ?? this.size);
    for (let k = 0, next = s.end; k < STREAM_DEPTH && next < limit; k++) {
      // The last one ahead reaches a little past the pass's end: the record that ends the pass
      // (the first past its window) is read, not a whole span more.
      next = this.span(next, Math.min(next + STREAM_SPAN_BYTES, limit + STREAM_TAIL_BYTES)).end;
    }
  }

  override async bytes(offset: number, length: number): Promise<Uint8Array> {
    const end = Math.min(offset + length, this.size);
    if (offset < 0 || end <= offset) return new Uint8Array(0);
    const s = this.span(offset);
    this.use(s);
    const b = await s.read;
    // Bytes the reader changed are read again, as they are in the volume.
    if (changed(b, offset - s.start, Math.min(end, s.end) - s.start)) return this.readAgain(offset, end);
    if (end <= s.end) return b.subarray(offset - s.start, end - s.start);
    // Across spans: joined into an array of its own (shorter where a read came short: the
    // file shrank, which the caller reports).
    const out = new Uint8Array(end - offset);
    freshBuffers.add(out.buffer);
    out.set(b.subarray(offset - s.start), 0);
    if (b.length < s.end - s.start) return out.subarray(0, s.start + b.length - offset);
    for (let at = s.end; at < end; ) {
      const t = this.span(at);
      const tb = await t.read;
      const n = Math.min(t.end, end) - at;
      if (changed(tb, at - t.start, at - t.start + n)) return this.readAgain(offset, end);
      const part = tb.subarray(at - t.start, at - t.start + n);
      out.set(part, at - offset);
      if (part.length < n) return out.subarray(0, at + part.length - offset);
      at += n;
    }
    return out;
  }

  override tryBytes(offset: number, length: number): Uint8Array | undefined {
    if (length <= 0) return undefined;
    const s = this.spanAt(offset);
    if (!s?.bytes || offset + length > s.start + s.bytes.length || changed(s.bytes, offset - s.start, offset + length - s.start)) return undefined;
    this.use(s);
    return s.bytes.subarray(offset - s.start, offset + length - s.start);
  }

  override tryWord(offset: number): number | undefined {
    const b = this.tryBytes(offset, 4);
    if (!b) return undefined;
    return (b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3];
  }
}
