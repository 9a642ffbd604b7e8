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
// The registrations alone: the decoders load only when an .xz or .zst file is opened.
import { setXzStreamDecoder, XzDecoderUnavailable, type XzStreamDecoder } from '../pcp-core/io/xz-decoder';
import { setZstdFrameDecoder, ZstdDecoderUnavailable, type ZstdFrameDecoder } from '../pcp-core/io/zstd-decoder';

/** The program cannot decode here at all (not the data's fault). */
class Unavailable extends Error {}

/** No such program: the system has no xz (or zstd). */
class ProgramMissing extends Unavailable {}

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

/** The decompressing programs run here, with their arguments to decode stdin to stdout. */
const DECODE_ARGS = {
  xz: ['--decompress', '--stdout', '--single-stream', '--quiet'],
  zstd: ['--decompress', '--stdout', '--quiet'],
} as const;
type DecoderKind = keyof typeof DECODE_ARGS;

/** Runs `program` with `input` on stdin and stdout into `out`; resolves when it ends well. */
function runDecoder(kind: DecoderKind, program: string, input: Uint8Array, out: FileHandle): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, DECODE_ARGS[kind], { stdio: ['pipe', out.fd, 'pipe'] });
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
      // Otherwise the message names the data as xz (`xz: (stdin): ...`) or zstd
      // (`/*stdin*\ : ...`) do; it becomes `xz: ...` or `zstd: ...`.
      else if (message.includes('(stdout)') || message.includes('/*stdout*\\')) reject(new Unavailable(message));
      else reject(new Error(message.replace(/^(?:[^:]*: )?(?:\(stdin\)|\/\*stdin\*\\) ?: /, `${kind}: `) || `${program} ended with ${signal ?? `status ${code}`}`));
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
  /** The program (default: `xz`, or `zstd`, on PATH). */
  readonly program?: string;
  /** Where scratch files go (default: /dev/shm where it exists, else the temporary directory). */
  readonly scratchDir?: string;
  /** Told once why the decoder gave up, when that is not simply a missing program. */
  readonly warn?: (text: string) => void;
}

/**
 * Decodes with the system's `kind` program: the whole output, of exactly `size` bytes where
 * that is known. Rejects with Unavailable when the program cannot run here.
 */
function processDecoder(kind: DecoderKind, fallback: string, options: XzProcessOptions): (input: Uint8Array, size: number | undefined) => Promise<Uint8Array<ArrayBuffer>> {
  const program = options.program ?? kind;
  let scratch: Promise<string> | undefined;
  let warned = false;
  const unavailable = (e: unknown): Unavailable => {
    const reason = e instanceof Error ? e.message : String(e);
    // Decodes under way when it happens all fail alike: one warning says it.
    if (!warned) options.warn?.(`${reason}; decoding ${fallback} instead`);
    warned = true;
    return new Unavailable(reason);
  };
  return async (input, size) => {
    scratch ??= options.scratchDir !== undefined ? Promise.resolve(options.scratchDir) : defaultScratchDir();
    const file = await scratch.then(scratchFile).catch((e: unknown) => {
      throw unavailable(e);
    });
    try {
      await runDecoder(kind, program, input, file).catch((e: unknown) => {
        // A missing program is expected (the package is optional): quietly the fallback.
        throw e instanceof Unavailable && !(e instanceof ProgramMissing) ? unavailable(e) : e;
      });
      const written = (await file.stat()).size;
      if (size !== undefined && written !== size) {
        throw new Error(written > size ? `more data than ${kind === 'xz' ? 'its index' : 'its frame header'} says` : `decoded ${written} bytes, ${kind === 'xz' ? 'the index' : 'the frame header'} says ${size}`);
      }
      return await readWhole(file, written);
    } finally {
      await file.close();
    }
  };
}

/** `decode` with the decoder's own unavailability error. */
function mapUnavailable<A extends unknown[], R>(decode: (...a: A) => Promise<R>, make: (m: string) => Error): (...a: A) => Promise<R> {
  return (...a) =>
    decode(...a).catch((e: unknown) => {
      throw e instanceof Unavailable ? make(e.message) : e;
    });
}

/** Decodes one framed single-block stream with the system's `xz`. */
export function xzProcessDecoder(options: XzProcessOptions = {}): XzStreamDecoder {
  const decode = mapUnavailable(processDecoder('xz', '.xz in WebAssembly', options), (m) => new XzDecoderUnavailable(m));
  return { decode: (framed, size) => decode(framed, size) };
}

/** Decodes one whole zstd frame with the system's `zstd` (which checks its checksum). */
export function zstdProcessDecoder(options: XzProcessOptions = {}): ZstdFrameDecoder {
  const decode = mapUnavailable(processDecoder('zstd', '.zst in JavaScript', options), (m) => new ZstdDecoderUnavailable(m));
  return { decode: (stored, size) => decode(stored, size) };
}

/** Decoded blocks (and, apart, zstd frames) the command line keeps: the volume being read,
 *  two decoded ahead of it and the last (read first, for the archive's end), at pmlogger's
 *  100 MB per volume. */
const CLI_XZ_CACHE_BYTES = 512 * 1024 * 1024;

/**
 * Makes pcp-core decode whole .xz blocks with the system's `xz`, with room to read ahead, and
 * whole .zst frames with the system's `zstd`.
 */
export function useSystemXz(warn: (text: string) => void): void {
  setXzStreamDecoder({ ...xzProcessDecoder({ warn }), cacheBytes: CLI_XZ_CACHE_BYTES });
  setZstdFrameDecoder({ ...zstdProcessDecoder({ warn }), cacheBytes: CLI_XZ_CACHE_BYTES });
}
