// The off-thread decoder of whole .xz blocks a host may register (the Node CLI: the system's
// `xz`, src/node/xz-process.ts; the browser's engine worker: a pool of Web Workers running
// the WebAssembly decoder, src/workers/xz-pool.ts), kept apart from the decoders themselves (xz-block.ts) so a
// host registers it at start-up without loading them: archives with no .xz file never do.
import type { ChunkBytes } from './piece-bytes';

/**
 * A decoder of whole one-block .xz streams that runs off the calling thread (the Node CLI
 * uses the system's `xz`, about 3x faster than the WebAssembly decoder and on another core).
 * `framed` decodes to exactly `size` bytes; any failure rejects with an Error whose message
 * says why. Rejecting with `XzDecoderUnavailable` hands that block, and every later one, back
 * to the WebAssembly decoder.
 */
export interface XzStreamDecoder {
  decode(framed: Uint8Array, size: number, options?: XzDecodeOptions): Promise<ChunkBytes>;
  /** Bytes of decoded blocks the shared cache should hold with this decoder: room to decode
   *  ahead (XzSource.readAhead). */
  readonly cacheBytes?: number;
}

/** What a decode is for, so a decoder with a queue can order its work. */
export interface XzDecodeOptions {
  /** Decoded ahead of the reads (ChunkedSource.readAhead): no read waits for it yet, so a
   *  decoder may let decodes that a read waits for go first. */
  readonly ahead?: boolean;
  /** For a decode ahead: true once a read waits for it after all (it is then as urgent). */
  readonly wanted?: () => boolean;
  /**
   * Told as the block's bytes decode, in order (decoders that can): `bytes` holds the block's
   * first `available` bytes (at least), and later calls tell more of the same bytes. Reads of
   * the start of a 100 MB volume need not wait for all of it.
   */
  readonly progress?: (bytes: ChunkBytes, available: number) => void;
  /**
   * Decoded before its reader exists (XzSource.prepareDecode: a dropped archive's first blocks,
   * while the drop is classified): a decoder that can keeps the bytes for the identical decode
   * asked next, for a short while, and decodes a block asked again while it runs only once.
   */
  readonly hold?: boolean;
}

/** Thrown by an XzStreamDecoder that cannot run here at all (e.g. no `xz` program). */
export class XzDecoderUnavailable extends Error {}

let streamDecoder: XzStreamDecoder | undefined;

/** Registers the off-thread decoder for whole blocks (undefined: WebAssembly only). */
export function setXzStreamDecoder(decoder: XzStreamDecoder | undefined): void {
  streamDecoder = decoder;
}

/** The registered decoder, if any. */
export function xzStreamDecoder(): XzStreamDecoder | undefined {
  return streamDecoder;
}

/** Unregisters `decoder` (it proved unavailable), unless another has replaced it since. */
export function dropXzStreamDecoder(decoder: XzStreamDecoder): void {
  if (streamDecoder === decoder) streamDecoder = undefined;
}

/** Whether whole blocks decode off the calling thread, so decoding ahead costs it nothing. */
export function xzDecodesOffThread(): boolean {
  return streamDecoder !== undefined;
}
