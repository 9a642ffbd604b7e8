// Decoding one value's payload by metric type (archive-format.md §5.4) and event arrays
// (§5.5), for archive records (dump, replay) and PDUs (pdu/value-block.ts) alike. Payloads
// are big-endian; the descriptor's type decides how they are read (a block's own vtype is
// unreliable in old archives). Hot path: called per value, so it works straight on the
// record's DataView without copying, and allocates only the result.
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
import { decodeCStringAt } from '../io/cursor';

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
    case PM_TYPE_HIGHRES_EVENT: {
      const events = decodeEventArray(view, bytes, start, len, type === PM_TYPE_HIGHRES_EVENT);
      return typeof events === 'string' ? undefined : events;
    }
    default:
      return undefined;
  }
}

/**
 * §5.5: i32 nrecords, then per record a timestamp (i32 sec + i32 usec, or i64 sec + i64
 * nsec), u32 flags, i32 nparams, and nparams parameters (u32 pmid, u8 type + u24 length,
 * value padded to 4 bytes). With PM_EVENT_FLAG_MISSED, nparams counts missed events and no
 * parameters follow. The records must use exactly the payload [start, start+len); otherwise
 * the answer is what is wrong (archive readers then keep the payload as raw bytes, the PDU
 * decoder refuses the PDU). Parameters are not nested: an event-typed parameter, or one of
 * a type without a value encoding, is kept as raw bytes. The one event-array decoder.
 */
export function decodeEventArray(view: DataView, bytes: Uint8Array, start: number, len: number, highres: boolean): EventArray | string {
  const end = start + len;
  if (len < 4) return `${len} bytes cannot hold nrecords`;
  const nrecords = view.getInt32(start);
  const stampSize = highres ? 16 : 8;
  // The smallest record is a timestamp, flags and nparams.
  if (nrecords < 0 || nrecords * (stampSize + 8) > len - 4) return `nrecords ${nrecords} does not fit ${len} bytes`;
  const records: EventRecord[] = [];
  let p = start + 4;
  for (let r = 0; r < nrecords; r++) {
    if (p + stampSize + 8 > end) return `event ${r} overruns the record array`;
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
    if (nparams < 0) return `event ${r} nparams ${nparams} is negative`;
    if (nparams * 8 > end - p) return `event ${r} has ${nparams} parameters in ${end - p} bytes`;
    const params: EventParam[] = [];
    for (let i = 0; i < nparams; i++) {
      const pmid = view.getUint32(p) as PmId;
      const word = view.getUint32(p + 4);
      const ptype = word >>> 24;
      const plen = word & 0xffffff;
      const padded = (plen + 3) & ~3;
      if (plen < 4 || p + 4 + padded > end) return `event ${r} parameter ${i} length ${plen} overruns the record array`;
      const value = ptype === PM_TYPE_EVENT || ptype === PM_TYPE_HIGHRES_EVENT ? undefined : decodeAtom(ptype, view, bytes, p + 8, plen - 4);
      params.push({ pmid, type: ptype, value: value ?? bytes.slice(p + 8, p + 4 + plen) });
      p += 4 + padded;
    }
    records.push({ time: { sec, nsec }, flags, nparams, params });
  }
  if (p !== end) return `${end - p} bytes left after the last event record`;
  return { kind: 'events', highres, records };
}
