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
