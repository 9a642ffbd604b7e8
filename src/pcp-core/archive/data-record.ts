// One data-volume record (archive-format.md §5.1–5.6): libpcp 6.0.3's structural checks of a
// record (__pmDecodeResult_ctx and __pmDecodeValueSet in p_result.c: header, numpmid, each
// value set and value block inside the record, valfmt 0/1/2 — value-sets.ts owns that rule)
// and the decoding of its value sets by descriptor type. The replay cursor (replay/
// log-cursor.ts) frames records and calls checkDataRecord; a failure is PM_ERR_LOGREC with
// the reason returned here. Hot path: one DataView over the record, no per-field allocation.
import {
  PM_TYPE_FLOAT,
  PM_TYPE_U32,
  PM_VAL_INSITU,
  type AtomValue,
  type PmId,
  type Timestamp,
  type ValueSet,
} from '../types';
import { decodeStamp, logFormat, type LogVersion } from './log-format';
import { decodeAtom } from './value-decode';
import { checkValueSets } from './value-sets';

/** What the structural check of a record established. */
export interface RecordShape {
  readonly timestamp: Timestamp;
  /** Number of value sets; 0 for a <mark>. */
  readonly numpmid: number;
  /** Byte offset (in the record) of each value set header. */
  readonly vsetOffsets: Int32Array;
}

/**
 * libpcp's checks of the record `view` holds exactly (length word to trailer, framing already
 * checked by the reader). Returns the record's shape, or why libpcp's decoder rejects it.
 */
export function checkDataRecord(view: DataView, version: LogVersion): RecordShape | string {
  const R = view.getUint32(0);
  const H = logFormat(version).dataHeaderSize;
  if (R > view.byteLength) return `record of ${R} bytes runs past the ${view.byteLength} bytes given`;
  if (R - 4 < H) return `record of ${R} bytes is shorter than a ${H + 4}-byte header`;
  const timestamp = decodeStamp(view, 4, version);
  const numpmid = view.getInt32(H - 4);
  // libpcp's PDU image is 4 bytes longer than the record (a 12-byte header replaces the 8
  // bytes of length words) and starts 8 bytes before the length word; its bounds checks are
  // against that image.
  const pduLen = R + 4;
  if (numpmid < 0 || numpmid > pduLen) return `numpmid ${numpmid} out of range`;
  const vsetOffsets = new Int32Array(numpmid);
  const wrong = checkValueSets(view, -8, pduLen, H, numpmid, vsetOffsets);
  return wrong ?? { timestamp, numpmid, vsetOffsets };
}

/** A value set as stored in an archive: also says each value block's stored vtype. */
export interface ArchiveValueSet extends ValueSet {
  /** Per value, the block's vtype byte; null for in-situ value sets (and numval ≤ 0). */
  readonly vtypes: Uint8Array | null;
}

/** Type used when a pmid has no descriptor: no value encoding matches it. */
const NO_TYPE = -99;

const EMPTY_INST = new Int32Array(0);

/**
 * Every value set of a record that checkDataRecord accepted, values decoded by the
 * descriptor's type (`typeOf`); a payload that cannot hold that type is kept as raw bytes.
 */
export function decodeValueSets(bytes: Uint8Array, view: DataView, shape: RecordShape, typeOf: (pmid: PmId) => number | undefined): ArchiveValueSet[] {
  const { numpmid, vsetOffsets } = shape;
  const sets: ArchiveValueSet[] = new Array<ArchiveValueSet>(numpmid);
  // A <mark> synthesised between archives has no bytes at all.
  if (numpmid === 0) return sets;
  const recordEnd = view.getUint32(0) - 4;
  for (let i = 0; i < numpmid; i++) {
    const p = vsetOffsets[i];
    const pmid = view.getUint32(p) as PmId;
    const numval = view.getInt32(p + 4);
    if (numval <= 0) {
      sets[i] = { pmid, numval, valfmt: PM_VAL_INSITU, inst: EMPTY_INST, values: [], vtypes: null };
      continue;
    }
    const valfmt = view.getInt32(p + 8);
    const type = typeOf(pmid) ?? NO_TYPE;
    const inst = new Int32Array(numval);
    const values: AtomValue[] = new Array<AtomValue>(numval);
    let q = p + 12;
    if (valfmt === PM_VAL_INSITU) {
      for (let j = 0; j < numval; j++, q += 8) {
        inst[j] = view.getInt32(q);
        // In-situ: the value word itself (§5.4), typed by the descriptor. Any other type has
        // no in-situ encoding; its word is kept as a signed 32-bit number.
        values[j] = type === PM_TYPE_U32 ? view.getUint32(q + 4) : type === PM_TYPE_FLOAT ? view.getFloat32(q + 4) : view.getInt32(q + 4);
      }
      sets[i] = { pmid, numval, valfmt, inst, values, vtypes: null };
    } else {
      const vtypes = new Uint8Array(numval);
      for (let j = 0; j < numval; j++, q += 8) {
        inst[j] = view.getInt32(q);
        const b = 4 * view.getInt32(q + 4) - 8;
        const word = view.getUint32(b);
        vtypes[j] = word >>> 24;
        // Bounded by the trailer: a block libpcp accepts only as its in-place swaps read it
        // (value-sets.ts) may say, as written, more than the record holds.
        const len = Math.max(0, Math.min((word & 0xffffff) - 4, recordEnd - (b + 4)));
        values[j] = decodeAtom(type, view, bytes, b + 4, len) ?? bytes.slice(b + 4, b + 4 + len);
      }
      sets[i] = { pmid, numval, valfmt, inst, values, vtypes };
    }
  }
  return sets;
}
