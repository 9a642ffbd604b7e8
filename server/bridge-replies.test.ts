// The reply bookkeeping of the bridge: a request the bridge answers itself (a refused store)
// gets its answer exactly where pmcd's reply would have been, whatever was outstanding
// before it — plain requests, fetches preceded by state-change flags, and the silent CREDS
// and PROFILE, whether pmcd accepted or refused them.
import { describe, expect, it } from 'vitest';
import { PM_ERR_NAME, PM_ERR_PERMISSION, PM_ERR_PROFILE } from '../src/pcp-core/errors';
import { PDU_PMNS_CHILD } from '../src/pcp-core/pdu/constants';
import { encodeCreds } from '../src/pcp-core/pdu/creds-pdu';
import { encodeError, encodeHello } from '../src/pcp-core/pdu/error-pdu';
import { encodeFetch } from '../src/pcp-core/pdu/fetch-pdu';
import { pduFromBytes } from '../src/pcp-core/pdu/pdu-buffer';
import { encodeNameList, encodePmnsIds } from '../src/pcp-core/pdu/pmns-pdu';
import { encodeProfile } from '../src/pcp-core/pdu/profile-pdu';
import type { PmId } from '../src/pcp-core/types';
import { ReplyTracker } from './bridge-replies';

const pdu = (bytes: Uint8Array) => pduFromBytes(bytes, 'test');
const hex = (list: readonly Uint8Array[]): string[] => list.map((b) => Buffer.from(b).toString('hex'));

const REFUSED = encodeError(PM_ERR_PERMISSION);
const NAMES = encodeNameList(['hinv', 'kernel']);
const IDS = encodePmnsIds([7], 1);
const FLAGS = encodeError(4);
const RESULT_LIKE = encodePmnsIds([9], 1);

/** A tracker past the handshake (hello, CREDS accepted, its marker answered). */
function connected(): ReplyTracker {
  const t = new ReplyTracker();
  expect(hex(t.fromPmcd(pdu(encodeHello(0x0e44))))).toEqual(hex([encodeHello(0x0e44)]));
  const sent = t.forwarded(pdu(encodeCreds(0)));
  expect(sent.map((b) => pdu(b).type)).toEqual([0x700c, PDU_PMNS_CHILD]);
  expect(t.fromPmcd(pdu(NAMES))).toEqual([]);
  expect(t.outstanding).toBe(0);
  return t;
}

describe('ReplyTracker', () => {
  it('answers at once when nothing is outstanding', () => {
    const t = connected();
    expect(hex(t.answered(PM_ERR_PERMISSION))).toEqual(hex([REFUSED]));
    // The answer is pmcd's own refusal, byte for byte: 00000010 00007000 00000000 ffffcf9d.
    expect(Buffer.from(REFUSED).toString('hex')).toBe('000000100000700000000000ffffcf9d');
  });

  it('holds the answer until every earlier request has its reply, flags included', () => {
    const t = connected();
    t.forwarded(pdu(encodeNameList(['a'])));
    t.forwarded(pdu(encodeFetch([1 as PmId], true, 0)));
    expect(t.answered(PM_ERR_PERMISSION)).toEqual([]);
    t.forwarded(pdu(encodeNameList(['b'])));
    expect(hex(t.fromPmcd(pdu(IDS)))).toEqual(hex([IDS]));
    // Flags ahead of the fetch reply are not the fetch's reply.
    expect(hex(t.fromPmcd(pdu(FLAGS)))).toEqual(hex([FLAGS]));
    expect(t.modified).toBe(false);
    expect(hex(t.fromPmcd(pdu(RESULT_LIKE)))).toEqual(hex([RESULT_LIKE, REFUSED]));
    expect(t.modified).toBe(true);
    // An error reply is a final reply too.
    expect(hex(t.fromPmcd(pdu(encodeError(PM_ERR_NAME))))).toEqual(hex([encodeError(PM_ERR_NAME)]));
    expect(t.outstanding).toBe(0);
  });

  it('waits out an accepted PROFILE through its own marker, whose reply it swallows', () => {
    const t = connected();
    const sent = t.forwarded(pdu(encodeProfile({ state: 0, entries: [] }, 0)));
    expect(sent.map((b) => pdu(b).type)).toEqual([0x7002, PDU_PMNS_CHILD]);
    expect(t.answered(PM_ERR_PERMISSION)).toEqual([]);
    // pmcd says nothing for the profile; the marker's reply releases the answer.
    expect(hex(t.fromPmcd(pdu(NAMES)))).toEqual(hex([REFUSED]));
    expect(t.outstanding).toBe(0);
  });

  it('passes a refused PROFILE’s ERROR to the client and still places the answer after it', () => {
    const t = connected();
    t.forwarded(pdu(encodeProfile({ state: 0, entries: [] }, 0)));
    t.forwarded(pdu(encodeNameList(['x'])));
    expect(t.answered(PM_ERR_PERMISSION)).toEqual([]);
    expect(hex(t.fromPmcd(pdu(encodeError(PM_ERR_PROFILE))))).toEqual(hex([encodeError(PM_ERR_PROFILE)]));
    expect(t.fromPmcd(pdu(NAMES))).toEqual([]);
    expect(hex(t.fromPmcd(pdu(IDS)))).toEqual(hex([IDS, REFUSED]));
  });

  it('places consecutive answers in order and passes unsolicited PDUs on for the client to judge', () => {
    const t = connected();
    t.forwarded(pdu(encodeNameList(['a'])));
    t.answered(PM_ERR_PERMISSION);
    t.answered(PM_ERR_PERMISSION);
    expect(hex(t.fromPmcd(pdu(IDS)))).toEqual(hex([IDS, REFUSED, REFUSED]));
    expect(hex(t.fromPmcd(pdu(IDS)))).toEqual(hex([IDS]));
  });

  it('keeps up with a long pipeline', () => {
    const t = connected();
    for (let i = 0; i < 5000; i++) t.forwarded(pdu(encodeNameList(['a'])));
    t.answered(PM_ERR_PERMISSION);
    for (let i = 0; i < 4999; i++) expect(t.fromPmcd(pdu(IDS)).length).toBe(1);
    expect(t.fromPmcd(pdu(IDS)).length).toBe(2);
    expect(t.outstanding).toBe(0);
  });
});
