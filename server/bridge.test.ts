import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LiveContext } from '../src/pcp-core/context/live-context';
import { ECONNREFUSED, PM_ERR_PERMISSION, PM_ERR_PROFILE, PmError } from '../src/pcp-core/errors';
import { PduClient } from '../src/pcp-core/pdu/client';
import { PDU_FETCH, PDU_FLAG_HIGHRES, PDU_PMNS_CHILD, PDU_PMNS_NAMES, PDU_RESULT } from '../src/pcp-core/pdu/constants';
import { encodeCreds } from '../src/pcp-core/pdu/creds-pdu';
import { encodeFetch } from '../src/pcp-core/pdu/fetch-pdu';
import { FakePmcd } from '../src/pcp-core/pdu/fake-pmcd';
import { encodeNameList } from '../src/pcp-core/pdu/pmns-pdu';
import { encodeProfile } from '../src/pcp-core/pdu/profile-pdu';
import { encodeResult } from '../src/pcp-core/pdu/result-pdu';
import { bridgeUrl } from '../src/pcp-core/pdu/target-spec';
import { PM_INDOM_NULL, PM_TYPE_U32, decodeUnits, pmid, type PmId } from '../src/pcp-core/types';
import { openNodeWebSocketTransport } from '../src/node/websocket-transport';
import type { BridgeOptions } from './bridge';
import { serveWithBridge, type Served } from './serve';
import { rawRequest } from './testing/serve';

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

  it('refuses a request whose Host is not a name it answers to (DNS rebinding), on every surface, before any upgrade', async () => {
    const h = await start({ publicHosts: ['dash.example.org'], origins: ['https://other.example.net'] });
    const evil = { Host: 'evil.example:8044', Origin: 'http://evil.example:8044' };
    expect(await rawRequest(h.origin, '/pmcd', evil, true)).toBe(403);
    expect(await rawRequest(h.origin, '/pmcd/targets', evil)).toBe(403);
    expect(await rawRequest(h.origin, '/', evil)).toBe(403);
    expect(await rawRequest(h.origin, '/pmcd/targets', {})).toBe(200);
    expect(h.fake.connections).toBe(0);
    // Loopback names on any port (the Vite dev proxy keeps the browser's Host), the public
    // host and an --origin's host pass; Origin must still match.
    for (const host of ['localhost:5173', '127.0.0.1:8044', '127.9.9.9', '[::1]:8044', 'dash.example.org', 'dash.example.org:8443']) {
      expect(await rawRequest(h.origin, '/pmcd', { Host: host, Origin: `http://${host}` }, true), host).toBe('upgraded');
    }
    expect(await rawRequest(h.origin, '/pmcd', { Host: 'other.example.net', Origin: 'https://other.example.net' }, true)).toBe('upgraded');
    expect(await rawRequest(h.origin, '/pmcd', { Host: 'other.example.net:8044', Origin: 'https://other.example.net' }, true)).toBe(403);
    expect(await rawRequest(h.origin, '/pmcd', { Host: 'dash.example.org', Origin: 'http://evil.example:8044' }, true)).toBe(403);
    expect(await rawRequest(h.origin, '/pmcd', { Host: 'evil.example@127.0.0.1', Origin: 'http://127.0.0.1' }, true)).toBe(403);
    expect(h.logs.filter((l) => l.includes("Host 'evil.example:8044' is not a name this server answers to")).length).toBe(3);
  });

  it('closes a connection whose PDU is not complete a few seconds after its first byte, however slowly it drips', async () => {
    const h = await start({ partialPduTimeoutMs: 300, idleTimeoutMs: 60_000 });
    const s = await drip(h, 100, 3000);
    expect(s.dripped).toBeGreaterThan(0);
    expect(s.code).toBe(1008);
    expect(s.reason).toMatch(/^PDU not complete 0\.3 s after its first byte \(\d+ bytes received\)$/);
  });

  it('counts only complete PDUs as activity: dripping bytes into one does not hold off the idle timeout', async () => {
    const h = await start({ partialPduTimeoutMs: 60_000, idleTimeoutMs: 400 });
    const s = await drip(h, 100, 3000);
    expect([s.code, s.reason]).toEqual([1000, 'idle for 0 s']);
  });

  it('closes a client that does not read once its queued output passes the per-connection cap, and frees it', async () => {
    // The fake pmcd's connection cannot be paused: what it answers lands in the bridge's queue.
    const h = await start({ maxBufferedBytes: 256 * 1024 });
    await notReading(h, 1, 40);
    await until(() => h.served.bridge.connections === 0);
    expect(h.served.bridge.bufferedBytes).toBe(0);
    expect(h.logs.some((l) => /^bridge: disconnect #1 → localhost:44321: client is not reading \(\d+ bytes queued, limit 262144\)/.test(l))).toBe(true);
  });

  it('closes a client with 1013 when the output queued for all clients passes the global cap', async () => {
    const h = await start({ maxBufferedBytes: 64 * 1024 * 1024, maxTotalBufferedBytes: 512 * 1024 });
    await notReading(h, 3, 40);
    await until(() => h.logs.some((l) => l.includes('bridge output buffers full')));
    expect(h.logs.some((l) => /: bridge output buffers full \(\d+ bytes queued for all clients, limit 524288\)/.test(l))).toBe(true);
  });

  it('lets at most 8 requests of a connection await pmcd at once; the rest wait in order for replies', async () => {
    const h = await start({ idleTimeoutMs: 1000 });
    h.fake.behaviour.silent = true;
    const ws = new WebSocket(h.url(), { origin: h.origin });
    await new Promise((r) => ws.on('open', r));
    const names = Array.from({ length: 20 }, (_, i) => encodeNameList([`m${i}`]));
    ws.send(new Uint8Array(Buffer.concat([encodeCreds(0), ...names])));
    const forwarded = (): number => h.fake.received.filter((p) => p.type === PDU_PMNS_NAMES).length;
    await sleep(300);
    // CREDS and the bridge's marker behind it are two of the eight.
    expect(forwarded()).toBe(6);
    // The bridge, holding the rest, is not reading the client, yet closes it cleanly.
    expect(await new Promise((r) => ws.on('close', (code) => r(code)))).toBe(1000);
  });

  it('escapes what a client sent before it reaches the log: no CR, LF, NUL or other control character gets through', async () => {
    const h = await start();
    const evil = '%0d%0abridge:%20connect%20%2399%20from%20forged%00%1b[2J%c2%85';
    await rawSession(`${h.url()}?target=x${evil}`, h.origin);
    await rawSession(`${h.url()}?hots${evil}=1`, h.origin);
    await rawRequest(h.origin, `/pmcd?target=${evil}`, { Host: 'evil.example', Origin: 'http://evil.example' }, true);
    const refused = h.logs.filter((l) => l.includes('refused'));
    expect(refused.length).toBe(3);
    // eslint-disable-next-line no-control-regex -- the control characters are what is checked
    for (const line of h.logs) expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(refused[0]).toContain("bad target 'x\\r\\nbridge: connect #99 from forged\\x00\\x1b[2J\\x85'");
    expect(refused[1]).toContain("unknown parameter 'hots\\r\\nbridge: connect #99 from forged\\x00\\x1b[2J\\x85'");
  });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !cond() && Date.now() < end; ) await sleep(50);
  expect(cond()).toBe(true);
}

/**
 * The slow-drip client of issue 16: CREDS, then the header of a 64 KiB PDU, then one byte
 * every `everyMs`; resolves when the bridge closes it, or after `giveUpMs` with code 0.
 */
function drip(h: Harness, everyMs: number, giveUpMs: number): Promise<{ code: number; reason: string; dripped: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(h.url(), { origin: h.origin });
    let dripped = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const giveUp = setTimeout(() => {
      clearInterval(timer);
      ws.terminate();
      resolve({ code: 0, reason: 'still open', dripped });
    }, giveUpMs);
    ws.on('open', () => {
      const header = new Uint8Array(12);
      new DataView(header.buffer).setInt32(0, 65536);
      new DataView(header.buffer).setInt32(4, PDU_FETCH);
      ws.send(encodeCreds(0));
      ws.send(header);
      timer = setInterval(() => {
        dripped++;
        ws.send(new Uint8Array(1));
      }, everyMs);
    });
    ws.on('close', (code, reason) => {
      clearTimeout(giveUp);
      clearInterval(timer);
      resolve({ code, reason: reason.toString(), dripped });
    });
  });
}

/** `clients` clients that never read, each sending CREDS, PROFILE and `fetches` amplifying FETCHes (one PMID 16 000 times). */
async function notReading(h: Harness, clients: number, fetches: number): Promise<void> {
  const fetch = encodeFetch(Array.from({ length: 16_000 }, () => NCPU), false);
  for (let i = 0; i < clients; i++) {
    const ws = new WebSocket(h.url(), { origin: h.origin });
    await new Promise((r) => ws.on('open', r));
    ws.pause();
    ws.send(encodeCreds(0));
    ws.send(encodeProfile({ state: 0, entries: [] }));
    for (let f = 0; f < fetches; f++) ws.send(fetch);
    cleanups.push(() => ws.terminate());
  }
}

