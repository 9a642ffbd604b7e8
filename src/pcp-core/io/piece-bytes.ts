// A decoded chunk's bytes as they came: one buffer, or the pieces an off-thread decoder handed
// on (src/workers/xz-pool.ts), kept as they are. Joining a 100 MB block's pieces into one
// buffer cost the engine's thread ~0.6 ms per MB; a read needs only its own bytes, and those
// lie within one piece nearly always.

/** Bytes a decoded chunk is read from (ChunkedSource, ByteCache): a Uint8Array is one. */
export interface ChunkBytes {
  readonly length: number;
  /** Bytes [begin, end): a view where they lie in one buffer, else a copy of just them. */
  subarray(begin: number, end: number): Uint8Array;
}

/**
 * Bytes held as consecutive pieces: piece k holds [starts[k], starts[k] + pieces[k].length).
 * Pieces are in order with no gaps; the lists may grow after this view was made (a decode in
 * progress appends to them), and the view covers only its first `length` bytes.
 */
export class PieceBytes implements ChunkBytes {
  constructor(
    private readonly pieces: readonly Uint8Array[],
    private readonly starts: readonly number[],
    readonly length: number,
  ) {}

  /** The piece holding byte `offset` (< length). */
  private pieceAt(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  subarray(begin: number, end: number): Uint8Array {
    // Bounds as Uint8Array.subarray takes them (non-negative here).
    const from = Math.max(0, Math.min(begin, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    if (from === to) return new Uint8Array(0);
    let k = this.pieceAt(from);
    const start = this.starts[k];
    if (to <= start + this.pieces[k].length) return this.pieces[k].subarray(from - start, to - start);
    const out = new Uint8Array(to - from);
    for (let at = from; at < to; k++) {
      const piece = this.pieces[k];
      const pieceStart = this.starts[k];
      const part = piece.subarray(at - pieceStart, Math.min(piece.length, to - pieceStart));
      out.set(part, at - from);
      at += part.length;
    }
    return out;
  }
}
