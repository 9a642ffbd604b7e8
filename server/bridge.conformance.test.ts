// The bridge in front of the real pmcd 6.0.3, and pmproxy's PCP relay: a LiveContext through
// ws://…/pmcd reads what pminfo reads; a bridge target of the form pmcd@pmproxy reaches pmcd
// through pmproxy on 44322 (the bridge runs the relay handshake itself); the same relay works
// directly over TCP for `-h localhost@localhost`; pmproxy's own port is refused as a target.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { runTool } from '../test/oracle';
import type { LiveContext } from '../src/pcp-core/context/live-context';
import { parsePminfoValues } from '../src/pcp-core/context/live-test-helpers';
import { bridgeUrl } from '../src/pcp-core/pdu/target-spec';
import type { PmId } from '../src/pcp-core/types';
import { openLiveContext } from '../src/node/open-live-context';
import { serveWithBridge, type Served } from './serve';

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
  let served: Served;
  let root: string;
  let origin: string;
  const logs: string[] = [];
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'pmdash-bridge-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    served = await serveWithBridge({
      port: 0,
      host: '127.0.0.1',
      root,
      log: (l) => logs.push(l),
      bridge: { targets: ['localhost:44321', 'localhost:44321@localhost:44322'] },
    });
    const address = served.server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      served.server.close(() => resolve());
      served.server.closeAllConnections();
    });
    rmSync(root, { recursive: true, force: true });
  });

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
