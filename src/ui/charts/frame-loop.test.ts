// The shared redraw loop: one animation frame for every waiting chart, on-screen charts
// only, a time budget per frame (always at least one redraw), and no redraw once forgotten.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cancelRedraw, requestRedraw, wake, type FrameClient } from './frame-loop';

let frames: FrameRequestCallback[] = [];
let now = 0;

beforeEach(() => {
  frames = [];
  now = 0;
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
  vi.stubGlobal('performance', { now: () => now });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function runFrame(): void {
  const f = frames.shift();
  f?.(now);
}

interface TestClient extends FrameClient {
  onScreen: boolean;
  redraws: number;
}

function client(onScreen = true, costMs = 0): TestClient {
  return {
    onScreen,
    redraws: 0,
    redraw() {
      this.redraws++;
      now += costMs;
    },
  };
}

describe('frame loop', () => {
  it('asks for one frame however many redraws are requested, and redraws each chart once', () => {
    const a = client();
    const b = client();
    requestRedraw(a);
    requestRedraw(a);
    requestRedraw(b);
    expect(frames).toHaveLength(1);
    runFrame();
    expect([a.redraws, b.redraws]).toEqual([1, 1]);
    expect(frames).toHaveLength(0);
  });

  it('spreads expensive redraws over frames once the budget is spent, at least one each frame', () => {
    const cs = [client(true, 20), client(true, 20), client(true, 20)];
    for (const c of cs) requestRedraw(c);
    runFrame();
    expect(cs.map((c) => c.redraws)).toEqual([1, 0, 0]);
    runFrame();
    runFrame();
    expect(cs.map((c) => c.redraws)).toEqual([1, 1, 1]);
    expect(frames).toHaveLength(0);
  });

  it('redraws live charts in the frame they are due, past the budget, and the rest later', () => {
    const live = [client(true, 20), client(true, 20), client(true, 20)].map((c) => Object.assign(c, { together: true }));
    const playing = [client(true, 20), client(true, 20)];
    for (const c of [playing[0], ...live, playing[1]]) if (c) requestRedraw(c);
    runFrame();
    expect(live.map((c) => c.redraws)).toEqual([1, 1, 1]);
    expect(playing.map((c) => c.redraws)).toEqual([1, 0]);
    runFrame();
    expect(playing.map((c) => c.redraws)).toEqual([1, 1]);
    expect(frames).toHaveLength(0);
  });

  it('keeps an off-screen chart waiting until it is woken on screen', () => {
    const c = client(false);
    requestRedraw(c);
    expect(frames).toHaveLength(0);
    c.onScreen = true;
    wake(c);
    runFrame();
    expect(c.redraws).toBe(1);
  });

  it('never redraws a chart that was cancelled', () => {
    const c = client();
    requestRedraw(c);
    cancelRedraw(c);
    runFrame();
    expect(c.redraws).toBe(0);
  });
});
