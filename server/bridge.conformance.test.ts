// The bridge in front of the real pmcd 6.0.3, and pmproxy's PCP relay: a LiveContext through
// ws://…/pmcd reads what pminfo reads; a bridge target of the form pmcd@pmproxy reaches pmcd
// through pmproxy on 44322 (the bridge runs the relay handshake itself); the same relay works
// directly over TCP for `-h localhost@localhost`; a `*@PROXY` entry admits any pmcd behind that
// pmproxy; pmproxy's own port is refused as a target.
// The bridge's refusals (a foreign Origin, an oversized client PDU) hold in front of the real
// pmcd too: nothing of a refused client reaches pmcd, and pmcd serves the next client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { runTool } from '../test/oracle';
import type { LiveContext } from '../src/pcp-core/context/live-context';
import { parsePminfoValues } from '../src/pcp-core/context/live-test-helpers';
import { bridgeUrl } from '../src/pcp-core/pdu/target-spec';
import type { PmId } from '../src/pcp-core/types';
import { openLiveContext } from '../src/node/open-live-context';
import { encodeCreds } from '../src/pcp-core/pdu/creds-pdu';
import { encodePmnsChild } from '../src/pcp-core/pdu/pmns-pdu';
import type { TargetSpec } from '../src/pcp-core/pdu/target-spec';
import type { Transport } from '../src/pcp-core/pdu/transport';
import { defaultUpstream } from './bridge';
import { startTestServer, type TestServer } from './test-server';

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
