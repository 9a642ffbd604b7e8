// Decodes one value of a record into an AtomValue, by the descriptor's type (archive-format.md
// §5.3–5.5: the block's vtype is unreliable in old archives, so it is not consulted). Used when
// a fetch result is built; the scan loops never call it.
import type { AtomValue, EventArray, EventParam, EventRecord, PmId } from '../types';
import {
  PM_EVENT_FLAG_MISSED,
  PM_TYPE_32,
  PM_TYPE_64,
  PM_TYPE_AGGREGATE,
  PM_TYPE_AGGREGATE_STATIC,
  PM_TYPE_DOUBLE,
  PM_TYPE_EVENT,
  PM_TYPE_FLOAT,
  PM_TYPE_HIGHRES_EVENT,
  PM_TYPE_STRING,
  PM_TYPE_U32,
  PM_TYPE_U64,
} from '../types';
import { PM_VAL_INSITU } from './log-record';

const utf8 = new TextDecoder('utf-8');

/** A string value: the block's bytes up to the first NUL (what pmExtractValue copies). */
export function decodeCString(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  return utf8.decode(nul < 0 ? bytes : bytes.subarray(0, nul));
}

/**
 * The value at `off` of a record: for valfmt INSITU `off` is the value word, otherwise the
 * start of the value block. Undefined for types that have no AtomValue form.
 */
export function decodeValue(view: DataView, off: number, valfmt: number, type: number): AtomValue | undefined {
  if (valfmt === PM_VAL_INSITU) {
    switch (type) {
      case PM_TYPE_32:
        return view.getInt32(off);
      case PM_TYPE_U32:
        return view.getUint32(off);
      case PM_TYPE_FLOAT:
        return view.getFloat32(off);
      default:
        return undefined;
    }
  }
  // Bounded by the trailer (the view is the record): a block libpcp accepts only as its
  // in-place swaps read it (archive/value-sets.ts) may say, as written, more than that.
  const vlen = Math.max(4, Math.min(view.getUint32(off) & 0xffffff, view.byteLength - 4 - off));
  const payload = off + 4;
  // A payload too short for the descriptor's type is kept as raw bytes, as the archive reader
  // keeps it (archive/volume-record.ts): never a read past the block.
  if (vlen - 4 < paramSize(type)) return bytesOf(view, payload, vlen - 4).slice();
  switch (type) {
    case PM_TYPE_32:
      return view.getInt32(payload);
    case PM_TYPE_U32:
      return view.getUint32(payload);
    case PM_TYPE_64:
      return view.getBigInt64(payload);
    case PM_TYPE_U64:
      return view.getBigUint64(payload);
    case PM_TYPE_FLOAT:
      return view.getFloat32(payload);
    case PM_TYPE_DOUBLE:
      return view.getFloat64(payload);
    case PM_TYPE_STRING:
      return decodeCString(bytesOf(view, payload, vlen - 4));
    case PM_TYPE_AGGREGATE:
    case PM_TYPE_AGGREGATE_STATIC:
      return bytesOf(view, payload, vlen - 4).slice();
    case PM_TYPE_EVENT:
      return decodeEventArray(view, payload, vlen - 4, false);
    case PM_TYPE_HIGHRES_EVENT:
      return decodeEventArray(view, payload, vlen - 4, true);
    default:
      return undefined;
  }
}

function bytesOf(view: DataView, off: number, len: number): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset + off, Math.max(0, len));
}

/**
 * An event array payload (§5.5); truncated content yields the records decoded so far, and a
 * parameter whose length overruns the payload ends the decoding there (nothing is read
 * outside [off, off + len), which the record check has placed inside the record).
 */
export function decodeEventArray(view: DataView, off: number, len: number, highres: boolean): EventArray {
  const end = off + len;
  const records: EventRecord[] = [];
  if (len < 4) return { kind: 'events', highres, records };
  const nrecords = view.getInt32(off);
  let p = off + 4;
  for (let r = 0; r < nrecords; r++) {
    const fixed = highres ? 24 : 16;
    if (end - p < fixed) break;
    const time = highres
      ? { sec: Number(view.getBigInt64(p)), nsec: Number(view.getBigInt64(p + 8)) }
      : { sec: view.getInt32(p), nsec: view.getInt32(p + 4) * 1000 };
    p += highres ? 16 : 8;
    const flags = view.getUint32(p);
    const nparams = view.getInt32(p + 4);
    p += 8;
    const params: EventParam[] = [];
    if ((flags & PM_EVENT_FLAG_MISSED) === 0) {
      for (let k = 0; k < nparams; k++) {
        if (end - p < 8) break;
        const pmid = view.getUint32(p) as PmId;
        const ptype = view.getUint8(p + 4);
        const plen = view.getUint32(p + 4) & 0xffffff;
        if (plen < 4 || plen - 4 > end - (p + 8) || plen - 4 < paramSize(ptype)) {
          records.push({ time, flags, nparams, params });
          return { kind: 'events', highres, records };
        }
        const value = decodeParam(view, p + 8, plen - 4, ptype);
        if (value !== undefined) params.push({ pmid, type: ptype, value });
        p += 4 + ((plen + 3) & ~3);
      }
    }
    records.push({ time, flags, nparams, params });
  }
  return { kind: 'events', highres, records };
}

/** Bytes a parameter of `type` needs (0: any length). */
function paramSize(type: number): number {
  return type === PM_TYPE_32 || type === PM_TYPE_U32 || type === PM_TYPE_FLOAT ? 4 : type === PM_TYPE_64 || type === PM_TYPE_U64 || type === PM_TYPE_DOUBLE ? 8 : 0;
}

function decodeParam(view: DataView, off: number, len: number, type: number): AtomValue | undefined {
  switch (type) {
    case PM_TYPE_32:
      return view.getInt32(off);
    case PM_TYPE_U32:
      return view.getUint32(off);
    case PM_TYPE_64:
      return view.getBigInt64(off);
    case PM_TYPE_U64:
      return view.getBigUint64(off);
    case PM_TYPE_FLOAT:
      return view.getFloat32(off);
    case PM_TYPE_DOUBLE:
      return view.getFloat64(off);
    case PM_TYPE_STRING:
      return decodeCString(bytesOf(view, off, len));
    default:
      return bytesOf(view, off, len).slice();
  }
}
