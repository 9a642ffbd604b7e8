// RESULT (0x7001) and HIGHRES_RESULT (0x7015), the fetch replies (pdu-protocol.md §3.12):
// a preamble (timestamp, numpmid), the value sets in request order, then the value blocks
// they point to by word offset. Decoding runs in two passes: value sets first (so the end of
// the set area is known), then each block, checked to lie between that end and the PDU end.
// A client-sent RESULT is a store (§3.17); encoding exists for tests and the fake pmcd.
import { PM_VAL_DPTR, PM_VAL_INSITU, PM_VAL_SPTR, PM_TYPE_32, PM_TYPE_U32, type AtomValue, type PmId, type Result, type ValueSet } from '../types';
import { PDU_HIGHRES_RESULT, PDU_RESULT, pad4 } from './constants';
import { PduWriter, pduReader, type Pdu } from './pdu-buffer';
import { decodeInSitu, decodePayload, encodePayload, MAX_VLEN, subCursor } from './value-block';

/** The metric type used to read in-situ words and vtype-0 blocks; undefined when unknown. */
export type TypeOf = (id: PmId) => number | undefined;

export function decodeResult(pdu: Pdu, peer: string, typeOf: TypeOf): Result {
  const highres = pdu.type === PDU_HIGHRES_RESULT;
  const c = pduReader(pdu, highres ? PDU_HIGHRES_RESULT : PDU_RESULT, peer);
  let sec: number;
  let nsec: number;
  let numpmid: number;
  if (highres) {
    numpmid = c.i32('numpmid');
    const s = c.i64('seconds');
    const ns = c.i64('nanoseconds');
    if (ns < 0n || ns >= 1_000_000_000n) c.fail(`nanoseconds ${ns} out of range`, 24);
    if (s < 0n || s > BigInt(Number.MAX_SAFE_INTEGER)) c.fail(`seconds ${s} out of range`, 16);
    sec = Number(s);
    nsec = Number(ns);
  } else {
    sec = c.i32('seconds');
    const usec = c.i32('microseconds');
    if (usec < 0 || usec >= 1_000_000) c.fail(`microseconds ${usec} out of range`, 16);
    nsec = usec * 1000;
    numpmid = c.i32('numpmid');
  }
  // A value set needs at least 8 bytes (pmid, numval).
  if (numpmid < 0 || numpmid * 8 > c.remaining) c.fail(`numpmid ${numpmid} does not fit ${c.remaining} bytes`, highres ? 12 : 20);

  // Pass 1: value sets, keeping each value word and where the set's values start.
  interface RawSet {
    pmid: PmId;
    numval: number;
    valfmt: number;
    inst: Int32Array;
    words: Uint32Array;
  }
  const raw: RawSet[] = new Array<RawSet>(numpmid);
  for (let i = 0; i < numpmid; i++) {
    const setAt = c.pos;
    const pmid = c.u32('pmid') as PmId;
    const numval = c.i32('numval');
    if (numval <= 0) {
      raw[i] = { pmid, numval, valfmt: PM_VAL_INSITU, inst: new Int32Array(0), words: new Uint32Array(0) };
      continue;
    }
    const valfmt = c.i32('valfmt');
    if (valfmt !== PM_VAL_INSITU && valfmt !== PM_VAL_DPTR && valfmt !== PM_VAL_SPTR) c.fail(`value set ${i}: valfmt ${valfmt}`, setAt + 8);
    if (numval * 8 > c.remaining) c.fail(`value set ${i}: numval ${numval} does not fit ${c.remaining} bytes`, setAt + 4);
    const inst = new Int32Array(numval);
    const words = new Uint32Array(numval);
    for (let j = 0; j < numval; j++) {
      inst[j] = c.i32('inst');
      words[j] = c.u32('value');
    }
    raw[i] = { pmid, numval, valfmt, inst, words };
  }
  const setsEnd = c.pos;

  // Pass 2: typed values, following block offsets.
  let end = setsEnd;
  const sets: ValueSet[] = raw.map((r, i) => {
    if (r.numval <= 0) return { pmid: r.pmid, numval: r.numval, valfmt: r.valfmt, inst: r.inst, values: [] };
    const type = typeOf(r.pmid);
    const values: AtomValue[] = new Array<AtomValue>(r.numval);
    for (let j = 0; j < r.numval; j++) {
      const word = r.words[j] ?? 0;
      if (r.valfmt === PM_VAL_INSITU) {
        values[j] = decodeInSitu(word, type);
        continue;
      }
      const blockAt = word * 4;
      const what = `value set ${i} value ${j}`;
      if (blockAt < setsEnd || blockAt + 4 > pdu.bytes.length) c.fail(`${what}: block offset ${word} words (byte ${blockAt}) outside ${setsEnd}..${pdu.bytes.length}`);
      c.seek(blockAt);
      const head = c.u32('value block header');
      const vtype = head >>> 24;
      const vlen = head & MAX_VLEN;
      if (vlen < 4 || blockAt + vlen > pdu.bytes.length) c.fail(`${what}: vlen ${vlen} overruns the PDU`, blockAt);
      // vtype 0 means "unspecified" to libpcp: fall back on the descriptor.
      const blockType = vtype === 0 ? (type ?? PM_TYPE_32) : vtype;
      values[j] = decodePayload(subCursor(c, blockAt + 4, vlen - 4, what), blockType, what);
      end = Math.max(end, blockAt + pad4(vlen));
    }
    return { pmid: r.pmid, numval: r.numval, valfmt: r.valfmt, inst: r.inst, values };
  });
  // The PDU ends after the last block (padded), or after the sets when there are none.
  if (end !== pdu.bytes.length && pad4(end) !== pdu.bytes.length) {
    c.fail(`${pdu.bytes.length - end} unexpected bytes after the last value`, end);
  }
  return { timestamp: { sec, nsec }, sets };
}

/**
 * Encodes a result as pmcd would: 32-bit integer types in situ, everything else in value
 * blocks (vtype from `typeOf`). A RESULT sent by a client is a store request (§3.17).
 */
export function encodeResult(result: Result, highres: boolean, typeOf: TypeOf, from = 0): Uint8Array {
  const w = new PduWriter(highres ? PDU_HIGHRES_RESULT : PDU_RESULT, from, 256);
  if (highres) w.i32(result.sets.length).i64(BigInt(result.timestamp.sec)).i64(BigInt(result.timestamp.nsec));
  else w.i32(result.timestamp.sec).i32(Math.floor(result.timestamp.nsec / 1000)).i32(result.sets.length);
  // Value-set words first, with block offsets patched once the blocks are laid out.
  const patches: Array<{ at: number; type: number; value: AtomValue }> = [];
  for (const s of result.sets) {
    w.u32(s.pmid).i32(s.numval);
    if (s.numval <= 0) continue;
    const type = typeOf(s.pmid) ?? PM_TYPE_32;
    const insitu = type === PM_TYPE_32 || type === PM_TYPE_U32;
    w.i32(insitu ? PM_VAL_INSITU : s.valfmt === PM_VAL_SPTR ? PM_VAL_SPTR : PM_VAL_DPTR);
    s.values.forEach((v, j) => {
      w.i32(s.inst[j] ?? -1);
      if (insitu) w.u32(Number(v) >>> 0);
      else {
        patches.push({ at: w.length, type, value: v });
        w.u32(0);
      }
    });
  }
  for (const p of patches) {
    const blockAt = w.length;
    w.u32(0);
    const n = encodePayload(w, p.type, p.value);
    w.patchI32(blockAt, (p.type << 24) | (n + 4));
    w.pad();
    w.patchI32(p.at, blockAt / 4);
  }
  return w.finish();
}
