import { describe, expect, it } from 'vitest';
import type { PmId } from '../types';
import { decodeFetch, encodeFetch } from './fetch-pdu';
import { pduFromBytes } from './pdu-buffer';
import { decodeFailure, hexPdu, toHex } from './testing/pdu-bytes';

describe('FETCH / HIGHRES_FETCH (§3.11, §6.10)', () => {
  it('encodes the observed HIGHRES_FETCH', () => {
    expect(toHex(encodeFetch([0x0f000800 as PmId], true))).toBe('00000020 00007014 00000000 00000000 00000000 00000000 00000001 0f000800');
  });

  it('round-trips both kinds', () => {
    const ids = [1, 2, 0x0f000800] as PmId[];
    expect(decodeFetch(pduFromBytes(encodeFetch(ids, false, 2), 't'), 't')).toEqual({ ctxid: 2, highres: false, pmids: ids });
    expect(decodeFetch(pduFromBytes(encodeFetch(ids, true), 't'), 't')).toEqual({ ctxid: 0, highres: true, pmids: ids });
  });

  it('rejects numpmid 0 and a length that does not match', () => {
    expect(decodeFailure(() => decodeFetch(hexPdu('0000001c 00007014 00000000 00000000 00000000 00000000 00000000'), 't'))).toMatch(/numpmid is 0/);
    expect(decodeFailure(() => decodeFetch(hexPdu('00000024 00007014 00000000 00000000 00000000 00000000 00000001 0f000800 00000000'), 't'))).toMatch(/unexpected bytes/);
  });
});
