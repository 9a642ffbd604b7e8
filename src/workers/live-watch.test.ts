// Live streaming over a scripted live Context (a test fake; the e2e suite runs the real pmcd
// through the bridge): frames arrive every interval, counters become rates between frames.
import { describe, expect, it } from 'vitest';
import type { Context } from '../pcp-core/context/context';
import { PM_INDOM_NULL, PM_SEM_COUNTER, PM_TYPE_U64, pmid, type Desc, type InDom, type PmId, type Result } from '../pcp-core/types';
import { EngineApi } from './engine-api';
import type { LiveBatchEntry, SeriesBlock } from './engine-types';
import type { LiveEvent } from './live-watch';
import { msToTimestamp } from './series-time';

const ALL_READ = pmid(60, 0, 1);
const DEV_READ = pmid(60, 0, 4);
const DISKS = 1;

/** A live context with a singular and a per-disk counter that records every fetch's pmids. */
function countingContext(): { ctx: Context; fetches: PmId[][] } {
  const fetches: PmId[][] = [];
  const units = { dimSpace: 0, dimTime: 0, dimCount: 1, scaleSpace: 0, scaleTime: 0, scaleCount: 0 };
  const descs = new Map<number, Desc>([
    [ALL_READ, { pmid: ALL_READ, type: PM_TYPE_U64, indom: PM_INDOM_NULL, sem: PM_SEM_COUNTER, units }],
    [DEV_READ, { pmid: DEV_READ, type: PM_TYPE_U64, indom: DISKS as InDom, sem: PM_SEM_COUNTER, units }],
  ]);
  const names = new Map<string, PmId>([['disk.all.read', ALL_READ], ['disk.dev.read', DEV_READ]]);
  let n = 0;
  const ctx = {
    source: { kind: 'live', target: 'fake:44321', hostname: 'fakehost', timezone: 'UTC', zoneinfo: 'Etc/UTC' },
    lookupNames: (list: readonly string[]) => Promise.resolve(list.map((x) => names.get(x) ?? -12357)),
    nameAll: () => Promise.resolve([]),
    children: () => Promise.resolve([]),
    traverse: () => Promise.resolve([...names.keys()]),
    lookupDescs: (ids: readonly PmId[]) => Promise.resolve(ids.map((id) => descs.get(id) ?? -12357)),
    getInDom: () => Promise.resolve({ instances: Int32Array.of(0, 1), names: ['sda', 'sdb'] }),
    lookupText: () => Promise.reject(new Error('none')),
    lookupLabels: () => Promise.resolve([]),
    setMode: () => undefined,
    changeProfile: () => undefined,
    fetch(ids: readonly PmId[]): Promise<Result> {
      fetches.push([...ids]);
      n++;
      // At exact 100 ms steps: 50 reads per step in all, 20 and 30 on the two disks.
      const sets = ids.map((p) =>
        p === DEV_READ
          ? { pmid: p, numval: 2, valfmt: 0, inst: Int32Array.of(0, 1), values: [BigInt(20 * n), BigInt(30 * n)] }
          : { pmid: p, numval: 1, valfmt: 0, inst: Int32Array.of(-1), values: [BigInt(50 * n)] },
      );
      return Promise.resolve({ timestamp: msToTimestamp(1e12 + n * 100), sets });
    },
    close: () => Promise.resolve(),
  } as Context;
  return { ctx, fetches };
}

function until(check: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const poll = (): void => {
      if (check()) resolve();
      else if (Date.now() - t0 > 5000) reject(new Error('timed out'));
      else setTimeout(poll, 5);
    };
    poll();
  });
}

function liveContext(): Context {
  let n = 0;
  const id = pmid(60, 0, 1);
  const desc = { pmid: id, type: PM_TYPE_U64, indom: PM_INDOM_NULL, sem: PM_SEM_COUNTER, units: { dimSpace: 0, dimTime: 0, dimCount: 1, scaleSpace: 0, scaleTime: 0, scaleCount: 0 } };
  // A cast, not an annotation: the live source's fields are still growing (zoneinfo).
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  return {
    source: { kind: 'live', target: 'fake:44321', hostname: 'fakehost', timezone: 'UTC', zoneinfo: 'Etc/UTC' },
    lookupNames: (names) => Promise.resolve(names.map((x) => (x === 'disk.all.read' ? id : -12357))),
    nameAll: () => Promise.resolve([]),
    children: () => Promise.resolve([]),
    traverse: () => Promise.resolve(['disk.all.read']),
    lookupDescs: () => Promise.resolve([desc]),
    getInDom: () => Promise.resolve({ instances: new Int32Array(0), names: [] }),
    lookupText: () => Promise.reject(new Error('none')),
    lookupLabels: () => Promise.resolve([]),
    setMode: () => undefined,
    changeProfile: () => undefined,
    fetch(ids: readonly PmId[]): Promise<Result> {
      // 50 reads per 100 ms frame, at exact 100 ms steps.
      n++;
      return Promise.resolve({ timestamp: msToTimestamp(1e12 + n * 100), sets: ids.map((p) => ({ pmid: p, numval: 1, valfmt: 0, inst: Int32Array.of(-1), values: [BigInt(50 * n)] })) });
    },
    close: () => Promise.resolve(),
  } as Context;
}

describe('watchLive', () => {
  it('streams one-row frames with rates between consecutive results, until unwatched', async () => {
    const api = new EngineApi(() => Promise.resolve({ ctx: liveContext(), name: 'fake', endMs: NaN, intervalMs: 0, archives: [], warnings: [] }));
    const { handle, kind } = await api.open({ kind: 'live', host: 'fake', bridgeUrl: 'ws://x' });
    expect(kind).toBe('live');
    const events: LiveEvent[] = [];
    const id = await api.watchLive(handle, { plots: [{ metric: 'disk.all.read', instances: { kind: 'all' } }], rate: true, intervalMs: 20 }, (e) => events.push(e));
    await new Promise((r) => setTimeout(r, 120));
    await api.unwatchLive(id);
    const count = events.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(events.length).toBe(count);
    const frames = events.flatMap((e) => (e.kind === 'frame' ? [e.block] : []));
    expect(frames.length).toBeGreaterThanOrEqual(3);
    expect(frames[0]?.columns[0]?.values[0]).toBeNaN();
    // pmval's Δt is a difference of two absolute double seconds (~1e9 s here): ~1e-6 relative.
    expect(frames[1]?.columns[0]?.values[0]).toBeCloseTo(500, 3);
    expect(frames[1]?.plots[0]?.units.text).toBe('count / sec');
  });

  it('shares one fetch per tick among every chart of a source, each chart getting its own columns', async () => {
    const fake = countingContext();
    const api = new EngineApi(() => Promise.resolve({ ctx: fake.ctx, name: 'fake', endMs: NaN, intervalMs: 0, archives: [], warnings: [] }));
    const { handle } = await api.open({ kind: 'live', host: 'fake', bridgeUrl: 'ws://x' });
    const got = new Map<string, SeriesBlock[]>();
    const listen = (name: string) => (e: LiveEvent): void => {
      if (e.kind !== 'frame') throw new Error(`${name}: ${e.error.message}`);
      got.set(name, [...(got.get(name) ?? []), e.block]);
    };
    const all = { kind: 'all' } as const;
    // Five charts, overlapping metrics: a raw and a rate view of the same counter, a derived
    // expression over it, one instance of the per-disk counter, and the per-disk counter whole.
    const ids = [
      await api.watchLive(handle, { plots: [{ metric: 'disk.all.read', instances: all }], rate: false, intervalMs: 30 }, listen('raw')),
      await api.watchLive(handle, { plots: [{ metric: 'disk.all.read', instances: all }, { metric: 'disk.dev.read', instances: all }], rate: true, intervalMs: 30 }, listen('rate')),
      await api.watchLive(handle, { plots: [{ metric: 'doubled', expr: 'disk.all.read * 2', instances: all }], rate: false, intervalMs: 30 }, listen('derived')),
      await api.watchLive(handle, { plots: [{ metric: 'disk.dev.read', instances: { kind: 'list', names: ['sdb'] } }], rate: false, intervalMs: 30 }, listen('one')),
      await api.watchLive(handle, { plots: [{ metric: 'disk.dev.read', instances: all }], rate: false, intervalMs: 30 }, listen('dev')),
    ];
    await until(() => ['raw', 'rate', 'derived', 'one', 'dev'].every((n) => (got.get(n)?.length ?? 0) >= 4));
    // One fetch per tick for all five, asking for the union of their pmids (the derived
    // metric's operand is disk.all.read itself): never more fetches than the busiest chart's frames.
    const most = Math.max(...[...got.values()].map((f) => f.length));
    expect(fake.fetches.length).toBeLessThanOrEqual(most + 1);
    for (const f of fake.fetches.slice(1)) expect([...f].sort()).toEqual([ALL_READ, DEV_READ].sort());
    // Every chart's frame of one tick has the same time, and its own view of the one result.
    const raw = got.get('raw') ?? [];
    const rate = got.get('rate') ?? [];
    const derived = got.get('derived') ?? [];
    const one = got.get('one') ?? [];
    const dev = got.get('dev') ?? [];
    const at = (frames: SeriesBlock[], t: number): SeriesBlock | undefined => frames.find((b) => b.timestamps[0] === t);
    let compared = 0;
    for (const b of raw) {
      const t = b.timestamps[0] ?? NaN;
      const [r, d, o, v] = [at(rate, t), at(derived, t), at(one, t), at(dev, t)];
      if (!r || !d || !o || !v) continue;
      compared++;
      const n = b.columns[0]?.values[0] ?? NaN;
      expect(d.columns[0]?.values[0]).toBe(2 * n);
      expect(v.columns.map((c) => c.instName)).toEqual(['sda', 'sdb']);
      expect(o.columns.map((c) => c.instName)).toEqual(['sdb']);
      expect(o.columns[0]?.values[0]).toBe(v.columns[1]?.values[0]);
      const prev = at(rate, t - 100);
      // 50 reads per 100 ms step: 500 a second, once there is a previous result (to ~1e-6
      // relative: pmval's Δt is a difference of two absolute double seconds).
      if (prev) expect(r.columns[0]?.values[0]).toBeCloseTo(500, 3);
      expect(r.columns.length).toBe(3);
    }
    expect(compared).toBeGreaterThanOrEqual(3);
    // A chart leaving does not disturb the others' rates; the feed stops with the last one.
    await api.unwatchLive(ids[0] ?? -1);
    const before = rate.length;
    await until(() => (got.get('rate')?.length ?? 0) >= before + 2);
    const after = got.get('rate') ?? [];
    expect(after[after.length - 1]?.columns[0]?.values[0]).toBeCloseTo(500, 3);
    for (const id of ids.slice(1)) await api.unwatchLive(id);
    const count = fake.fetches.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.fetches.length).toBe(count);
  });

  it('posts the frames of every tagged chart of a tick in one message on the live port, plots only in the first frame of a watch', async () => {
    const fake = countingContext();
    const api = new EngineApi(() => Promise.resolve({ ctx: fake.ctx, name: 'fake', endMs: NaN, intervalMs: 0, archives: [], warnings: [] }));
    const { handle } = await api.open({ kind: 'live', host: 'fake', bridgeUrl: 'ws://x' });
    const channel = new MessageChannel();
    const messages: LiveBatchEntry[][] = [];
    channel.port1.onmessage = (m: MessageEvent<LiveBatchEntry[]>) => messages.push(m.data);
    api.openLivePort(channel.port2);
    const all = { kind: 'all' } as const;
    const a = await api.watchLiveTagged(handle, { plots: [{ metric: 'disk.all.read', instances: all }], rate: true, intervalMs: 30 }, 7);
    const b = await api.watchLiveTagged(handle, { plots: [{ metric: 'disk.dev.read', instances: all }], rate: false, intervalMs: 30 }, 8);
    await until(() => messages.filter((m) => m.length === 2).length >= 3);
    await api.unwatchLive(a);
    await api.unwatchLive(b);
    // Once both watch, each message is one tick: both tags, one frame each, of the same time.
    const both = messages.filter((m) => m.length === 2);
    for (const m of both) {
      expect(m.map((x) => x.tag).sort()).toEqual([7, 8]);
      const times = m.map((x) => (x.event.kind === 'frame' ? x.event.block.timestamps[0] : NaN));
      expect(times[0]).toBe(times[1]);
    }
    expect(fake.fetches.length).toBeLessThanOrEqual(messages.length + 1);
    // Each tag's first frame names its plots (units with the rate conversion); later ones leave them out.
    const frames = (tag: number) => messages.flat().flatMap((x) => (x.tag === tag && x.event.kind === 'frame' ? [x.event.block] : []));
    const first = frames(7)[0];
    expect(first?.plots?.[0]?.units.text).toBe('count / sec');
    expect(frames(8)[0]?.plots?.[0]?.metric).toBe('disk.dev.read');
    for (const f of [...frames(7).slice(1), ...frames(8).slice(1)]) expect(f.plots).toBeUndefined();
    // The values are the rules' own: 500 reads a second; 20 and 30 per step on the two disks.
    expect(frames(7).at(-1)?.columns[0]?.values[0]).toBeCloseTo(500, 3);
    expect(frames(8).at(-1)?.columns.map((c) => c.instName)).toEqual(['sda', 'sdb']);
    const count = messages.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(messages.length).toBe(count);
    channel.port1.close();
  });

  it('keeps a feed per interval: charts at another interval fetch on their own', async () => {
    const fake = countingContext();
    const api = new EngineApi(() => Promise.resolve({ ctx: fake.ctx, name: 'fake', endMs: NaN, intervalMs: 0, archives: [], warnings: [] }));
    const { handle } = await api.open({ kind: 'live', host: 'fake', bridgeUrl: 'ws://x' });
    let fast = 0;
    let slow = 0;
    const plots = [{ metric: 'disk.all.read', instances: { kind: 'all' } }] as const;
    const a = await api.watchLive(handle, { plots, rate: true, intervalMs: 20 }, () => fast++);
    const b = await api.watchLive(handle, { plots, rate: true, intervalMs: 200 }, () => slow++);
    await new Promise((r) => setTimeout(r, 300));
    await api.close(handle);
    expect(fast).toBeGreaterThan(slow);
    expect(slow).toBeGreaterThanOrEqual(1);
    // Closing the source ended both feeds.
    const n = fake.fetches.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(fake.fetches.length).toBe(n);
    await api.unwatchLive(a);
    await api.unwatchLive(b);
  });

  it('refuses archive sources', async () => {
    const ctx = { ...liveContext(), source: { kind: 'archive', names: ['a'], hostname: 'h', timezone: 'UTC', zoneinfo: '', start: { sec: 0, nsec: 0 } } } as Context;
    const api = new EngineApi(() => Promise.resolve({ ctx, name: 'a', endMs: 0, intervalMs: 0, archives: [], warnings: [] }));
    const { handle } = await api.open({ kind: 'url', url: 'x' });
    await expect(api.watchLive(handle, { plots: [], rate: true, intervalMs: 10 }, () => undefined)).rejects.toMatchObject({ code: 'PM_ERR_MODE' });
  });
});
