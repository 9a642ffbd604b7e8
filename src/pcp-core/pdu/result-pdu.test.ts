import { describe, expect, it } from 'vitest';
import {
  PM_EVENT_FLAG_MISSED,
  PM_EVENT_FLAG_POINT,
  PM_TYPE_32,
  PM_TYPE_64,
  PM_TYPE_AGGREGATE,
  PM_TYPE_DOUBLE,
  PM_TYPE_EVENT,
  PM_TYPE_FLOAT,
  PM_TYPE_HIGHRES_EVENT,
  PM_TYPE_STRING,
  PM_TYPE_U32,
  PM_TYPE_U64,
  type EventArray,
  type PmId,
  type Result,
} from '../types';
import { pduFromBytes } from './pdu-buffer';
import { decodeResult, encodeResult } from './result-pdu';
import { decodeFailure, hexPdu, hexPduAfterLen } from './testing/pdu-bytes';

const LOAD = 0x0f000800 as PmId;
const CPU_USER = 0x0f000014 as PmId;
const types = new Map<PmId, number>([[LOAD, PM_TYPE_FLOAT], [CPU_USER, PM_TYPE_U64]]);
const typeOf = (id: PmId): number | undefined => types.get(id);
const f32 = (x: number): number => Math.fround(x);

describe('HIGHRES_RESULT and RESULT (§3.12, §6.11)', () => {
  it('decodes the observed HIGHRES_RESULT for kernel.all.load', () => {
    const pdu = hexPdu(`0000005c 00007015 00000000 00000001
      00000000 6b017d49 00000000 2abba567
      0f000800 00000003 00000001
      00000001 00000011 00000005 00000013 0000000f 00000015
      04000008 3f5eb852 04000008 3f70a3d7 04000008 3f000000`);
    const r = decodeResult(pdu, 't', typeOf);
    expect(r.timestamp).toEqual({ sec: 1795259721, nsec: 716940647 });
    expect(r.sets).toHaveLength(1);
    const set = r.sets[0];
    expect([set?.pmid, set?.numval, set?.valfmt, ...(set?.inst ?? [])]).toEqual([LOAD, 3, 1, 1, 5, 15]);
    expect(set?.values).toEqual([f32(0.87), f32(0.94), 0.5]);
  });

  it('decodes the observed RESULT with a singular U64 counter', () => {
    const pdu = hexPdu(`00000074 00007001 00000000 6b017d4f 00052408 00000002
      0f000800 00000003 00000001 00000001 00000014 00000005 00000016 0000000f 00000018
      0f000014 00000001 00000001 ffffffff 0000001a
      04000008 3f4ccccd 04000008 3f6b851f 04000008 3efae148 0300000c 00000000 000509d8`);
    const r = decodeResult(pdu, 't', typeOf);
    expect(r.timestamp).toEqual({ sec: 0x6b017d4f, nsec: 0x52408 * 1000 });
    expect(r.sets[0]?.values).toEqual([f32(0.8), f32(0.92), f32(0.49)]);
    expect([...(r.sets[1]?.inst ?? [])]).toEqual([-1]);
    expect(r.sets[1]?.values).toEqual([330200n]);
  });

  it('decodes the observed event block (§3.14) with one string parameter', () => {
    const EVENTS = 0x07400000 as PmId;
    const pdu = hexPduAfterLen(`00007001 00000000 00000001 00000000 00000001
      07400000 00000001 00000002 ffffffff 0000000b
      09000028 00000001 6b017c71 00042032 00000001 00000001 07400086 0600000c 66657463 68202332`);
    const r = decodeResult(pdu, 't', () => PM_TYPE_EVENT);
    const events = r.sets[0]?.values[0] as EventArray;
    expect(r.sets[0]?.pmid).toBe(EVENTS);
    expect(events).toEqual({
      kind: 'events',
      highres: false,
      records: [{ time: { sec: 1795259505, nsec: 270386000 }, flags: PM_EVENT_FLAG_POINT, nparams: 1, params: [{ pmid: 0x07400086, type: PM_TYPE_STRING, value: 'fetch #2' }] }],
    });
  });

  it('keeps error codes and empty sets', () => {
    const r = decodeResult(hexPduAfterLen('00007015 00000000 00000002 00000000 00000001 00000000 00000000 7fc00001 ffffcfbe 0f000800 00000000'), 't', typeOf);
    expect(r.sets.map((s) => [s.numval, s.values.length])).toEqual([[-12354, 0], [0, 0]]);
  });

  it('round-trips every value encoding, in both PDU kinds', () => {
    const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] as PmId[];
    const t = [PM_TYPE_32, PM_TYPE_U32, PM_TYPE_64, PM_TYPE_U64, PM_TYPE_FLOAT, PM_TYPE_DOUBLE, PM_TYPE_STRING, PM_TYPE_AGGREGATE, PM_TYPE_EVENT, PM_TYPE_HIGHRES_EVENT, PM_TYPE_STRING];
    const typeById = (id: PmId): number | undefined => t[id - 1];
    const events = (highres: boolean): EventArray => ({
      kind: 'events',
      highres,
      records: [
        {
          time: { sec: 1700000000, nsec: highres ? 123456789 : 123456000 },
          flags: PM_EVENT_FLAG_POINT,
          nparams: 4,
          params: [
            { pmid: 100 as PmId, type: PM_TYPE_U64, value: 18446744073709551615n },
            { pmid: 101 as PmId, type: PM_TYPE_STRING, value: 'a' },
            { pmid: 102 as PmId, type: PM_TYPE_DOUBLE, value: -2.5 },
            { pmid: 103 as PmId, type: PM_TYPE_32, value: -7 },
          ],
        },
        { time: { sec: 1700000001, nsec: 0 }, flags: PM_EVENT_FLAG_MISSED, nparams: 12, params: [] },
      ],
    });
    const result: Result = {
      timestamp: { sec: 1795259721, nsec: 716940000 },
      sets: [
        { pmid: ids[0], numval: 2, valfmt: 0, inst: Int32Array.of(0, 1), values: [-2147483648, 2147483647] },
        { pmid: ids[1], numval: 1, valfmt: 0, inst: Int32Array.of(-1), values: [4294967295] },
        { pmid: ids[2], numval: 1, valfmt: 1, inst: Int32Array.of(-1), values: [-9223372036854775808n] },
        { pmid: ids[3], numval: 1, valfmt: 1, inst: Int32Array.of(-1), values: [18446744073709551615n] },
        { pmid: ids[4], numval: 1, valfmt: 1, inst: Int32Array.of(-1), values: [f32(3.14)] },
        { pmid: ids[5], numval: 1, valfmt: 1, inst: Int32Array.of(-1), values: [Number.MAX_VALUE] },
        { pmid: ids[6], numval: 3, valfmt: 1, inst: Int32Array.of(1, 2, 3), values: ['', 'vm', 'ünïcode text'] },
        { pmid: ids[7], numval: 1, valfmt: 1, inst: Int32Array.of(-1), values: [new TextEncoder().encode('hullo world!')] },
        { pmid: ids[8], numval: 1, valfmt: 2, inst: Int32Array.of(-1), values: [events(false)] },
        { pmid: ids[9], numval: 1, valfmt: 2, inst: Int32Array.of(-1), values: [events(true)] },
        { pmid: ids[10], numval: -12357, valfmt: 0, inst: new Int32Array(0), values: [] },
      ],
    };
    for (const highres of [false, true]) {
      const back = decodeResult(pduFromBytes(encodeResult(result, highres, typeById), 't'), 't', typeById);
      expect(back).toEqual(result);
    }
  });

  it('reads in-situ words by the descriptor type, legacy FLOAT included', () => {
    const r: Result = { timestamp: { sec: 1, nsec: 0 }, sets: [{ pmid: 1 as PmId, numval: 1, valfmt: 0, inst: Int32Array.of(-1), values: [0x40f00000] }] };
    const pdu = pduFromBytes(encodeResult(r, true, () => PM_TYPE_U32), 't');
    expect(decodeResult(pdu, 't', () => PM_TYPE_U32).sets[0]?.values).toEqual([0x40f00000]);
    expect(decodeResult(pdu, 't', () => PM_TYPE_FLOAT).sets[0]?.values).toEqual([7.5]);
    expect(decodeResult(pdu, 't', () => undefined).sets[0]?.values).toEqual([0x40f00000]);
  });

  it('rejects block offsets inside the value sets or past the end, bad vlen and trailing bytes', () => {
    const base = '00007001 00000000 00000001 00000000 00000001 0f000014 00000001 00000001 ffffffff';
    const fails = (hex: string): string => decodeFailure(() => decodeResult(hexPduAfterLen(hex), 't', typeOf));
    expect(decodeResult(hexPduAfterLen(`${base} 0000000b 0300000c 00000000 000509d8`), 't', typeOf).sets[0]?.values).toEqual([330200n]);
    expect(fails(`${base} 0000000a 0300000c 00000000 000509d8`)).toMatch(/block offset 10 words/);
    expect(fails(`${base} 00000040 0300000c 00000000 000509d8`)).toMatch(/outside/);
    expect(fails(`${base} 0000000b 0300000b 00000000 000509d8`)).toMatch(/needs 8 payload bytes/);
    expect(fails(`${base} 0000000b 03ffffff 00000000 000509d8`)).toMatch(/overruns/);
    expect(fails(`${base} 0000000b 0300000c 00000000 000509d8 00000000`)).toMatch(/unexpected bytes/);
    expect(fails('00007001 00000000 00000001 00000000 7fffffff 0f000014 00000000')).toMatch(/numpmid/);
    expect(fails('00007001 00000000 00000001 00000000 00000001 0f000014 00000001 00000003')).toMatch(/valfmt 3/);
    expect(fails('00007001 00000000 00000001 000f4240 00000001 0f000014 00000000')).toMatch(/microseconds/);
    expect(fails('00007001 00000000 00000001 00000000 00000001 0f000014 00000001 00000001 ffffffff 0000000b 1f000008 00000000')).toMatch(/unknown value type 31/);
  });

  it('rejects event arrays whose records or parameters overrun the block', () => {
    const head = '00007001 00000000 00000001 00000000 00000001 07400000 00000001 00000002 ffffffff 0000000b';
    const ev = (block: string): string => decodeFailure(() => decodeResult(hexPduAfterLen(`${head} ${block}`), 't', () => PM_TYPE_EVENT));
    expect(ev('09000028 00000003 6b017c71 00042032 00000001 00000001 07400086 0600000c 66657463 68202332')).toMatch(/nrecords 3/);
    expect(ev('09000028 00000002 6b017c71 00042032 00000001 00000001 07400086 0600000c 66657463 68202332')).toMatch(/event 1 overruns the record array/);
    expect(ev('09000028 00000001 6b017c71 00042032 00000001 00000001 07400086 060000fc 66657463 68202332')).toMatch(/overruns/);
    expect(ev('09000028 00000001 6b017c71 000f4240 00000001 00000001 07400086 0600000c 66657463 68202332')).toMatch(/microseconds/);
    expect(ev('09000028 00000001 6b017c71 00042032 00000001 00000003 07400086 0600000c 66657463 68202332')).toMatch(/3 parameters/);
  });
});
