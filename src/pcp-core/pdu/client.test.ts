import { describe, expect, it } from 'vitest';
import { PM_ERR_IPC, PM_ERR_NAME, PM_ERR_PERMISSION, PM_ERR_TIMEOUT, PM_ERR_TOOBIG, PmError } from '../errors';
import type { PmId } from '../types';
import { PduClient } from './client';
import { PDU_CREDS, PDU_PMNS_CHILD, PDU_PROFILE, PDU_RESULT } from './constants';
import { encodeDesc } from './desc-pdu';
import { encodeError, encodeHello } from './error-pdu';
import { pduFromBytes } from './pdu-buffer';
import { encodeNameList, encodePmnsIds } from './pmns-pdu';
import { ScriptedTransport } from './testing/scripted-transport';

/** A transport whose "pmcd" sends the hello and answers the handshake's marker. */
function handshaking(features = 0x0e44): ScriptedTransport {
  const t = new ScriptedTransport();
  t.onSend = (bytes) => {
    if (pduFromBytes(bytes, 't').type === PDU_PMNS_CHILD) queueMicrotask(() => t.deliver(encodeNameList(['hinv'])));
  };
  queueMicrotask(() => t.deliver(encodeHello(features)));
  return t;
}

describe('PduClient', () => {
  it('completes the handshake: CREDS, then a marker that proves pmcd accepted it', async () => {
    const t = handshaking();
    const c = await PduClient.connect(t);
    expect(t.sent.map((b) => pduFromBytes(b, 't').type)).toEqual([PDU_CREDS, PDU_PMNS_CHILD]);
    expect([c.features, c.version]).toEqual([0x0e44, 2]);
    c.close();
    expect(t.closed).toBe(true);
  });

  it('reports a CREDS refusal (pmcd -S over TCP) instead of carrying on as pmcd 6.0.3 would let it', async () => {
    const t = new ScriptedTransport();
    t.onSend = (bytes) => {
      if (pduFromBytes(bytes, 't').type === PDU_CREDS) queueMicrotask(() => t.deliver(encodeError(PM_ERR_PERMISSION)));
      else queueMicrotask(() => t.deliver(encodeNameList(['hinv'])));
    };
    queueMicrotask(() => t.deliver(encodeHello(0x0e4c)));
    await expect(PduClient.connect(t)).rejects.toMatchObject({ code: PM_ERR_PERMISSION, context: 'scripted: CREDS' });
  });

  it('matches pipelined replies to requests in order', async () => {
    const t = handshaking();
    const c = await PduClient.connect(t);
    t.onSend = undefined;
    const a = c.lookupNames(['a']);
    const b = c.lookupNames(['b']);
    const d = c.desc(7 as PmId);
    t.deliver(new Uint8Array([...encodePmnsIds([1], 1), ...encodeError(PM_ERR_NAME), ...encodeDesc({ pmid: 7 as PmId, type: 1, indom: 0xffffffff as never, sem: 4, units: { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 } })]));
    expect((await a).pmids).toEqual([1]);
    await expect(b).rejects.toMatchObject({ code: PM_ERR_NAME, context: 'scripted: PMNS_NAMES b' });
    expect((await d).pmid).toBe(7);
    c.close();
  });

  it('attributes a PROFILE failure to the profile, not to the next request', async () => {
    const t = handshaking();
    const c = await PduClient.connect(t);
    t.onSend = undefined;
    const p = c.profile({ state: 0, entries: [] });
    const n = c.lookupNames(['a']);
    expect(t.sent.slice(-3).map((b) => pduFromBytes(b, 't').type)).toEqual([PDU_PROFILE, PDU_PMNS_CHILD, 0x700e]);
    t.deliver(new Uint8Array([...encodeError(PM_ERR_IPC), ...encodeNameList(['hinv']), ...encodePmnsIds([3], 1)]));
    await expect(p).rejects.toMatchObject({ code: PM_ERR_IPC, context: 'scripted: PROFILE' });
    expect((await n).pmids).toEqual([3]);
    c.close();
  });

  it('sends a store as a client RESULT and takes ERROR code 0 as success, a negative code as the refusal', async () => {
    const t = handshaking();
    const c = await PduClient.connect(t);
    t.onSend = undefined;
    const sets = [{ pmid: 7 as PmId, numval: 1, valfmt: 0, inst: Int32Array.of(-1), values: [42] }];
    const ok = c.store(sets, () => 1);
    const refused = c.store(sets, () => 1);
    const sent = pduFromBytes(t.sent[t.sent.length - 1] ?? new Uint8Array(0), 't');
    expect([sent.type, Buffer.from(sent.bytes).toString('hex')]).toEqual([PDU_RESULT, ['0000002c', '00007001', '00000000', '00000000', '00000000', '00000001', '00000007', '00000001', '00000000', 'ffffffff', '0000002a'].join('')]);
    t.deliver(new Uint8Array([...encodeError(0), ...encodeError(PM_ERR_PERMISSION)]));
    await expect(ok).resolves.toBeUndefined();
    await expect(refused).rejects.toMatchObject({ code: PM_ERR_PERMISSION, context: 'scripted: store (RESULT, 1 value sets)' });
    // ERROR code 0 answers only a store.
    const n = c.lookupNames(['a']);
    t.deliver(encodeError(0));
    await expect(n).rejects.toThrow(/ERROR with code 0 in reply to PMNS_NAMES a/);
  });

  it('fails the connection on a PDU nobody asked for', async () => {
    const t = handshaking();
    const c = await PduClient.connect(t);
    const closed = new Promise<PmError | undefined>((r) => c.onClose(r));
    t.deliver(encodeError(PM_ERR_NAME));
    const e = await closed;
    expect(e?.code).toBe(PM_ERR_IPC);
    expect(e?.message).toMatch(/unsolicited ERROR PDU with no request outstanding/);
    expect(t.closed).toBe(true);
    await expect(c.nameAll(1 as PmId)).rejects.toMatchObject({ code: PM_ERR_IPC });
  });

  it('fails the connection on state-change flags ahead of a non-fetch reply, and on a malformed reply', async () => {
    const t = handshaking();
    const c = await PduClient.connect(t);
    const r = c.lookupNames(['a']);
    t.deliver(encodeError(1));
    await expect(r).rejects.toMatchObject({ code: PM_ERR_IPC });
    const t2 = handshaking();
    const c2 = await PduClient.connect(t2);
    const r2 = c2.lookupNames(['a']);
    t2.deliver(encodePmnsIds([1, 2], 2));
    await expect(r2).rejects.toThrow(/PMNS_IDS has 2 PMIDs for 1 names/);
    expect(c2.closed).toBe(true);
  });

  it('times out a silent peer and refuses requests over 64 KiB', async () => {
    const t = handshaking();
    const c = await PduClient.connect(t, { requestTimeoutMs: 30 });
    t.onSend = undefined;
    await expect(c.lookupNames(['x'.repeat(70_000)])).rejects.toMatchObject({ code: PM_ERR_TOOBIG });
    await expect(c.lookupNames(['a'])).rejects.toMatchObject({ code: PM_ERR_TIMEOUT });
    expect(c.closed).toBe(true);
  });

  it('rejects everything outstanding when the stream ends', async () => {
    const t = handshaking();
    const c = await PduClient.connect(t);
    const r = c.lookupNames(['a']);
    t.end(new PmError(-104, 'Connection reset by peer', 'scripted'));
    await expect(r).rejects.toMatchObject({ code: -104 });
  });
});
