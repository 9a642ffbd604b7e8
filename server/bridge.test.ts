import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LiveContext } from '../src/pcp-core/context/live-context';
import { ECONNREFUSED, PM_ERR_PERMISSION, PM_ERR_PROFILE, PmError } from '../src/pcp-core/errors';
import { PduClient } from '../src/pcp-core/pdu/client';
import { PDU_FLAG_HIGHRES, PDU_PMNS_CHILD, PDU_PMNS_NAMES, PDU_RESULT } from '../src/pcp-core/pdu/constants';
import { encodeCreds } from '../src/pcp-core/pdu/creds-pdu';
import { FakePmcd } from '../src/pcp-core/pdu/fake-pmcd';
import { encodeNameList } from '../src/pcp-core/pdu/pmns-pdu';
import { encodeResult } from '../src/pcp-core/pdu/result-pdu';
import { bridgeUrl } from '../src/pcp-core/pdu/target-spec';
import { PM_INDOM_NULL, PM_TYPE_U32, decodeUnits, pmid, type PmId } from '../src/pcp-core/types';
import { openNodeWebSocketTransport } from '../src/node/websocket-transport';
import type { BridgeOptions } from './bridge';
import { serveWithBridge, type Served } from './serve';

const NCPU = pmid(60, 0, 32);
const STORE_SETS = [{ pmid: NCPU, numval: 1, valfmt: 0, inst: Int32Array.of(-1), values: [1] }];
const metrics = [{ name: 'hinv.ncpu', desc: { pmid: NCPU, type: PM_TYPE_U32, indom: PM_INDOM_NULL, sem: 4, units: decodeUnits(0) }, value: () => 8 }];

interface Harness {
  readonly served: Served;
  readonly fake: FakePmcd;
  readonly origin: string;
  readonly logs: string[];
  url(target?: string): string;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(options: Partial<Omit<BridgeOptions, 'log'>> = {}): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'pmdash-bridge-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>pmdash</title>');
  const fake = new FakePmcd(metrics, 0x0e44);
  const logs: string[] = [];
  const served = await serveWithBridge({
    port: 0,
    host: '127.0.0.1',
    root,
    log: (line) => logs.push(line),
    bridge: { targets: ['localhost:44321', 'otherhost:44321'], connectUpstream: () => Promise.resolve(fake.connect()), ...options },
  });
  cleanups.push(
    () => rmSync(root, { recursive: true, force: true }),
    () => new Promise<void>((resolve) => {
      served.server.close(() => resolve());
      served.server.closeAllConnections();
    }),
  );
  const address = served.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return { served, fake, origin, logs, url: (target) => bridgeUrl(origin, target) };
}

/**
 * A raw WebSocket client: resolves with the close code and reason (or the HTTP refusal) and
 * what it received; with `closeAfter`, it closes once that many bytes have arrived.
 */
function rawSession(url: string, origin: string | undefined, sends: Uint8Array[] = [], closeAfter?: number): Promise<{ code: number; reason: string; error?: string; received: number; bytes: Uint8Array[] }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, origin === undefined ? {} : { origin });
    let error: string | undefined;
    let received = 0;
    const bytes: Uint8Array[] = [];
    ws.on('open', () => {
      for (const s of sends) ws.send(s);
    });
    ws.on('message', (d: Buffer) => {
      received += d.length;
      bytes.push(new Uint8Array(d));
      if (closeAfter !== undefined && received >= closeAfter) ws.close();
    });
    ws.on('error', (e) => (error = e.message));
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), error, received, bytes }));
  });
}

function openThroughBridge(url: string, origin?: string): Promise<LiveContext> {
  return LiveContext.open({ target: url, connect: () => openNodeWebSocketTransport(url, origin ? { origin } : {}), reconnectDelaysMs: [] });
}

describe('the pmcd bridge', () => {
  it('carries a live context to pmcd and logs the connect and the disconnect', async () => {
    const h = await start();
    const ctx = await openThroughBridge(h.url());
    const [id] = await ctx.lookupNames(['hinv.ncpu']);
    const r = await ctx.fetch([id as PmId]);
    expect(r.sets[0]?.values).toEqual([8]);
    expect(ctx.features & PDU_FLAG_HIGHRES).not.toBe(0);
    await ctx.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(h.logs.some((l) => /^bridge: connect #1 from 127\.0\.0\.1:\d+ origin http:\/\/127\.0\.0\.1:\d+ → localhost:44321$/.test(l))).toBe(true);
    expect(h.logs.some((l) => /^bridge: disconnect #1 → localhost:44321: client closed/.test(l))).toBe(true);
  });

  it('serves the list of allowed targets', async () => {
    const h = await start();
    const res = await fetch(`${h.origin}/pmcd/targets`);
    expect(await res.json()).toEqual({ default: 'localhost:44321', targets: ['localhost:44321', 'otherhost:44321'] });
    expect((await fetch(`${h.origin}/`)).status).toBe(200);
  });

  it('reaches a second allowed target by name and refuses a target not on its list', async () => {
    const h = await start();
    const other = await openThroughBridge(h.url('otherhost'));
    await other.close();
    const refused = await rawSession(h.url('evil.example.com:44321'), h.origin);
    expect(refused.error).toMatch(/403/);
    await expect(openThroughBridge(h.url('127.0.0.2'))).rejects.toMatchObject({ code: ECONNREFUSED });
    expect(h.logs.some((l) => l.includes("target '127.0.0.2:44321' is not on the bridge's list"))).toBe(true);
    expect(h.fake.connections).toBe(1);
  });

  it('takes host= as an alias of target= and refuses other parameters', async () => {
    const h = await start();
    const ctx = await openThroughBridge(`${h.origin.replace('http', 'ws')}/pmcd?host=otherhost`);
    await ctx.close();
    expect(h.logs.some((l) => l.endsWith('→ otherhost:44321'))).toBe(true);
    expect((await rawSession(`${h.url()}?hots=otherhost`, h.origin)).error).toMatch(/400/);
    expect((await rawSession(`${h.url()}?target=otherhost&host=localhost`, h.origin)).error).toMatch(/400/);
    expect(h.logs.some((l) => l.includes("unknown parameter 'hots' (use target=HOST:PORT)"))).toBe(true);
  });

  it('refuses a foreign Origin and a missing one, and admits a configured one', async () => {
    const h = await start({ origins: ['https://dash.example.org'] });
    expect((await rawSession(h.url(), 'http://evil.example.com')).error).toMatch(/403/);
    expect((await rawSession(h.url(), undefined)).error).toMatch(/403/);
    const ctx = await openThroughBridge(h.url(), 'https://dash.example.org');
    await ctx.close();
    expect(h.logs.filter((l) => l.includes('refused')).map((l) => l.replace(/^.*: /, ''))).toEqual(["Origin 'http://evil.example.com' is not allowed", 'missing Origin header']);
  });

  it('closes the connection on an oversized PDU before its body arrives', async () => {
    const h = await start();
    const header = new Uint8Array(12);
    new DataView(header.buffer).setInt32(0, 65537);
    const s = await rawSession(h.url(), h.origin, [encodeCreds(0), header]);
    expect([s.code, s.reason]).toEqual([1009, 'PDU too large: PDU length 65537 exceeds the 65536-byte limit']);
    expect(h.fake.received.filter((p) => p.type !== 0x700c)).toEqual([]);
  });

  it('answers a store with pmcd’s own PM_ERR_PERMISSION refusal in its place, keeps the connection, and logs it', async () => {
    const h = await start();
    const client = await PduClient.connect(await openNodeWebSocketTransport(h.url(), { origin: h.origin }));
    const typeOf = (): number => PM_TYPE_U32;
    await client.profile({ state: 0, entries: [] });
    // Pipelined: the refusal must land between the two fetch replies, not ahead of them.
    const [before, stored, after] = await Promise.allSettled([client.fetch([NCPU], typeOf), client.store(STORE_SETS, typeOf), client.fetch([NCPU], typeOf)]);
    expect(before).toMatchObject({ status: 'fulfilled', value: { result: { sets: [{ values: [8] }] } } });
    expect(stored).toMatchObject({ status: 'rejected', reason: { code: PM_ERR_PERMISSION } });
    expect(after).toMatchObject({ status: 'fulfilled', value: { result: { sets: [{ values: [8] }] } } });
    // A refused PROFILE ahead of a store: each gets its own error, in order.
    h.fake.behaviour.failProfile = PM_ERR_PROFILE;
    const [profile, again, fetched] = await Promise.allSettled([client.profile({ state: 0, entries: [] }), client.store(STORE_SETS, typeOf), client.fetch([NCPU], typeOf)]);
    expect(profile).toMatchObject({ status: 'rejected', reason: { code: PM_ERR_PROFILE } });
    expect(again).toMatchObject({ status: 'rejected', reason: { code: PM_ERR_PERMISSION } });
    expect(fetched).toMatchObject({ status: 'fulfilled' });
    expect(client.closed).toBe(false);
    client.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(h.fake.received.some((p) => p.type === PDU_RESULT)).toBe(false);
    expect(h.logs.filter((l) => l.includes('refused a store'))).toEqual([
      'bridge: #1 → localhost:44321: refused a store (RESULT, 44 bytes), answered PM_ERR_PERMISSION: stores are not enabled on this bridge (pmdash serve --allow-store)',
      'bridge: #1 → localhost:44321: refused a store (RESULT, 44 bytes), answered PM_ERR_PERMISSION: stores are not enabled on this bridge (pmdash serve --allow-store)',
    ]);
    expect(h.logs.some((l) => /^bridge: disconnect #1 → localhost:44321: client closed .*, 2 stores refused\)$/.test(l))).toBe(true);
  });

  it('answers a store sent right after CREDS, before anything else has a reply', async () => {
    const h = await start();
    const s = await rawSession(h.url(), h.origin, [encodeCreds(0), encodeResult({ timestamp: { sec: 0, nsec: 0 }, sets: STORE_SETS }, false, () => PM_TYPE_U32)], 36);
    // The hello, then the refusal; the bridge's marker reply after CREDS went nowhere.
    expect(s.bytes.map((b) => Buffer.from(b).toString('hex')).join('')).toBe('0000001400007000000000000000000002010e44' + '000000100000700000000000ffffcf9d');
  });

  it('forwards stores when they are enabled', async () => {
    const h = await start({ allowStore: true });
    const client = await PduClient.connect(await openNodeWebSocketTransport(h.url(), { origin: h.origin }));
    await client.store(STORE_SETS, () => PM_TYPE_U32);
    client.close();
    expect(h.fake.stores.map((r) => r.sets[0]?.values)).toEqual([[1]]);
    expect(h.logs.some((l) => l.includes('refused a store'))).toBe(false);
  });

  it('requires a plain CREDS first and closes on a malformed PDU', async () => {
    const h = await start();
    expect((await rawSession(h.url(), h.origin, [encodeNameList(['hinv.ncpu'])])).reason).toBe('the first PDU must be CREDS, not PMNS_NAMES');
    expect((await rawSession(h.url(), h.origin, [encodeCreds(0x0001)])).reason).toBe('CREDS must name protocol version 2 and request no features');
    const bad = encodeNameList(['hinv.ncpu']);
    new DataView(bad.buffer).setInt32(12, 99);
    expect((await rawSession(h.url(), h.origin, [encodeCreds(0), bad])).reason).toMatch(/^malformed PMNS_NAMES: /);
  });

  it('allows only read requests after CREDS: a second CREDS, ATTR, unknown types and text messages close the connection', async () => {
    const h = await start();
    const pduOf = (type: number, body: number[] = []): Uint8Array => {
      const b = new Uint8Array(12 + 4 * body.length);
      const v = new DataView(b.buffer);
      v.setInt32(0, b.length);
      v.setInt32(4, type);
      body.forEach((w, i) => v.setInt32(12 + 4 * i, w));
      return b;
    };
    expect((await rawSession(h.url(), h.origin, [encodeCreds(0), encodeCreds(0)])).reason).toBe('CREDS PDUs are not allowed by this bridge');
    expect((await rawSession(h.url(), h.origin, [encodeCreds(0), pduOf(0x7011, [15, 0x41414141])])).reason).toBe('ATTR PDUs are not allowed by this bridge');
    expect((await rawSession(h.url(), h.origin, [encodeCreds(0), pduOf(0x700a, [0])])).reason).toBe('CONTROL_REQ PDUs are not allowed by this bridge');
    expect((await rawSession(h.url(), h.origin, [encodeCreds(0), pduOf(0x7099)])).reason).toBe('TYPE-0x7099 PDUs are not allowed by this bridge');
    const text = await new Promise<{ code: number; reason: string }>((resolve) => {
      const ws = new WebSocket(h.url(), { origin: h.origin });
      ws.on('open', () => ws.send('hello'));
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    expect(text).toEqual({ code: 1008, reason: 'text messages are not accepted; send PDU bytes as binary messages' });
    expect(h.fake.received.filter((p) => p.type !== 0x700c && p.type !== PDU_PMNS_CHILD)).toEqual([]);
    expect(h.logs.filter((l) => l.startsWith('bridge: disconnect')).length).toBe(5);
  });

  it('enforces 12 ≤ len ≤ 65536: a short length closes the connection, a 65536-byte PDU goes through', async () => {
    const h = await start();
    const short = new Uint8Array(12);
    new DataView(short.buffer).setInt32(0, 11);
    const s = await rawSession(h.url(), h.origin, [encodeCreds(0), short]);
    expect([s.code, s.reason]).toEqual([1008, 'bad PDU framing: PDU length 11 is below the 12-byte header']);
    // PMNS_NAMES of one name: header, name count, byte count and the name's length word (28
    // bytes), then the name padded to 4.
    const full = encodeNameList(['n'.repeat(65536 - 28)]);
    expect(full.length).toBe(65536);
    const ws = new WebSocket(h.url(), { origin: h.origin });
    await new Promise((r) => ws.on('open', r));
    ws.send(encodeCreds(0));
    ws.send(full);
    await new Promise((r) => setTimeout(r, 100));
    ws.close();
    expect(h.fake.received.filter((p) => p.type === PDU_PMNS_NAMES).map((p) => p.bytes.length)).toEqual([65536]);
  });

  it('caps the request rate: PDUs past the budget wait for the next second, in order, and none is lost', async () => {
    const h = await start({ maxPdusPerSecond: 10 });
    const ws = new WebSocket(h.url(), { origin: h.origin });
    await new Promise((r) => ws.on('open', r));
    const names = Array.from({ length: 24 }, (_, i) => encodeNameList([`m${i}`]));
    // One message: CREDS and 24 requests, 25 PDUs against a budget of 10 per second.
    ws.send(new Uint8Array(Buffer.concat([encodeCreds(0), ...names])));
    const forwarded = (): string[] => h.fake.received.filter((p) => p.type === PDU_PMNS_NAMES).map((p) => Buffer.from(p.bytes).toString('hex'));
    await new Promise((r) => setTimeout(r, 300));
    expect(forwarded().length).toBe(9);
    for (let i = 0; i < 50 && forwarded().length < 24; i++) await new Promise((r) => setTimeout(r, 100));
    ws.close();
    expect(forwarded()).toEqual(names.map((n) => Buffer.from(n).toString('hex')));
    expect(h.logs.some((l) => l === 'bridge: #1 → localhost:44321: over 10 PDUs per second, slowed down')).toBe(true);
  });

  it('forwards only whole PDUs, however the client splits them', async () => {
    const h = await start();
    const ws = new WebSocket(h.url(), { origin: h.origin });
    await new Promise((r) => ws.on('open', r));
    const creds = encodeCreds(0);
    const names = encodeNameList(['hinv.ncpu']);
    ws.send(creds.subarray(0, 7));
    ws.send(new Uint8Array([...creds.subarray(7), ...names.subarray(0, 10)]));
    await new Promise((r) => setTimeout(r, 50));
    // CREDS, and the bridge's own marker after it (bridge-replies.ts).
    expect(h.fake.received.map((p) => p.type)).toEqual([0x700c, PDU_PMNS_CHILD]);
    ws.send(names.subarray(10));
    await new Promise((r) => setTimeout(r, 50));
    expect(h.fake.received.map((p) => p.type)).toEqual([0x700c, PDU_PMNS_CHILD, PDU_PMNS_NAMES]);
    ws.close();
  });

  it('caps the number of connections and closes idle ones', async () => {
    const h = await start({ maxConnections: 2, idleTimeoutMs: 150 });
    const a = await openThroughBridge(h.url());
    const b = await openThroughBridge(h.url());
    expect((await rawSession(h.url(), h.origin)).error).toMatch(/503/);
    const closed = new Promise<string>((resolve) => a.on('connection', (e) => e.state === 'closed' && resolve(e.error?.message ?? '')));
    expect(await closed).toMatch(/code 1000: idle for 0 s/);
    await b.close();
    expect(h.logs.some((l) => l.includes('connection limit (2) reached'))).toBe(true);
  });

  it('reports an unreachable target as the close reason', async () => {
    const h = await start({ connectUpstream: () => Promise.reject(new PmError(ECONNREFUSED, 'Connection refused', 'localhost:44321')) });
    const s = await rawSession(h.url(), h.origin, [encodeCreds(0)]);
    expect([s.code, s.reason]).toEqual([1011, 'cannot reach localhost:44321: localhost:44321: Connection refused']);
  });
});
