// A ByteSource over a file on disk: reads at absolute positions (pread), so concurrent reads
// of one file do not disturb each other. The read loop and its checks live in pcp-core
// (io/handle-source.ts); this adapter only opens the file and turns Node's errors into PmError.
//
// Reads are fs/promises FileHandle reads, or, for a command that does nothing else meanwhile
// (`pmdash values`, `dump`: libpcp's blocking reads), blocking ones: a read from the page cache
// takes a fraction of a millisecond, where the thread-pool hop of an async read waited 1–10 ms
// for a 1 MiB block while V8's compiler threads had both cores (up to a third of a whole
// `values` run's cost per sample over 20180102, on 2 cores).
import { readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { HandleSource, type RandomAccessHandle } from '../pcp-core/io/handle-source';
import type { ByteSource } from '../pcp-core/io/byte-source';
import { EISDIR, PmError } from '../pcp-core/errors';
import { toPmError } from './node-errors';

export interface FileSourceOptions {
  /** Read with blocking preads on the calling thread (see the header). */
  readonly blocking?: boolean;
}

/** Opens `path` for reading; rejects with PmError (-ENOENT, -EACCES, -EISDIR ...) naming it. */
export async function openFileSource(path: string, name = path, options: FileSourceOptions = {}): Promise<ByteSource> {
  const file = await open(path, 'r').catch((e: unknown) => Promise.reject(toPmError(e, name)));
  try {
    const info = await file.stat();
    if (info.isDirectory()) throw new PmError(EISDIR, undefined, name);
    const handle: RandomAccessHandle = {
      read: options.blocking
        ? (buffer, offset, length, position) => {
            try {
              return Promise.resolve({ bytesRead: readSync(file.fd, buffer, offset, length, position) });
            } catch (e) {
              return Promise.reject(toPmError(e, name));
            }
          }
        : (buffer, offset, length, position) => file.read(buffer, offset, length, position).catch((e: unknown) => Promise.reject(toPmError(e, name))),
      close: () => file.close(),
    };
    return new HandleSource(name, info.size, handle);
  } catch (e) {
    await file.close();
    throw toPmError(e, name);
  }
}
