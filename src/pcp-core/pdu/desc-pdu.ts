// Metric descriptors (pdu-protocol.md §3.7–§3.8): DESC_REQ/DESC for one PMID, and
// DESC_IDS/DESCS for many in one round trip (only when the hello advertised DESCS). A
// descriptor is five words: pmid, type, indom, sem, units.
import { decodeUnits, encodeUnits, type Desc, type InDom, type PmId } from '../types';
import type { Cursor } from '../io/cursor';
import { PDU_DESC, PDU_DESC_IDS, PDU_DESC_REQ, PDU_DESCS } from './constants';
import { PduWriter, expectEnd, pduReader, readCount, type Pdu } from './pdu-buffer';

export function encodeDescReq(id: PmId, from = 0): Uint8Array {
  return new PduWriter(PDU_DESC_REQ, from, 16).u32(id).finish();
}

export function decodeDescReq(pdu: Pdu, peer: string): PmId {
  const c = pduReader(pdu, PDU_DESC_REQ, peer);
  const id = c.u32('pmid') as PmId;
  expectEnd(c, false);
  return id;
}

function writeDesc(w: PduWriter, d: Desc): void {
  w.u32(d.pmid).i32(d.type).u32(d.indom).i32(d.sem).u32(encodeUnits(d.units));
}

function readDesc(c: Cursor): Desc {
  const pmid = c.u32('pmid') as PmId;
  const type = c.i32('type');
  const indom = c.u32('indom') as InDom;
  const sem = c.i32('sem');
  const units = decodeUnits(c.u32('units'));
  return { pmid, type, indom, sem, units };
}

export function encodeDesc(d: Desc, from = 0): Uint8Array {
  const w = new PduWriter(PDU_DESC, from, 32);
  writeDesc(w, d);
  return w.finish();
}

export function decodeDesc(pdu: Pdu, peer: string): Desc {
  const c = pduReader(pdu, PDU_DESC, peer);
  const d = readDesc(c);
  expectEnd(c, false);
  return d;
}

/** DESC_IDS: `sts` must be −1 to select this variant (§3.8). */
export function encodeDescIds(ids: readonly PmId[], from = 0): Uint8Array {
  const w = new PduWriter(PDU_DESC_IDS, from, 20 + 4 * ids.length).i32(-1).i32(ids.length);
  for (const id of ids) w.u32(id);
  return w.finish();
}

export function decodeDescIds(pdu: Pdu, peer: string): PmId[] {
  const c = pduReader(pdu, PDU_DESC_IDS, peer);
  const sts = c.i32('sts');
  if (sts !== -1) c.fail(`sts ${sts}, must be -1`, 12);
  const n = readCount(c, 'numids', 4);
  const ids: PmId[] = new Array<PmId>(n);
  for (let i = 0; i < n; i++) ids[i] = c.u32('pmid') as PmId;
  expectEnd(c, false);
  return ids;
}

/** DESCS: a failed entry has pmid PM_ID_NULL and zeros elsewhere (§3.8). */
export function encodeDescs(descs: readonly Desc[], from = 0): Uint8Array {
  const w = new PduWriter(PDU_DESCS, from, 16 + 20 * descs.length).i32(descs.length);
  for (const d of descs) writeDesc(w, d);
  return w.finish();
}

/** The entries in request order; a failed entry comes back with `pmid === PM_ID_NULL`. */
export function decodeDescs(pdu: Pdu, peer: string): Desc[] {
  const c = pduReader(pdu, PDU_DESCS, peer);
  const n = readCount(c, 'numdescs', 20);
  const descs: Desc[] = new Array<Desc>(n);
  for (let i = 0; i < n; i++) descs[i] = readDesc(c);
  expectEnd(c, false);
  return descs;
}
