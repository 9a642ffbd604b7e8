// time/timestamp.ts: exact arithmetic, and the fast long double path against the exact one.
import { describe, expect, it } from 'vitest';
import {
  addTimestamps,
  compareTimestamps,
  subtractTimestampsDouble,
  exactLongDoubleSeconds,
  longDoubleSeconds,
  makeTimestamp,
  subtractTimestamps,
  timestampFromNs,
  timestampFromReal,
  timestampToNs,
} from './timestamp';

describe('timestamps', () => {
  it('normalises, adds, subtracts and compares exactly', () => {
    expect(makeTimestamp(5, 1_500_000_000)).toEqual({ sec: 6, nsec: 500_000_000 });
    expect(makeTimestamp(5, -1)).toEqual({ sec: 4, nsec: 999_999_999 });
    expect(addTimestamps({ sec: 1, nsec: 600_000_000 }, { sec: 2, nsec: 500_000_000 })).toEqual({ sec: 4, nsec: 100_000_000 });
    expect(subtractTimestamps({ sec: 1, nsec: 0 }, { sec: 2, nsec: 1 })).toEqual({ sec: -2, nsec: 999_999_999 });
    expect(compareTimestamps({ sec: 1, nsec: 2 }, { sec: 1, nsec: 3 })).toBe(-1);
    expect(compareTimestamps({ sec: 2, nsec: 0 }, { sec: 1, nsec: 3 })).toBe(1);
    expect(compareTimestamps({ sec: 2, nsec: 0 }, { sec: 2, nsec: 0 })).toBe(0);
    expect(subtractTimestampsDouble({ sec: 12, nsec: 100_000_000 }, { sec: 10, nsec: 900_000_000 })).toBeCloseTo(1.2, 15);
  });

  it('converts to and from bigint nanoseconds', () => {
    const t = { sec: 1_700_000_000, nsec: 123_456_789 };
    expect(timestampToNs(t)).toBe(1_700_000_000_123_456_789n);
    expect(timestampFromNs(1_700_000_000_123_456_789n)).toEqual(t);
    expect(timestampFromNs(-1n)).toEqual({ sec: -1, nsec: 999_999_999 });
  });

  it('takes the fast long double path only where it agrees with exact arithmetic', () => {
    let s = 99;
    const rnd = (): number => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
    for (let i = 0; i < 20000; i++) {
      const sec = Math.floor(rnd() * 2 ** (1 + Math.floor(rnd() * 40))) * (rnd() < 0.1 ? -1 : 1);
      const nsec = Math.floor(rnd() * 2e9) - (rnd() < 0.2 ? 1e9 : 0);
      expect(longDoubleSeconds(sec, nsec), `${sec} ${nsec}`).toBe(exactLongDoubleSeconds(sec, nsec));
    }
  });

  it('parses doubles into timestamps as pmtimespecFromReal rounds', () => {
    expect(timestampFromReal(7.3)).toEqual({ sec: 7, nsec: 300_000_000 });
    expect(timestampFromReal(0.35)).toEqual({ sec: 0, nsec: 350_000_000 });
    expect(timestampFromReal(1e-9)).toEqual({ sec: 0, nsec: 1 });
    expect(timestampFromReal(0.9999999999999999)).toEqual({ sec: 1, nsec: 0 });
  });
});
