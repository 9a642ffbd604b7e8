// libpcp 6.0.3's verdict on the pmValueSet table and value blocks of a RESULT image
// (__pmDecodeValueSet, 64-bit build, p_result.c), the one owner of that rule: the archive
// reader (dump/info), the replay engine (every Context) and their fuzzers all call it.
//
// The rule, in the units of the PDU image libpcp builds (`base` is its first byte; an archive
// record's image starts 8 bytes before its length word, so a pointer word k designates byte
// base + 4k): each value set lies inside the image; numval ≤ the image length; for pointer
// formats each index k is in [0, len], the block's header is inside, 4 ≤ vlen ≤ len and vlen
// fits before the end. Then the smallest block starts exactly where the value sets end and
// the blocks' padded lengths sum to exactly the rest of the image.
//
// libpcp converts each block to host order IN PLACE as it visits it (header word, then the
// payload by the block's type, event arrays record by record) and reads the header only
// after that. So a block referenced twice (one flipped offset pointing at another instance's
// block) is read the second time byte-reversed, and a payload swap that reaches into another
// block changes the header read there. Whether such a record passes depends on those bytes
// (a string block "06 00 00 08" read reversed gives vlen 6, which pads to the same 8 bytes
// and passes; a double's "05 00 00 0c" gives vlen 5, 8 bytes not 12, and fails). The common
// layout (blocks in increasing order, none reaching into the next) is checked directly;
// anything else is replayed on a scratch copy exactly as libpcp's little-endian host swaps it.

/** Value formats of a value set (pmapi.h): INSITU 0, DPTR 1, SPTR 2. */
const PM_VAL_INSITU = 0;
const PM_VAL_SPTR = 2;

/** Block types whose payload libpcp byte-swaps, and how many bytes (events: record walk). */
const SWAP_BYTES: readonly number[] = [0, 0, 8, 8, 4, 8, 0, 0, 0, -1, -1];

/**
 * Bytes after the image that a replayed swap may touch: libpcp's PDU buffers are rounded up,
 * so a short block's payload swap lands in that slack without effect on the verdict.
 */
const SLACK = 64;

function pad4(n: number): number {
  return (n + 3) & ~3;
}

/**
 * Checks the value sets starting at byte `setsAt` of `view` and their value blocks, for an
 * image of `pduLen` bytes starting at `base` (which may lie before the view: only bytes from
 * `setsAt` on are read). Fills `vsetOffsets` (when given) with each value set's byte offset.
 * Returns undefined when libpcp accepts the image, else what is wrong (for the error detail).
 */
export function checkValueSets(view: DataView, base: number, pduLen: number, setsAt: number, numpmid: number, vsetOffsets?: Int32Array): string | undefined {
  const plain = checkInOrder(view, base, pduLen, setsAt, numpmid, vsetOffsets);
  return plain === NOT_IN_ORDER ? replaySwaps(view, base, pduLen, setsAt, numpmid) : plain;
}

/** checkInOrder's answer for a layout it leaves to replaySwaps. */
const NOT_IN_ORDER = '\0not in order';

/**
 * The common layout's check (blocks in increasing order, no event arrays), in a loop of its
 * own: it hands any other layout back rather than calling replaySwaps, whose call site would
 * have no type feedback when V8 first compiles this loop, so the first such record (one in
 * a few hundred in real archives: an event array) would throw the compiled loop away.
 */
function checkInOrder(view: DataView, base: number, pduLen: number, setsAt: number, numpmid: number, vsetOffsets?: Int32Array): string | undefined {
  const end = base + pduLen;
  let p = setsAt;
  let minBlock = end;
  let blockBytes = 0;
  // End of the previous block's bytes (padded block or payload swap, whichever is further):
  // while every block starts at or after it, no in-place swap can change what is read later.
  let prevEnd = -1;
  let plain = true;
  for (let i = 0; i < numpmid; i++) {
    if (end - p < 8) return `value set ${i} runs past the record end`;
    if (vsetOffsets) vsetOffsets[i] = p;
    const numval = view.getInt32(p + 4);
    if (numval > pduLen) return `value set ${i}: numval ${numval} too large`;
    if (numval <= 0) {
      p += 8;
      continue;
    }
    if (end - p < 12) return `value set ${i} runs past the record end`;
    const valfmt = view.getInt32(p + 8);
    // One unsigned compare for {INSITU, DPTR, SPTR} = {0, 1, 2}: three compares leave the third
    // without type feedback until an SPTR set turns up, deoptimizing the compiled loop then.
    if (valfmt >>> 0 > PM_VAL_SPTR) return `value set ${i}: bad valfmt ${valfmt}`;
    const values = p + 12;
    if (valfmt !== PM_VAL_INSITU) {
      for (let j = 0; j < numval; j++) {
        const pair = values + 8 * j;
        if (end - pair < 8) return `value set ${i}: ${numval} values run past the record end`;
        const k = view.getInt32(pair + 4);
        if (k < 0 || k > pduLen) return `value set ${i} value ${j}: block index ${k} outside the record`;
        const b = base + 4 * k;
        // Below the value sets: libpcp's final "value blocks start after the value sets"
        // check fails whatever else happens, so the verdict is known now.
        if (b < values + 8 * numval) return `value set ${i} value ${j}: block index ${k} points into the value sets`;
        if (end - b < 4) return `value set ${i} value ${j}: block index ${k} leaves no room for a block header`;
        if (b < minBlock) minBlock = b;
        if (!plain) continue;
        const word = view.getUint32(b);
        const vlen = word & 0xffffff;
        const swap = SWAP_BYTES[word >>> 24] ?? 0;
        if (b < prevEnd || swap < 0) {
          plain = false;
          continue;
        }
        if (vlen < 4 || vlen > pduLen) return `value set ${i} value ${j}: bad block length ${vlen}`;
        if (vlen > end - b) return `value set ${i} value ${j}: block of ${vlen} bytes runs past the record end`;
        blockBytes += pad4(vlen);
        prevEnd = Math.max(b + pad4(vlen), b + 4 + swap);
      }
    }
    p = values + 8 * numval;
  }
  if (!plain) return NOT_IN_ORDER;
  return finalCheck(base, p, minBlock, blockBytes, end);
}

/** libpcp's last test; offsets in the message are from the record's length word (base + 8). */
function finalCheck(base: number, setsEnd: number, minBlock: number, blockBytes: number, end: number): string | undefined {
  if (minBlock !== setsEnd || setsEnd + blockBytes !== end) {
    const r = base + 8;
    return `value blocks do not fill the record (value sets end at byte ${setsEnd - r}, first block at ${minBlock - r}, ${blockBytes} block bytes, trailer at ${end - r})`;
  }
  return undefined;
}

/**
 * The check again on a scratch copy of bytes [setsAt, end), performing libpcp's in-place
 * conversions as it goes (a little-endian host: every conversion reverses bytes). A swap that
 * would touch bytes outside the image is undefined behaviour in libpcp (it reads or writes
 * beyond the record); such a record is refused.
 */
function replaySwaps(view: DataView, base: number, pduLen: number, setsAt: number, numpmid: number): string | undefined {
  const end = base + pduLen;
  const m = new Uint8Array(end - setsAt + SLACK);
  m.set(new Uint8Array(view.buffer, view.byteOffset + setsAt, end - setsAt));
  const mv = new DataView(m.buffer);
  const at = (x: number): number => x - setsAt;
  const inside = (x: number, n: number): boolean => x >= setsAt && x + n <= end + SLACK;
  const reverse = (x: number, n: number): boolean => {
    if (!inside(x, n)) return false;
    m.subarray(at(x), at(x) + n).reverse();
    return true;
  };
  let p = setsAt;
  let minBlock = end;
  let blockBytes = 0;
  for (let i = 0; i < numpmid; i++) {
    if (end - p < 8) return `value set ${i} runs past the record end`;
    const numval = mv.getInt32(at(p) + 4);
    if (numval > pduLen) return `value set ${i}: numval ${numval} too large`;
    if (numval <= 0) {
      p += 8;
      continue;
    }
    if (end - p < 12) return `value set ${i} runs past the record end`;
    const valfmt = mv.getInt32(at(p) + 8);
    if (valfmt >>> 0 > PM_VAL_SPTR) return `value set ${i}: bad valfmt ${valfmt}`;
    const values = p + 12;
    if (valfmt !== PM_VAL_INSITU) {
      for (let j = 0; j < numval; j++) {
        const pair = values + 8 * j;
        if (end - pair < 8) return `value set ${i}: ${numval} values run past the record end`;
        const k = mv.getInt32(at(pair) + 4);
        if (k < 0 || k > pduLen) return `value set ${i} value ${j}: block index ${k} outside the record`;
        const b = base + 4 * k;
        if (b < values + 8 * numval) return `value set ${i} value ${j}: block index ${k} points into the value sets`;
        if (end - b < 4) return `value set ${i} value ${j}: block index ${k} leaves no room for a block header`;
        if (b < minBlock) minBlock = b;
        reverse(b, 4);
        const word = mv.getUint32(at(b), true);
        if (!swapPayload(word >>> 24, b, end, mv, at, reverse)) return `value set ${i} value ${j}: libpcp's byte swap of the block at index ${k} leaves the record (undefined in libpcp)`;
        const vlen = word & 0xffffff;
        if (vlen < 4 || vlen > pduLen) return `value set ${i} value ${j}: block at index ${k} read as length ${vlen} (a block shared or overlapped by another)`;
        if (vlen > end - b) return `value set ${i} value ${j}: block of ${vlen} bytes runs past the record end`;
        blockBytes += pad4(vlen);
      }
    }
    p = values + 8 * numval;
  }
  return finalCheck(base, p, minBlock, blockBytes, end);
}

/** __ntohpmValueBlock's payload part for a block of (host-order) type `vtype` at `b`. */
function swapPayload(
  vtype: number,
  b: number,
  end: number,
  mv: DataView,
  at: (x: number) => number,
  reverse: (x: number, n: number) => boolean,
): boolean {
  const swap = SWAP_BYTES[vtype] ?? 0;
  if (swap > 0) return reverse(b + 4, swap);
  if (swap === 0) return true;
  // ntohEventArray: nrecords, then per record the timestamp, flags, nparams and parameters,
  // with no bounds of its own (libpcp walks wherever the counts lead).
  const highres = vtype === 10;
  if (!reverse(b + 4, 4)) return false;
  const nrecords = mv.getInt32(at(b + 4), true);
  let q = b + 8;
  for (let r = 0; r < nrecords; r++) {
    if (q >= end + SLACK) return false;
    if (highres) {
      if (!reverse(q, 8) || !reverse(q + 8, 8) || !reverse(q + 16, 4) || !reverse(q + 20, 4)) return false;
    } else if (!reverse(q, 4) || !reverse(q + 4, 4) || !reverse(q + 8, 4) || !reverse(q + 12, 4)) return false;
    const flagsAt = q + (highres ? 16 : 8);
    const flags = mv.getUint32(at(flagsAt), true);
    let nparams = mv.getInt32(at(flagsAt + 4), true);
    if ((flags & 0x80000000) !== 0) nparams = 0; // PM_EVENT_FLAG_MISSED
    q = flagsAt + 8;
    for (let k = 0; k < nparams; k++) {
      if (!reverse(q, 4) || !reverse(q + 4, 4)) return false;
      const head = mv.getUint32(at(q + 4), true);
      const ptype = head >>> 24;
      const n = ptype === 0 || ptype === 1 || ptype === 4 ? 4 : ptype === 2 || ptype === 3 || ptype === 5 ? 8 : 0;
      if (n > 0 && !reverse(q + 8, n)) return false;
      q += 4 + pad4(head & 0xffffff);
    }
  }
  return true;
}
