// The metadata records of a V3 .meta file (archive-format.md §4): TYPE_DESC with all the
// metric's names (§4.1), TYPE_INDOM and TYPE_INDOM_DELTA (§4.2: instance ids, string
// offsets from the start of the string table, -1 for a delta's deletions), TYPE_LABEL with
// the real layout of §4.5 (JSON inline per set, entries pointing into it) and TYPE_TEXT
// (§4.6, NUL-terminated). Records are unpadded; each is framed by its length at both ends.
import { encodeUnits, type Desc, type InDom, type Timestamp } from '../types';
import type { Label } from '../context/context';
import { TYPE_DESC, TYPE_INDOM, TYPE_INDOM_DELTA, TYPE_LABEL, TYPE_TEXT } from '../archive/meta-records';
import { utf8Bytes, utf8Length, type ArchiveByteWriter } from './byte-writer';

export class ArchiveWriteError extends Error {
  override readonly name = 'ArchiveWriteError';
}

/** Writes `body` framed as a record: length word, body, trailer. */
export function framed(w: ArchiveByteWriter, body: () => void): void {
  const at = w.length;
  w.u32(0);
  body();
  const len = w.length - at + 4;
  w.u32(len);
  w.patchU32(at, len);
}

export function encodeDesc(w: ArchiveByteWriter, desc: Desc, names: readonly string[]): void {
  framed(w, () => {
    w.u32(TYPE_DESC);
    w.u32(desc.pmid);
    w.i32(desc.type);
    w.u32(desc.indom);
    w.i32(desc.sem);
    w.u32(encodeUnits(desc.units));
    // numnames is always written (libpcp's loader reads it even when it is 0).
    w.i32(names.length);
    for (const n of names) {
      const at = w.length;
      w.i32(0);
      w.patchI32(at, w.text(n));
    }
  });
}

/** One entry of an instance domain record; `name` null deletes the instance (deltas only). */
export interface IndomEntry {
  readonly inst: number;
  readonly name: string | null;
}

export function encodeIndom(w: ArchiveByteWriter, delta: boolean, stamp: Timestamp, indom: InDom, entries: readonly IndomEntry[]): void {
  const names = entries.map((e) => (e.name === null ? null : utf8Bytes(e.name)));
  framed(w, () => {
    w.u32(delta ? TYPE_INDOM_DELTA : TYPE_INDOM);
    w.stampV3(stamp);
    w.u32(indom);
    w.i32(entries.length);
    for (const e of entries) w.i32(e.inst);
    let offset = 0;
    for (const n of names) {
      if (n === null) {
        if (!delta) throw new ArchiveWriteError('a full instance domain record cannot delete an instance');
        w.i32(-1);
      } else {
        w.i32(offset);
        offset += n.length + 1;
      }
    }
    for (const n of names) {
      if (n === null) continue;
      w.bytes(n);
      w.u8(0);
    }
  });
}

/**
 * The same record from parallel lists (the writer's fast path: no entry objects, names
 * encoded in place): entry k is `ids[k]` with name `names[k]` of `nameBytes[k]` UTF-8 bytes,
 * or null (a delta's deletion).
 */
export function encodeIndomLists(w: ArchiveByteWriter, delta: boolean, stamp: Timestamp, indom: InDom, ids: ArrayLike<number>, names: ArrayLike<string | null>, nameBytes: ArrayLike<number>): void {
  const n = ids.length;
  framed(w, () => {
    w.u32(delta ? TYPE_INDOM_DELTA : TYPE_INDOM);
    w.stampV3(stamp);
    w.u32(indom);
    w.i32(n);
    for (let k = 0; k < n; k++) w.i32(ids[k]);
    let offset = 0;
    for (let k = 0; k < n; k++) {
      if (names[k] === null) {
        if (!delta) throw new ArchiveWriteError('a full instance domain record cannot delete an instance');
        w.i32(-1);
      } else {
        w.i32(offset);
        offset += nameBytes[k] + 1;
      }
    }
    for (let k = 0; k < n; k++) {
      const name = names[k];
      if (name === null) continue;
      w.utf8(name, nameBytes[k]);
      w.u8(0);
    }
  });
}

/** A label set to write: JSON text plus its labels (names and values as they appear in it). */
export interface LabelSetToWrite {
  readonly inst: number;
  readonly json: string;
  readonly labels: readonly Label[];
  /** As stored: a negative count is an error code and no labels follow. */
  readonly nlabels: number;
}

/** Index of `needle` in `hay` at or after `from`, or -1. */
function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * The label entries' offsets into the set's JSON bytes: each label is found in order as
 * `"name"` followed by `:` and its value text (pmlogger's JSON is compact, but blanks around
 * the colon are allowed).
 */
function labelOffsets(json: Uint8Array | undefined, text: string, labels: readonly Label[], what: string): { nameOff: number; nameLen: number; valueOff: number; valueLen: number; flags: number }[] {
  // ASCII JSON (no bytes given: characters are bytes): found in the string, with no byte
  // arrays made per label (an export writes thousands of instance labels).
  let from = 0;
  if (!json) {
    return labels.map((l) => {
      const found = asciiLabelOffsets(text, l, from) ?? missingLabel(text, l, what);
      from = found.valueOff + found.valueLen;
      return found;
    });
  }
  return labels.map((l) => {
    const name = utf8Bytes(l.name);
    const value = utf8Bytes(l.value);
    const quoted = utf8Bytes(`"${l.name}"`);
    for (let at = indexOfBytes(json, quoted, from); at >= 0; at = indexOfBytes(json, quoted, at + 1)) {
      let k = at + name.length + 2;
      while (json[k] === 0x20 || json[k] === 0x09) k++;
      if (json[k] !== 0x3a) continue;
      k++;
      while (json[k] === 0x20 || json[k] === 0x09) k++;
      if (indexOfBytes(json.subarray(k, k + value.length), value, 0) !== 0) continue;
      from = k + value.length;
      if (name.length > 0xff || at + 1 > 0xffff || k > 0xffff || value.length > 0xffff) break;
      return { nameOff: at + 1, nameLen: name.length, valueOff: k, valueLen: value.length, flags: l.flags };
    }
    return missingLabel(text, l, what);
  });
}

function missingLabel(json: string, l: Label, what: string): never {
  throw new ArchiveWriteError(`${what}: label "${l.name}" with value ${l.value} is not in the label set's JSON ${json}`);
}

/** labelOffsets' search for one label in an ASCII JSON text, from `from` on as there; undefined: not found (or too far in). */
function asciiLabelOffsets(text: string, l: Label, from: number): { nameOff: number; nameLen: number; valueOff: number; valueLen: number; flags: number } | undefined {
  const quoted = `"${l.name}"`;
  for (let at = text.indexOf(quoted, from); at >= 0; at = text.indexOf(quoted, at + 1)) {
    let k = at + quoted.length;
    while (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09) k++;
    if (text.charCodeAt(k) !== 0x3a) continue;
    k++;
    while (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09) k++;
    if (!text.startsWith(l.value, k)) continue;
    if (l.name.length > 0xff || at + 1 > 0xffff || k > 0xffff || l.value.length > 0xffff) return undefined;
    return { nameOff: at + 1, nameLen: l.name.length, valueOff: k, valueLen: l.value.length, flags: l.flags };
  }
  return undefined;
}

export function encodeLabelSets(w: ArchiveByteWriter, stamp: Timestamp, type: number, ident: number, sets: readonly LabelSetToWrite[]): void {
  const what = `label record (type ${type}, ident ${ident >>> 0})`;
  const encoded = sets.map((s) => {
    const size = utf8Length(s.json);
    if (size > 0xffff) throw new ArchiveWriteError(`${what}: JSON of ${size} bytes is longer than 65535`);
    // ASCII (as many bytes as characters): written from the string, with no bytes of its own.
    const json = size === s.json.length ? undefined : utf8Bytes(s.json);
    return { s, size, json, entries: s.nlabels > 0 ? labelOffsets(json, s.json, s.labels, what) : [] };
  });
  framed(w, () => {
    w.u32(TYPE_LABEL);
    w.stampV3(stamp);
    w.u32(type);
    w.u32(ident);
    w.i32(sets.length);
    for (const { s, size, json, entries } of encoded) {
      w.u32(s.inst);
      w.i32(size);
      if (json) w.bytes(json);
      else w.text(s.json);
      w.i32(s.nlabels > 0 ? entries.length : s.nlabels);
      for (const e of entries) {
        w.u16(e.nameOff);
        w.u8(e.nameLen);
        w.u8(e.flags);
        w.u16(e.valueOff);
        w.u16(e.valueLen);
      }
    }
  });
}

export function encodeText(w: ArchiveByteWriter, type: number, ident: number, text: string): void {
  framed(w, () => {
    w.u32(TYPE_TEXT);
    w.u32(type);
    w.u32(ident);
    w.text(text);
    w.u8(0);
  });
}
