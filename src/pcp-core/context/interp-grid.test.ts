// The stepped-vs-sequential rule and the grid's exact times; the values of both loops are
// checked against libpcp in workers/series-fetch-stepped.conformance.test.ts.
import { describe, expect, it } from 'vitest';
import { PmError, PM_ERR_EOL } from '../errors';
import type { PmId, Result, Timestamp } from '../types';
import { PM_MODE_INTERP, type Context } from './context';
import { STEPPED_MIN_INTERVALS, fetchInterpGrid, gridTime, interpReplayFor } from './interp-grid';

const S = 1_000_000_000n;

describe('interpReplayFor', () => {
  it('is stepped from STEPPED_MIN_INTERVALS logging intervals per step, sequential below', () => {
    const interval = 10n * S;
    expect(interpReplayFor(BigInt(STEPPED_MIN_INTERVALS) * interval, interval)).toBe('stepped');
    expect(interpReplayFor(BigInt(STEPPED_MIN_INTERVALS) * interval - 1n, interval)).toBe('sequential');
    expect(interpReplayFor(1000n * interval, interval)).toBe('stepped');
  });

  it('is sequential when the logging interval is unknown or the grid runs backwards', () => {
    expect(interpReplayFor(3600n * S, 0n)).toBe('sequential');
    expect(interpReplayFor(-3600n * S, S)).toBe('sequential');
  });
});

describe('gridTime', () => {
  it('adds k steps exactly, carrying nanoseconds into seconds', () => {
    const grid = { origin: { sec: 1_523_887_285, nsec: 325_401_000 }, deltaNs: 22_600_000_001n, count: 720 };
    expect(gridTime(grid, 0)).toEqual(grid.origin);
    expect(gridTime(grid, 3)).toEqual({ sec: 1_523_887_285 + 68, nsec: 125_401_003 });
    expect(gridTime(grid, 719)).toEqual({ sec: 1_523_887_285 + 16249, nsec: 725_401_719 });
  });
});

/** A context that records setMode calls and answers fetches from a script. */
function recorder(answers: readonly (number | 'eol')[]): { ctx: Context; modes: (Timestamp | undefined)[] } {
  const modes: (Timestamp | undefined)[] = [];
  let n = 0;
  const ctx = {
    setMode: (mode: number, origin?: Timestamp) => {
      expect(mode).toBe(PM_MODE_INTERP);
      modes.push(origin);
    },
    fetch: (): Promise<Result> => {
      const a = answers[n++];
      if (a === 'eol') return Promise.reject(new PmError(PM_ERR_EOL));
      return Promise.resolve({ timestamp: { sec: a ?? 0, nsec: 0 }, sets: [] });
    },
  } as unknown as Context;
  return { ctx, modes };
}

describe('fetchInterpGrid', () => {
  const grid = { origin: { sec: 100, nsec: 0 }, deltaNs: 60n * S, count: 4 };

  it('sequential: one pmSetMode at the origin, then a fetch per sample', async () => {
    const { ctx, modes } = recorder([100, 160, 'eol', 280]);
    const seen: (number | string)[] = [];
    await fetchInterpGrid(ctx, [1 as PmId], grid, 'sequential', (k, out) => {
      seen.push(out instanceof PmError ? out.code : out.timestamp.sec);
      return true;
    });
    expect(modes).toEqual([{ sec: 100, nsec: 0 }]);
    expect(seen).toEqual([100, 160, PM_ERR_EOL, 280]);
  });

  it('stepped: a pmSetMode at each grid time before its fetch; false from the callback stops', async () => {
    const { ctx, modes } = recorder([100, 160, 220, 280]);
    const seen: number[] = [];
    await fetchInterpGrid(ctx, [1 as PmId], grid, 'stepped', (k) => {
      seen.push(k);
      return k < 2;
    });
    expect(modes).toEqual([{ sec: 100, nsec: 0 }, { sec: 160, nsec: 0 }, { sec: 220, nsec: 0 }]);
    expect(seen).toEqual([0, 1, 2]);
  });

  it('tells the context a sequential replay\'s span before it starts (a read-ahead hint), a stepped one none', async () => {
    for (const replay of ['sequential', 'stepped'] as const) {
      const { ctx } = recorder([100, 160, 220, 280]);
      const passes: [Timestamp, Timestamp][] = [];
      const hinted = Object.assign(ctx, { prefetchPass: (from: Timestamp, to: Timestamp) => passes.push([from, to]) });
      await fetchInterpGrid(hinted, [1 as PmId], grid, replay, () => true);
      expect(passes).toEqual(replay === 'sequential' ? [[{ sec: 100, nsec: 0 }, { sec: 280, nsec: 0 }]] : []);
    }
  });
});
