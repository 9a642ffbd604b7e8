// Live streaming across a reconnect: a fake pmcd drops the connection between two frames (as
// a pmcd restart does) while its counter jumps; the LiveContext reconnects before the next
// frame, so no fetch fails, yet the first frame on the new connection has no rate (NaN) —
// rates never pair values from two connections (Result.epoch, pdu-protocol.md §5.2).
import { describe, expect, it } from 'vitest';
import { reconnectingFake } from '../pcp-core/context/testing/reconnecting-fake';
import { EngineApi } from './engine-api';
import type { LiveEvent } from './live-watch';

function until(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = (): void => {
      if (check()) resolve();
      else setTimeout(poll, 5);
    };
    poll();
  });
}

describe('watchLive across a reconnect', () => {
  it('gives no rate for the first frame after the context reconnected', async () => {
    const fake = reconnectingFake();
    const ctx = await fake.open();
    const api = new EngineApi(() => Promise.resolve({ ctx, name: 'fake', endMs: NaN, intervalMs: 0, archives: [], warnings: [] }));
    const { handle } = await api.open({ kind: 'live', host: 'fake', bridgeUrl: 'ws://x' });
    const events: LiveEvent[] = [];
    const frames = (): number[] => events.flatMap((e) => (e.kind === 'frame' ? [e.block.columns[0]?.values[0] ?? -1] : []));
    const id = await api.watchLive(handle, { plots: [{ metric: 'sample.counter', instances: { kind: 'all' } }], rate: true, intervalMs: 150 }, (e) => events.push(e));
    await until(() => frames().length >= 2);
    // Right after a frame: the reconnect completes well before the next tick.
    await fake.restart(ctx);
    const before = frames().length;
    await until(() => frames().length >= before + 2);
    await api.unwatchLive(id);
    await api.close(handle);
    expect(events.filter((e) => e.kind === 'error')).toEqual([]);
    const values = frames();
    expect(values[0]).toBeNaN();
    expect(values[1]).toBeGreaterThan(0);
    expect(values[before]).toBeNaN();
    // 100 per fetch over ~150 ms; the restart's jump of a million never shows.
    for (const v of values.filter((x) => !Number.isNaN(x))) expect(v).toBeLessThan(2000);
  });
});
