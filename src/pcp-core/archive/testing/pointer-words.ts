// Test support: the pointer words of a data volume's value sets (archive-format.md §5.3), for
// fuzzers that damage value-block offsets (value-sets.ts is the rule they exercise).
/** A pointer-format value: where its pointer word is, in the volume, and its instance. */
export interface Pointer {
  readonly record: number;
  readonly recordLength: number;
  readonly pmid: number;
  readonly inst: number;
  readonly wordAt: number;
}

/** Every pointer word of a data volume (records walked by their length words). */
export function pointerWords(vol: Uint8Array): Pointer[] {
  if (vol.length < 8) return [];
  const v = new DataView(vol.buffer, vol.byteOffset, vol.byteLength);
  const preamble = (v.getUint32(4) & 0xff) >= 3 ? 20 : 16;
  const out: Pointer[] = [];
  for (let r = v.getUint32(0); r + 8 <= vol.length; ) {
    const len = v.getInt32(r);
    if (len < 8 || r + len > vol.length) break;
    const numpmid = v.getInt32(r + preamble - 4);
    let p = r + preamble;
    // A damaged record (earlier mutations) ends the walk of its value sets, not the volume's.
    for (let i = 0; i < numpmid && p + 12 <= r + len; i++) {
      const pmid = v.getUint32(p);
      const numval = v.getInt32(p + 4);
      if (numval <= 0) {
        p += 8;
        continue;
      }
      if (p + 12 + 8 * numval > r + len) break;
      if (v.getInt32(p + 8) !== 0) for (let j = 0; j < numval; j++) out.push({ record: r, recordLength: len, pmid, inst: v.getInt32(p + 12 + 8 * j), wordAt: p + 16 + 8 * j });
      p += 12 + 8 * numval;
    }
    r += len;
  }
  return out;
}

