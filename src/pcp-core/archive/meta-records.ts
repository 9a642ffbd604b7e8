// Decoders for the record types of the metadata file (archive-format.md §4): descriptors
// with their names (§4.1), instance domains full, V2 and delta (§4.2), label sets V2/V3
// (§4.5) and help text (§4.6). Each works on the whole .meta image, at an absolute offset,
// and rejects what libpcp rejects with PM_ERR_LOGREC. Framing (lengths, trailers, record
// order) is meta-loader.ts's job.
import { DecodeError, PM_ERR_LOGREC } from '../errors';
import { decodeUnits, type Desc, type InDom, type PmId, type Timestamp } from '../types';
import type { Label, LabelSet } from '../types';
import { decodeTimestampV3, decodeTimeval } from './log-format';
import { decodeCStringAt, decodeCStringTable } from '../io/cursor';

/** Metadata record types (§4). */
export const TYPE_DESC = 1;
export const TYPE_INDOM_V2 = 2;
export const TYPE_LABEL_V2 = 3;
export const TYPE_TEXT = 4;
export const TYPE_INDOM = 5;
export const TYPE_INDOM_DELTA = 6;
export const TYPE_LABEL = 7;

/** Help text type bits (§4.6). */
export const PM_TEXT_ONELINE = 1;
export const PM_TEXT_HELP = 2;
export const PM_TEXT_PMID = 4;
export const PM_TEXT_INDOM = 8;

/** PM_MAXLABELS and PM_MAXLABELJSONLEN (§4.5). */
const PM_MAXLABELS = 255;
const PM_MAXLABELJSONLEN = 65535;

/** Where a record sits, for error messages. */
export interface RecordPlace {
  readonly source: string;
  /** Absolute offset of the record's length word. */
  readonly offset: number;
  /** 1-based record number, as pmlogcheck counts (the label is record 0). */
  readonly index: number;
}

export function metaError(place: RecordPlace, detail: string, at = place.offset): never {
  throw new DecodeError(PM_ERR_LOGREC, place.source, at, `record ${place.index}`, detail);
}

export interface DescRecord {
  readonly desc: Desc;
}

/** §4.1 fixed part, at `off` (after the 8-byte header): pmid, type, indom, sem, units. */
export function decodeDescFields(view: DataView, off: number): Desc {
  return {
    pmid: view.getUint32(off) as PmId,
    type: view.getInt32(off + 4),
    indom: view.getUint32(off + 8) as InDom,
    sem: view.getInt32(off + 12),
    units: decodeUnits(view.getUint32(off + 16)),
  };
}

/** An instance domain observation: full (V2 or V3) or delta. Entries as stored (unsorted). */
export interface IndomRecord {
  readonly type: typeof TYPE_INDOM_V2 | typeof TYPE_INDOM | typeof TYPE_INDOM_DELTA;
  readonly stamp: Timestamp;
  readonly indom: InDom;
  /** Number of entries as stored; libpcp keeps only records with numinst > 0. */
  readonly numinst: number;
  readonly instances: Int32Array;
  /** External names; null marks a deletion in a delta record. Decoded on first use. */
  readonly names: ReadonlyArray<string | null>;
}

const utf8 = new TextDecoder('utf-8');

/** A NUL-terminated string inside [start, end): C semantics, but never past `end`. */
const cString = decodeCStringAt;

/**
 * §4.2: TYPE_INDOM_V2 (timeval) or TYPE_INDOM / TYPE_INDOM_DELTA (V3 timestamp), then indom,
 * numinst, numinst instance ids, numinst string offsets, string table. `body` is the offset
 * after the 8-byte header, `rlen` the payload length (record length − 12).
 */
export function decodeIndomRecord(bytes: Uint8Array, view: DataView, type: IndomRecord['type'], body: number, rlen: number, place: RecordPlace): IndomRecord {
  const stampSize = type === TYPE_INDOM_V2 ? 8 : 12;
  const fixed = stampSize + 8;
  if (rlen < fixed) metaError(place, `instance domain record too short (${rlen} bytes)`);
  const stamp = type === TYPE_INDOM_V2 ? decodeTimeval(view, body) : decodeTimestampV3(view, body);
  const indom = view.getUint32(body + stampSize) as InDom;
  const numinst = view.getInt32(body + stampSize + 4);
  if (numinst <= 0) {
    // libpcp loads such a record and then discards it (only numinst > 0 is kept).
    return { type, stamp, indom, numinst, instances: new Int32Array(0), names: [] };
  }
  // String table length, libpcp's max_idx: what is left after ids and offsets.
  const tableLen = rlen - fixed - 8 * numinst;
  if (tableLen < 0) metaError(place, `numinst ${numinst} too large for a ${rlen}-byte record`);
  const ids = body + fixed;
  const offs = ids + 4 * numinst;
  const table = offs + 4 * numinst;
  const tableEnd = table + tableLen;
  const instances = new Int32Array(numinst);
  // Every entry is checked now, as libpcp does at open; the names are decoded on first use
  // (an archive's instance domains hold most of its .meta, and most are never looked at).
  const index = new Int32Array(numinst);
  for (let i = 0; i < numinst; i++) {
    const inst = view.getInt32(ids + 4 * i);
    if (inst < 0) metaError(place, `instance[${i}]: bad instance identifier (${inst})`);
    instances[i] = inst;
    const idx = view.getInt32(offs + 4 * i);
    if (idx > tableLen) metaError(place, `instance[${i}]: bad string index (${idx}) > max index based on record length (${tableLen})`);
    if (idx < 0 && !(type === TYPE_INDOM_DELTA && idx === -1)) metaError(place, `instance[${i}]: bad string index (${idx})`);
    index[i] = idx;
  }
  let names: Array<string | null> | undefined;
  return {
    type,
    stamp,
    indom,
    numinst,
    instances,
    get names(): ReadonlyArray<string | null> {
      // A delta's -1 is a deleted instance (no name).
      names ??= decodeCStringTable(bytes, table, tableEnd, index);
      return names;
    },
  };
}

/** One label record: all label sets of one (label type, ident) at one time. */
export interface LabelRecord {
  readonly stamp: Timestamp;
  /** PM_LABEL_* level, possibly with the COMPOUND/OPTIONAL bits as stored. */
  readonly type: number;
  readonly ident: number;
  readonly sets: readonly StoredLabelSet[];
}

/** A label set as stored: `nlabels` < 0 is an error code with no labels. */
export interface StoredLabelSet extends LabelSet {
  readonly nlabels: number;
}

/**
 * §4.5 (the real layout, not LOGARCHIVE(5)'s): timestamp, u32 label type, u32 ident,
 * i32 nsets, then per set: u32 inst, i32 jsonlen, JSON, i32 nlabels, 8-byte entries.
 */
export function decodeLabelRecord(bytes: Uint8Array, view: DataView, v3: boolean, body: number, rlen: number, place: RecordPlace): LabelRecord {
  const end = body + rlen;
  const need = (pos: number, n: number, what: string): void => {
    if (pos + n > end) metaError(place, `label record: ${what} runs past the record end`, pos);
  };
  const stampSize = v3 ? 12 : 8;
  need(body, stampSize + 12, 'header');
  const stamp = v3 ? decodeTimestampV3(view, body) : decodeTimeval(view, body);
  let k = body + stampSize;
  const type = view.getUint32(k);
  const ident = view.getUint32(k + 4);
  const nsets = view.getInt32(k + 8);
  k += 12;
  if (nsets < 0) metaError(place, `illegal nsets (${nsets})`);
  const sets: StoredLabelSet[] = [];
  for (let i = 0; i < nsets; i++) {
    need(k, 8, `label set ${i}`);
    const inst = view.getInt32(k);
    const jsonlen = view.getInt32(k + 4);
    k += 8;
    if (jsonlen < 0 || jsonlen > PM_MAXLABELJSONLEN) metaError(place, `corrupted json in labelset. jsonlen=${jsonlen}`);
    need(k, jsonlen + 4, `label set ${i} JSON`);
    const jsonBytes = bytes.subarray(k, k + jsonlen);
    const json = utf8.decode(jsonBytes);
    k += jsonlen;
    const nlabels = view.getInt32(k);
    k += 4;
    const labels: Label[] = [];
    if (nlabels > 0) {
      // libpcp's check (GH #475): nlabels bounded and the entries inside the record.
      if (nlabels > PM_MAXLABELS || k + 8 * nlabels > end) metaError(place, `corrupted labelset. nlabels=${nlabels}`);
      for (let j = 0; j < nlabels; j++) {
        // Entry: u16 name offset, u8 name length, u8 flags, u16 value offset, u16 value length.
        const nameOff = view.getUint16(k);
        const nameLen = view.getUint8(k + 2);
        const flags = view.getUint8(k + 3);
        const valueOff = view.getUint16(k + 4);
        const valueLen = view.getUint16(k + 6);
        k += 8;
        // Offsets are not checked by libpcp; out-of-range parts read as empty here.
        labels.push({
          name: utf8.decode(jsonBytes.subarray(nameOff, nameOff + nameLen)),
          value: utf8.decode(jsonBytes.subarray(valueOff, valueOff + valueLen)),
          flags,
        });
      }
    }
    sets.push({ inst, json, labels, nlabels });
  }
  return { stamp, type, ident, sets };
}

/** §4.6: u32 text type, u32 ident, NUL-terminated text. `valid` false: libpcp skips it. */
export interface TextRecord {
  readonly valid: boolean;
  readonly type: number;
  readonly ident: number;
  readonly text: string;
}

export function decodeTextRecord(bytes: Uint8Array, view: DataView, body: number, rlen: number, place: RecordPlace): TextRecord {
  if (rlen < 8) metaError(place, `text record too short (${rlen} bytes)`);
  const type = view.getUint32(body);
  const ident = view.getUint32(body + 4);
  const valid = (type & (PM_TEXT_ONELINE | PM_TEXT_HELP)) !== 0 && (type & (PM_TEXT_INDOM | PM_TEXT_PMID)) !== 0;
  return { valid, type, ident, text: valid ? cString(bytes, body + 8, body + rlen) : '' };
}
