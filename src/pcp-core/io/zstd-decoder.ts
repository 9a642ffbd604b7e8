// The off-thread decoder of whole zstd frames a host may register (the Node CLI: the system's
// `zstd`, src/node/xz-process.ts), as for .xz (xz-decoder.ts): native zstd in another process
// decodes a 100 MB volume about 10x faster than fzstd on this thread. Without one, or once it
// proves unavailable, frames are decoded by fzstd (zstd-frame.ts).

/**
 * Decodes one whole zstd frame (as stored: header to checksum, which it verifies) to its
 * content: exactly `size` bytes where the frame states its size. Any failure rejects with an
 * Error whose message says why; `ZstdDecoderUnavailable` hands that frame, and every later
 * one, back to fzstd.
 */
export interface ZstdFrameDecoder {
  decode(stored: Uint8Array, size: number | undefined): Promise<Uint8Array<ArrayBuffer>>;
  /** Bytes of decoded frames the shared cache should hold with this decoder: room to decode
   *  ahead (ZstdSource.readAhead). */
  readonly cacheBytes?: number;
}

/** Thrown by a ZstdFrameDecoder that cannot run here at all (e.g. no `zstd` program). */
export class ZstdDecoderUnavailable extends Error {}

let frameDecoder: ZstdFrameDecoder | undefined;

/** Registers the off-thread decoder of whole frames (undefined: fzstd only). */
export function setZstdFrameDecoder(decoder: ZstdFrameDecoder | undefined): void {
  frameDecoder = decoder;
}

/** The registered decoder, if any. */
export function zstdFrameDecoder(): ZstdFrameDecoder | undefined {
  return frameDecoder;
}

/** Unregisters `decoder` (it proved unavailable), unless another has replaced it since. */
export function dropZstdFrameDecoder(decoder: ZstdFrameDecoder): void {
  if (frameDecoder === decoder) frameDecoder = undefined;
}
