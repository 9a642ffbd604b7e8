// Fuzz test of the bridge's PDU gate (bridge-policy.ts checkClientPdu, behind the reassembler
// bridge.ts runs): random and mutated client PDUs. The gate must never throw, and what it
// lets through must be what the bridge promises pmcd (pdu-protocol.md §8.5): as the first
// PDU only a plain CREDS (version 2, no features); after it only the read requests, each of
// which decodes; a store only when stores are enabled (else it is answered, not forwarded).
// Seeded, so a failure names the seed and iteration that reproduce it. `npm run fuzz` sets
// PMDASH_FUZZ_ITERATIONS (20 000 per corpus entry); the unit run does 300.
import { describe, expect, it } from 'vitest';
import { isPmError } from '../src/pcp-core/errors';
import { CVERSION, PDU_CREDS, PDU_DESC_IDS, PDU_DESC_REQ, PDU_FETCH, PDU_HIGHRES_FETCH, PDU_INSTANCE_REQ, PDU_LABEL_REQ, PDU_PMNS_CHILD, PDU_PMNS_IDS, PDU_PMNS_NAMES, PDU_PMNS_TRAVERSE, PDU_PROFILE, PDU_RESULT, PDU_TEXT_REQ, PDU_VERSION2 } from '../src/pcp-core/pdu/constants';
import { decodeCreds, encodeCreds } from '../src/pcp-core/pdu/creds-pdu';
import { decodePdu } from '../src/pcp-core/pdu/decode-any';
import { encodeDescIds, encodeDescReq } from '../src/pcp-core/pdu/desc-pdu';
import { encodeError } from '../src/pcp-core/pdu/error-pdu';
import { encodeFetch } from '../src/pcp-core/pdu/fetch-pdu';
import { encodeInstanceReq } from '../src/pcp-core/pdu/instance-pdu';
import { encodeLabelReq } from '../src/pcp-core/pdu/label-pdu';
import type { Pdu } from '../src/pcp-core/pdu/pdu-buffer';
import { encodeNameList, encodePmnsChild, encodePmnsIds, encodePmnsTraverse } from '../src/pcp-core/pdu/pmns-pdu';
import { encodeProfile } from '../src/pcp-core/pdu/profile-pdu';
import { PduReassembler } from '../src/pcp-core/pdu/reassembler';
import { encodeResult } from '../src/pcp-core/pdu/result-pdu';
import { encodeTextReq } from '../src/pcp-core/pdu/text-pdu';
import { PM_TYPE_U32, type InDom, type PmId } from '../src/pcp-core/types';
import { checkClientPdu, makePolicy, type BridgePolicy, type PduVerdict } from './bridge-policy';

const ITERATIONS = Number(process.env.PMDASH_FUZZ_ITERATIONS ?? 300);
const READ_TYPES = new Set([PDU_PROFILE, PDU_FETCH, PDU_HIGHRES_FETCH, PDU_DESC_REQ, PDU_DESC_IDS, PDU_INSTANCE_REQ, PDU_TEXT_REQ, PDU_LABEL_REQ, PDU_PMNS_NAMES, PDU_PMNS_IDS, PDU_PMNS_CHILD, PDU_PMNS_TRAVERSE]);

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

const corpus: Array<[string, Uint8Array]> = [
  ['creds', encodeCreds(0)],
  ['profile', encodeProfile({ state: 1, entries: [{ indom: 2 as InDom, state: 1, instances: [1, 5] }] })],
  ['fetch', encodeFetch([1, 2, 3] as PmId[], false)],
  ['highres fetch', encodeFetch([1, 2, 3] as PmId[], true)],
  ['desc req', encodeDescReq(1 as PmId)],
  ['desc ids', encodeDescIds([1, 2, 3] as PmId[])],
  ['instance req', encodeInstanceReq({ indom: 0x0f000002 as InDom, inst: -1, name: '15 minute' })],
  ['text req', encodeTextReq(1, 6)],
  ['label req', encodeLabelReq(0xffffffff, 1)],
  ['pmns names', encodeNameList(['kernel.all.load', 'hinv.ncpu'])],
  ['pmns ids', encodePmnsIds([1, 2], 0)],
  ['pmns child', encodePmnsChild('kernel', true)],
  ['pmns traverse', encodePmnsTraverse('kernel.all')],
  ['store', encodeResult({ timestamp: { sec: 0, nsec: 0 }, sets: [{ pmid: 1 as PmId, numval: 1, valfmt: 0, inst: Int32Array.of(-1), values: [1] }] }, false, () => PM_TYPE_U32)],
  ['error (not a request)', encodeError(-12357)],
];

/** One mutation of `bytes`, keeping the length word consistent half of the time. */
function mutate(bytes: Uint8Array, next: () => number): Uint8Array {
  let out = bytes.slice();
  const kind = next() % 7;
  const at = next() % out.length;
  if (kind === 0) out[at] = (out[at] ?? 0) ^ (1 << (next() % 8));
  else if (kind === 1) out[at] = [0, 0xff, 0x7f, 0x80, 1][next() % 5] ?? 0;
  else if (kind === 2) {
    const word = at & ~3;
    const v = [0, -1, 0x7fffffff, 0x80000000, 1, 0xffff, 0x10000, 0x7000 + (next() % 0x20)][next() % 8] ?? 0;
    if (word + 4 <= out.length) new DataView(out.buffer).setUint32(word, v >>> 0);
  } else if (kind === 3) out = out.slice(0, Math.max(12, at));
  else if (kind === 4) {
    const grown = new Uint8Array(out.length + 1 + (next() % 16));
    grown.set(out);
    out = grown;
  } else if (kind === 5) {
    // Another request type on this body.
    new DataView(out.buffer).setInt32(4, 0x7000 + (next() % 0x20));
  } else {
    for (let i = 0; i < 4; i++) {
      const j = next() % out.length;
      out[j] = next() & 0xff;
    }
  }
  if (next() % 2 === 0 && out.length >= 4) new DataView(out.buffer).setInt32(0, out.length);
  return out;
}

/** Random bytes with a plausible header: a length word, a PDU type in pmcd's range. */
function randomPdu(next: () => number): Uint8Array {
  const out = new Uint8Array(12 + 4 * (next() % 24));
  for (let i = 0; i < out.length; i++) out[i] = next() & 0xff;
  const v = new DataView(out.buffer);
  v.setInt32(0, out.length);
  v.setInt32(4, 0x7000 + (next() % 0x20));
  return out;
}

/** What the gate may do with `pdu`, judged independently of how it decides. */
function expectAllowed(pdu: Pdu, first: boolean, policy: BridgePolicy, verdict: PduVerdict, where: string): void {
  if (verdict.action === 'close') return;
  if (verdict.action === 'answer') {
    expect(pdu.type === PDU_RESULT && !policy.allowStore && !first, where).toBe(true);
    return;
  }
  if (first) {
    expect(pdu.type, where).toBe(PDU_CREDS);
    const creds = decodeCreds(pdu, where);
    expect(creds.map((c) => [c.type, c.type === CVERSION ? [c.version, c.flags] : undefined]), where).toEqual([[CVERSION, [PDU_VERSION2, 0]]]);
    return;
  }
  expect(READ_TYPES.has(pdu.type) || (pdu.type === PDU_RESULT && policy.allowStore), `${where}: type 0x${pdu.type.toString(16)} forwarded`).toBe(true);
  // Forwarded means well-formed: it decodes (a decode failure here fails the test).
  decodePdu(pdu, where);
}

/** Frames `bytes` as the bridge does, and judges each PDU as first and as a later one. */
function gate(bytes: Uint8Array, policy: BridgePolicy, where: string): number {
  let pdus: Pdu[];
  try {
    pdus = new PduReassembler(where, policy.maxPduBytes).push(bytes);
  } catch (e) {
    // Bad framing closes the connection in the bridge: an expected outcome.
    if (isPmError(e)) return 0;
    throw e;
  }
  for (const pdu of pdus) {
    for (const first of [true, false]) expectAllowed(pdu, first, policy, checkClientPdu(pdu, first, policy), `${where}${first ? ' (first)' : ''}`);
  }
  return pdus.length;
}

describe("fuzzing the bridge's PDU gate", () => {
  const policies = [makePolicy({}), makePolicy({ allowStore: true })];

  it('forwards every unmutated read request, and CREDS first', () => {
    for (const [name, bytes] of corpus) {
      const pdus = new PduReassembler(name, 65536).push(bytes);
      const want = name === 'store' ? 'answer' : name === 'error (not a request)' ? 'close' : 'forward';
      expect(checkClientPdu(pdus[0], name === 'creds', policies[0]).action, name).toBe(want);
    }
  });

  for (const [name, bytes] of corpus) {
    it(`never throws and lets only well-formed allowed PDUs through: ${ITERATIONS} mutations of ${name}`, () => {
      const seed = 0x2545f491 ^ name.length ^ bytes.length;
      const next = rng(seed);
      let judged = 0;
      for (let i = 0; i < ITERATIONS; i++) {
        const m = mutate(bytes, next);
        for (const [p, policy] of policies.entries()) judged += gate(m, policy, `${name} seed ${seed} iteration ${i} policy ${p}`);
      }
      // Some mutations must get through framing, or the gate was never exercised.
      expect(judged).toBeGreaterThan(0);
    });
  }

  it(`never throws on ${ITERATIONS * 10} random PDUs`, () => {
    const seed = 0x1b873593;
    const next = rng(seed);
    for (let i = 0; i < ITERATIONS * 10; i++) {
      const m = randomPdu(next);
      for (const [p, policy] of policies.entries()) gate(m, policy, `random seed ${seed} iteration ${i} policy ${p}`);
    }
  });
});
