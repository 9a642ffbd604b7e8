// A ByteSource over a random-access file handle that a platform adapter injects (Arrow's
// FileHandle idea): pcp-core never imports `fs`, yet owns the read loop and its checks. Node's
// fs/promises FileHandle fits RandomAccessHandle as it is (src/node/file-source.ts).
import type { ByteSource } from './byte-source';
import { EIO, PmError } from '../errors';
import { checkRead } from './read-args';

/** The part of a file handle a HandleSource needs; positions are absolute byte offsets. */
export interface RandomAccessHandle {
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

export class HandleSource implements ByteSource {
  private closed = false;

  /** `size` is the file's length when opened; a file that shrinks later is reported, not padded. */
  constructor(
    readonly name: string,
    readonly size: number,
    private readonly handle: RandomAccessHandle,
  ) {}

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRead(this.name, offset, length, this.closed);
    const want = Math.max(0, Math.min(length, this.size - offset));
    const out = new Uint8Array(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await this.handle.read(out, got, want - got, offset + got);
      if (bytesRead === 0) {
        throw new PmError(EIO, undefined, `${this.name} (ends at byte ${offset + got}, not ${this.size}: truncated while open?)`);
      }
      got += bytesRead;
    }
    return out;
  }

  /** Every read fills a new array. */
  readFresh(offset: number, length: number): Promise<Uint8Array> {
    return this.read(offset, length);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}
