// A ByteSource over a file on disk: fs/promises FileHandle reads at absolute positions
// (pread), so concurrent reads of one file do not disturb each other. The read loop and its
// checks live in pcp-core (io/handle-source.ts); this adapter only opens the file and turns
// Node's errors into PmError.
import { open } from 'node:fs/promises';
import { HandleSource, type RandomAccessHandle } from '../pcp-core/io/handle-source';
import type { ByteSource } from '../pcp-core/io/byte-source';
import { EISDIR, PmError } from '../pcp-core/errors';
import { toPmError } from './node-errors';

/** Opens `path` for reading; rejects with PmError (-ENOENT, -EACCES, -EISDIR ...) naming it. */
export async function openFileSource(path: string, name = path): Promise<ByteSource> {
  const file = await open(path, 'r').catch((e: unknown) => Promise.reject(toPmError(e, name)));
  try {
    const info = await file.stat();
    if (info.isDirectory()) throw new PmError(EISDIR, undefined, name);
    const handle: RandomAccessHandle = {
      read: (buffer, offset, length, position) =>
        file.read(buffer, offset, length, position).catch((e: unknown) => Promise.reject(toPmError(e, name))),
      close: () => file.close(),
    };
    return new HandleSource(name, info.size, handle);
  } catch (e) {
    await file.close();
    throw toPmError(e, name);
  }
}
