import { describe, expect, it } from 'vitest';
import type { SeriesBlock } from '../../workers/engine-types';
import type { SourceEntry } from '../state/model';
import { alignStartOffset, formatOffset, offsetText, parseOffset, shiftBlock } from './time-shift';

const block = (times: number[]): SeriesBlock => ({ t0Ms: times[0] ?? 0, t1Ms: times[times.length - 1] ?? 0, stepMs: 1000, timestamps: Float64Array.from(times), plots: [], columns: [] });

describe('time shifts', () => {
  it('reads offsets in PCP interval syntax with a sign, and says what is wrong in libpcp words', () => {
    expect(parseOffset('+1 day')).toEqual({ ok: true, offsetMs: 86_400_000 });
    expect(parseOffset('-2h30m')).toEqual({ ok: true, offsetMs: -9_000_000 });
    expect(parseOffset('90')).toEqual({ ok: true, offsetMs: 90_000 });
    expect(parseOffset('')).toEqual({ ok: true, offsetMs: 0 });
    const bad = parseOffset('+3 fortnights');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toBe('3 fortnights\n  ^ -- unexpected value\n');
  });

  it('writes offsets back in a form it reads', () => {
    for (const ms of [86_400_000 + 3_600_000 * 3 + 60_000 * 15 + 10_500, -90_000, 45_000, -2 * 86_400_000]) {
      const r = parseOffset(offsetText(ms));
      expect(r.ok && r.offsetMs).toBeCloseTo(ms, 6);
    }
    expect(formatOffset(86_400_000 + 3_600_000 * 3)).toBe('+1 d 03:00:00');
    expect(formatOffset(-45_500)).toBe('-45.500 s');
  });

  it('moves a block forward by the shift, once per block and offset', () => {
    const b = block([1000, 2000, 3000]);
    expect(shiftBlock(b, 0)).toBe(b);
    const s = shiftBlock(b, 500);
    expect([...s.timestamps]).toEqual([1500, 2500, 3500]);
    expect(s.t0Ms).toBe(1500);
    expect(shiftBlock(b, 500)).toBe(s);
    expect([...b.timestamps]).toEqual([1000, 2000, 3000]);
  });

  it('aligns a start with the start of another source as drawn', () => {
    const src = (startMs: number, offsetMs?: number): SourceEntry => ({ id: 'x', origin: { kind: 'files', names: [] }, label: 'x', status: 'ready', offsetMs, summary: { startMs } as SourceEntry['summary'] });
    expect(alignStartOffset(src(1000), src(5000))).toBe(4000);
    expect(alignStartOffset(src(1000), src(5000, 100))).toBe(4100);
  });
});
