import { describe, expect, it } from 'vitest';
import { DecodeError, PM_ERR_IPC } from '../errors';
import type { PmId } from '../types';
import { pduFromBytes } from './pdu-buffer';
import { decodeNameList, decodePmnsIds, decodePmnsNodeRequest, encodeNameList, encodePmnsChild, encodePmnsIds, encodePmnsTraverse } from './pmns-pdu';
import { hexPdu, toHex } from './testing/pdu-bytes';

describe('PMNS_NAMES (§3.2, §3.6, §6.3)', () => {
  it('encodes the observed name lookup byte for byte', () => {
    expect(toHex(encodeNameList(['kernel.all.load']))).toBe('0000002c 0000700e 00000000 00000010 00000000 00000001 0000000f 6b65726e 656c2e61 6c6c2e6c 6f61647e');
  });

  it('round-trips names with and without status, including UTF-8 and empty names', () => {
    const names = ['sys', 'kernel', 'ünïcode', '', 'abcd'];
    const plain = decodeNameList(pduFromBytes(encodeNameList(names), 't'), 't');
    expect(plain).toEqual({ names });
    const withStatus = decodeNameList(pduFromBytes(encodeNameList(names, [0, 1, 1, 0, 0]), 't'), 't');
    expect(withStatus.names).toEqual(names);
    expect([...(withStatus.statuses ?? [])]).toEqual([0, 1, 1, 0, 0]);
  });

  it('decodes an empty list', () => {
    expect(decodeNameList(pduFromBytes(encodeNameList([]), 't'), 't')).toEqual({ names: [] });
  });

  it('rejects a wrong nstrbytes, a bad numstatus and an overrunning name', () => {
    const bad = (hex: string): void => {
      expect(() => decodeNameList(hexPdu(hex), 't')).toThrow(DecodeError);
    };
    bad('0000002c 0000700e 00000000 00000011 00000000 00000001 0000000f 6b65726e 656c2e61 6c6c2e6c 6f61647e');
    bad('0000002c 0000700e 00000000 00000010 00000002 00000001 0000000f 6b65726e 656c2e61 6c6c2e6c 6f61647e');
    bad('0000002c 0000700e 00000000 00000010 00000000 00000001 0000007f 6b65726e 656c2e61 6c6c2e6c 6f61647e');
    bad('0000002c 0000700e 00000000 00000010 00000000 00000009 0000000f 6b65726e 656c2e61 6c6c2e6c 6f61647e');
  });

  it('reports PM_ERR_IPC with the offset inside the PDU', () => {
    try {
      decodeNameList(hexPdu('0000001c 0000700e 00000000 00000004 00000000 00000001 ffffffff'), 'host:1');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DecodeError);
      const d = e as DecodeError;
      expect([d.code, d.source, d.offset]).toEqual([PM_ERR_IPC, 'host:1', 24]);
    }
  });
});

describe('PMNS_IDS (§3.2, §3.3, §6.4)', () => {
  it('decodes the observed reply', () => {
    expect(decodePmnsIds(hexPdu('00000018 0000700d 00000000 00000001 00000001 0f000800'), 't')).toEqual({ sts: 1, pmids: [0x0f000800] });
  });

  it('round-trips', () => {
    const ids = [0x0f000800, 0xffffffff, 1] as PmId[];
    expect(decodePmnsIds(pduFromBytes(encodePmnsIds(ids, 2), 't'), 't')).toEqual({ sts: 2, pmids: ids });
  });

  it('rejects a count beyond the PDU', () => {
    expect(() => decodePmnsIds(hexPdu('00000018 0000700d 00000000 00000001 00000002 0f000800'), 't')).toThrow(DecodeError);
  });
});

describe('PMNS_CHILD and PMNS_TRAVERSE (§3.4, §3.5)', () => {
  it('encode with the name padded to 4 bytes', () => {
    expect(toHex(encodePmnsChild('', false))).toBe('00000014 0000700f 00000000 00000000 00000000');
    expect(toHex(encodePmnsChild('kernel', true))).toBe('0000001c 0000700f 00000000 00000001 00000006 6b65726e 656c7e7e');
    expect(decodePmnsNodeRequest(pduFromBytes(encodePmnsTraverse('kernel.all'), 't'), 't')).toEqual({ subtype: 0, name: 'kernel.all' });
  });
});
