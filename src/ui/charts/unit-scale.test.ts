import { describe, expect, it } from 'vitest';
import { axisScale, formatValue } from './unit-scale';

const u = (p: Partial<Record<'dimSpace' | 'dimTime' | 'dimCount' | 'scaleSpace' | 'scaleTime' | 'scaleCount', number>>) => ({ dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0, ...p });

describe('axisScale', () => {
  it('steps byte rates up by 1024 past 1000 and labels the result', () => {
    expect(axisScale(u({ dimSpace: 1, dimTime: -1, scaleSpace: 0, scaleTime: 3 }), 80_000)).toEqual({ factor: 1024, label: 'Kbyte / sec' });
    expect(axisScale(u({ dimSpace: 1, scaleSpace: 1 }), 8_000_000)).toEqual({ factor: 1024 * 1024, label: 'Gbyte' });
    expect(axisScale(u({ dimSpace: 1, scaleSpace: 2 }), 0.05)).toEqual({ factor: 1 / 1024, label: 'Kbyte' });
  });
  it('never rescales counts and keeps their label', () => {
    expect(axisScale(u({ dimCount: 1, dimTime: -1, scaleTime: 3 }), 1e6)).toEqual({ factor: 1, label: 'count / sec' });
  });
  it('steps time units through ms, sec, min', () => {
    expect(axisScale(u({ dimTime: 1, scaleTime: 2 }), 90_000)).toEqual({ factor: 1000, label: 'sec' });
    expect(axisScale(u({ dimTime: 1, scaleTime: 2 }), 9_000_000)).toEqual({ factor: 60_000, label: 'min' });
  });
  it('labels time utilizations', () => {
    expect(axisScale(u({}), 0.7, true).label).toBe('time utilization');
  });
});

describe('formatValue', () => {
  it('keeps four significant digits and marks missing values', () => {
    expect(formatValue(0.71054)).toBe('0.7105');
    expect(formatValue(12550.4)).toBe('12550.4');
    expect(formatValue(NaN)).toBe('—');
    expect(formatValue(3)).toBe('3');
  });
});
