// The bridge in front of the real pmcd 6.0.3, and pmproxy's PCP relay: a LiveContext through
// ws://…/pmcd reads what pminfo reads; a bridge target of the form pmcd@pmproxy reaches pmcd
// through pmproxy on 44322 (the bridge runs the relay handshake itself); the same relay works
// directly over TCP for `-h localhost@localhost`; a `*@PROXY` entry admits any pmcd behind that
// pmproxy; pmproxy's own port is refused as a target.
// The bridge's refusals (a foreign Origin, an oversized client PDU) hold in front of the real
// pmcd too: nothing of a refused client reaches pmcd, and pmcd serves the next client.
// Issue 16's attacks on the bridge, against the real pmcd: DNS rebinding (a foreign Host),
// slow-drip PDUs holding every slot, and clients that never read their amplified replies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { runTool } from '../test/oracle';
import type { LiveContext } from '../src/pcp-core/context/live-context';
import { parsePminfoValues } from '../src/pcp-core/context/testing/live-helpers';
import { bridgeUrl } from '../src/pcp-core/pdu/target-spec';
import type { PmId } from '../src/pcp-core/types';
import { openLiveContext } from '../src/node/open-live-context';
import { encodeCreds } from '../src/pcp-core/pdu/creds-pdu';
import { PDU_FETCH } from '../src/pcp-core/pdu/constants';
import { encodeFetch } from '../src/pcp-core/pdu/fetch-pdu';
import { encodeProfile } from '../src/pcp-core/pdu/profile-pdu';
import { PduReassembler } from '../src/pcp-core/pdu/reassembler';
import { encodePmnsChild } from '../src/pcp-core/pdu/pmns-pdu';
import type { TargetSpec } from '../src/pcp-core/pdu/target-spec';
import type { Transport } from '../src/pcp-core/pdu/transport';
import { defaultUpstream, type BridgeOptions } from './bridge';
import { rawRequest, startTestServer, type TestServer } from './testing/serve';
import type { Upstream } from './upstream';

const DISCRETE = ['hinv.ncpu', 'hinv.physmem', 'hinv.machine', 'kernel.uname.release', 'kernel.uname.sysname', 'pmcd.version', 'pmcd.hostname'];

/** What pminfo -f prints for each of DISCRETE, without quotes around strings. */
async function pminfoValues(host: string): Promise<string[]> {
  const run = await runTool('pminfo', ['-h', host, '-f', ...DISCRETE]);
  expect(run.status, run.stderr).toBe(0);
  const parsed = parsePminfoValues(run.stdout);
  return DISCRETE.map((n) => (parsed.get(n)?.get(-1) ?? '?').replace(/^"(.*)"$/, '$1'));
}

async function ourValues(ctx: LiveContext): Promise<string[]> {
  const r = await ctx.fetch((await ctx.lookupNames(DISCRETE)) as PmId[]);
  return r.sets.map((s) => {
    const v = s.values[0];
    return typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? String(v) : '?';
  });
}

describe('the bridge and pmproxy in front of pmcd 6.0.3', () => {
  let server: TestServer;
  let origin: string;
  const logs: string[] = [];
  beforeAll(async () => {
    server = await startTestServer({ log: (l) => logs.push(l), bridge: { targets: ['localhost:44321', 'localhost:44321@localhost:44322', '*@127.0.0.1:44322'] } });
    origin = server.origin;
  });
  afterAll(() => server.stop());

  it('reads through the bridge what pminfo reads directly', async () => {
    const ctx = await openLiveContext(bridgeUrl(origin));
    try {
      expect(await ourValues(ctx)).toEqual(await pminfoValues('localhost'));
      expect((await ctx.traverse('kernel.uname')).length).toBeGreaterThan(3);
    } finally {
      await ctx.close();
    }
  });

  it('reaches pmcd through pmproxy, from the bridge and over TCP, as pminfo -h pmcd@proxy does', async () => {
    const want = await pminfoValues('localhost@localhost');
    const viaBridge = await openLiveContext(bridgeUrl(origin, 'localhost:44321@localhost:44322'));
    const viaTcp = await openLiveContext('localhost@localhost');
    try {
      expect(await ourValues(viaBridge)).toEqual(want);
      expect(await ourValues(viaTcp)).toEqual(want);
      expect(viaTcp.source).toMatchObject({ kind: 'live', target: 'localhost@localhost' });
    } finally {
      await viaBridge.close();
      await viaTcp.close();
    }
    expect(logs.some((l) => l.includes('→ localhost:44321@localhost:44322'))).toBe(true);
  });

  it('reaches any pmcd behind a *@PROXY entry through that one pmproxy, and only through it', async () => {
    // pmproxy 6.0.3 relays to IPv4 addresses and localhost: two names of the local pmcd.
    for (const pmcd of ['127.0.0.1', 'localhost']) {
      const ctx = await openLiveContext(bridgeUrl(origin, `${pmcd}@127.0.0.1`));
      try {
        expect(await ourValues(ctx)).toEqual(await pminfoValues(`${pmcd}@127.0.0.1`));
      } finally {
        await ctx.close();
      }
      expect(logs.some((l) => l.includes(`→ ${pmcd}:44321@127.0.0.1:44322`))).toBe(true);
    }
    // The same pmcd directly, or through pmproxy under another name, is not on the list.
    for (const target of ['127.0.0.1:44321', 'localhost:44321@[::1]:44322']) {
      const status = await new Promise<string>((resolve) => {
        const ws = new WebSocket(bridgeUrl(origin, target), { origin });
        ws.on('error', (e) => resolve(e.message));
        ws.on('open', () => resolve('opened'));
      });
      expect(status).toBe('Unexpected server response: 403');
    }
  });

  it('admits 20 clients connecting at the same moment (pmcd listens with a backlog of 5)', async () => {
    const contexts = await Promise.all(Array.from({ length: 20 }, () => openLiveContext(bridgeUrl(origin), { reconnectDelaysMs: [] })));
    try {
      const values = await Promise.all(contexts.map(async (c) => (await c.fetch((await c.lookupNames(['hinv.ncpu'])) as PmId[])).sets[0]?.values[0]));
      expect(new Set(values).size).toBe(1);
    } finally {
      for (const c of contexts) await c.close();
    }
  });

  it('refuses to relay to a target not on its list, such as pmproxy itself', async () => {
    const status = await new Promise<string>((resolve) => {
      const ws = new WebSocket(bridgeUrl(origin, 'localhost:44322'), { origin });
      ws.on('error', (e) => resolve(e.message));
      ws.on('open', () => resolve('opened'));
    });
    expect(status).toBe('Unexpected server response: 403');
  });
});

describe('the bridge refuses bad clients in front of pmcd 6.0.3', () => {
  let server: TestServer;
  let origin: string;
  const logs: string[] = [];
  // The real TCP connections to pmcd, each with every byte the bridge sent on it.
  const upstreams: Array<{ sent: Uint8Array[] }> = [];
  beforeAll(async () => {
    const recording = async (target: TargetSpec): Promise<Transport> => {
      const t = await defaultUpstream(target);
      const record = { sent: [] as Uint8Array[] };
      upstreams.push(record);
      return {
        peer: t.peer,
        send: (bytes) => {
          record.sent.push(Uint8Array.from(bytes));
          t.send(bytes);
        },
        onData: (h) => t.onData(h),
        onClose: (h) => t.onClose(h),
        close: () => t.close(),
      };
    };
    server = await startTestServer({ log: (l) => logs.push(l), bridge: { targets: ['localhost:44321'], connectUpstream: recording } });
    origin = server.origin;
  });
  afterAll(() => server.stop());

  async function stillServes(): Promise<void> {
    const ctx = await openLiveContext(bridgeUrl(origin), { reconnectDelaysMs: [] });
    try {
      expect(await ourValues(ctx)).toEqual(await pminfoValues('localhost'));
    } finally {
      await ctx.close();
    }
  }

  it('answers a foreign Origin with HTTP 403 instead of the upgrade, and never connects to pmcd', async () => {
    const before = upstreams.length;
    const outcome = await new Promise<string>((resolve) => {
      const ws = new WebSocket(bridgeUrl(origin), { origin: 'http://evil.example.com' });
      ws.on('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode}`));
      ws.on('upgrade', () => resolve('upgraded'));
      ws.on('error', (e) => resolve(e.message));
    });
    expect(outcome).toBe('HTTP 403');
    expect(upstreams.length).toBe(before);
    expect(logs.some((l) => l.includes("Origin 'http://evil.example.com' is not allowed"))).toBe(true);
    await stillServes();
  });

  it('closes a connection sending a PDU over 64 KiB; none of it reaches pmcd, which serves the next client', async () => {
    const before = upstreams.length;
    const creds = encodeCreds(0);
    // A whole PDU of 65537 bytes (one over the limit) in one WebSocket message.
    const big = new Uint8Array(65537);
    new DataView(big.buffer).setInt32(0, big.length);
    new DataView(big.buffer).setInt32(4, 0x7003);
    const closed = await new Promise<{ code: number; reason: string; hello: boolean }>((resolve) => {
      const ws = new WebSocket(bridgeUrl(origin), { origin });
      let hello = false;
      // pmcd's hello first, so that the bridge's upstream is connected and forwarding.
      ws.on('message', () => {
        if (hello) return;
        hello = true;
        ws.send(creds);
        ws.send(big);
      });
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), hello }));
    });
    expect(closed).toEqual({ code: 1009, reason: 'PDU too large: PDU length 65537 exceeds the 65536-byte limit', hello: true });
    expect(upstreams.length).toBe(before + 1);
    // What went to pmcd: the CREDS and the bridge's own marker behind it (bridge-replies.ts).
    expect(Buffer.concat(upstreams[before]?.sent ?? [])).toEqual(Buffer.concat([creds, encodePmnsChild('', false)]));
    await stillServes();
  });
});

/** The bridge in front of pmcd 6.0.3, counting the bytes it reads from pmcd and its upstream connections. */
async function countingServer(bridge: Omit<BridgeOptions, 'log' | 'connectUpstream'>): Promise<{ server: TestServer; logs: string[]; fromPmcd: () => number; upstreams: () => number }> {
  const logs: string[] = [];
  let bytes = 0;
  let upstreams = 0;
  const counting = async (target: TargetSpec): Promise<Upstream> => {
    const t = await defaultUpstream(target);
    upstreams++;
    return {
      peer: t.peer,
      send: (b) => t.send(b),
      onData: (h) =>
        t.onData((chunk) => {
          bytes += chunk.length;
          h(chunk);
        }),
      onClose: (h) => t.onClose(h),
      close: () => t.close(),
      pause: () => t.pause?.(),
      resume: () => t.resume?.(),
      get queuedBytes() {
        return t.queuedBytes;
      },
      onDrain: (h) => t.onDrain?.(h),
    };
  };
  const server = await startTestServer({ log: (l) => logs.push(l), bridge: { targets: ['localhost:44321'], ...bridge, connectUpstream: counting } });
  return { server, logs, fromPmcd: () => bytes, upstreams: () => upstreams };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; !cond() && Date.now() < end; ) await sleep(50);
  return cond();
}

/** Reads DISCRETE through the bridge and compares with pminfo. */
async function servesLikePminfo(origin: string): Promise<void> {
  const ctx = await openLiveContext(bridgeUrl(origin), { reconnectDelaysMs: [] });
  try {
    expect(await ourValues(ctx)).toEqual(await pminfoValues('localhost'));
  } finally {
    await ctx.close();
  }
}

describe('the bridge under issue 16’s attacks, in front of pmcd 6.0.3', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });

  it('refuses a DNS-rebound page (Host and Origin evil.example:8044) with 403 before any upgrade, and /pmcd/targets too', async () => {
    const { server, logs, upstreams } = await countingServer({});
    servers.push(server);
    const evil = { Host: 'evil.example:8044', Origin: 'http://evil.example:8044' };
    expect(await rawRequest(server.origin, '/pmcd', evil, true)).toBe(403);
    expect(await rawRequest(server.origin, '/pmcd?target=localhost:44321', evil, true)).toBe(403);
    expect(await rawRequest(server.origin, '/pmcd/targets', evil)).toBe(403);
    expect(await rawRequest(server.origin, '/', evil)).toBe(403);
    expect(upstreams()).toBe(0);
    expect(logs.filter((l) => l.includes("Host 'evil.example:8044' is not a name this server answers to")).length).toBe(4);
    // The server's own name still reaches pmcd.
    expect(await rawRequest(server.origin, '/pmcd/targets', {})).toBe(200);
    await servesLikePminfo(server.origin);
  });

  it('frees the slots slow-drip clients hold (8 × a 64 KiB PDU announced, a byte a second) and then serves a legitimate client', async () => {
    const { server, logs } = await countingServer({ maxConnections: 8, idleTimeoutMs: 10_000 });
    servers.push(server);
    const header = new Uint8Array(12);
    new DataView(header.buffer).setInt32(0, 65536);
    new DataView(header.buffer).setInt32(4, PDU_FETCH);
    const closes: number[] = [];
    const timers: Array<ReturnType<typeof setInterval>> = [];
    for (let i = 0; i < 8; i++) {
      const ws = new WebSocket(bridgeUrl(server.origin), { origin: server.origin });
      await new Promise((r) => ws.on('open', r));
      ws.send(encodeCreds(0));
      ws.send(header);
      timers.push(setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(new Uint8Array(1)), 1000));
      ws.on('close', (code) => closes.push(code));
    }
    try {
      // Every slot is taken for now.
      expect(await rawRequest(server.origin, '/pmcd', { Origin: server.origin }, true)).toBe(503);
      expect(await until(() => closes.length === 8, 9000)).toBe(true);
    } finally {
      for (const t of timers) clearInterval(t);
    }
    expect(closes).toEqual(Array(8).fill(1008));
    expect(logs.filter((l) => /: PDU not complete 5 s after its first byte \(\d+ bytes received\)/.test(l)).length).toBe(8);
    await servesLikePminfo(server.origin);
  });

  it('stops reading pmcd for a client that does not read its amplified replies, keeps its queue under the cap, and closes it', async () => {
    // Closed after 1 s paused (10 s by default), to keep the test short.
    const { server, logs, fromPmcd } = await countingServer({ pauseTimeoutMs: 1000 });
    servers.push(server);
    const [ncpu] = await pmidsOf(server.origin, ['hinv.ncpu']);
    const fetch = encodeFetch(Array.from({ length: 16_000 }, () => ncpu), false);
    const ws = new WebSocket(bridgeUrl(server.origin), { origin: server.origin });
    await new Promise((r) => ws.on('open', r));
    ws.pause();
    ws.send(encodeCreds(0));
    ws.send(encodeProfile({ state: 0, entries: [] }));
    // 60 replies of about 320 KB each: 19 MB, were they all read.
    for (let i = 0; i < 60; i++) ws.send(fetch);
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, server.served.bridge.bufferedBytes)), 10);
    try {
      expect(await until(() => server.served.bridge.connections === 0, 10_000)).toBe(true);
    } finally {
      clearInterval(sampler);
      ws.terminate();
    }
    expect(most).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
    // What was read from pmcd is what the kernel's socket buffers took on the way to the
    // client, plus the bridge's small queue: far from the 19 MB pmcd would have sent.
    expect(fromPmcd()).toBeLessThan(8 * 1024 * 1024);
    expect(logs.some((l) => /^bridge: #2 → localhost:44321: client is not reading \(\d+ bytes queued\), pmcd paused$/.test(l))).toBe(true);
    expect(logs.some((l) => /^bridge: disconnect #2 → localhost:44321: client is not reading \(\d+ bytes queued for 1 s\)/.test(l))).toBe(true);
    await servesLikePminfo(server.origin);
  });

  it('keeps pmcd serving other clients while one that does not read is paused (few of its requests are ever outstanding)', async () => {
    const { server, logs } = await countingServer({ pauseTimeoutMs: 8000 });
    servers.push(server);
    const [ncpu] = await pmidsOf(server.origin, ['hinv.ncpu']);
    const fetch = encodeFetch(Array.from({ length: 16_000 }, () => ncpu), false);
    const ws = new WebSocket(bridgeUrl(server.origin), { origin: server.origin });
    await new Promise((r) => ws.on('open', r));
    ws.pause();
    ws.send(encodeCreds(0));
    ws.send(encodeProfile({ state: 0, entries: [] }));
    for (let i = 0; i < 60; i++) ws.send(fetch);
    try {
      expect(await until(() => logs.some((l) => l.includes('pmcd paused')), 10_000)).toBe(true);
      // pminfo straight to pmcd, and a client through the bridge, while the other is paused.
      await servesLikePminfo(server.origin);
      expect(logs.some((l) => l.includes('client is not reading (') && l.includes('disconnect'))).toBe(false);
    } finally {
      ws.terminate();
    }
  });

  it('resumes pmcd when a paused client reads again: every reply arrives, in order', async () => {
    const { server } = await countingServer({ pauseTimeoutMs: 5000 });
    servers.push(server);
    const [ncpu] = await pmidsOf(server.origin, ['hinv.ncpu']);
    const fetch = encodeFetch(Array.from({ length: 16_000 }, () => ncpu), false);
    const ws = new WebSocket(bridgeUrl(server.origin), { origin: server.origin });
    await new Promise((r) => ws.on('open', r));
    const reassembler = new PduReassembler('bridge', 1 << 24);
    const types: number[] = [];
    ws.on('message', (d: Buffer) => types.push(...reassembler.push(new Uint8Array(d)).map((p) => p.type)));
    ws.pause();
    ws.send(encodeCreds(0));
    ws.send(encodeProfile({ state: 0, entries: [] }));
    for (let i = 0; i < 20; i++) ws.send(fetch);
    await sleep(500);
    ws.resume();
    // The hello, then 20 RESULTs (0x7001); the bridge swallowed its marker's reply.
    expect(await until(() => types.length === 21, 20_000)).toBe(true);
    expect(types).toEqual([0x7000, ...Array.from({ length: 20 }, () => 0x7001)]);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });
});

async function pmidsOf(origin: string, names: string[]): Promise<PmId[]> {
  const ctx = await openLiveContext(bridgeUrl(origin), { reconnectDelaysMs: [] });
  try {
    return (await ctx.lookupNames(names)) as PmId[];
  } finally {
    await ctx.close();
  }
}
