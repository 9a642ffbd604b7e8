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
// The registration alone: the decoders (xz-block.ts) load only when an .xz file is opened.
import { setXzStreamDecoder, XzDecoderUnavailable, type XzStreamDecoder } from '../pcp-core/io/xz-decoder';

/** No such program: the system has no xz. */
class ProgramMissing extends XzDecoderUnavailable {}

/** Where scratch files go by default: shared memory when the system has it. */
async function defaultScratchDir(): Promise<string> {
  const shm = '/dev/shm';
  return stat(shm).then(
    (s) => (s.isDirectory() ? shm : tmpdir()),
    () => tmpdir(),
  );
}

/** A new file in `parent` opened for reading and writing, already unlinked: it vanishes
 *  when closed. */
async function scratchFile(parent: string): Promise<FileHandle> {
  const dir = await mkdtemp(join(parent, 'pmdash-xz-'));
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
      reject(e.code === 'ENOENT' ? new ProgramMissing(`${program}: not found`) : new Error(`${program}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      const message = stderr.trim();
      if (code === 0) resolve();
      // Writing the output failed (a full scratch file system): the data is not at fault.
      else if (message.includes('(stdout)')) reject(new XzDecoderUnavailable(message));
      else reject(new Error(message.replace(/^[^:]*: \(stdin\): /, 'xz: ') || `${program} ended with ${signal ?? `status ${code}`}`));
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

export interface XzProcessOptions {
  /** The program (default: `xz` on PATH). */
  readonly program?: string;
  /** Where scratch files go (default: /dev/shm where it exists, else the temporary directory). */
  readonly scratchDir?: string;
  /** Told once why the decoder gave up, when that is not simply a missing program. */
  readonly warn?: (text: string) => void;
}

/** Decodes one framed single-block stream with the system's `xz`. */
export function xzProcessDecoder(options: XzProcessOptions = {}): XzStreamDecoder {
  const program = options.program ?? 'xz';
  let scratch: Promise<string> | undefined;
  let warned = false;
  const unavailable = (e: unknown): XzDecoderUnavailable => {
    const reason = e instanceof Error ? e.message : String(e);
    // Decodes under way when it happens all fail alike: one warning says it.
    if (!warned) options.warn?.(`${reason}; decoding .xz in WebAssembly instead`);
    warned = true;
    return new XzDecoderUnavailable(reason);
  };
  return {
    async decode(framed, size) {
      scratch ??= options.scratchDir !== undefined ? Promise.resolve(options.scratchDir) : defaultScratchDir();
      const file = await scratch.then(scratchFile).catch((e: unknown) => {
        throw unavailable(e);
      });
      try {
        await runXz(program, framed, file).catch((e: unknown) => {
          // A missing program is expected (xz-utils is optional): quietly WebAssembly.
          throw e instanceof XzDecoderUnavailable && !(e instanceof ProgramMissing) ? unavailable(e) : e;
        });
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
export function useSystemXz(warn: (text: string) => void): void {
  setXzStreamDecoder({ ...xzProcessDecoder({ warn }), cacheBytes: CLI_XZ_CACHE_BYTES });
}
