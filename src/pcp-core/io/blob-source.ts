// A ByteSource over a Blob or File, for archives the user picks or drops in the browser:
// each read slices the Blob and reads only that slice, so a 1 GB file is never loaded whole.
import type { ByteSource } from './byte-source';
import { checkRead } from './read-args';
import { EIO, PmError } from '../errors';

export class BlobSource implements ByteSource {
  readonly size: number;
  private closed = false;

  /** @param name what to call the file in messages (a path in a dropped folder, say) */
  constructor(
    private readonly blob: Blob,
    readonly name: string = (blob as Partial<File>).name ?? 'blob',
  ) {
    this.size = blob.size;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRead(this.name, offset, length, this.closed);
    const start = Math.min(offset, this.size);
    const end = Math.min(start + length, this.size);
    try {
      return new Uint8Array(await this.blob.slice(start, end).arrayBuffer());
    } catch (e) {
      // NotReadableError: the file changed or vanished on disk after it was picked.
      throw new PmError(EIO, undefined, `${this.name} (${e instanceof Error ? e.message : 'cannot be read'})`);
    }
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}
