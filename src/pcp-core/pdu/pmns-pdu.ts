// The PMNS family (pdu-protocol.md §3.2–§3.6): PMNS_NAMES carries a name list in both
// directions (names → PMIDs request, and every name-valued reply), PMNS_IDS carries PMIDs in
// both directions (the reply to a name lookup, and a PMID → names request), PMNS_CHILD and
// PMNS_TRAVERSE ask for the children / the leaves below one node.
import type { PmId } from '../types';
import { PDU_PMNS_CHILD, PDU_PMNS_IDS, PDU_PMNS_NAMES, PDU_PMNS_TRAVERSE } from './constants';
import { PduWriter, decodeUtf8, encodeUtf8, expectEnd, pduReader, readCount, readPaddedBytes, readPaddedString, type Pdu } from './pdu-buffer';

/** A decoded name list: `statuses` (0 leaf, 1 non-leaf) only when the PDU carried them. */
export interface NameList {
  readonly names: string[];
  readonly statuses?: Int32Array;
}

/** PMNS_NAMES (§3.6). `statuses`, when given, must pair with `names`. */
export function encodeNameList(names: readonly string[], statuses?: ArrayLike<number>, from = 0): Uint8Array {
  if (statuses && statuses.length !== names.length) throw new RangeError('statuses must pair with names');
  const encoded = names.map(encodeUtf8);
  const nstrbytes = encoded.reduce((sum, b) => sum + b.length + 1, 0);
  const w = new PduWriter(PDU_PMNS_NAMES, from, 24 + nstrbytes + 12 * names.length);
  w.i32(nstrbytes).i32(statuses ? names.length : 0).i32(names.length);
  encoded.forEach((b, i) => {
    if (statuses) w.i32(statuses[i] ?? 0);
    w.lengthPrefixed(b);
  });
  return w.finish();
}

export function decodeNameList(pdu: Pdu, peer: string): NameList {
  const c = pduReader(pdu, PDU_PMNS_NAMES, peer);
  const nstrbytesAt = c.pos;
  const nstrbytes = c.i32('nstrbytes');
  const numstatusAt = c.pos;
  const numstatus = c.i32('numstatus');
  // Every entry needs at least a length word (plus a status word when present).
  const numnames = readCount(c, 'numnames', numstatus > 0 ? 8 : 4);
  if (numstatus !== 0 && numstatus !== numnames) c.fail(`numstatus ${numstatus} must be 0 or numnames ${numnames}`, numstatusAt);
  const names: string[] = new Array<string>(numnames);
  const statuses = numstatus > 0 ? new Int32Array(numnames) : undefined;
  let strbytes = 0;
  for (let i = 0; i < numnames; i++) {
    if (statuses) statuses[i] = c.i32('status');
    const raw = readPaddedBytes(c, 'name');
    strbytes += raw.length + 1;
    names[i] = decodeUtf8(raw);
  }
  if (numnames > 0 && strbytes !== nstrbytes) c.fail(`nstrbytes ${nstrbytes} but the names need ${strbytes}`, nstrbytesAt);
  expectEnd(c);
  return statuses ? { names, statuses } : { names };
}

/** PMNS_IDS (§3.2 reply, §3.3 request): `sts` is the resolved count in a reply, 0 in a request. */
export function encodePmnsIds(ids: readonly number[], sts: number, from = 0): Uint8Array {
  const w = new PduWriter(PDU_PMNS_IDS, from, 20 + 4 * ids.length).i32(sts).i32(ids.length);
  for (const id of ids) w.u32(id);
  return w.finish();
}

export interface PmnsIds {
  readonly sts: number;
  readonly pmids: PmId[];
}

export function decodePmnsIds(pdu: Pdu, peer: string): PmnsIds {
  const c = pduReader(pdu, PDU_PMNS_IDS, peer);
  const sts = c.i32('sts');
  const n = readCount(c, 'numids', 4);
  const pmids: PmId[] = new Array<PmId>(n);
  for (let i = 0; i < n; i++) pmids[i] = c.u32('pmid') as PmId;
  expectEnd(c, false);
  return { sts, pmids };
}

/** PMNS_CHILD (§3.4): subtype 0 names only, 1 names with leaf/non-leaf status. */
export function encodePmnsChild(name: string, withStatus: boolean, from = 0): Uint8Array {
  return new PduWriter(PDU_PMNS_CHILD, from).i32(withStatus ? 1 : 0).lengthPrefixed(encodeUtf8(name)).finish();
}

/** PMNS_TRAVERSE (§3.5): same layout as PMNS_CHILD with subtype 0. */
export function encodePmnsTraverse(name: string, from = 0): Uint8Array {
  return new PduWriter(PDU_PMNS_TRAVERSE, from).i32(0).lengthPrefixed(encodeUtf8(name)).finish();
}

export interface PmnsNodeRequest {
  readonly subtype: number;
  readonly name: string;
}

/** Decodes a PMNS_CHILD or PMNS_TRAVERSE request (`pdu.type` says which). */
export function decodePmnsNodeRequest(pdu: Pdu, peer: string): PmnsNodeRequest {
  const c = pduReader(pdu, pdu.type === PDU_PMNS_TRAVERSE ? PDU_PMNS_TRAVERSE : PDU_PMNS_CHILD, peer);
  const subtype = c.i32('subtype');
  const name = readPaddedString(c, 'name');
  expectEnd(c);
  return { subtype, name };
}
