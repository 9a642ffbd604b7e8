// An output buffer for whole-file decompressors: bytes are appended in place into one
// allocation that doubles when full, so a 100 MB volume costs about its own size (plus the
// spare capacity) rather than a chunk list and then a second full-size copy.

export class GrowableBytes {
  private buffer: Uint8Array;
  length = 0;

  /** @param hint expected final size (e.g. gzip's ISIZE); a wrong hint only costs a copy */
  constructor(hint = 64 * 1024) {
    // A hint read from a corrupt file may be absurd: never preallocate more than 256 MiB.
    this.buffer = new Uint8Array(Math.min(Math.max(1024, hint), 256 * 1024 * 1024));
  }

  private reserve(extra: number): void {
    const need = this.length + extra;
    if (need <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < need) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }

  push(chunk: Uint8Array): void {
    this.reserve(chunk.length);
    this.buffer.set(chunk, this.length);
    this.length += chunk.length;
  }

  pushByte(byte: number): void {
    if (this.length === this.buffer.length) this.reserve(1);
    this.buffer[this.length++] = byte;
  }

  /** The bytes so far, as a view that later pushes may invalidate. */
  view(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  /** The final bytes: a view, copied only when more than a quarter of the capacity is spare. */
  bytes(): Uint8Array {
    const view = this.buffer.subarray(0, this.length);
    return this.length < this.buffer.length * 0.75 ? view.slice() : view;
  }
}
