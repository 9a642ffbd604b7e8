import { describe, expect, it } from 'vitest';
import { DecodeError } from '../errors';
import type { InDom } from '../types';
import { pduFromBytes } from './pdu-buffer';
import { decodeProfile, encodeProfile } from './profile-pdu';
import { hexPdu, toHex } from './testing/pdu-bytes';

describe('PROFILE (§3.10, §6.9)', () => {
  it('encodes the default profile as observed', () => {
    expect(toHex(encodeProfile({ state: 0, entries: [] }))).toBe('0000001c 00007002 00000000 00000000 00000000 00000000 00000000');
  });

  it('round-trips entries and their instance lists in order', () => {
    const profile = {
      state: 1,
      entries: [
        { indom: 0x0f000002 as InDom, state: 1, instances: [5, 15] },
        { indom: 0x0f000003 as InDom, state: 0, instances: [] },
        { indom: 0x0f000004 as InDom, state: 0, instances: [7] },
      ],
    };
    const pdu = encodeProfile(profile, 3);
    expect(pdu.length).toBe(28 + 16 * 3 + 4 * 3);
    expect(decodeProfile(pduFromBytes(pdu, 't'), 't')).toEqual({ ctxid: 3, profile });
  });

  it('rejects instance lists longer than the PDU', () => {
    expect(() => decodeProfile(hexPdu('0000002c 00007002 00000000 00000000 00000000 00000001 00000000 0f000002 00000001 00000009 00000000'), 't')).toThrow(DecodeError);
  });
});
