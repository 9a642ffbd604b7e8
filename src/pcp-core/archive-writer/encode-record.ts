// V3 data records (archive-format.md §5): header (length, V3 timestamp, numpmid), the value
// sets (pmid, numval, and valfmt plus instance/value pairs only when numval > 0), then the
// value blocks of every value in order, each `vtype`, 24-bit `vlen` and payload, padded to 4
// bytes with '~' as pmlogger pads them; a value's word holds the block's position as a word
// index counted from 8 bytes before the record (§5.3). <mark> records are 24 bytes (§5.6).
// Values come decoded (AtomValue) and are encoded by the descriptor's type; a value the
// reader could not decode arrives as raw bytes and is written back unchanged.
import {
  PM_EVENT_FLAG_MISSED,
  PM_TYPE_32,
  PM_TYPE_64,
  PM_TYPE_DOUBLE,
  PM_TYPE_EVENT,
  PM_TYPE_FLOAT,
  PM_TYPE_HIGHRES_EVENT,
  PM_TYPE_STRING,
  PM_TYPE_U32,
  PM_TYPE_U64,
  PM_VAL_DPTR,
  PM_VAL_INSITU,
  type AtomValue,
  type EventArray,
  type PmId,
  type Timestamp,
  type ValueSet,
} from '../types';
import { ArchiveByteWriter, utf8Bytes } from './byte-writer';
import { ArchiveWriteError, framed } from './encode-meta';

/** pmlogger's padding byte. */
const PAD = 0x7e;
const MAX_VLEN = 0xffffff;

/** A value set to write; `vtypes` gives each value block's stored type byte (default: the desc's). */
export interface ValueSetToWrite extends ValueSet {
  readonly vtypes?: Uint8Array | null;
}

/**
 * The payload bytes of one value of `type` (no block header). Strings end in a NUL in value
 * blocks; event parameters store them without one (§5.5), so `nul` is false there.
 */
export function encodeAtom(type: number, value: AtomValue, what: string, nul = true): Uint8Array {
  if (value instanceof Uint8Array) return value;
  const w = new ArchiveByteWriter(16);
  switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
      if (typeof value !== 'number') break;
      if (type === PM_TYPE_32) w.i32(value);
      else w.u32(value);
      return w.finish();
    case PM_TYPE_64:
    case PM_TYPE_U64:
      if (typeof value !== 'bigint') break;
      if (type === PM_TYPE_64) w.i64(value);
      else w.u64(value);
      return w.finish();
    case PM_TYPE_FLOAT:
      if (typeof value !== 'number') break;
      w.f32(value);
      return w.finish();
    case PM_TYPE_DOUBLE:
      if (typeof value !== 'number') break;
      w.f64(value);
      return w.finish();
    case PM_TYPE_STRING: {
      if (typeof value !== 'string') break;
      w.bytes(utf8Bytes(value));
      if (nul) w.u8(0);
      return w.finish();
    }
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
      if (typeof value !== 'object' || value.kind !== 'events') break;
      return encodeEventArray(value, what);
    default:
      break;
  }
  throw new ArchiveWriteError(`${what}: a ${typeof value} value cannot be written as type ${type}`);
}

/** §5.5: nrecords, then each record's timestamp, flags, nparams and parameters. */
function encodeEventArray(events: EventArray, what: string): Uint8Array {
  const w = new ArchiveByteWriter(64);
  w.i32(events.records.length);
  for (const r of events.records) {
    if (events.highres) {
      w.i64(BigInt(r.time.sec));
      w.i64(BigInt(r.time.nsec));
    } else {
      // Event timevals hold microseconds; the reader made nanoseconds of them exactly.
      w.i32(r.time.sec);
      w.i32(Math.trunc(r.time.nsec / 1000));
    }
    w.u32(r.flags);
    w.i32(r.nparams);
    if ((r.flags & PM_EVENT_FLAG_MISSED) !== 0) continue;
    for (const p of r.params) {
      const payload = encodeAtom(p.type, p.value, `${what} event parameter ${p.pmid}`, false);
      w.u32(p.pmid);
      w.u32(((p.type & 0xff) << 24) | (payload.length + 4));
      w.bytes(payload);
      w.fill(0, (4 - (payload.length % 4)) % 4);
    }
  }
  return w.finish();
}

/** Whether a value set of `type` is stored in the value word itself. */
function insitu(set: ValueSetToWrite, type: number | undefined): boolean {
  if (set.valfmt !== PM_VAL_INSITU) return false;
  // In-situ suits 32-bit types (and FLOAT in old archives); a value the reader kept as a
  // plain word for an unknown type is written back as that word.
  return set.values.every((v) => typeof v === 'number') && (type === undefined || type === PM_TYPE_32 || type === PM_TYPE_U32 || type === PM_TYPE_FLOAT);
}

/**
 * Encodes one record into `w`. `typeOf` gives each pmid's descriptor type (undefined: no
 * descriptor, values must be words or raw bytes). Returns the record's length.
 */
export function encodeRecordV3(w: ArchiveByteWriter, timestamp: Timestamp, sets: readonly ValueSetToWrite[], typeOf: (pmid: PmId) => number | undefined): number {
  const start = w.length;
  // Lay out first: value set area size, then each block's position.
  let setBytes = 0;
  for (const s of sets) setBytes += s.numval > 0 ? 12 + 8 * s.numval : 8;
  const blocks: { vtype: number; payload: Uint8Array }[] = [];
  const plan = sets.map((s) => {
    const type = typeOf(s.pmid);
    const inSitu = s.numval > 0 && insitu(s, type);
    if (s.numval > 0 && !inSitu) {
      s.values.forEach((v, j) => {
        const what = `pmid ${s.pmid} instance ${s.inst[j] ?? '?'}`;
        if (type === undefined && !(v instanceof Uint8Array)) throw new ArchiveWriteError(`${what}: no descriptor to encode the value by`);
        const payload = encodeAtom(type ?? 0, v, what);
        if (payload.length + 4 > MAX_VLEN) throw new ArchiveWriteError(`${what}: value of ${payload.length} bytes is too large for a value block`);
        blocks.push({ vtype: s.vtypes?.[j] ?? type ?? 0, payload });
      });
    }
    return { s, type, inSitu };
  });
  framed(w, () => {
    w.stampV3(timestamp);
    w.i32(sets.length);
    // Blocks start right after the value sets; positions count words from 8 bytes before the record.
    let block = start + 20 + setBytes;
    let b = 0;
    for (const { s, type, inSitu } of plan) {
      w.u32(s.pmid);
      w.i32(s.numval);
      if (s.numval <= 0) continue;
      w.i32(inSitu ? PM_VAL_INSITU : s.valfmt === PM_VAL_INSITU ? PM_VAL_DPTR : s.valfmt);
      for (let j = 0; j < s.numval; j++) {
        w.i32(s.inst[j] ?? 0);
        const v = s.values[j];
        if (inSitu) {
          if (typeof v !== 'number') throw new ArchiveWriteError(`pmid ${s.pmid}: in-situ value is not a number`);
          if (type === PM_TYPE_FLOAT) w.f32(v);
          else if (type === PM_TYPE_U32) w.u32(v);
          else w.i32(v);
        } else {
          w.u32((block - start + 8) / 4);
          const blk = blocks[b++];
          block += 4 + (blk ? (blk.payload.length + 3) & ~3 : 0);
        }
      }
    }
    for (const blk of blocks) {
      w.u32(((blk.vtype & 0xff) << 24) | (blk.payload.length + 4));
      w.bytes(blk.payload);
      w.fill(PAD, (4 - (blk.payload.length % 4)) % 4);
    }
  });
  return w.length - start;
}

/** A <mark> record: 24 bytes, numpmid 0. */
export function encodeMarkV3(w: ArchiveByteWriter, timestamp: Timestamp): void {
  framed(w, () => {
    w.stampV3(timestamp);
    w.i32(0);
  });
}
