// One data-volume record as the replay engine sees it: the raw bytes (length word to trailer)
// plus a small typed index of its value sets, built after the structural checks libpcp applies
// when it decodes a record (archive-format.md §5.1–5.4, §9.1; a failure is PM_ERR_LOGREC).
// Values are never copied out here: the interpolation engine keeps (record, offset) references,
// as libpcp pins PDU buffers, and decodes only the values it returns.
import type { Timestamp } from '../types';
import { timestampSub } from './log-time';
import { checkDataRecord } from '../archive/data-record';
import type { LogVersion } from '../archive/log-format';

/** pmID, numval, valfmt and the offset of the first (inst, value) pair, per value set. */
export interface LogRecord {
  /** The whole record: leading length word … trailer. */
  readonly buf: Uint8Array;
  readonly view: DataView;
  readonly timestamp: Timestamp;
  /** Seconds since the start of the earliest archive, as libpcp's double (log-time.ts). */
  readonly t: number;
  /** Number of value sets; 0 for a <mark>. */
  readonly numpmid: number;
  /** Byte offset (in buf) of each value set header. */
  readonly vsetOffsets: Int32Array;
  /** True for a <mark> synthesised between archives (never on disk). */
  readonly virtual: boolean;
  /**
   * Interpolation's memo (interp-bounds.ts): the indices of the value sets whose pmid the
   * interpolating context tracks, valid while its set of tracked metrics is the one numbered
   * `boundsKey` (-1: none yet). A record is read again and again while a replay moves between
   * its bounds; this spares the look-up of every value set of it on each read.
   */
  boundsKey: number;
  boundsVsets: Int32Array;
}

const NO_VSETS = new Int32Array(0);

export const PM_VAL_INSITU = 0;
export const PM_VAL_DPTR = 1;
export const PM_VAL_SPTR = 2;

/** Byte offset in the record of the value block a pointer word `k` designates (§5.3). */
export function blockOffset(k: number): number {
  return 4 * k - 8;
}

/**
 * Validates a record read from a volume and indexes its value sets (archive/data-record.ts
 * owns the checks). `buf` holds exactly the record, length word and trailer included (already
 * checked equal), `view` a DataView of exactly those bytes (the caller's, when it has one).
 * Returns why libpcp's decoder rejects the record, if it does.
 */
export function checkLogRecord(buf: Uint8Array, version: number, base: Timestamp, view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)): LogRecord | string {
  const shape = checkDataRecord(view, version as LogVersion);
  if (typeof shape === 'string') return shape;
  const { timestamp, numpmid, vsetOffsets } = shape;
  return { buf, view, timestamp, t: timestampSub(timestamp, base), numpmid, vsetOffsets, virtual: false, boundsKey: -1, boundsVsets: NO_VSETS };
}

/** As checkLogRecord, undefined for a rejected record. */
export function decodeLogRecord(buf: Uint8Array, version: number, base: Timestamp): LogRecord | undefined {
  const rec = checkLogRecord(buf, version, base);
  return typeof rec === 'string' ? undefined : rec;
}

/** A <mark> record synthesised between the archives of a set (archive-format.md §8). */
export function virtualMark(timestamp: Timestamp, base: Timestamp): LogRecord {
  const buf = new Uint8Array(0);
  const t = timestampSub(timestamp, base);
  return { buf, view: new DataView(buf.buffer), timestamp, t, numpmid: 0, vsetOffsets: new Int32Array(0), virtual: true, boundsKey: -1, boundsVsets: NO_VSETS };
}

export function vsetPmid(rec: LogRecord, i: number): number {
  return rec.view.getUint32(rec.vsetOffsets[i]);
}

export function vsetNumval(rec: LogRecord, i: number): number {
  return rec.view.getInt32((rec.vsetOffsets[i]) + 4);
}

/** valfmt of a value set with numval > 0. */
export function vsetValfmt(rec: LogRecord, i: number): number {
  return rec.view.getInt32((rec.vsetOffsets[i]) + 8);
}

/** Offset of the j-th (inst, value) pair of value set i (numval > 0). */
export function valuePairOffset(rec: LogRecord, i: number, j: number): number {
  return (rec.vsetOffsets[i]) + 12 + 8 * j;
}
