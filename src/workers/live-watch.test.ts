// Live streaming over a scripted live Context (a test fake; the e2e suite runs the real pmcd
// through the bridge): frames arrive every interval, counters become rates between frames.
import { describe, expect, it } from 'vitest';
import type { Context } from '../pcp-core/context/context';
import { PM_INDOM_NULL, PM_SEM_COUNTER, PM_TYPE_U64, pmid, type PmId, type Result } from '../pcp-core/types';
import { EngineApi } from './engine-api';
import type { LiveEvent } from './live-watch';
import { msToTimestamp } from './series-time';

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

  it('refuses archive sources', async () => {
    const ctx = { ...liveContext(), source: { kind: 'archive', names: ['a'], hostname: 'h', timezone: 'UTC', zoneinfo: '', start: { sec: 0, nsec: 0 } } } as Context;
    const api = new EngineApi(() => Promise.resolve({ ctx, name: 'a', endMs: 0, intervalMs: 0, archives: [], warnings: [] }));
    const { handle } = await api.open({ kind: 'url', url: 'x' });
    await expect(api.watchLive(handle, { plots: [], rate: true, intervalMs: 10 }, () => undefined)).rejects.toMatchObject({ code: 'PM_ERR_MODE' });
  });
});
