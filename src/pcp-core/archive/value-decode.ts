// Decoding one value's payload by metric type (archive-format.md §5.4) and event arrays
// (§5.5). Payloads are big-endian on disk; the descriptor's type decides how they are read
// (a block's own vtype is unreliable in old archives). Hot path: called per value, so it
// works straight on the volume's DataView without copying, and allocates only the result.
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
  type AtomValue,
  type EventArray,
  type EventParam,
  type EventRecord,
  type PmId,
} from '../types';

const utf8 = new TextDecoder('utf-8');

/**
 * Short ASCII strings seen before, by a hash of their bytes. Metadata repeats the same names
 * over and over (every instance domain record lists all its instances' names), so most
 * decodes find their string here: a compare instead of a subarray and a new string each.
 */
const INTERN_SLOTS = 4096;
const interned: (string | undefined)[] = new Array<string | undefined>(INTERN_SLOTS);

/** Bytes up to the first NUL (C string), as UTF-8 text. */
export function decodeCStringAt(bytes: Uint8Array, start: number, end: number): string {
  let nul = start;
  let hash = 0x811c9dc5;
  let ascii = true;
  while (nul < end) {
    const b = bytes[nul];
    if (b === 0) break;
    if (b >= 0x80) ascii = false;
    hash = Math.imul(hash ^ b, 0x01000193);
    nul++;
  }
  // Short ASCII strings are the common case; skip TextDecoder's per-call overhead for them.
  if (ascii && nul - start <= 32) {
    const slot = (hash >>> 0) % INTERN_SLOTS;
    const known = interned[slot];
    if (known !== undefined && known.length === nul - start) {
      let same = true;
      for (let i = 0; i < known.length; i++) {
        if (known.charCodeAt(i) !== bytes[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return known;
    }
    const text = String.fromCharCode.apply(null, bytes.subarray(start, nul) as unknown as number[]);
    interned[slot] = text;
    return text;
  }
  return utf8.decode(bytes.subarray(start, nul));
}

/**
 * A value of `type` from the payload [start, start+len). Undefined when the payload cannot
 * hold that type (too short, or a type with no value encoding).
 */
export function decodeAtom(type: number, view: DataView, bytes: Uint8Array, start: number, len: number): AtomValue | undefined {
  switch (type) {
    case PM_TYPE_32:
      return len >= 4 ? view.getInt32(start) : undefined;
    case PM_TYPE_U32:
      return len >= 4 ? view.getUint32(start) : undefined;
    case PM_TYPE_64:
      return len >= 8 ? view.getBigInt64(start) : undefined;
    case PM_TYPE_U64:
      return len >= 8 ? view.getBigUint64(start) : undefined;
    case PM_TYPE_FLOAT:
      return len >= 4 ? view.getFloat32(start) : undefined;
    case PM_TYPE_DOUBLE:
      return len >= 8 ? view.getFloat64(start) : undefined;
    case PM_TYPE_STRING:
      return decodeCStringAt(bytes, start, start + len);
    case PM_TYPE_AGGREGATE:
    case PM_TYPE_AGGREGATE_STATIC:
      return bytes.slice(start, start + len);
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
      return decodeEventArray(view, bytes, start, len, type === PM_TYPE_HIGHRES_EVENT);
    default:
      return undefined;
  }
}

/**
 * §5.5: i32 nrecords, then per record a timestamp (i32 sec + i32 usec, or i64 sec + i64
 * nsec), u32 flags, i32 nparams, and nparams parameters (u32 pmid, u8 type + u24 length,
 * value padded to 4 bytes). With PM_EVENT_FLAG_MISSED, nparams counts missed events and no
 * parameters follow. Undefined unless the records use exactly the payload.
 */
export function decodeEventArray(view: DataView, bytes: Uint8Array, start: number, len: number, highres: boolean): EventArray | undefined {
  const end = start + len;
  if (len < 4) return undefined;
  const nrecords = view.getInt32(start);
  if (nrecords < 0) return undefined;
  const stampSize = highres ? 16 : 8;
  const records: EventRecord[] = [];
  let p = start + 4;
  for (let r = 0; r < nrecords; r++) {
    if (p + stampSize + 8 > end) return undefined;
    let sec: number;
    let nsec: number;
    if (highres) {
      sec = Number(view.getBigInt64(p));
      nsec = Number(view.getBigInt64(p + 8));
    } else {
      sec = view.getInt32(p);
      nsec = view.getInt32(p + 4) * 1000;
    }
    const flags = view.getUint32(p + stampSize);
    const nparams = view.getInt32(p + stampSize + 4);
    p += stampSize + 8;
    if ((flags & PM_EVENT_FLAG_MISSED) !== 0) {
      records.push({ time: { sec, nsec }, flags, nparams, params: [] });
      continue;
    }
    if (nparams < 0) return undefined;
    const params: EventParam[] = [];
    for (let i = 0; i < nparams; i++) {
      if (p + 8 > end) return undefined;
      const pmid = view.getUint32(p) as PmId;
      const word = view.getUint32(p + 4);
      const ptype = word >>> 24;
      const plen = word & 0xffffff;
      if (plen < 4) return undefined;
      const padded = (plen + 3) & ~3;
      if (p + 4 + padded > end) return undefined;
      // No nesting: an event-typed parameter (or an unknown type) is kept as raw bytes.
      const value = ptype === PM_TYPE_EVENT || ptype === PM_TYPE_HIGHRES_EVENT ? undefined : decodeAtom(ptype, view, bytes, p + 8, plen - 4);
      params.push({ pmid, type: ptype, value: value ?? bytes.slice(p + 8, p + 4 + plen) });
      p += 4 + padded;
    }
    records.push({ time: { sec, nsec }, flags, nparams, params });
  }
  if (p !== end) return undefined;
  return { kind: 'events', highres, records };
}
