import { describe, expect, it } from 'vitest';
import { DecodeError } from '../errors';
import type { InDom } from '../types';
import { decodeInstance, decodeInstanceReq, encodeInstance, encodeInstanceReq } from './instance-pdu';
import { pduFromBytes } from './pdu-buffer';
import { decodeFailure, hexPdu, toHex } from './testing/pdu-bytes';

const indom = 0x0f000002 as InDom;
const observed = `00000048 00007007 00000000 0f000002 00000003
  00000001 00000008 31206d69 6e757465
  00000005 00000008 35206d69 6e757465
  0000000f 00000009 3135206d 696e7574 657e7e7e`;

describe('INSTANCE_REQ / INSTANCE (§3.9, §6.7, §6.8)', () => {
  it('matches the observed bytes', () => {
    expect(toHex(encodeInstanceReq({ indom, inst: -1, name: '' }))).toBe('00000020 00007006 00000000 0f000002 00000000 00000000 ffffffff 00000000');
    const reply = decodeInstance(hexPdu(observed), 't');
    expect(reply.indom).toBe(indom);
    expect([...reply.instances]).toEqual([1, 5, 15]);
    expect(reply.names).toEqual(['1 minute', '5 minute', '15 minute']);
  });

  it('round-trips lookups by name and by id, and replies', () => {
    for (const req of [{ indom, inst: -1, name: '15' }, { indom, inst: 5, name: '' }, { indom, inst: -1, name: 'abcd' }]) {
      expect(decodeInstanceReq(pduFromBytes(encodeInstanceReq(req), 't'), 't')).toEqual(req);
    }
    const r = decodeInstance(pduFromBytes(encodeInstance(indom, [3, -1], ['three', '']), 't'), 't');
    expect([...r.instances, ...r.names]).toEqual([3, -1, 'three', '']);
    expect(decodeInstance(pduFromBytes(encodeInstance(indom, [], []), 't'), 't').names).toEqual([]);
  });

  it('rejects a truncated entry and a count that cannot fit', () => {
    expect(() => decodeInstance(hexPdu('0000001c 00007007 00000000 0f000002 00000001 00000001 00000008'), 't')).toThrow(DecodeError);
    expect(decodeFailure(() => decodeInstance(hexPdu('0000001c 00007007 00000000 0f000002 7fffffff 00000001 00000000'), 't'))).toMatch(/numinst/);
  });
});
