import { describe, expect, it } from 'vitest';
import { PM_ERR_IPC, PM_ERR_TOOBIG, type DecodeError } from '../errors';
import type { PmId } from '../types';
import { encodeError } from './error-pdu';
import { encodeFetch } from './fetch-pdu';
import { encodeNameList } from './pmns-pdu';
import { PduReassembler } from './reassembler';
import { hexBytes, toHex } from './testing/pdu-bytes';

const pdus = [encodeError(0, 0x02010e44), encodeNameList(['kernel.all.load', 'hinv.ncpu']), encodeFetch([1, 2, 3] as PmId[], true), encodeError(-12357)];
const stream = new Uint8Array(pdus.reduce((n, p) => n + p.length, 0));
pdus.reduce((at, p) => (stream.set(p, at), at + p.length), 0);

function reassemble(chunkSizes: (i: number) => number): string[] {
  const r = new PduReassembler('test', 65536);
  const out: string[] = [];
  for (let at = 0, i = 0; at < stream.length; i++) {
    const n = Math.max(1, chunkSizes(i));
    for (const pdu of r.push(stream.subarray(at, at + n))) out.push(toHex(pdu.bytes));
    at += n;
  }
  expect(r.pending).toBe(0);
  return out;
}

describe('PduReassembler (§1.1, §1.4)', () => {
  const expected = pdus.map(toHex);

  it('returns whole PDUs from one chunk holding several', () => {
    expect(reassemble(() => stream.length)).toEqual(expected);
  });

  it('returns whole PDUs from byte-by-byte and odd-sized chunks', () => {
    expect(reassemble(() => 1)).toEqual(expected);
    expect(reassemble((i) => [3, 7, 11, 13][i % 4] ?? 1)).toEqual(expected);
    expect(reassemble((i) => 12 + (i % 5))).toEqual(expected);
  });

  it('gives each PDU its type and from fields', () => {
    const [hello] = new PduReassembler('t', 65536).push(pdus[0] ?? new Uint8Array(0));
    expect([hello?.type, hello?.from, hello?.bytes.length]).toEqual([0x7000, 0, 20]);
  });

  it('accepts a PDU whose length is not a multiple of 4 (LABEL)', () => {
    const odd = hexBytes('0000000d 00007013 00000000 ff');
    expect(new PduReassembler('t', 65536).push(odd).map((p) => p.bytes.length)).toEqual([13]);
  });

  it('fails on a length below 12 and keeps failing', () => {
    const r = new PduReassembler('peer:1', 65536);
    const bad = hexBytes('0000000b 00007000 00000000');
    expect(() => r.push(bad)).toThrow(expect.objectContaining({ code: PM_ERR_IPC, source: 'peer:1' }) as DecodeError);
    expect(() => r.push(pdus[0] ?? new Uint8Array(0))).toThrow(/IPC/);
  });

  it('fails on a length above the cap before the body arrives, naming the stream offset', () => {
    const r = new PduReassembler('peer:1', 65536);
    r.push(pdus[0] ?? new Uint8Array(0));
    try {
      r.push(hexBytes('00010001 00007001'));
      r.push(hexBytes('00000000'));
      expect.unreachable();
    } catch (e) {
      const d = e as DecodeError;
      expect([d.code, d.offset, d.detail]).toEqual([PM_ERR_TOOBIG, 20, 'PDU length 65537 exceeds the 65536-byte limit']);
    }
  });

  it('returns copies for PDUs spanning chunks, so later chunks cannot change them', () => {
    const r = new PduReassembler('t', 65536);
    const a = pdus[1]?.slice() ?? new Uint8Array(0);
    r.push(a.subarray(0, 5));
    const [pdu] = r.push(a.subarray(5));
    a.fill(0);
    expect(toHex(pdu?.bytes ?? new Uint8Array(0))).toBe(expected[1]);
  });
});
