// Help text (pdu-protocol.md §3.15): TEXT_REQ names a PMID or an InDom and the kind of text;
// TEXT carries the text. The reply's ident is in pmcd's host byte order, so it is read but
// never compared: replies are matched to requests by order (§1.3).
import { PDU_TEXT, PDU_TEXT_REQ } from './constants';
import { PduWriter, encodeUtf8, expectEnd, pduReader, readPaddedString, type Pdu } from './pdu-buffer';

/** `type` is PM_TEXT_ONELINE or PM_TEXT_HELP, plus PM_TEXT_PMID or PM_TEXT_INDOM. */
export function encodeTextReq(ident: number, type: number, from = 0): Uint8Array {
  return new PduWriter(PDU_TEXT_REQ, from, 20).u32(ident).i32(type).finish();
}

export interface TextReq {
  readonly ident: number;
  readonly type: number;
}

export function decodeTextReq(pdu: Pdu, peer: string): TextReq {
  const c = pduReader(pdu, PDU_TEXT_REQ, peer);
  const ident = c.u32('ident');
  const type = c.i32('type');
  expectEnd(c, false);
  return { ident, type };
}

export function encodeText(ident: number, text: string, from = 0): Uint8Array {
  return new PduWriter(PDU_TEXT, from).u32(ident).lengthPrefixed(encodeUtf8(text)).finish();
}

export function decodeText(pdu: Pdu, peer: string): string {
  const c = pduReader(pdu, PDU_TEXT, peer);
  c.u32('ident');
  const text = readPaddedString(c, 'text');
  expectEnd(c);
  return text;
}
