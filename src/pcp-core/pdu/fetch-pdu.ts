// FETCH (0x7003) and HIGHRES_FETCH (0x7014): the PMIDs to fetch for one ctxid slot
// (pdu-protocol.md §3.11). Identical bodies; the reply's timestamp precision differs.
import type { PmId } from '../types';
import { PDU_FETCH, PDU_HIGHRES_FETCH } from './constants';
import { PduWriter, expectEnd, pduReader, readCount, type Pdu } from './pdu-buffer';

export function encodeFetch(ids: readonly PmId[], highres: boolean, ctxid = 0, from = 0): Uint8Array {
  // The 8 unused bytes at 16 were a timestamp in protocol version 1.
  const w = new PduWriter(highres ? PDU_HIGHRES_FETCH : PDU_FETCH, from, 28 + 4 * ids.length).i32(ctxid).i32(0).i32(0).i32(ids.length);
  for (const id of ids) w.u32(id);
  return w.finish();
}

export interface FetchPdu {
  readonly ctxid: number;
  readonly highres: boolean;
  readonly pmids: PmId[];
}

export function decodeFetch(pdu: Pdu, peer: string): FetchPdu {
  const highres = pdu.type === PDU_HIGHRES_FETCH;
  const c = pduReader(pdu, highres ? PDU_HIGHRES_FETCH : PDU_FETCH, peer);
  const ctxid = c.i32('ctxid');
  c.skip(8, 'unused');
  const at = c.pos;
  const n = readCount(c, 'numpmid', 4);
  if (n === 0) c.fail('numpmid is 0', at);
  const pmids: PmId[] = new Array<PmId>(n);
  for (let i = 0; i < n; i++) pmids[i] = c.u32('pmid') as PmId;
  expectEnd(c, false);
  return { ctxid, highres, pmids };
}
