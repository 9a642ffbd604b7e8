// A followed archive's end grows (sources-slice grewSource): a window showing the end moves
// with it, as a live source's charts do; a window moved back stays where it was put.
import { describe, expect, it } from 'vitest';
import { createDashStore } from '../store';
import type { SourceSummary } from '../../workers/engine-types';

function opened(startMs: number, endMs: number) {
  const store = createDashStore();
  const id = store.getState().beganOpening({ kind: 'url', url: 'x' }, 'x');
  const summary: SourceSummary = { handle: 1, kind: 'archive', name: 'a', hostname: 'h', timezone: 'UTC', zoneinfo: '', startMs, endMs, intervalMs: 1000, metricCount: 1, archives: ['a'], warnings: [], followable: true };
  store.getState().finishedOpening(id, summary);
  store.getState().enteredArchive(startMs, endMs);
  return { store, id };
}

describe('a followed archive growing', () => {
  it('moves a window at the end along with the end', () => {
    const { store, id } = opened(1_000_000, 1_060_000);
    const before = store.getState();
    expect(before.positionMs).toBeGreaterThan(1_060_000 - 1.5 * before.intervalMs);
    store.getState().grewSource(id, 1_070_000);
    const after = store.getState();
    expect(after.sources[0]?.summary?.endMs).toBe(1_070_000);
    expect(after.positionMs).toBeGreaterThan(1_070_000 - 1.5 * after.intervalMs);
    expect(after.positionMs).toBeLessThanOrEqual(1_070_000);
    expect(after.windowMs).toBe(before.windowMs);
  });

  it('leaves a window moved back where it is', () => {
    const { store, id } = opened(1_000_000, 1_060_000);
    store.getState().changedWindow(10_000);
    store.getState().wentToStart();
    const back = store.getState().positionMs;
    expect(back).toBeLessThan(1_060_000 - 2000);
    store.getState().grewSource(id, 1_070_000);
    expect(store.getState().positionMs).toBe(back);
    expect(store.getState().sources[0]?.summary?.endMs).toBe(1_070_000);
  });

  it('ignores an end that did not grow', () => {
    const { store, id } = opened(1_000_000, 1_060_000);
    const before = store.getState().positionMs;
    store.getState().grewSource(id, 1_050_000);
    expect(store.getState().sources[0]?.summary?.endMs).toBe(1_060_000);
    expect(store.getState().positionMs).toBe(before);
  });
});
