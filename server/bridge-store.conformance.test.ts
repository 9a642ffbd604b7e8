// Stores through the bridge, against pmcds of the test's own (test/throwaway-pmcd.ts) with the
// sample PMDA, whose sample.write_me is storable: without --allow-store the bridge answers a
// store with exactly the PDU pmcd 6.0.3 itself sends when its access rules deny a store
// (captured from a throwaway pmcd configured `disallow ".*" : store`), pmcd never sees the
// store (the value, read back by pminfo, is unchanged), and the same connection keeps
// working; with --allow-store the store reaches pmcd and the value changes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../test/oracle';
import { SAMPLE_AGENT, ThrowawayPmcd } from '../test/throwaway-pmcd';
import { PM_ERR_PERMISSION } from '../src/pcp-core/errors';
import { PduClient } from '../src/pcp-core/pdu/client';
import { encodeCreds } from '../src/pcp-core/pdu/creds-pdu';
import { PduReassembler } from '../src/pcp-core/pdu/reassembler';
import { encodeResult } from '../src/pcp-core/pdu/result-pdu';
import { bridgeUrl } from '../src/pcp-core/pdu/target-spec';
import type { Transport } from '../src/pcp-core/pdu/transport';
import { PM_IN_NULL, type Desc, type PmId, type ValueSet } from '../src/pcp-core/types';
import { openTcpTransport } from '../src/node/tcp-transport';
import { openNodeWebSocketTransport } from '../src/node/websocket-transport';
import { serveWithBridge, type Served } from './serve';
import type { BridgeOptions } from './bridge';

/** Sends `pdus` on a fresh stream and resolves with the first `count` whole PDUs received. */
function exchange(t: Transport, pdus: readonly Uint8Array[], count: number): Promise<string[]> {
  const reassembler = new PduReassembler(t.peer, 1 << 20);
  const got: string[] = [];
  return new Promise((resolve, reject) => {
    t.onData((chunk) => {
      for (const p of reassembler.push(chunk)) got.push(Buffer.from(p.bytes).toString('hex'));
      if (got.length >= count) {
        resolve(got.slice(0, count));
        t.close();
      }
    });
    t.onClose((e) => reject(new Error(`stream ended after ${got.length} PDUs: ${e?.message ?? 'closed'}`)));
    for (const p of pdus) t.send(p);
  });
}

async function writeMe(host: string): Promise<string> {
  const run = await runTool('pminfo', ['-h', host, '-f', 'sample.write_me']);
  expect(run.status, run.stderr).toBe(0);
  return /value (\S+)/.exec(run.stdout)?.[1] ?? '?';
}

describe('stores through the bridge (throwaway pmcds with the sample PMDA)', () => {
  let open: ThrowawayPmcd;
  let denying: ThrowawayPmcd;
  const servers: Served[] = [];
  let root: string;
  let pmid: PmId;
  let desc: Desc;

  async function bridge(options: Partial<Omit<BridgeOptions, 'log'>>, logs: string[] = []): Promise<string> {
    const served = await serveWithBridge({ port: 0, host: '127.0.0.1', root, log: (l) => logs.push(l), bridge: { targets: [open.host], ...options } });
    servers.push(served);
    const address = served.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  const storeOf = (value: number): ValueSet[] => [{ pmid, numval: 1, valfmt: 0, inst: Int32Array.of(PM_IN_NULL), values: [value] }];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'pmdash-bridge-store-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    open = await ThrowawayPmcd.start({ agents: [SAMPLE_AGENT] });
    denying = await ThrowawayPmcd.start({ agents: [SAMPLE_AGENT], access: ['disallow ".*" : store;', 'disallow ":*" : store;'] });
    const client = await PduClient.connect(await openTcpTransport('localhost', open.port));
    pmid = (await client.lookupNames(['sample.write_me'])).pmids[0] ?? (0 as PmId);
    desc = await client.desc(pmid);
    client.close();
  });
  afterAll(async () => {
    for (const s of servers) {
      await new Promise<void>((resolve) => {
        s.server.close(() => resolve());
        s.server.closeAllConnections();
      });
    }
    await open?.dispose();
    await denying?.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers a store with the very PDU pmcd sends when its access rules deny it', async () => {
    const store = encodeResult({ timestamp: { sec: 0, nsec: 0 }, sets: storeOf(7) }, false, () => desc.type);
    const [hello, pmcdRefusal] = await exchange(await openTcpTransport('localhost', denying.port), [encodeCreds(0), store], 2);
    expect(pmcdRefusal).toBe('000000100000700000000000ffffcf9d');
    const origin = await bridge({});
    const viaBridge = await exchange(await openNodeWebSocketTransport(bridgeUrl(origin), { origin }), [encodeCreds(0), store], 2);
    expect(viaBridge).toEqual([hello, pmcdRefusal]);
  });

  it('refuses the store without --allow-store: pmcd never sees it, the connection keeps working', async () => {
    const logs: string[] = [];
    const origin = await bridge({}, logs);
    const before = await writeMe(open.host);
    const client = await PduClient.connect(await openNodeWebSocketTransport(bridgeUrl(origin), { origin }));
    const typeOf = (): number => desc.type;
    await client.profile({ state: 0, entries: [] });
    const [first, stored, second] = await Promise.allSettled([client.fetch([pmid], typeOf), client.store(storeOf(Number(before) + 40), typeOf), client.fetch([pmid], typeOf)]);
    expect(stored).toMatchObject({ status: 'rejected', reason: { code: PM_ERR_PERMISSION } });
    for (const f of [first, second]) expect(f).toMatchObject({ status: 'fulfilled', value: { result: { sets: [{ numval: 1, values: [Number(before)] }] } } });
    client.close();
    expect(await writeMe(open.host)).toBe(before);
    expect(logs.some((l) => l.includes('refused a store (RESULT, 44 bytes), answered PM_ERR_PERMISSION'))).toBe(true);
  });

  it('forwards the store with --allow-store, and pmcd applies it', async () => {
    const origin = await bridge({ allowStore: true });
    const before = Number(await writeMe(open.host));
    const client = await PduClient.connect(await openNodeWebSocketTransport(bridgeUrl(origin), { origin }));
    await client.store(storeOf(before + 1), () => desc.type);
    client.close();
    expect(await writeMe(open.host)).toBe(String(before + 1));
  });
});
