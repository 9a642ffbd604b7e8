// Block cache over one data volume: replay reads records one at a time, forwards and
// backwards, and re-reads the same neighbourhood from fetch to fetch (archive-format.md §7.3),
// so bytes are fetched from the ByteSource in aligned blocks and kept in an LRU that every
// volume shares (16 per volume held 16 MiB for each volume ever read). A record inside one
// block is returned as a view (no copy); one spanning blocks is read whole. Two blocks read in
// a row start a read of the next, so a forward replay rarely waits for the source.
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

  /** The last block read from the source, and the next one while it is read ahead. */
  private lastRead = -2;
  private nextIndex = -1;
  private next: Promise<Uint8Array> | undefined;

  private async block(index: number): Promise<Uint8Array> {
    const hit = this.blocks.get(this.owner + index);
    if (hit) return hit;
    const ahead = index === this.nextIndex ? this.next : undefined;
    this.next = undefined;
    this.nextIndex = -1;
    const read = ahead ?? this.volume.read(index * BLOCK_SIZE, BLOCK_SIZE);
    // Two blocks read in a row: a replay running forwards through the volume. The block after
    // this one is read meanwhile, so the replay need not wait for it when it gets there.
    if (index === this.lastRead + 1 && (index + 1) * BLOCK_SIZE < this.size) this.readNext(index + 1);
    this.lastRead = index;
    const bytes = await read;
    this.blocks.set(this.owner + index, bytes);
    return bytes;
  }

  private readNext(index: number): void {
    const next = this.volume.read(index * BLOCK_SIZE, BLOCK_SIZE);
    this.next = next;
    this.nextIndex = index;
    // A failed read ahead is forgotten: the replay's own read of the block reports it.
    next.catch(() => {
      if (this.next === next) {
        this.next = undefined;
        this.nextIndex = -1;
      }
    });
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
