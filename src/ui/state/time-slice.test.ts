// The time control's behaviour: grid snapping, bounds, play and step, zoom (pmtime semantics,
// docs/pmchart-reference.md §1b), over a store built with a fake archive summary.
import { describe, expect, it } from 'vitest';
import { createDashStore } from '../store';
import { autoInterval, clampEdge, niceInterval } from './time-slice';
import type { SourceSummary } from '../../workers/engine-types';

function summary(startMs: number, endMs: number, intervalMs: number): SourceSummary {
  return { handle: 1, kind: 'archive', name: 'a', hostname: 'h', timezone: 'UTC', zoneinfo: '', startMs, endMs, intervalMs, metricCount: 1, archives: ['a'], warnings: [] };
}

const SPEED_MAX = 1000;

function opened(startMs = 1_000_000, endMs = 1_000_000 + 600_000, intervalMs = 1000) {
  const store = createDashStore();
  const id = store.getState().beganOpening({ kind: 'url', url: 'x' }, 'x');
  store.getState().finishedOpening(id, summary(startMs, endMs, intervalMs));
  return store;
}

describe('time slice', () => {
  it('opens with the window full of data: the whole of a short archive, its left edge at the start', () => {
    const s = opened().getState();
    // 600 s over 500 samples (1000 px at 2 px each) is 1.2 s: the next round interval.
    expect(s.intervalMs).toBe(2000);
    expect(s.intervalFixed).toBe(false);
    // Whole intervals from the start, the right edge half an interval inside the end.
    expect(s.windowMs).toBe(598_000);
    expect(s.positionMs).toBe(1_598_000);
    expect(s.speed).toBe(4);
  });

  it('opens a long archive on its first hour, never finer than the logging interval', () => {
    const s = opened(0, 5 * 3_600_000, 10_000).getState();
    expect(s.windowMs).toBe(3_600_000);
    expect(s.positionMs - s.windowMs).toBe(0);
    expect(s.intervalMs).toBe(10_000);
  });

  it('leaves a held time bar alone (a fleet tab on the stored history) while another archive opens, and lets go on release', () => {
    const store = opened();
    const d = store.getState();
    d.heldTime(true);
    d.narrowedBounds(5_000_000_000, 5_000_000_000 + 86_400_000);
    d.showedRange(5_000_000_000 + 82_800_000, 5_000_000_000 + 86_400_000);
    const held = { positionMs: store.getState().positionMs, windowMs: store.getState().windowMs };
    // The demo finishing its open: it becomes current and asks for its first hour.
    const id = d.beganOpening({ kind: 'url', url: 'demo' }, 'demo');
    d.finishedOpening(id, summary(9_000_000, 9_600_000, 1000));
    d.choseSource(id);
    d.enteredArchive(9_000_000, 9_600_000);
    expect({ positionMs: store.getState().positionMs, windowMs: store.getState().windowMs }).toEqual(held);
    // Released: the window comes back onto the archives.
    d.heldTime(false);
    d.resetBounds();
    d.archiveBoundsChanged();
    const s = store.getState();
    expect(s.positionMs).toBeLessThanOrEqual(9_600_000);
    expect(s.positionMs - s.windowMs).toBeGreaterThanOrEqual(1_000_000);
  });

  it('steps one interval and stops where the window would leave the data', () => {
    const store = opened();
    store.getState().changedInterval(1000);
    store.getState().changedWindow(100_000);
    store.getState().movedPosition(1_300_400);
    expect(store.getState().positionMs).toBe(1_300_000);
    store.getState().steppedForward();
    expect(store.getState().positionMs).toBe(1_301_000);
    store.getState().steppedBack();
    store.getState().steppedBack();
    expect(store.getState().positionMs).toBe(1_299_000);
    // The right edge stays half an interval inside the end (libpcp has no value at the end).
    store.getState().movedPosition(9e12);
    expect(store.getState().positionMs).toBe(1_599_000);
    store.getState().pressedPlay();
    store.getState().ticked();
    store.getState().ticked();
    expect(store.getState().playState).toBe('stopped');
    expect(store.getState().positionMs).toBe(1_599_000);
    // The left edge cannot go before the start.
    store.getState().movedPosition(0);
    expect(store.getState().positionMs).toBe(1_100_000);
    store.getState().pressedReverse();
    store.getState().ticked();
    expect(store.getState().playState).toBe('stopped');
  });

  it('Home puts the left edge at the start, End the right edge at the end', () => {
    const store = opened(1_000_000, 1_000_000 + 3_600_000, 1000);
    store.getState().changedWindow(600_000);
    store.getState().wentToStart();
    const s = store.getState();
    expect(s.positionMs - s.windowMs).toBe(1_000_000);
    store.getState().wentToEnd();
    expect(store.getState().positionMs).toBe(4_600_000 - store.getState().intervalMs);
  });

  it('plays backwards tick by tick; step mode makes play a single step', () => {
    const store = opened();
    store.getState().changedInterval(1000);
    store.getState().changedWindow(60_000);
    store.getState().wentToEnd();
    store.getState().pressedReverse();
    store.getState().ticked();
    store.getState().ticked();
    expect(store.getState().positionMs).toBe(1_597_000);
    store.getState().choseMode('step');
    store.getState().pressedPlay();
    expect(store.getState().playState).toBe('stopped');
    expect(store.getState().positionMs).toBe(1_598_000);
  });

  it('zooms to a dragged range, goes back zoom by zoom, and resets to the range before the first zoom', () => {
    const store = opened();
    const before = { p: store.getState().positionMs, w: store.getState().windowMs, i: store.getState().intervalMs };
    store.getState().zoomedTo(1_100_000, 1_160_200);
    // 60.2 s over 500 samples: 200 ms would do, but never finer than the 1 s logging interval.
    expect(store.getState().intervalMs).toBe(1000);
    // The left edge stays where the drag began; the window grows to whole intervals.
    expect(store.getState().windowMs).toBe(61_000);
    expect(store.getState().positionMs).toBe(1_161_000);
    store.getState().zoomedTo(1_120_000, 1_130_000);
    expect(store.getState().windowMs).toBe(10_000);
    store.getState().zoomedBack();
    expect(store.getState().windowMs).toBe(61_000);
    expect(store.getState().positionMs).toBe(1_161_000);
    store.getState().zoomedTo(1_120_000, 1_130_000);
    store.getState().resetZoom();
    expect([store.getState().positionMs, store.getState().windowMs, store.getState().intervalMs]).toEqual([before.p, before.w, before.i]);
    expect(store.getState().zoomHistory).toEqual([]);
    store.getState().changedSpeed(1e9);
    expect(store.getState().speed).toBe((SPEED_MAX * store.getState().intervalMs) / 1000);
  });

  it('a zoom or restored range cannot leave the data', () => {
    const store = opened();
    store.getState().showedRange(500_000, 700_000);
    const s = store.getState();
    expect(s.positionMs - s.windowMs).toBe(1_000_000);
    // The whole data at the 2 s interval, its right edge on the last sample half an interval
    // inside the end (libpcp has no value at the very end): the legends read data.
    store.getState().showedRange(0, 9e12);
    expect(store.getState().windowMs).toBe(598_000);
    expect(store.getState().positionMs).toBe(1_598_000);
  });

  it('the interval follows the window until the user fixes one; a fixed interval keeps the window length', () => {
    const store = opened(0, 16_200_000, 10_000);
    store.getState().showedRange(0, 16_200_000);
    // 4.5 h over 500 samples is 32.4 s: 40 s; whole intervals from the start, ending on data.
    expect(store.getState().intervalMs).toBe(40_000);
    expect(store.getState().windowMs).toBe(16_160_000);
    store.getState().resizedView(2000);
    expect(store.getState().intervalMs).toBe(20_000);
    store.getState().changedInterval(500);
    expect(store.getState().intervalFixed).toBe(true);
    expect(store.getState().windowMs).toBe(16_160_000);
    // An hour's grid holds 4 h of this 4.5 h archive ending on data: the window shrinks to
    // that rather than push its right edge past the end.
    store.getState().changedInterval(3_600_000);
    expect(store.getState().windowMs).toBe(14_400_000);
    expect(store.getState().positionMs).toBe(14_400_000);
    store.getState().showedRange(0, 600_000);
    expect(store.getState().intervalMs).toBe(3_600_000);
    // A window cannot be shorter than two intervals.
    expect(store.getState().windowMs).toBe(7_200_000);
    // Following the window again: 2 h over 1000 samples is 7.2 s, below the 10 s logged.
    store.getState().freedInterval();
    expect(store.getState().intervalMs).toBe(10_000);
  });

  it('narrowed bounds clamp the position and playback; reset restores the union', () => {
    const store = opened();
    store.getState().changedInterval(1000);
    store.getState().changedWindow(50_000);
    store.getState().narrowedBounds(1_100_000, 1_200_000);
    expect(store.getState().positionMs).toBe(1_199_000);
    store.getState().pressedPlay();
    store.getState().ticked();
    expect(store.getState().playState).toBe('stopped');
    store.getState().movedPosition(1_000_000);
    expect(store.getState().positionMs).toBe(1_150_000);
    store.getState().resetBounds();
    store.getState().movedPosition(1_000_000);
    expect(store.getState().positionMs).toBe(1_050_000);
  });
});

describe('several archives', () => {
  it('choosing a source whose data the window misses moves to its first hour, Home and End use its span', () => {
    const store = opened(1_000_000, 1_600_000, 1000);
    const id = store.getState().beganOpening({ kind: 'url', url: 'y' }, 'y');
    store.getState().finishedOpening(id, { ...summary(9_000_000_000, 9_000_000_000 + 7_200_000, 10_000), handle: 2 });
    // Still on the first archive (the union spans both).
    expect(store.getState().positionMs).toBe(1_598_000);
    store.getState().choseSource(id);
    let s = store.getState();
    expect(s.positionMs - s.windowMs).toBe(9_000_000_000);
    expect(s.windowMs).toBe(3_600_000);
    expect(s.intervalMs).toBe(10_000);
    store.getState().wentToEnd();
    expect(store.getState().positionMs).toBe(9_007_190_000);
    // Reset without zooms: the whole of the current archive.
    store.getState().resetZoom();
    s = store.getState();
    expect([s.positionMs - s.windowMs, s.positionMs]).toEqual([9_000_000_000, 9_007_185_000]);
  });
});

describe('time helpers', () => {
  it('round intervals grow by at most 1.5 times', () => {
    expect(niceInterval(32_400, 1)).toBe(40_000);
    expect(niceInterval(1000, 1)).toBe(1000);
    expect(niceInterval(1001, 1)).toBe(2000);
    expect(autoInterval(16_200_000, 1000, 10_000)).toBe(40_000);
    expect(autoInterval(60_000, 1000, 10_000)).toBe(10_000);
  });

  it('clampEdge keeps [edge − window, edge] on the data', () => {
    const b = { startMs: 0, endMs: 100_000 };
    expect(clampEdge(50_000, 10_000, b, 0, 1000)).toBe(50_000);
    expect(clampEdge(5_000, 10_000, b, 0, 1000)).toBe(10_000);
    expect(clampEdge(500_000, 10_000, b, 0, 1000)).toBe(99_000);
    // Longer than the data: starts at the start.
    expect(clampEdge(500_000, 200_000, b, 0, 1000)).toBe(200_000);
  });
});
