import { describe, expect, it } from 'vitest';
import { DecodeError } from '../errors';
import { decodeUnits, PM_ID_NULL, type Desc, type InDom, type PmId } from '../types';
import { decodeDesc, decodeDescIds, decodeDescReq, decodeDescs, encodeDesc, encodeDescIds, encodeDescReq, encodeDescs } from './desc-pdu';
import { pduFromBytes } from './pdu-buffer';
import { decodeFailure, hexPdu, toHex } from './testing/pdu-bytes';

const load: Desc = { pmid: 0x0f000800 as PmId, type: 4, indom: 0x0f000002 as InDom, sem: 3, units: decodeUnits(0) };
const cpuUser: Desc = { pmid: 0x0f000014 as PmId, type: 3, indom: 0xffffffff as InDom, sem: 1, units: decodeUnits(0x01002000) };

describe('DESC_REQ / DESC (§3.7, §6.5, §6.6)', () => {
  it('matches the observed bytes', () => {
    expect(toHex(encodeDescReq(load.pmid))).toBe('00000010 00007004 00000000 0f000800');
    expect(decodeDesc(hexPdu('00000020 00007005 00000000 0f000800 00000004 0f000002 00000003 00000000'), 't')).toEqual(load);
  });

  it('round-trips', () => {
    expect(decodeDescReq(pduFromBytes(encodeDescReq(load.pmid), 't'), 't')).toBe(load.pmid);
    expect(decodeDesc(pduFromBytes(encodeDesc(cpuUser), 't'), 't')).toEqual(cpuUser);
  });

  it('rejects a DESC of the wrong length', () => {
    expect(() => decodeDesc(hexPdu('00000024 00007005 00000000 0f000800 00000004 0f000002 00000003 00000000 00000000'), 't')).toThrow(DecodeError);
    expect(() => decodeDesc(hexPdu('0000001c 00007005 00000000 0f000800 00000004 0f000002 00000003'), 't')).toThrow(DecodeError);
  });
});

describe('DESC_IDS / DESCS (§3.8)', () => {
  it('round-trips, failed entries included', () => {
    const failed: Desc = { pmid: PM_ID_NULL, type: 0, indom: 0 as InDom, sem: 0, units: decodeUnits(0) };
    const ids = [load.pmid, cpuUser.pmid, 0x0f3fffff as PmId];
    expect(toHex(encodeDescIds(ids)).slice(0, 44)).toBe('00000020 00007016 00000000 ffffffff 00000003');
    expect(decodeDescIds(pduFromBytes(encodeDescIds(ids), 't'), 't')).toEqual(ids);
    expect(decodeDescs(pduFromBytes(encodeDescs([load, cpuUser, failed]), 't'), 't')).toEqual([load, cpuUser, failed]);
  });

  it('requires sts = -1 in the request and a count that fits', () => {
    expect(decodeFailure(() => decodeDescIds(hexPdu('00000018 00007016 00000000 00000000 00000001 0f000800'), 't'))).toMatch(/must be -1/);
    expect(() => decodeDescs(hexPdu('00000024 00007017 00000000 00000002 0f000800 00000004 0f000002 00000003 00000000'), 't')).toThrow(DecodeError);
  });
});
