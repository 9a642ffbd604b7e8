// CRC-64 of the xz container's checks (ECMA-182, reflected polynomial 0xC96C5795D7870F42,
// initial and final value all ones: CRC-64/XZ), checked over every decoded .xz block
// (xz-block.ts). 64-bit values are kept as two unsigned 32-bit halves; slicing by 8 (eight
// tables, one step per 8 bytes) because a 100 MB volume is checked in full.

const POLY_LO = 0xd7870f42;
const POLY_HI = 0xc96c5795;

/** T[k * 256 + b]: the CRC of byte b followed by k zero bytes, low and high halves. */
const [LO, HI] = (() => {
  // Int32Array: the optimized loop then keeps every value in a machine word (a Uint32Array's
  // values above 2^31 are not small integers).
  const lo = new Int32Array(8 * 256);
  const hi = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let l = n;
    let h = 0;
    for (let k = 0; k < 8; k++) {
      const carry = l & 1;
      l = ((l >>> 1) | ((h & 1) << 31)) >>> 0;
      h >>>= 1;
      if (carry) {
        l = (l ^ POLY_LO) >>> 0;
        h = (h ^ POLY_HI) >>> 0;
      }
    }
    lo[n] = l;
    hi[n] = h;
  }
  for (let k = 1; k < 8; k++) {
    for (let n = 0; n < 256; n++) {
      const pl = lo[(k - 1) * 256 + n] >>> 0;
      const ph = hi[(k - 1) * 256 + n] >>> 0;
      // One more zero byte: shift right 8 and fold the byte shifted out.
      const t = pl & 0xff;
      lo[k * 256 + n] = ((pl >>> 8) | (ph << 24)) ^ lo[t];
      hi[k * 256 + n] = (ph >>> 8) ^ hi[t];
    }
  }
  return [lo, hi];
})();

/** A CRC-64/XZ in progress: `update` over bytes in order, then `value` (little-endian bytes). */
export class Crc64 {
  private lo = -1;
  private hi = -1;

  update(bytes: Uint8Array, from = 0, to = bytes.length): void {
    let l = this.lo;
    let h = this.hi;
    let i = from;
    const fast = to - ((to - i) & 7);
    const lo = LO;
    const hi = HI;
    for (; i < fast; i += 8) {
      const a = (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)) ^ l;
      const b = (bytes[i + 4] | (bytes[i + 5] << 8) | (bytes[i + 6] << 16) | (bytes[i + 7] << 24)) ^ h;
      l =
        lo[1792 + (a & 0xff)] ^ lo[1536 + ((a >>> 8) & 0xff)] ^ lo[1280 + ((a >>> 16) & 0xff)] ^ lo[1024 + (a >>> 24)] ^
        lo[768 + (b & 0xff)] ^ lo[512 + ((b >>> 8) & 0xff)] ^ lo[256 + ((b >>> 16) & 0xff)] ^ lo[b >>> 24];
      h =
        hi[1792 + (a & 0xff)] ^ hi[1536 + ((a >>> 8) & 0xff)] ^ hi[1280 + ((a >>> 16) & 0xff)] ^ hi[1024 + (a >>> 24)] ^
        hi[768 + (b & 0xff)] ^ hi[512 + ((b >>> 8) & 0xff)] ^ hi[256 + ((b >>> 16) & 0xff)] ^ hi[b >>> 24];
    }
    for (; i < to; i++) {
      const t = (l ^ bytes[i]) & 0xff;
      l = (l >>> 8) | (h << 24);
      h = h >>> 8;
      l ^= lo[t];
      h ^= hi[t];
    }
    this.lo = l;
    this.hi = h;
  }

  /** The check as xz stores it: 8 bytes, little-endian. */
  value(): Uint8Array {
    const l = ~this.lo >>> 0;
    const h = ~this.hi >>> 0;
    return Uint8Array.of(l & 0xff, (l >>> 8) & 0xff, (l >>> 16) & 0xff, l >>> 24, h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff, h >>> 24);
  }
}
