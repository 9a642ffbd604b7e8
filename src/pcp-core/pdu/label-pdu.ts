// Labels (pdu-protocol.md §3.16): LABEL_REQ names a level (context, domain, indom, cluster,
// item, instances) and its identifier; LABEL carries label sets: fixed-size set records, each
// followed by its label index records, then all sets' JSON text, unpadded (so len need not
// be a multiple of 4).
import type { Label, LabelSet } from '../types';
import type { Cursor } from '../io/cursor';
import { PDU_LABEL, PDU_LABEL_REQ } from './constants';
import { PduWriter, decodeUtf8, encodeUtf8, expectEnd, pduReader, readCount, type Pdu } from './pdu-buffer';

export function encodeLabelReq(ident: number, type: number, from = 0): Uint8Array {
  return new PduWriter(PDU_LABEL_REQ, from, 20).u32(ident).i32(type).finish();
}

export interface LabelReq {
  readonly ident: number;
  readonly type: number;
}

export function decodeLabelReq(pdu: Pdu, peer: string): LabelReq {
  const c = pduReader(pdu, PDU_LABEL_REQ, peer);
  const ident = c.u32('ident');
  const type = c.i32('type');
  expectEnd(c, false);
  return { ident, type };
}

/** A label set as sent: `nlabels < 0` is an error code for this set (no labels, no JSON). */
export interface WireLabelSet extends LabelSet {
  readonly nlabels: number;
}

export interface LabelReply {
  readonly ident: number;
  readonly type: number;
  readonly sets: WireLabelSet[];
}

/** One label-set record (16 bytes) plus 8 bytes per label. */
const SET_BYTES = 16;
const LABEL_BYTES = 8;

/**
 * Encodes a LABEL reply. Each label's name and value are located in its set's JSON text by
 * searching for `"name":value`, which holds for the JSON pmcd produces (no spaces).
 */
export function encodeLabel(ident: number, type: number, sets: readonly WireLabelSet[], from = 0): Uint8Array {
  const jsons = sets.map((s) => encodeUtf8(s.json));
  const headBytes = 28 + sets.reduce((n, s) => n + SET_BYTES + LABEL_BYTES * Math.max(0, s.labels.length), 0);
  const w = new PduWriter(PDU_LABEL, from, headBytes + jsons.reduce((n, j) => n + j.length, 0));
  w.u32(ident).i32(type).i32(0).i32(sets.length);
  let jsonAt = headBytes;
  sets.forEach((s, i) => {
    const json = jsons[i] ?? new Uint8Array(0);
    w.i32(s.inst).i32(s.nlabels).i32(jsonAt).i32(json.length);
    for (const l of s.labels) {
      const key = encodeUtf8(`"${l.name}":`);
      const at = indexOfBytes(json, key);
      if (at < 0) throw new RangeError(`label ${l.name} not found in ${s.json}`);
      const valueAt = at + key.length;
      w.u16(at + 1).u8(encodeUtf8(l.name).length).u8(l.flags).u16(valueAt).u16(encodeUtf8(l.value).length);
    }
    jsonAt += json.length;
  });
  for (const j of jsons) w.bytes(j);
  return w.finish();
}

function indexOfBytes(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function readLabels(c: Cursor, n: number, json: Uint8Array, setAt: number): Label[] {
  const labels: Label[] = [];
  for (let i = 0; i < n; i++) {
    const at = c.pos;
    const nameOff = c.u16('label name offset');
    const nameLen = c.u8('label name length');
    const flags = c.u8('label flags');
    const valueOff = c.u16('label value offset');
    const valueLen = c.u16('label value length');
    if (nameOff + nameLen > json.length || valueOff + valueLen > json.length) {
      c.fail(`label ${i} of the set at ${setAt} points outside its ${json.length}-byte JSON`, at);
    }
    labels.push({
      name: decodeUtf8(json.subarray(nameOff, nameOff + nameLen)),
      value: decodeUtf8(json.subarray(valueOff, valueOff + valueLen)),
      flags,
    });
  }
  return labels;
}

export function decodeLabel(pdu: Pdu, peer: string): LabelReply {
  const c = pduReader(pdu, PDU_LABEL, peer);
  const ident = c.u32('ident');
  const type = c.i32('type');
  c.skip(4, 'padding');
  const nsets = readCount(c, 'nsets', SET_BYTES);
  const sets: WireLabelSet[] = [];
  const jsonStarts: number[] = [];
  let jsonEnd = 0;
  for (let i = 0; i < nsets; i++) {
    const setAt = c.pos;
    const inst = c.i32('inst');
    const nlabels = c.i32('nlabels');
    const jsonAt = c.i32('json offset');
    const jsonLen = c.i32('json length');
    if (jsonLen < 0 || jsonAt < 0 || jsonAt + jsonLen > pdu.bytes.length) {
      c.fail(`set ${i}: JSON at ${jsonAt}, ${jsonLen} bytes, outside the ${pdu.bytes.length}-byte PDU`, setAt);
    }
    if (nlabels > 0 && nlabels * LABEL_BYTES > c.remaining) c.fail(`set ${i}: ${nlabels} labels need ${nlabels * LABEL_BYTES} bytes`, setAt);
    const json = pdu.bytes.subarray(jsonAt, jsonAt + jsonLen);
    const labels = nlabels > 0 ? readLabels(c, nlabels, json, setAt) : [];
    sets.push({ inst, nlabels, json: decodeUtf8(json), labels });
    if (jsonLen > 0) {
      jsonStarts.push(jsonAt);
      jsonEnd = Math.max(jsonEnd, jsonAt + jsonLen);
    }
  }
  // The JSON text follows the last record: it may not overlap the records.
  const recordsEnd = c.pos;
  if (jsonStarts.some((at) => at < recordsEnd)) c.fail('the JSON of a label set overlaps the label records');
  c.seek(Math.max(recordsEnd, jsonEnd));
  expectEnd(c, false);
  return { ident, type, sets };
}
