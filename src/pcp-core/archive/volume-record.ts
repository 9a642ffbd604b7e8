// Decodes one data-volume record (archive-format.md §5.1–5.6) into a Result, with exactly the
// structural checks libpcp 6.0.3 applies when it reads a record (__pmDecodeResult_ctx and
// __pmDecodeValueSet in p_result.c): header, numpmid, each value set and value block inside
// the record, value blocks starting right after the last value set and their padded sizes
// filling the rest exactly, valfmt 0/1/2 (value-sets.ts owns that rule). Any failure is
// PM_ERR_LOGREC. Values are decoded
// by the descriptor's type (§5.4). Hot path: one DataView over the volume buffer, typed
// arrays for instances, no per-field allocation beyond the decoded values.
import { DecodeError, PM_ERR_LOGREC } from '../errors';
import {
  PM_TYPE_FLOAT,
  PM_TYPE_U32,
  PM_VAL_INSITU,
  type AtomValue,
  type PmId,
  type Result,
  type Timestamp,
  type ValueSet,
} from '../types';
import { decodeStamp, type LogFormat } from './log-format';
import { decodeAtom } from './value-decode';
import { checkValueSets } from './value-sets';

/** A value set as read from an archive: also says each value block's stored vtype. */
export interface ArchiveValueSet extends ValueSet {
  /** Per value, the block's vtype byte; null for in-situ value sets (and numval ≤ 0). */
  readonly vtypes: Uint8Array | null;
}

/** One record of an archive, as pmFetchArchive returns it, plus where it came from. */
export interface ArchiveRecord extends Result {
  readonly sets: readonly ArchiveValueSet[];
  /** numpmid = 0: a <mark> (a gap in the recording). */
  readonly mark: boolean;
  /** A mark libpcp synthesises between the archives of a set; never on disk (§8). */
  readonly synthetic: boolean;
  /** Position in the sorted archive list, volume number and byte offset of the record. */
  readonly archive: number;
  readonly vol: number;
  readonly offset: number;
}

/** Where a record is and how to decode its values (descriptor types by pmid). */
export interface RecordContext {
  readonly source: string;
  readonly format: LogFormat;
  readonly typeOf: (pmid: PmId) => number | undefined;
  readonly archive: number;
  readonly vol: number;
}

/** Type used when a pmid has no descriptor: no value encoding matches it. */
const NO_TYPE = -99;

const EMPTY_INST = new Int32Array(0);

function bad(ctx: RecordContext, offset: number, detail: string): never {
  throw new DecodeError(PM_ERR_LOGREC, ctx.source, offset, 'data record', detail);
}

/** What the structural check of a record established. */
export interface RecordShape {
  readonly timestamp: Timestamp;
  readonly numpmid: number;
}

/**
 * libpcp's structural checks of the record whose length word is at `start` in `bytes` (the
 * whole record must be inside `bytes`; `fileOffset` is its absolute offset, for errors). The
 * framing (length ≥ 8, trailer = header) has been checked by the caller. Throws LOGREC.
 */
export function checkRecord(view: DataView, start: number, fileOffset: number, ctx: RecordContext): RecordShape {
  const R = view.getUint32(start);
  const H = ctx.format.dataHeaderSize;
  // libpcp's PDU image is 4 bytes longer than the record (12-byte header replaces the
  // 8 bytes of length words); its bounds checks are against that length.
  const pduLen = R + 4;
  if (start + R > view.byteLength) bad(ctx, fileOffset, `record of ${R} bytes runs past the ${view.byteLength - start} bytes given`);
  if (R - 4 < H) bad(ctx, fileOffset, `record of ${R} bytes is shorter than a ${H + 4}-byte header`);
  // §5.1: timestamp @4, i32 numpmid @4+stampSize.
  const timestamp: Timestamp = decodeStamp(view, start + 4, ctx.format.version);
  const numpmid = view.getInt32(start + 4 + ctx.format.stampSize);
  if (numpmid < 0 || numpmid > pduLen) bad(ctx, fileOffset, `numpmid ${numpmid} out of range`);

  const wrong = checkValueSets(view, start - 8, pduLen, start + H, numpmid);
  if (wrong !== undefined) bad(ctx, fileOffset, wrong);
  return { timestamp, numpmid };
}

/** Checks (as checkRecord) and decodes the record at `start`. */
export function decodeRecord(bytes: Uint8Array, view: DataView, start: number, fileOffset: number, ctx: RecordContext): ArchiveRecord {
  return decodeValues(bytes, view, start, fileOffset, ctx, checkRecord(view, start, fileOffset, ctx));
}

/** Decodes the values of a record that checkRecord has passed (`shape` is its answer). */
export function decodeValues(bytes: Uint8Array, view: DataView, start: number, fileOffset: number, ctx: RecordContext, shape: RecordShape): ArchiveRecord {
  const { timestamp, numpmid } = shape;
  const H = ctx.format.dataHeaderSize;
  let p: number;
  // Pass 2 (values).
  const sets: ArchiveValueSet[] = new Array<ArchiveValueSet>(numpmid);
  p = start + H;
  for (let i = 0; i < numpmid; i++) {
    const pmid = view.getUint32(p) as PmId;
    const numval = view.getInt32(p + 4);
    if (numval <= 0) {
      sets[i] = { pmid, numval, valfmt: PM_VAL_INSITU, inst: EMPTY_INST, values: [], vtypes: null };
      p += 8;
      continue;
    }
    const valfmt = view.getInt32(p + 8);
    const type = ctx.typeOf(pmid) ?? NO_TYPE;
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
        const b = start + 4 * view.getInt32(q + 4) - 8;
        const word = view.getUint32(b);
        vtypes[j] = word >>> 24;
        // Bounded by the trailer: a block libpcp accepts only as its in-place swaps read it
        // (value-sets.ts) may say, as written, more than the record holds.
        const len = Math.max(0, Math.min((word & 0xffffff) - 4, start + view.getUint32(start) - 4 - (b + 4)));
        // A payload that cannot hold the descriptor's type is kept as raw bytes.
        values[j] = decodeAtom(type, view, bytes, b + 4, len) ?? bytes.slice(b + 4, b + 4 + len);
      }
      sets[i] = { pmid, numval, valfmt, inst, values, vtypes };
    }
    p = q;
  }
  return { timestamp, sets, mark: numpmid === 0, synthetic: false, archive: ctx.archive, vol: ctx.vol, offset: fileOffset };
}

/** A synthesised <mark> between archives (§8). */
export function syntheticMark(timestamp: Timestamp, archive: number): ArchiveRecord {
  return { timestamp, sets: [], mark: true, synthetic: true, archive, vol: -1, offset: -1 };
}
