// A ByteSource over a Blob or File, for archives the user picks or drops in the browser:
// each read slices the Blob and reads only that slice, so a 1 GB file is never loaded whole.
import type { ByteSource } from './byte-source';
import { checkRead } from './read-args';
import { EIO, PmError } from '../errors';

/** Bytes [start, end) of `blob`; a refused read (NotReadableError: the file changed or
 *  vanished on disk after it was picked) is EIO naming the file. */
export async function readBlobRange(name: string, blob: Blob, start: number, end: number): Promise<Uint8Array> {
  try {
    return new Uint8Array(await blob.slice(start, end).arrayBuffer());
  } catch (e) {
    throw new PmError(EIO, undefined, `${name} (${e instanceof Error ? e.message : 'cannot be read'})`);
  }
}

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
    return readBlobRange(this.name, this.blob, start, end);
  }

  /** Every read is a new ArrayBuffer of the slice's bytes. */
  readFresh(offset: number, length: number): Promise<Uint8Array> {
    return this.read(offset, length);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}
