// Loads a whole .meta file into ArchiveMetadata, walking it the way libpcp 6.0.3's
// __pmLogLoadMeta reads its stream (archive-format.md §4, §9.1): an 8-byte header (length,
// type), the body read field by field, then the trailer at wherever reading stopped, which
// must repeat the length. A fragment shorter than a header at the end is ignored; any other
// shortfall or mismatch is PM_ERR_LOGREC; an unknown type is PM_ERR_RECTYPE; a file with no
// descriptor at all is PM_ERR_LOGREC. Decoding is synchronous over the bytes of one read.
import { DecodeError, PM_ERR_LOGREC, PM_ERR_RECTYPE, PmError } from '../errors';
import type { LogFormat, LogVersion } from './log-format';
import type { ArchiveMetadata } from './metadata';
import type { PmId } from '../types';
import {
  TYPE_DESC,
  TYPE_INDOM,
  TYPE_INDOM_DELTA,
  TYPE_INDOM_V2,
  TYPE_LABEL,
  TYPE_LABEL_V2,
  TYPE_TEXT,
  decodeDescFields,
  decodeIndomRecord,
  decodeLabelRecord,
  decodeTextRecord,
  metaError,
  type RecordPlace,
} from './meta-records';

const utf8 = new TextDecoder('utf-8');

/** Counts of what one .meta held, by record type. */
export interface MetaCounts {
  records: number;
  desc: number;
  indom: number;
  label: number;
  text: number;
  /** The pmid of every descriptor record, in file order (pmlogcheck's checks: desc-check.ts). */
  descIds: PmId[];
  /** Records of a type the archive's version does not have (a V3 INDOM in a V2 archive, a
   *  V2 LABEL in a V3 one): libpcp loads them, pmlogcheck refuses them (file-check.ts). */
  offVersion: { readonly record: number; readonly type: number }[];
}

/**
 * Decodes `bytes` (the whole file, label included) into `meta`. `source` names the file in
 * errors. Returns what it loaded.
 */
export function loadMeta(bytes: Uint8Array, source: string, format: LogFormat, meta: ArchiveMetadata): MetaCounts {
  const counts = loadMetaRecords(bytes, format.labelSize, source, meta, format.version);
  if (counts.desc === 0) throw new DecodeError(PM_ERR_LOGREC, source, format.labelSize, '', 'no metric descriptors in the metadata');
  return counts;
}

/**
 * The records pmlogger added to a .meta since a load that ended at `from` (a followed
 * archive): only whole records are loaded — one still being written waits for the next
 * call. Returns where the next call starts.
 */
export function loadMetaTail(bytes: Uint8Array, from: number, source: string, meta: ArchiveMetadata): number {
  const end = wholeRecordsEnd(bytes, from);
  if (end > from) loadMetaRecords(bytes.subarray(0, end), from, source, meta);
  return end;
}

/** Whether a .meta of `version` may hold records of `type` (DESC and TEXT fit both). */
function typeFitsVersion(type: number, version: LogVersion): boolean {
  if (type === TYPE_INDOM || type === TYPE_INDOM_DELTA || type === TYPE_LABEL) return version === 3;
  if (type === TYPE_INDOM_V2 || type === TYPE_LABEL_V2) return version === 2;
  return true;
}

/** The offset after the last whole record from `from` on, by the records' length words. */
export function wholeRecordsEnd(bytes: Uint8Array, from: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = from;
  for (;;) {
    if (bytes.length - end < 8) break;
    const len = view.getInt32(end);
    // Not yet whole (or not a record: damage is reported once loadMeta reads it).
    if (len < 12 || end + len > bytes.length) break;
    end += len;
  }
  return end;
}

function loadMetaRecords(bytes: Uint8Array, from: number, source: string, meta: ArchiveMetadata, version?: LogVersion): MetaCounts {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = bytes.length;
  const counts: MetaCounts = { records: 0, desc: 0, indom: 0, label: 0, text: 0, descIds: [], offVersion: [] };
  let pos = from;
  for (let index = 1; ; index++) {
    // Header: i32 length (trailer included), i32 type. Fewer than 8 bytes left is the end.
    if (size - pos < 8) break;
    const len = view.getInt32(pos);
    const type = view.getInt32(pos + 4);
    const place: RecordPlace = { source, offset: pos, index };
    if (len <= 0) metaError(place, `bad record length ${len}`);
    if (version !== undefined && !typeFitsVersion(type, version)) counts.offVersion.push({ record: index, type });
    const body = pos + 8;
    const rlen = len - 12;
    // The whole body must be there before the trailer is looked at.
    const need = (end: number, what: string): void => {
      if (end > size) metaError(place, `unexpected end of file in ${what}: wanted ${end - pos} bytes, got ${size - pos}`);
    };
    let next: number;
    try {
      switch (type) {
        case TYPE_DESC: {
          // §4.1: pmDesc (20 bytes), i32 numnames, then (i32 length, bytes) per name.
          need(body + 20, 'descriptor');
          const desc = decodeDescFields(view, body);
          meta.addDesc(desc);
          counts.desc++;
          counts.descIds.push(desc.pmid);
          meta.descRecords++;
          let k = body + 20;
          if (len === 32) {
            // A descriptor written with no names omits numnames (§4.1): no names.
            next = k;
            break;
          }
          need(k + 4, 'name count');
          const numnames = view.getInt32(k);
          k += 4;
          for (let i = 0; i < numnames; i++) {
            need(k + 4, `name ${i} length`);
            const nlen = view.getInt32(k);
            k += 4;
            if (nlen < 0) metaError(place, `name ${i}: bad length ${nlen}`);
            need(k + nlen, `name ${i}`);
            // libpcp uses the name as a C string: it ends at the first NUL (vldb-disks pads
            // its names with NULs).
            const raw = bytes.subarray(k, k + nlen);
            const nul = raw.indexOf(0);
            meta.addName(utf8.decode(nul < 0 ? raw : raw.subarray(0, nul)), desc.pmid);
            k += nlen;
          }
          next = k;
          break;
        }
        case TYPE_INDOM_V2:
        case TYPE_INDOM:
        case TYPE_INDOM_DELTA: {
          if (rlen < 0) metaError(place, `record length ${len} too short`);
          need(body + rlen, 'instance domain');
          meta.addIndom(decodeIndomRecord(bytes, view, type, body, rlen, place));
          counts.indom++;
          next = body + rlen;
          break;
        }
        case TYPE_LABEL_V2:
        case TYPE_LABEL: {
          if (rlen < 0) metaError(place, `record length ${len} too short`);
          need(body + rlen, 'label');
          meta.addLabels(decodeLabelRecord(bytes, view, type === TYPE_LABEL, body, rlen, place));
          counts.label++;
          next = body + rlen;
          break;
        }
        case TYPE_TEXT: {
          if (rlen < 0) metaError(place, `record length ${len} too short`);
          need(body + rlen, 'help text');
          const text = decodeTextRecord(bytes, view, body, rlen, place);
          counts.text++;
          if (!text.valid) {
            // libpcp skips such a record without consuming its trailer: its next header is
            // read from the trailer's position (§4.6), which we reproduce.
            pos = body + rlen;
            counts.records++;
            continue;
          }
          meta.addText(text);
          next = body + rlen;
          break;
        }
        default:
          throw new DecodeError(PM_ERR_RECTYPE, source, pos, `record ${index}`, `bad metadata record type (${type})`);
      }
    } catch (e) {
      // LOGCHANGE* from addDesc: say where the conflicting descriptor is.
      if (e instanceof PmError && !(e instanceof DecodeError)) throw new DecodeError(e.code, source, pos, `record ${index}`, e.message);
      throw e;
    }
    need(next + 4, 'record trailer');
    const trailer = view.getInt32(next);
    if (trailer !== len) metaError(place, `length mismatch: header ${len} != trailer ${trailer}`, next);
    pos = next + 4;
    counts.records++;
  }
  meta.finishArchive();
  return counts;
}
