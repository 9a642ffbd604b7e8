// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as used by the xz container's
// headers and index and by gzip member trailers. The xz reader needs it to frame a single
// block as a stream of its own (xz-block.ts) and gzip needs it to check each member as
// `gzip -dc` does; the decompressors themselves come from libraries.

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** Continues a CRC-32 over `bytes`; start with crc = 0. Returns an unsigned 32-bit value. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
