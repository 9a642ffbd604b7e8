import { describe, expect, it } from 'vitest';
import { DecodeError, PM_ERR_CONNLIMIT, PM_ERR_NAME, PM_ERR_PERMISSION } from '../errors';
import { PDU_FLAG_AUTH, PDU_FLAG_CONTAINER, PDU_FLAG_DESCS, PDU_FLAG_HIGHRES, PDU_FLAG_LABELS } from './constants';
import { decodeError, decodeHello, encodeError, encodeHello, helloCodeToModern } from './error-pdu';
import { pduFromBytes } from './pdu-buffer';
import { decodeFailure, hexPdu, toHex } from './testing/pdu-bytes';

describe('hello (§2.2, §6.1)', () => {
  it('decodes the observed hello of pmcd 6.0.3', () => {
    const hello = decodeHello(hexPdu('00000014 00007000 00000000 00000000 02010e44'), 'test');
    expect(hello).toEqual({ code: 0, version: 2, features: PDU_FLAG_DESCS | PDU_FLAG_HIGHRES | PDU_FLAG_LABELS | PDU_FLAG_CONTAINER | PDU_FLAG_AUTH });
  });

  it('maps the 1.x refusal codes to modern ones (§2.4)', () => {
    expect(decodeHello(hexPdu('00000014 00007000 00000000 fffffbee 00000000'), 'test').code).toBe(PM_ERR_PERMISSION);
    expect(helloCodeToModern(-1043)).toBe(PM_ERR_CONNLIMIT);
    expect(helloCodeToModern(-111)).toBe(-111);
  });

  it('encodes what it decodes, byte for byte', () => {
    expect(toHex(encodeHello(0x0e44))).toBe('00000014 00007000 00000000 00000000 02010e44');
    expect(toHex(encodeHello(0, PM_ERR_PERMISSION))).toBe('00000014 00007000 00000000 fffffbee 00000000');
  });

  it('rejects a 16-byte ERROR in the hello position', () => {
    expect(() => decodeHello(hexPdu('00000010 00007000 00000000 00000000'), 'test')).toThrow(DecodeError);
  });
});

describe('ERROR (§3.1)', () => {
  it('decodes the observed PM_ERR_NAME reply', () => {
    expect(decodeError(hexPdu('00000010 00007000 00000000 ffffcfbb'), 'test')).toEqual({ code: PM_ERR_NAME });
  });

  it('round-trips codes with and without a datum', () => {
    for (const [code, datum] of [[-12357, undefined], [1, undefined], [0, 0x02010e44]] as const) {
      const pdu = pduFromBytes(encodeError(code, datum), 'test');
      expect(decodeError(pdu, 'test')).toEqual(datum === undefined ? { code } : { code, datum });
    }
  });

  it('rejects other lengths', () => {
    expect(decodeFailure(() => decodeError(hexPdu('00000018 00007000 00000000 ffffcfbb 00000000 00000000'), 'test'))).toMatch(/must be 16 or 20/);
  });
});
