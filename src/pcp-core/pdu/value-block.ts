// Value encodings inside RESULT / HIGHRES_RESULT (pdu-protocol.md §3.12–§3.14): the in-situ
// 32-bit word, value blocks (a vtype|vlen header word then the payload) and the event-record
// arrays carried by EVENT and HIGHRES_EVENT blocks. Decoding is typed by the block's vtype
// (or the metric's descriptor for in-situ words and vtype 0), and bounded by vlen.
import {
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
  PM_TYPE_UNKNOWN,
  type AtomValue,
  type EventArray,
} from '../types';
import { Cursor, decodeCString } from '../io/cursor';
import { decodeEventArray as decodeEvents } from '../archive/value-decode';
import { encodeUtf8, type PduWriter } from './pdu-buffer';

/** Largest vlen the 24-bit field can hold (§1.4). */
export const MAX_VLEN = 0xffffff;

/** An in-situ value word, typed by the metric's descriptor (undefined: signed 32-bit). */
export function decodeInSitu(word: number, type: number | undefined): number {
  switch (type) {
    case PM_TYPE_U32:
      return word >>> 0;
    case PM_TYPE_FLOAT: {
      // Legacy form: the word holds the IEEE bits of an f32 (§3.13).
      const v = new DataView(new ArrayBuffer(4));
      v.setInt32(0, word);
      return v.getFloat32(0);
    }
    default:
      return word | 0;
  }
}

/** A cursor over exactly bytes [start, start + length) of `c`, so reads cannot stray. */
export function subCursor(c: Cursor, start: number, length: number, what: string): Cursor {
  if (start < 0 || length < 0 || start + length > c.bytes.length) c.fail(`${what}: ${length} bytes at ${start} lie outside ${c.bytes.length}`, start);
  return new Cursor(c.bytes.subarray(start, start + length), c.source, c.baseOffset + start, c.record, c.code);
}

/**
 * Decodes the whole of `c` (a cursor spanning exactly one payload) as a value of `type`.
 * Used for value-block payloads and event parameters alike; `what` names the place.
 */
export function decodePayload(c: Cursor, type: number, what: string): AtomValue {
  const payloadLen = c.bytes.length;
  const want = (n: number): void => {
    if (payloadLen !== n) c.fail(`${what}: type ${type} needs ${n} payload bytes, vlen gives ${payloadLen}`, 0);
  };
  switch (type) {
    case PM_TYPE_32:
      want(4);
      return c.i32(what);
    case PM_TYPE_U32:
      want(4);
      return c.u32(what);
    case PM_TYPE_64:
      want(8);
      return c.i64(what);
    case PM_TYPE_U64:
      want(8);
      return c.u64(what);
    case PM_TYPE_FLOAT:
      want(4);
      return c.f32(what);
    case PM_TYPE_DOUBLE:
      want(8);
      return c.f64(what);
    case PM_TYPE_STRING:
      return decodeCString(c.bytesView(payloadLen, what));
    case PM_TYPE_AGGREGATE:
    case PM_TYPE_AGGREGATE_STATIC:
    case PM_TYPE_UNKNOWN:
      // A copy: the PDU buffer is not kept alive by the values taken from it.
      return c.bytesView(payloadLen, what).slice();
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
      return decodeEventArray(c, type === PM_TYPE_HIGHRES_EVENT, what);
    default:
      return c.fail(`${what}: unknown value type ${type}`, 0);
  }
}

/**
 * The event-record array of an EVENT (9) or HIGHRES_EVENT (10) value (§3.14), by the core's
 * one event-array decoder; a PDU from a hostile peer must also keep its timestamps in range.
 */
function decodeEventArray(c: Cursor, highres: boolean, what: string): EventArray {
  const bytes = c.bytes;
  const events = decodeEvents(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), bytes, 0, bytes.length, highres);
  if (typeof events === 'string') return c.fail(`${what}: ${events}`, 0);
  for (let r = 0; r < events.records.length; r++) {
    const { sec, nsec } = events.records[r].time;
    if (highres ? nsec < 0 || nsec >= 1e9 || !Number.isSafeInteger(sec) : nsec < 0 || nsec >= 1e9) {
      c.fail(`${what}: event ${r} ${highres ? 'nanoseconds' : 'microseconds'} ${highres ? nsec : nsec / 1000} out of range`, 0);
    }
  }
  c.seek(bytes.length);
  return events;
}

/** Writes `value` as the payload of a block of `type`; returns the payload length. */
export function encodePayload(w: PduWriter, type: number, value: AtomValue): number {
  const start = w.length;
  switch (type) {
    case PM_TYPE_32:
      w.i32(Number(value));
      break;
    case PM_TYPE_U32:
      w.u32(Number(value));
      break;
    case PM_TYPE_64:
    case PM_TYPE_U64:
      w.i64(BigInt.asIntN(64, typeof value === 'bigint' ? value : BigInt(Number(value))));
      break;
    case PM_TYPE_FLOAT:
      w.f32(Number(value));
      break;
    case PM_TYPE_DOUBLE:
      w.f64(Number(value));
      break;
    case PM_TYPE_STRING:
      if (typeof value !== 'string') throw new TypeError('a STRING value must be a string');
      w.bytes(encodeUtf8(value)).u8(0);
      break;
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
      if (typeof value !== 'object' || value instanceof Uint8Array) throw new TypeError('event value must be an EventArray');
      encodeEventArray(w, value);
      break;
    default:
      if (!(value instanceof Uint8Array)) throw new TypeError(`type ${type} value must be bytes`);
      w.bytes(value);
  }
  return w.length - start;
}

function encodeEventArray(w: PduWriter, events: EventArray): void {
  w.i32(events.records.length);
  for (const r of events.records) {
    if (events.highres) w.i64(BigInt(r.time.sec)).i64(BigInt(r.time.nsec));
    else w.i32(r.time.sec).i32(Math.floor(r.time.nsec / 1000));
    w.u32(r.flags).i32(r.nparams);
    for (const p of r.params) {
      w.u32(p.pmid);
      const headAt = w.length;
      w.u32(0);
      const n = encodePayload(w, p.type, p.value);
      w.patchI32(headAt, ((p.type << 24) | ((n + 4) & 0xffffff)) | 0);
      w.pad();
    }
  }
}
