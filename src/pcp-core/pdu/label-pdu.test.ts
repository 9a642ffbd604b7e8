import { describe, expect, it } from 'vitest';
import { decodeLabel, decodeLabelReq, encodeLabel, encodeLabelReq, type WireLabelSet } from './label-pdu';
import { pduFromBytes } from './pdu-buffer';
import { decodeFailure, hexBytes, toHex } from './testing/pdu-bytes';

const json = '{"domainname":"localdomain","hostname":"vm","machineid":"3d1219c7c4c5404aaa1f6d2a48adfda4"}';
const observedHead = `0000009f 00007013 00000000 ffffffff 00000001 00000000 00000001
  ffffffff 00000003 00000044 0000005b
  00020a01 000e000d 001d0801 00270004 002d0901 00380022`;
const observed = new Uint8Array([...hexBytes(observedHead), ...new TextEncoder().encode(json)]);

const contextSet: WireLabelSet = {
  inst: -1,
  nlabels: 3,
  json,
  labels: [
    { name: 'domainname', value: '"localdomain"', flags: 1 },
    { name: 'hostname', value: '"vm"', flags: 1 },
    { name: 'machineid', value: '"3d1219c7c4c5404aaa1f6d2a48adfda4"', flags: 1 },
  ],
};

describe('LABEL_REQ / LABEL (§3.16)', () => {
  it('decodes the observed 159-byte context-label reply', () => {
    expect(observed.length).toBe(159);
    expect(decodeLabel(pduFromBytes(observed, 't'), 't')).toEqual({ ident: 0xffffffff, type: 1, sets: [contextSet] });
  });

  it('encodes it back byte for byte', () => {
    expect(toHex(encodeLabel(0xffffffff, 1, [contextSet]))).toBe(toHex(observed));
  });

  it('round-trips requests and multi-set instance replies with empty sets', () => {
    expect(decodeLabelReq(pduFromBytes(encodeLabelReq(0x0f000002, 32), 't'), 't')).toEqual({ ident: 0x0f000002, type: 32 });
    const sets: WireLabelSet[] = [
      { inst: 1, nlabels: 1, json: '{"a":1}', labels: [{ name: 'a', value: '1', flags: 32 }] },
      { inst: 5, nlabels: 0, json: '', labels: [] },
      { inst: 15, nlabels: -12359, json: '', labels: [] },
    ];
    expect(decodeLabel(pduFromBytes(encodeLabel(0x0f000002, 32, sets), 't'), 't').sets).toEqual(sets);
  });

  it('rejects label offsets outside the JSON and JSON outside the PDU', () => {
    const bad = observed.slice();
    bad[48] = 0x80; // value offset of the first label (bytes 48–49) → far beyond the JSON
    expect(decodeFailure(() => decodeLabel(pduFromBytes(bad, 't'), 't'))).toMatch(/points outside its 91-byte JSON/);
    const bad2 = observed.slice();
    bad2[39] = 0xff; // JSON length 0xff
    expect(decodeFailure(() => decodeLabel(pduFromBytes(bad2, 't'), 't'))).toMatch(/outside/);
  });
});
