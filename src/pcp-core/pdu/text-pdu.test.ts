import { describe, expect, it } from 'vitest';
import { DecodeError } from '../errors';
import { pduFromBytes } from './pdu-buffer';
import { hexPdu, toHex } from './testing/pdu-bytes';
import { decodeText, decodeTextReq, encodeText, encodeTextReq } from './text-pdu';

describe('TEXT_REQ / TEXT (§3.15)', () => {
  it('encodes a request and round-trips it', () => {
    expect(toHex(encodeTextReq(0x0f000800, 1 | 4))).toBe('00000014 00007008 00000000 0f000800 00000005');
    expect(decodeTextReq(pduFromBytes(encodeTextReq(0x0f000002, 2 | 8), 't'), 't')).toEqual({ ident: 0x0f000002, type: 10 });
  });

  it('ignores the ident, which pmcd writes in host byte order', () => {
    // "1, 5 and 15 minute load average" with ident 60.2.0 little-endian, as observed.
    const text = '1, 5 and 15 minute load average';
    const pdu = encodeText(0x0008000f, text);
    expect(decodeText(pduFromBytes(pdu, 't'), 't')).toBe(text);
    expect(decodeText(pduFromBytes(encodeText(1, ''), 't'), 't')).toBe('');
  });

  it('rejects a buflen beyond the PDU', () => {
    expect(() => decodeText(hexPdu('00000018 00007009 00000000 0f000800 00000010 41424344'), 't')).toThrow(DecodeError);
  });
});
