// The system's xz(1) as pcp-core's off-thread decoder of whole .xz blocks, the way tar hands
// .xz data to xz. Native liblzma in another process decodes a 100 MB pmlogger volume about
// 3x faster than the WebAssembly decoder, and on another core: the CLI goes on reading the
// volume it has while the next one is decoded (XzSource.readAhead). Without an `xz` program
// the first decode reports XzDecoderUnavailable and pcp-core decodes in WebAssembly.
//
// xz writes into an unlinked scratch file (in /dev/shm, memory, where there is one), not a
// pipe: a pipe holds 64 KB, so xz would stall whenever this thread is busy reading records.
import { spawn } from 'node:child_process';
import { mkdtemp, open, rm, stat, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { join } from 'node:path';
import { setXzStreamDecoder, XzDecoderUnavailable, type XzStreamDecoder } from '../pcp-core/io/xz-block';
import { xzBlockCache } from '../pcp-core/io/xz-source';

/** A directory for scratch files: shared memory when the system has it. */
async function scratchDir(): Promise<string> {
  const shm = '/dev/shm';
  const dir = await stat(shm).then(
    (s) => (s.isDirectory() ? shm : tmpdir()),
    () => tmpdir(),
  );
  return mkdtemp(join(dir, 'pmdash-xz-')).catch(() => mkdtemp(join(tmpdir(), 'pmdash-xz-')));
}

/** A new file opened for reading and writing, already unlinked: it vanishes when closed. */
async function scratchFile(): Promise<FileHandle> {
  const dir = await scratchDir();
  try {
    return await open(join(dir, 'out'), 'w+');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `program` with `input` on stdin and stdout into `out`; resolves when it ends well. */
function runXz(program: string, input: Uint8Array, out: FileHandle): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, ['--decompress', '--stdout', '--single-stream', '--quiet'], { stdio: ['pipe', out.fd, 'pipe'] });
    // Both are pipes, as asked for in `stdio`.
    const stdin = child.stdin as Writable;
    const errors = child.stderr as Readable;
    let stderr = '';
    errors.setEncoding('utf8');
    errors.on('data', (text: string) => (stderr += text));
    // xz stops reading when the data is bad; the broken pipe that follows is not the error,
    // xz's exit status and message are.
    stdin.on('error', () => undefined);
    child.on('error', (e: NodeJS.ErrnoException) => {
      reject(e.code === 'ENOENT' ? new XzDecoderUnavailable(`${program}: not found`) : new Error(`${program}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(stderr.trim().replace(/^[^:]*: \(stdin\): /, 'xz: ') || `${program} ended with ${signal ?? `status ${code}`}`));
    });
    stdin.end(input);
  });
}

/** Parts of a scratch file read at once: first touches of fresh memory, not the copy, are
 *  what reading 100 MB costs, and the thread pool's 4 threads take them in parallel. */
const READ_PARTS = 4;

/** The `size` bytes of `file`, read in parallel parts. */
async function readWhole(file: FileHandle, size: number): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Uint8Array(size);
  const step = Math.ceil(size / READ_PARTS / 4096) * 4096;
  const parts: Promise<void>[] = [];
  for (let from = 0; from < size; from += step) {
    const to = Math.min(size, from + step);
    parts.push(
      (async () => {
        for (let at = from; at < to; ) {
          const { bytesRead } = await file.read(out, at, to - at, at);
          if (bytesRead === 0) throw new Error(`scratch file ended at ${at} of ${size} bytes`);
          at += bytesRead;
        }
      })(),
    );
  }
  await Promise.all(parts);
  return out;
}

/** Decodes one framed single-block stream with `xz` found on PATH (or `program`). */
export function xzProcessDecoder(program = 'xz'): XzStreamDecoder {
  return {
    async decode(framed, size) {
      const file = await scratchFile();
      try {
        await runXz(program, framed, file);
        const written = (await file.stat()).size;
        if (written !== size) throw new Error(written > size ? 'more data than its index says' : `decoded ${written} bytes, the index says ${size}`);
        return await readWhole(file, size);
      } finally {
        await file.close();
      }
    },
  };
}

/** Decoded blocks the command line keeps: the volume being read, two decoded ahead of it and
 *  the last (read first, for the archive's end), at pmlogger's 100 MB per volume. */
const CLI_XZ_CACHE_BYTES = 512 * 1024 * 1024;

/** Makes pcp-core decode whole .xz blocks with the system's `xz`, with room to read ahead. */
export function useSystemXz(): void {
  setXzStreamDecoder(xzProcessDecoder());
  xzBlockCache.resize(Math.max(xzBlockCache.budgetBytes, CLI_XZ_CACHE_BYTES));
}
