// `bzip2 -dc` for archive files stored as `.bz2` or `.bz` (archive-format.md §1.2), with the
// seek-bzip library. Like bzip2: streams may be concatenated, data after the last stream that
// does not start a new one is ignored (bzip2 warns, exits 0, and libpcp accepts the file), a
// stream cut short or failing its CRC is an error (libpcp: PM_ERR_LOGREC).
//
// seek-bzip allocates Node Buffers internally; a browser worker has none, so the `buffer`
// package (the standard browser implementation of that API) is installed as the global
// Buffer before seek-bzip is first used, and only where no Buffer exists.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the untyped libraries' declarations must reach every program that compiles this file (core, node, tests)
/// <reference path="./vendor-modules.d.ts" />
import { ByteWriter } from './byte-writer';
import { PM_ERR_LOGREC, PmError } from '../errors';

/** The part of seek-bzip's input stream protocol it calls. */
interface BzInput {
  readByte(): number;
  read(buffer: Uint8Array, offset: number, length: number): number;
  seek(pos: number): void;
  eof(): boolean;
}

interface BzOutput {
  writeByte(byte: number): void;
}

type Bunzip = { decode(input: BzInput, output: BzOutput, multistream: boolean): void };

let bunzip: Promise<Bunzip> | undefined;

function loadBunzip(): Promise<Bunzip> {
  bunzip ??= (async () => {
    const global = globalThis as { Buffer?: unknown };
    if (global.Buffer === undefined) global.Buffer = (await import('buffer/')).Buffer;
    const m = (await import('seek-bzip')) as { default?: Bunzip } & Partial<Bunzip>;
    const lib = m.decode ? (m as Bunzip) : m.default;
    if (!lib) throw new Error('seek-bzip: decode not found');
    return lib;
  })();
  return bunzip;
}

/** Decompresses `data` as `bzip2 -dc` would; `name` is for messages. */
export async function decodeBzip2(name: string, data: Uint8Array): Promise<Uint8Array> {
  const lib = await loadBunzip();
  const corrupt = (detail: string): PmError => new PmError(PM_ERR_LOGREC, undefined, `${name} (bzip2: ${detail})`);
  if (data[0] !== 0x42 || data[1] !== 0x5a || data[2] !== 0x68) throw corrupt('not a bzip2 file');
  const out = new ByteWriter(data.length * 4);
  let pos = 0;
  const endOfInput = new Error('compressed data cut short');
  const input: BzInput = {
    // The bit reader does not check for the end: fail there instead of decoding 0xFF bits.
    readByte: () => {
      if (pos >= data.length) throw endOfInput;
      return data[pos++];
    },
    // Used for stream magic only, where a short read is a normal answer.
    read: (buffer, offset, length) => {
      const n = Math.min(length, data.length - pos);
      if (n <= 0) return -1;
      buffer.set(data.subarray(pos, pos + n), offset);
      pos += n;
      return n;
    },
    seek: (to) => {
      pos = to;
    },
    eof: () => pos >= data.length,
  };
  const output: BzOutput = { writeByte: (byte) => out.u8(byte) };
  try {
    lib.decode(input, output, true);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // Bad magic past the first stream (whose magic is at 0..3) is trailing garbage after a
    // complete stream, which bzip2 ignores.
    if (!(/^Not bzip data/.test(message) && pos > 4)) throw corrupt(message);
  }
  return out.take();
}
