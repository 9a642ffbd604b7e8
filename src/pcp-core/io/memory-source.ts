// A ByteSource over bytes already in memory: tests, fetched responses, decompressed volumes.
import type { ByteSource } from './byte-source';

export class MemorySource implements ByteSource {
  private closed = false;

  constructor(
    readonly name: string,
    private readonly bytes: Uint8Array,
  ) {}

  get size(): number {
    return this.bytes.length;
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new Error(`${this.name}: read after close`));
    if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0) {
      return Promise.reject(new RangeError(`${this.name}: bad read(${offset}, ${length})`));
    }
    const start = Math.min(offset, this.bytes.length);
    return Promise.resolve(this.bytes.subarray(start, Math.min(start + length, this.bytes.length)));
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}
