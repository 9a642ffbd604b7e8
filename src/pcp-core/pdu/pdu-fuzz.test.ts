// Fuzz test: mutated PDUs of every kind go through the decoders and the reassembler; each
// must either decode or throw a PmError — never a TypeError, RangeError or a hang. Seeded, so
// a failure names the seed and iteration that reproduce it. `npm run fuzz` runs 20 000
// iterations per corpus entry; the unit run does PMDASH_FUZZ_ITERATIONS or 300.
import { describe, expect, it } from 'vitest';
import { isPmError } from '../errors';
import { PM_TYPE_EVENT, PM_TYPE_FLOAT, PM_TYPE_STRING, PM_TYPE_U64, type PmId } from '../types';
import { encodeCreds } from './creds-pdu';
import { decodePdu } from './decode-any';
import { encodeDescIds, encodeDescReq, encodeDescs, encodeDesc } from './desc-pdu';
import { encodeError, encodeHello } from './error-pdu';
import { encodeFetch } from './fetch-pdu';
import { encodeInstance, encodeInstanceReq } from './instance-pdu';
import { encodeLabel, encodeLabelReq } from './label-pdu';
import { pduFromBytes } from './pdu-buffer';
import { encodeNameList, encodePmnsChild, encodePmnsIds, encodePmnsTraverse } from './pmns-pdu';
import { encodeProfile } from './profile-pdu';
import { PduReassembler } from './reassembler';
import { encodeResult } from './result-pdu';
import { hexBytes } from './testing/pdu-bytes';
import { encodeText, encodeTextReq } from './text-pdu';
import { decodeUnits, type InDom } from '../types';

const ITERATIONS = Number(process.env.PMDASH_FUZZ_ITERATIONS ?? 300);

/** xorshift32: small, fast and reproducible. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

const types = new Map<number, number>([[1, PM_TYPE_FLOAT], [2, PM_TYPE_U64], [3, PM_TYPE_STRING], [4, PM_TYPE_EVENT]]);
const typeOf = (id: PmId): number | undefined => types.get(id);
const desc = { pmid: 1 as PmId, type: 4, indom: 0x0f000002 as InDom, sem: 3, units: decodeUnits(0x01002000) };

const corpus: Array<[string, Uint8Array]> = [
  ['hello', encodeHello(0x0e44)],
  ['error', encodeError(-12357)],
  ['creds', encodeCreds(0)],
  ['pmns names', encodeNameList(['kernel.all.load', 'hinv.ncpu', 'a'])],
  ['pmns names+status', encodeNameList(['all', 'percpu'], [1, 0])],
  ['pmns ids', encodePmnsIds([1, 2, 0xffffffff], 2)],
  ['pmns child', encodePmnsChild('kernel', true)],
  ['pmns traverse', encodePmnsTraverse('kernel.all')],
  ['desc req', encodeDescReq(1 as PmId)],
  ['desc', encodeDesc(desc)],
  ['desc ids', encodeDescIds([1, 2, 3] as PmId[])],
  ['descs', encodeDescs([desc, desc])],
  ['instance req', encodeInstanceReq({ indom: 0x0f000002 as InDom, inst: -1, name: '15 minute' })],
  ['instance', encodeInstance(0x0f000002 as InDom, [1, 5, 15], ['1 minute', '5 minute', '15 minute'])],
  ['profile', encodeProfile({ state: 1, entries: [{ indom: 2 as InDom, state: 1, instances: [1, 5] }] })],
  ['fetch', encodeFetch([1, 2, 3] as PmId[], true)],
  ['text req', encodeTextReq(1, 6)],
  ['text', encodeText(1, 'one line of help')],
  ['label req', encodeLabelReq(0xffffffff, 1)],
  ['label', encodeLabel(2, 32, [{ inst: 1, nlabels: 1, json: '{"a":"b"}', labels: [{ name: 'a', value: '"b"', flags: 32 }] }, { inst: 5, nlabels: 0, json: '', labels: [] }])],
  [
    'result',
    encodeResult(
      {
        timestamp: { sec: 1795259721, nsec: 716940647 },
        sets: [
          { pmid: 1 as PmId, numval: 2, valfmt: 1, inst: Int32Array.of(1, 5), values: [0.5, 0.25] },
          { pmid: 2 as PmId, numval: 1, valfmt: 1, inst: Int32Array.of(-1), values: [330200n] },
          { pmid: 3 as PmId, numval: 1, valfmt: 1, inst: Int32Array.of(-1), values: ['vm'] },
          { pmid: 5 as PmId, numval: -12357, valfmt: 0, inst: new Int32Array(0), values: [] },
        ],
      },
      true,
      typeOf,
    ),
  ],
  ['event result', hexBytes(`00000054 00007001 00000000 00000001 00000000 00000001 00000004 00000001 00000002 ffffffff 0000000b
    09000028 00000001 6b017c71 00042032 00000001 00000001 07400086 0600000c 66657463 68202332`)],
];

/** One mutation of `bytes`, keeping the length word consistent half of the time. */
function mutate(bytes: Uint8Array, next: () => number): Uint8Array {
  let out = bytes.slice();
  const kind = next() % 6;
  const at = next() % out.length;
  if (kind === 0) out[at] = (out[at] ?? 0) ^ (1 << (next() % 8));
  else if (kind === 1) out[at] = [0, 0xff, 0x7f, 0x80, 1][next() % 5] ?? 0;
  else if (kind === 2) {
    const word = at & ~3;
    const v = [0, -1, 0x7fffffff, 0x80000000, 1, 0xffff, 0x10000][next() % 7] ?? 0;
    if (word + 4 <= out.length) new DataView(out.buffer).setUint32(word, v >>> 0);
  } else if (kind === 3) out = out.slice(0, Math.max(12, at));
  else if (kind === 4) {
    const grown = new Uint8Array(out.length + 1 + (next() % 16));
    grown.set(out);
    out = grown;
  } else {
    for (let i = 0; i < 4; i++) {
      const j = next() % out.length;
      out[j] = next() & 0xff;
    }
  }
  if (next() % 2 === 0 && out.length >= 4) new DataView(out.buffer).setInt32(0, out.length);
  return out;
}

/** Runs `fn`; a PmError is an acceptable outcome, anything else thrown is a finding. */
function survives(fn: () => unknown, where: string): void {
  try {
    fn();
  } catch (e) {
    if (!isPmError(e)) throw new Error(`${where}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`, { cause: e });
  }
}

describe('fuzzing the PDU decoders', () => {
  it('decodes every corpus entry unmutated', () => {
    for (const [name, bytes] of corpus) {
      expect(() => decodePdu(pduFromBytes(bytes, name), name, typeOf), name).not.toThrow();
    }
  });

  for (const [name, bytes] of corpus) {
    it(`survives ${ITERATIONS} mutations of ${name}`, () => {
      const seed = 0x9e3779b9 ^ name.length ^ bytes.length;
      const next = rng(seed);
      let decoded = 0;
      for (let i = 0; i < ITERATIONS; i++) {
        const m = mutate(bytes, next);
        const where = `${name} seed ${seed} iteration ${i}`;
        survives(() => {
          for (const pdu of new PduReassembler(where, 1 << 20).push(m)) {
            decodePdu(pdu, where, typeOf);
            decoded++;
          }
        }, where);
      }
      // Some mutations must get through framing, or the decoders were never exercised.
      expect(decoded).toBeGreaterThan(0);
    });
  }
});
