import { afterEach, describe, expect, it } from 'vitest';
import { PM_ERR_IPC, PM_ERR_MODE, PM_ERR_NAME, PM_ERR_NOCONTEXT, PM_ERR_NONLEAF, PM_ERR_PERMISSION, PM_ERR_PMID, PM_ERR_PROFILE, PM_ERR_TIMEOUT, PmError } from '../errors';
import { PDU_DESC_REQ, PDU_LABEL_REQ, PDU_PMNS_NAMES, PDU_PROFILE, PMCD_ADD_AGENT, PMCD_LABEL_CHANGE, PMCD_NAMES_CHANGE } from '../pdu/constants';
import { encodeError } from '../pdu/error-pdu';
import { FakePmcd, type FakeMetric } from '../pdu/fake-pmcd';
import { decodeUnits, indom, pmid, PM_INDOM_NULL, PM_TYPE_FLOAT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64, type PmId } from '../types';
import { PM_LABEL_CONTEXT, PM_MODE_INTERP, PM_MODE_LIVE } from './context';
import { LiveContext, type ConnectionEvent } from './live-context';

const units = decodeUnits(0);
const singular = (name: string, id: PmId, type: number, value: FakeMetric['value'], sem = 4): FakeMetric => ({ name, desc: { pmid: id, type, indom: PM_INDOM_NULL, sem, units }, value });
const LOAD = pmid(60, 2, 0);
let counter = 1000n;
const metrics: FakeMetric[] = [
  singular('pmcd.hostname', pmid(2, 0, 1), PM_TYPE_STRING, () => 'fakehost'),
  singular('pmcd.timezone', pmid(2, 0, 2), PM_TYPE_STRING, () => 'AEST-10'),
  singular('pmcd.zoneinfo', pmid(2, 0, 3), PM_TYPE_STRING, () => ':Australia/Brisbane'),
  singular('hinv.ncpu', pmid(60, 0, 32), PM_TYPE_U32, () => 4294967295),
  singular('kernel.all.cpu.user', pmid(60, 0, 20), PM_TYPE_U64, () => (counter += 100n), 1),
  {
    name: 'kernel.all.load',
    desc: { pmid: LOAD, type: PM_TYPE_FLOAT, indom: indom(60, 2), sem: 3, units },
    instances: [[1, '1 minute'], [5, '5 minute'], [15, '15 minute']],
    value: (i) => i / 4,
    oneline: '1, 5 and 15 minute load average',
    help: '',
  },
];

const opened: LiveContext[] = [];
async function openFake(fake: FakePmcd, extra: { reconnectDelaysMs?: number[]; requestTimeoutMs?: number } = {}): Promise<LiveContext> {
  const ctx = await LiveContext.open({ target: 'fake:44321', connect: () => Promise.resolve(fake.connect()), reconnectDelaysMs: [10], ...extra });
  opened.push(ctx);
  return ctx;
}

function nextState(ctx: LiveContext, state: ConnectionEvent['state']): Promise<ConnectionEvent> {
  return new Promise((resolve) => {
    const off = ctx.on('connection', (e) => {
      if (e.state === state) {
        off();
        resolve(e);
      }
    });
  });
}

const sent = (fake: FakePmcd, type: number): number => fake.received.filter((p) => p.type === type).length;

afterEach(async () => {
  for (const c of opened.splice(0)) await c.close();
});

describe('LiveContext over a fake pmcd', () => {
  it('opens, reads host name and time zone, and looks names up with their errors', async () => {
    const fake = new FakePmcd(metrics);
    const ctx = await openFake(fake);
    expect(ctx.source).toEqual({ kind: 'live', target: 'fake:44321', hostname: 'fakehost', timezone: 'AEST-10', zoneinfo: 'Australia/Brisbane' });
    expect(await ctx.lookupNames(['hinv.ncpu', 'no.such', 'kernel.all', 'kernel.all.load'])).toEqual([pmid(60, 0, 32), PM_ERR_NAME, PM_ERR_NONLEAF, LOAD]);
    expect(await ctx.lookupNames(['no.such'])).toEqual([PM_ERR_NAME]);
    const before = sent(fake, PDU_PMNS_NAMES);
    expect(await ctx.lookupNames(['hinv.ncpu', 'kernel.all.load'])).toEqual([pmid(60, 0, 32), LOAD]);
    expect(sent(fake, PDU_PMNS_NAMES)).toBe(before);
  });

  it('answers PMNS, descriptor, instance, text and label questions', async () => {
    const ctx = await openFake(new FakePmcd(metrics));
    expect(await ctx.children('kernel.all')).toEqual([{ name: 'cpu', leaf: false }, { name: 'load', leaf: true }]);
    expect(await ctx.traverse('kernel')).toEqual(['kernel.all.cpu.user', 'kernel.all.load']);
    expect(await ctx.nameAll(LOAD)).toEqual(['kernel.all.load']);
    const descs = await ctx.lookupDescs([LOAD, pmid(60, 9, 9), pmid(60, 0, 32)]);
    expect(descs[0]).toMatchObject({ pmid: LOAD, type: PM_TYPE_FLOAT });
    expect(descs[1]).toBe(PM_ERR_PMID);
    const indom60 = await ctx.getInDom(indom(60, 2));
    expect([...indom60.instances, ...indom60.names]).toEqual([1, 5, 15, '1 minute', '5 minute', '15 minute']);
    // Empty full help falls back to the one-line text, as libpcp does.
    expect(await ctx.lookupText({ pmid: LOAD }, 'help')).toBe('1, 5 and 15 minute load average');
    expect((await ctx.lookupLabels(PM_LABEL_CONTEXT, 0))[0]?.labels).toEqual([{ name: 'hostname', value: '"fake"', flags: 1 }]);
  });

  it('fetches typed values and sends the profile once per change', async () => {
    const fake = new FakePmcd(metrics);
    const ctx = await openFake(fake);
    const r = await ctx.fetch([LOAD, pmid(60, 0, 32), pmid(60, 0, 20), pmid(99, 0, 0)]);
    expect(r.sets.map((s) => [s.numval, ...s.values])).toEqual([[3, 0.25, 1.25, 3.75], [1, 4294967295], [1, counter], [-12386]]);
    const profiles = sent(fake, PDU_PROFILE);
    await ctx.fetch([LOAD]);
    expect(sent(fake, PDU_PROFILE)).toBe(profiles);
    ctx.changeProfile({ op: 'delete', indom: null });
    ctx.changeProfile({ op: 'add', indom: indom(60, 2), instances: [5] });
    const only5 = await ctx.fetch([LOAD]);
    expect([...(only5.sets[0]?.inst ?? [])]).toEqual([5]);
    expect(sent(fake, PDU_PROFILE)).toBe(profiles + 1);
    expect(() => ctx.changeProfile({ op: 'add', indom: null, instances: [1] })).toThrow(PmError);
  });

  it('reports a refused profile on the fetch that sent it, and re-sends it next time', async () => {
    const fake = new FakePmcd(metrics);
    const ctx = await openFake(fake);
    ctx.changeProfile({ op: 'add', indom: indom(60, 2), instances: [1] });
    fake.behaviour.failProfile = PM_ERR_PROFILE;
    await expect(ctx.fetch([LOAD])).rejects.toMatchObject({ code: PM_ERR_PROFILE });
    expect((await ctx.fetch([LOAD])).sets[0]?.numval).toBe(1);
    expect(ctx.connectionState).toBe('connected');
  });

  it('reports state-change flags and forgets what they make stale', async () => {
    const fake = new FakePmcd(metrics);
    const ctx = await openFake(fake);
    const flags: number[] = [];
    ctx.on('state-change', (e) => flags.push(e.flags));
    await ctx.lookupNames(['kernel.all.load']);
    await ctx.lookupDescs([LOAD]);
    fake.behaviour.pendingFlags = PMCD_LABEL_CHANGE;
    await ctx.fetch([LOAD]);
    const names = sent(fake, PDU_PMNS_NAMES);
    await ctx.lookupNames(['kernel.all.load']);
    expect(sent(fake, PDU_PMNS_NAMES)).toBe(names);
    fake.behaviour.pendingFlags = PMCD_ADD_AGENT;
    expect((await ctx.fetch([LOAD])).sets[0]?.numval).toBe(3);
    await ctx.lookupNames(['kernel.all.load']);
    expect(sent(fake, PDU_PMNS_NAMES)).toBe(names + 1);
    expect(flags).toEqual([PMCD_LABEL_CHANGE, PMCD_ADD_AGENT]);
  });

  it('on PMCD_NAMES_CHANGE forgets names and descriptors (not labels), so a renamed metric is seen only after the flag', async () => {
    const fake = new FakePmcd(metrics);
    const ctx = await openFake(fake);
    const flags: number[] = [];
    ctx.on('state-change', (e) => flags.push(e.flags));
    const MOVED = pmid(60, 2, 7);
    expect(await ctx.lookupNames(['kernel.all.load'])).toEqual([LOAD]);
    await ctx.lookupDescs([LOAD]);
    await ctx.lookupLabels(PM_LABEL_CONTEXT, 0);
    // pmcd's namespace changes: kernel.all.load now names another PMID, and a new name
    // appears. Until pmcd says so, the cached name is answered without asking pmcd.
    const load = metrics.find((m) => m.name === 'kernel.all.load') as FakeMetric;
    fake.setMetrics([
      ...metrics.filter((m) => m !== load),
      { ...load, desc: { ...load.desc, pmid: MOVED, type: PM_TYPE_U32 } },
      singular('kernel.all.added', pmid(60, 2, 8), PM_TYPE_U32, () => 7),
    ]);
    const names = sent(fake, PDU_PMNS_NAMES);
    expect(await ctx.lookupNames(['kernel.all.load'])).toEqual([LOAD]);
    expect(sent(fake, PDU_PMNS_NAMES)).toBe(names);
    const descReqs = sent(fake, PDU_DESC_REQ);
    expect((await ctx.lookupDescs([LOAD]))[0]).toMatchObject({ pmid: LOAD, type: PM_TYPE_FLOAT });
    expect(sent(fake, PDU_DESC_REQ)).toBe(descReqs);
    // Only names found are cached: a new name is asked of pmcd, flag or not.
    expect(await ctx.lookupNames(['kernel.all.added'])).toEqual([pmid(60, 2, 8)]);
    expect(sent(fake, PDU_PMNS_NAMES)).toBe(names + 1);

    fake.behaviour.pendingFlags = PMCD_NAMES_CHANGE;
    await ctx.fetch([pmid(60, 0, 32)]);
    expect(flags).toEqual([PMCD_NAMES_CHANGE]);
    expect(await ctx.lookupNames(['kernel.all.load', 'kernel.all.added'])).toEqual([MOVED, pmid(60, 2, 8)]);
    expect(sent(fake, PDU_PMNS_NAMES)).toBe(names + 2);
    // The old PMID's descriptor is asked again, and pmcd no longer knows it.
    expect(await ctx.lookupDescs([LOAD, MOVED])).toEqual([PM_ERR_PMID, expect.objectContaining({ pmid: MOVED, type: PM_TYPE_U32 })]);
    // Labels are the business of PMCD_LABEL_CHANGE and PMCD_AGENT_CHANGE: still cached.
    const labelReqs = sent(fake, PDU_LABEL_REQ);
    await ctx.lookupLabels(PM_LABEL_CONTEXT, 0);
    expect(sent(fake, PDU_LABEL_REQ)).toBe(labelReqs);
  });

  it('reconnects after pmcd drops the connection, keeping caches and re-sending the profile', async () => {
    const fake = new FakePmcd(metrics);
    const ctx = await openFake(fake);
    await ctx.lookupNames(['kernel.all.load']);
    ctx.changeProfile({ op: 'delete', indom: indom(60, 2), instances: [] });
    ctx.changeProfile({ op: 'add', indom: indom(60, 2), instances: [15] });
    await ctx.fetch([LOAD]);
    const reconnecting = nextState(ctx, 'reconnecting');
    const connected = nextState(ctx, 'connected');
    fake.dropAll();
    expect((await reconnecting).error?.code).toBe(-104);
    await expect(ctx.fetch([LOAD])).rejects.toThrow(/reconnecting/);
    await connected;
    const names = sent(fake, PDU_PMNS_NAMES);
    const descReqs = sent(fake, PDU_DESC_REQ);
    expect(await ctx.lookupNames(['kernel.all.load'])).toEqual([LOAD]);
    const r = await ctx.fetch([LOAD]);
    expect([...(r.sets[0]?.inst ?? [])]).toEqual([15]);
    expect([sent(fake, PDU_PMNS_NAMES), sent(fake, PDU_DESC_REQ), fake.connections]).toEqual([names, descReqs, 2]);
  });

  it('keeps retrying with back-off while pmcd is away', async () => {
    const fake = new FakePmcd(metrics);
    let down = false;
    const ctx = await LiveContext.open({
      target: 'fake:1',
      connect: () => (down ? Promise.reject(new PmError(-111, 'Connection refused', 'fake:1')) : Promise.resolve(fake.connect())),
      reconnectDelaysMs: [5, 10],
    });
    opened.push(ctx);
    const seen: ConnectionEvent[] = [];
    ctx.on('connection', (e) => seen.push(e));
    down = true;
    fake.dropAll();
    await new Promise((r) => setTimeout(r, 60));
    down = false;
    await nextState(ctx, 'connected');
    const retries = seen.filter((e) => e.state === 'reconnecting');
    expect(retries.length).toBeGreaterThanOrEqual(3);
    expect(retries.slice(0, 3).map((e) => e.retryInMs)).toEqual([5, 10, 10]);
    expect(retries[1]?.error?.code).toBe(-111);
  });

  it('retryNow reconnects at once instead of waiting out the back-off', async () => {
    const fake = new FakePmcd(metrics);
    const ctx = await openFake(fake, { reconnectDelaysMs: [60_000] });
    expect(ctx.retryNow()).toBe(false);
    const waiting = nextState(ctx, 'reconnecting');
    fake.dropAll();
    expect((await waiting).retryInMs).toBe(60_000);
    const t0 = Date.now();
    const back = nextState(ctx, 'connected');
    expect(ctx.retryNow()).toBe(true);
    await back;
    expect(Date.now() - t0).toBeLessThan(5000);
    expect((await ctx.fetch([LOAD])).sets[0]?.numval).toBe(3);
  });

  it('fails loudly on a reply of the wrong type, then reconnects', async () => {
    const fake = new FakePmcd(metrics);
    const ctx = await openFake(fake);
    await ctx.fetch([LOAD]);
    const connected = nextState(ctx, 'connected');
    fake.behaviour.strayReply = encodeError(0, 0);
    await expect(ctx.lookupDescs([pmid(60, 0, 32)])).rejects.toMatchObject({ code: PM_ERR_IPC });
    await connected;
    expect((await ctx.fetch([LOAD])).sets[0]?.numval).toBe(3);
  });

  it('times out a silent pmcd with PM_ERR_TIMEOUT', async () => {
    const fake = new FakePmcd(metrics);
    const ctx = await openFake(fake, { requestTimeoutMs: 50, reconnectDelaysMs: [60_000] });
    fake.behaviour.silent = true;
    await expect(ctx.fetch([LOAD])).rejects.toMatchObject({ code: PM_ERR_TIMEOUT });
    expect(ctx.connectionState).toBe('reconnecting');
  });

  it('refuses to open when pmcd refuses the connection', async () => {
    const fake = new FakePmcd(metrics);
    fake.behaviour.refuse = PM_ERR_PERMISSION;
    await expect(openFake(fake)).rejects.toMatchObject({ code: PM_ERR_PERMISSION });
  });

  it('has only the LIVE mode and answers nothing after close', async () => {
    const ctx = await openFake(new FakePmcd(metrics));
    ctx.setMode(PM_MODE_LIVE);
    expect(() => ctx.setMode(PM_MODE_INTERP)).toThrow(expect.objectContaining({ code: PM_ERR_MODE }) as PmError);
    await ctx.close();
    expect(ctx.connectionState).toBe('closed');
    await expect(ctx.fetch([LOAD])).rejects.toMatchObject({ code: PM_ERR_NOCONTEXT });
    await expect(ctx.lookupNames(['x'])).rejects.toMatchObject({ code: PM_ERR_NOCONTEXT });
  });
});
