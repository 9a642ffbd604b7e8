// Live charts on the real pmcd (localhost:44321): five charts of one source, as the live
// Overview has, cost one pmFetch per tick in all (counted in the live context: each of its
// fetches is one PDU_FETCH), and every chart's values come from that one result. Rates follow
// pmval's rule (core rate.ts: delta over pmval's scaled interval) between the raw counter
// values the raw chart got from the same fetches; a derived rate() over the same counter,
// evaluated on those fetches, gives the same value.
import { describe, expect, it } from 'vitest';
import { openLiveContext } from '../node/open-live-context';
import { countFetches } from '../pcp-core/context/testing/live-helpers';
import { pmvalRate, pmvalTimeScale } from '../pcp-core/rate';
import type { Desc, PmId } from '../pcp-core/types';
import { EngineApi } from './engine-api';
import type { LiveEvent, SeriesBlock } from './engine-types';

const CPU = ['kernel.all.cpu.user', 'kernel.all.cpu.sys', 'kernel.all.cpu.idle'];
const INTERVAL_MS = 1000;
const TICKS = 5;

describe('live charts of one source', () => {
  it('share one fetch per tick, with pmval rates between the fetched counters', async () => {
    const live = await openLiveContext('localhost:44321', { reconnectDelaysMs: [] });
    const fetches = countFetches(live);
    const descs = (await live.lookupDescs((await live.lookupNames(CPU)) as PmId[])) as Desc[];
    const api = new EngineApi(() => Promise.resolve({ ctx: live, name: 'localhost', endMs: NaN, intervalMs: 0, archives: [], warnings: [] }));
    const { handle } = await api.open({ kind: 'live', host: 'localhost', bridgeUrl: 'ws://unused' });
    const frames = new Map<string, SeriesBlock[]>();
    const listen = (name: string) => (e: LiveEvent): void => {
      if (e.kind === 'error') throw new Error(`${name}: ${e.error.message}`);
      frames.set(name, [...(frames.get(name) ?? []), e.block]);
    };
    const all = { kind: 'all' } as const;
    const plots = (names: readonly string[]) => names.map((metric) => ({ metric, instances: all }));
    const charts: Array<[string, readonly string[], boolean, string?]> = [
      ['load', ['kernel.all.load'], false],
      ['cpu-rate', CPU, true],
      ['cpu-raw', CPU, false],
      ['memory', ['mem.util.free', 'mem.util.cached'], false],
      ['derived', ['user rate'], false, 'rate(kernel.all.cpu.user)'],
    ];
    const ids: number[] = [];
    for (const [name, metrics, rate, expr] of charts) {
      const p = expr === undefined ? plots(metrics) : [{ metric: metrics[0] ?? '', expr, instances: all }];
      ids.push(await api.watchLive(handle, { plots: p, rate, intervalMs: INTERVAL_MS }, listen(name)));
    }
    const t0 = Date.now();
    while (charts.some(([n]) => (frames.get(n)?.length ?? 0) < TICKS) && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 100));
    for (const id of ids) await api.unwatchLive(id);
    await api.close(handle);

    // Every fetch made one tick: the distinct frame times of all charts are the fetches.
    const times = new Set([...frames.values()].flatMap((list) => list.map((b) => b.timestamps[0] ?? NaN)));
    expect(fetches()).toBe(times.size);
    expect(times.size).toBeGreaterThanOrEqual(TICKS);
    for (const [n] of charts) expect(frames.get(n)?.length ?? 0).toBeGreaterThanOrEqual(TICKS);

    const at = (name: string, t: number): SeriesBlock | undefined => frames.get(name)?.find((b) => b.timestamps[0] === t);
    const raw = frames.get('cpu-raw') ?? [];
    let compared = 0;
    for (let k = 1; k < raw.length; k++) {
      const a = raw[k - 1];
      const b = raw[k];
      const t = b?.timestamps[0] ?? NaN;
      const r = at('cpu-rate', t);
      const hadPrev = at('cpu-rate', a?.timestamps[0] ?? NaN) !== undefined;
      if (!a || !b || !r || !hadPrev) continue;
      for (const [i, desc] of descs.entries()) {
        // pmval: (v1 − v0) / (scale · Δt), a millisecond counter becoming a utilisation.
        const delta = (pmvalTimeScale(desc) * (t - (a.timestamps[0] ?? NaN))) / 1000;
        const want = pmvalRate(a.columns[i]?.values[0] ?? NaN, b.columns[i]?.values[0] ?? NaN, delta, desc.type, false);
        const got = r.columns[i]?.values[0] ?? NaN;
        expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(want)));
      }
      // Within the rounding of epoch milliseconds (about 2.4e-4 ms at today's dates) over 1 s:
      // rate() divides by the exact timestamps' difference, the chart by the ms one.
      const d = at('derived', t)?.columns[0]?.values[0] ?? NaN;
      const u = r.columns[0]?.values[0] ?? NaN;
      expect(Math.abs(d - u)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(u)));
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(TICKS - 2);
    // The CPU states a rate chart shows are utilisations of the machine's CPUs.
    const last = frames.get('cpu-rate')?.at(-1);
    const sum = (last?.columns ?? []).reduce((s, c) => s + (c.values[0] ?? 0), 0);
    expect(sum).toBeGreaterThan(0);
  }, 60_000);
});
