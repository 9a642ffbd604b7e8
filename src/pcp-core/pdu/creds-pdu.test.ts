import { describe, expect, it } from 'vitest';
import { decodeCreds, encodeCreds } from './creds-pdu';
import { pduFromBytes } from './pdu-buffer';
import { decodeFailure, hexPdu, toHex } from './testing/pdu-bytes';

describe('CREDS (§2.5, §6.2)', () => {
  it('encodes what libpcp sends, apart from the pid in `from`', () => {
    expect(toHex(encodeCreds(0, 2, 0x64fe))).toBe('00000014 0000700c 000064fe 00000001 01020000');
  });

  it('decodes credentials', () => {
    expect(decodeCreds(pduFromBytes(encodeCreds(0x0400), 'test'), 'test')).toEqual([{ type: 1, version: 2, flags: 0x0400 }]);
  });

  it('rejects a count that does not match the length', () => {
    expect(decodeFailure(() => decodeCreds(hexPdu('00000014 0000700c 00000000 00000002 01020000'), 'test'))).toMatch(/numcreds 2/);
    expect(decodeFailure(() => decodeCreds(hexPdu('00000018 0000700c 00000000 00000001 01020000 00000000'), 'test'))).toMatch(/unexpected bytes/);
  });
});
