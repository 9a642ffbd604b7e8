// An open's progress appears only after the delay, with the phase reported before it; a quick
// open shows none; nothing is shown after the open ends.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { delayedProgress, toOpenProgress, type OpenProgress } from './delayed-progress';

describe('delayedProgress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const opening: OpenProgress = { phase: 'opening…', fraction: NaN };

  it('shows the phase reported before the delay once the delay has passed, then later ones', () => {
    const shown: OpenProgress[] = [];
    const p = delayedProgress((x) => shown.push(x), 200, opening);
    p.report({ phase: 'reading a', fraction: NaN });
    vi.advanceTimersByTime(199);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([{ phase: 'reading a', fraction: NaN }]);
    p.report({ phase: 'reading a', fraction: 0.5 });
    expect(shown).toHaveLength(2);
    p.stop();
    p.report({ phase: 'late', fraction: 1 });
    expect(shown).toHaveLength(2);
  });

  it('shows the first progress when nothing was reported, and nothing for a quick open', () => {
    const slow: OpenProgress[] = [];
    delayedProgress((x) => slow.push(x), 200, opening);
    vi.advanceTimersByTime(200);
    expect(slow).toEqual([opening]);
    const quick: OpenProgress[] = [];
    const q = delayedProgress((x) => quick.push(x), 200, opening);
    q.report({ phase: 'reading b', fraction: NaN });
    q.stop();
    vi.advanceTimersByTime(1000);
    expect(quick).toEqual([]);
  });

  it('turns the engine\'s counts into a fraction, NaN when the total is unknown', () => {
    expect(toOpenProgress({ phase: 'x', done: 1, total: 4 })).toEqual({ phase: 'x', fraction: 0.25 });
    expect(toOpenProgress({ phase: 'x', done: 0, total: 0 }).fraction).toBeNaN();
  });
});
