import { describe, expect, it } from 'vitest';
import type { ColumnUnits } from '../../workers/engine-types';
import { assignAxes, compatibleUnits, refusalText, unitsName } from './unit-groups';

const U = { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 };
const countRate: ColumnUnits = { units: { ...U, dimCount: 1, dimTime: -1, scaleTime: 3 }, text: 'count / sec', utilization: false };
const kbRate: ColumnUnits = { units: { ...U, dimSpace: 1, scaleSpace: 1, dimTime: -1, scaleTime: 3 }, text: 'Kbyte / sec', utilization: false };
const mbRate: ColumnUnits = { units: { ...U, dimSpace: 1, scaleSpace: 2, dimTime: -1, scaleTime: 3 }, text: 'Mbyte / sec', utilization: false };
const none: ColumnUnits = { units: U, text: '', utilization: false };
const util: ColumnUnits = { units: { ...U, scaleTime: 2 }, text: '', utilization: true };

describe('unit groups (pmchart isCompatible per axis)', () => {
  it('compares dimensions, not scales', () => {
    expect(compatibleUnits(kbRate, mbRate)).toBe(true);
    expect(compatibleUnits(kbRate, countRate)).toBe(false);
    // A time utilization is dimensionless, as pmchart's normalised time counter.
    expect(compatibleUnits(util, none)).toBe(true);
  });

  it('gives the first units the left axis, the second the right, and refuses a third', () => {
    const a = assignAxes([countRate, kbRate, countRate, mbRate, none, undefined]);
    expect(a.axes).toEqual([0, 1, 0, 1, undefined, undefined]);
    expect(a.groups).toEqual([countRate, kbRate]);
    expect(a.refused).toEqual([4]);
  });

  it('names the refused units and both axes', () => {
    expect(unitsName(util)).toBe('time utilization');
    expect(unitsName(none)).toBe('none');
    const text = refusalText('kernel.all.load', none, [countRate, kbRate]);
    expect(text).toContain('none');
    expect(text).toContain('count / sec (left axis)');
    expect(text).toContain('Kbyte / sec (right axis)');
  });
});
