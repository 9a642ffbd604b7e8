// Decodes one frame of a .zst file with fzstd (zstd's decoder in plain JavaScript, for the
// browser and Node alike) and verifies its content checksum with xxhash-wasm, as `zstd -d`
// does: fzstd skips the checksum and, given a content size, does not notice a frame that
// decodes to fewer bytes. Both libraries load on first use, so only .zst archives pay for them.
import type * as FzstdModule from 'fzstd';
import type { XXHashAPI } from 'xxhash-wasm';
import type { ZstdFrame } from './zstd-layout';
import { zstdCorrupt } from './zstd-layout';

type Fzstd = typeof FzstdModule;
type XxhashApi = XXHashAPI;

let fzstd: Promise<Fzstd> | undefined;
let xxhash: Promise<XxhashApi> | undefined;

function loadFzstd(): Promise<Fzstd> {
  fzstd ??= import('fzstd');
  return fzstd;
}

function loadXxhash(): Promise<XxhashApi> {
  xxhash ??= import('xxhash-wasm').then((m) => m.default());
  return xxhash;
}

/**
 * The content of `frame`, whose stored bytes (header to checksum) are `stored`. Damaged data,
 * a size other than the header's or a checksum mismatch is PM_ERR_LOGREC naming `name` and
 * the frame's offset.
 */
export async function decodeZstdFrame(name: string, frame: ZstdFrame, stored: Uint8Array): Promise<Uint8Array> {
  const where = `frame at ${frame.offset}`;
  const [{ decompress }, hash] = await Promise.all([loadFzstd(), frame.checksum ? loadXxhash() : undefined]);
  let content: Uint8Array;
  try {
    content = decompress(stored);
  } catch (e) {
    // Whatever the decoder trips over here is in the data: it was framed correctly, so this
    // is damage inside a block (fzstd's own errors, or a range error on a bad offset).
    throw zstdCorrupt(name, `${where}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (frame.contentSize !== undefined && content.length !== frame.contentSize) {
    throw zstdCorrupt(name, `${where}: decoded ${content.length} bytes, the header says ${frame.contentSize}`);
  }
  if (hash) {
    const end = stored.length;
    const want = (stored[end - 4] | (stored[end - 3] << 8) | (stored[end - 2] << 16) | (stored[end - 1] << 24)) >>> 0;
    const got = Number(hash.h64Raw(content) & 0xffffffffn);
    if (got !== want) throw zstdCorrupt(name, `${where}: content checksum mismatch`);
  }
  return content;
}

/** Compressed bytes handed to the streaming decoder at a time, for a prefix. */
const PREFIX_STEP = 16 * 1024;

/**
 * At least the first `want` bytes of the content of `frame` (fewer only if the frame is
 * shorter), decoded block by block from the start of `stored` until there are enough: a
 * volume's label without decoding the whole 100 MB. Unchecked (the checksum covers the whole
 * content), so a later read of more decodes the whole frame, which is checked.
 */
export async function decodeZstdPrefix(name: string, frame: ZstdFrame, stored: Uint8Array, want: number): Promise<Uint8Array> {
  const { Decompress } = await loadFzstd();
  const parts: Uint8Array[] = [];
  let got = 0;
  const stream = new Decompress((chunk) => {
    parts.push(chunk);
    got += chunk.length;
  });
  try {
    for (let at = 0; at < stored.length && got < want; at += PREFIX_STEP) {
      stream.push(stored.subarray(at, at + PREFIX_STEP), at + PREFIX_STEP >= stored.length);
    }
  } catch (e) {
    throw zstdCorrupt(name, `frame at ${frame.offset}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const out = new Uint8Array(got);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
