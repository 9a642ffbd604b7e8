// The time control's behaviour: grid snapping, bounds, play and step, zoom (pmtime semantics,
// docs/pmchart-reference.md §1b), over a store built with a fake archive summary.
import { describe, expect, it } from 'vitest';
import { createDashStore } from '../store';
import type { SourceSummary } from '../../workers/engine-types';

function summary(startMs: number, endMs: number, intervalMs: number): SourceSummary {
  return { handle: 1, kind: 'archive', name: 'a', hostname: 'h', timezone: 'UTC', zoneinfo: '', startMs, endMs, intervalMs, metricCount: 1, archives: ['a'], warnings: [] };
}

function opened(startMs = 1_000_000, endMs = 1_000_000 + 600_000, intervalMs = 1000) {
  const store = createDashStore();
  const id = store.getState().beganOpening({ kind: 'url', url: 'x' }, 'x');
  store.getState().finishedOpening(id, summary(startMs, endMs, intervalMs));
  return store;
}

describe('time slice', () => {
  it('opens with the window full of data, ending on the grid', () => {
    const s = opened().getState();
    expect(s.intervalMs).toBe(1000);
    expect(s.windowMs).toBe(600_000);
    expect(s.positionMs).toBe(1_599_000);
    expect(s.speed).toBe(2);
  });

  it('steps one interval and stops at the bounds', () => {
    const store = opened();
    store.getState().movedPosition(1_300_400);
    expect(store.getState().positionMs).toBe(1_300_000);
    store.getState().steppedForward();
    expect(store.getState().positionMs).toBe(1_301_000);
    store.getState().steppedBack();
    store.getState().steppedBack();
    expect(store.getState().positionMs).toBe(1_299_000);
    store.getState().movedPosition(9e12);
    expect(store.getState().positionMs).toBe(1_600_000);
    store.getState().pressedPlay();
    store.getState().ticked();
    expect(store.getState().playState).toBe('stopped');
    expect(store.getState().positionMs).toBe(1_600_000);
  });

  it('plays backwards tick by tick; step mode makes play a single step', () => {
    const store = opened();
    store.getState().pressedReverse();
    store.getState().ticked();
    store.getState().ticked();
    expect(store.getState().positionMs).toBe(1_597_000);
    store.getState().choseMode('step');
    store.getState().pressedPlay();
    expect(store.getState().playState).toBe('stopped');
    expect(store.getState().positionMs).toBe(1_598_000);
  });

  it('zooms to a dragged range and keeps speed within pmtime limits', () => {
    const store = opened();
    store.getState().zoomedTo(1_100_000, 1_160_200);
    expect(store.getState().windowMs).toBeCloseTo(60_200);
    expect(store.getState().positionMs).toBe(1_160_000);
    store.getState().changedSpeed(1e9);
    expect(store.getState().speed).toBe(1000);
    store.getState().resetSpeed();
    expect(store.getState().speed).toBe(2);
  });

  it('changing the interval keeps the number of visible points', () => {
    const store = opened();
    store.getState().changedInterval(10_000);
    expect(store.getState().windowMs).toBe(6_000_000);
    expect(store.getState().speed).toBe(20);
  });

  it('narrowed bounds clamp the position and playback; reset restores the union', () => {
    const store = opened();
    store.getState().narrowedBounds(1_100_000, 1_200_000);
    expect(store.getState().positionMs).toBe(1_200_000);
    store.getState().pressedPlay();
    store.getState().ticked();
    expect(store.getState().playState).toBe('stopped');
    store.getState().movedPosition(1_000_000);
    expect(store.getState().positionMs).toBe(1_100_000);
    store.getState().resetBounds();
    store.getState().movedPosition(1_000_000);
    expect(store.getState().positionMs).toBe(1_000_000);
  });
});
