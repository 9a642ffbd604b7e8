// rate.ts on derived-units-conversion.md §8 and §10 vectors 21, 23, 27, 28.
import { describe, expect, it } from 'vitest';
import { PM_ERR_VALUE } from './errors';
import { fetchgroupDelta, fetchgroupRate, pmvalDelta, pmvalRate, pmvalRates, pmvalTimeScale, pmvalUnitsText, rateUnits } from './rate';
import { PM_SEM_COUNTER, PM_SEM_INSTANT, PM_TYPE_32, PM_TYPE_DOUBLE, PM_TYPE_U32, PM_TYPE_U64 } from './types';
import { formatUnits, makeUnits } from './units';

const counter = (units = makeUnits({ dimCount: 1 })) => ({ sem: PM_SEM_COUNTER, units });

describe('pmval rate rule', () => {
  it('scales time counters into utilisation', () => {
    expect(pmvalTimeScale(counter(makeUnits({ dimTime: 1, scaleTime: 2 })))).toBe(1000);
    expect(pmvalTimeScale(counter(makeUnits({ dimTime: 1, scaleTime: 0 })))).toBe(1e9);
    expect(pmvalTimeScale(counter(makeUnits({ dimTime: 1, scaleTime: 4 })))).toBe(1 / 60);
    expect(pmvalTimeScale(counter())).toBe(1);
    expect(pmvalTimeScale({ sem: PM_SEM_INSTANT, units: makeUnits({ dimTime: 1, scaleTime: 2 }) })).toBe(1);
  });

  it('reproduces vector 28 (millisec counter → utilisation)', () => {
    const t0 = { sec: 1489620693, nsec: 870437000 };
    const t1 = { sec: 1489620703, nsec: 870437000 };
    expect(pmvalRate(3390776, 3391662, pmvalDelta(1000, t0, t1), PM_TYPE_U32, false).toFixed(4)).toBe('0.0886');
  });

  it('reproduces vector 23 (32-bit counter, decrease and PCP_COUNTER_WRAP)', () => {
    const t0 = { sec: 880952900, nsec: 284033000 };
    const t1 = { sec: 880952901, nsec: 284298000 };
    const d = pmvalDelta(1, t0, t1);
    expect(pmvalRate(2147483596, -1073741878, d, PM_TYPE_32, false)).toBeNaN();
    expect(pmvalRate(2147483596, -1073741878, d, PM_TYPE_32, true).toFixed(1)).toBe('1073457353.4');
    expect(pmvalRate(-1073741870, -48, pmvalDelta(1, { sec: 880952897, nsec: 284304000 }, { sec: 880952898, nsec: 285099000 }), PM_TYPE_32, false).toFixed(1)).toBe('1072888868.1');
  });

  it('leaves floating counters negative (no value) even with the wrap', () => {
    expect(pmvalRate(10, 5, 1, PM_TYPE_DOUBLE, true)).toBeNaN();
    expect(pmvalRate(4294967200, 100, 1, PM_TYPE_U64, true)).toBe(2 ** 64 + 100 - 4294967200);
  });

  it('converts columns in place', () => {
    const cur = Float64Array.of(10, 5, NaN, 30);
    const out = pmvalRates(Float64Array.of(0, 10, 1, 10), cur, 2, PM_TYPE_U32, false, cur);
    expect(Array.from(out)).toEqual([5, NaN, NaN, 10]);
  });

  it('prints the units line as pmval does', () => {
    expect(pmvalUnitsText(counter(makeUnits({ dimTime: 1, scaleTime: 2 })), false)).toBe('millisec (converting to time utilization)');
    expect(pmvalUnitsText(counter(), false)).toBe('count (converting to count / sec)');
    expect(pmvalUnitsText(counter(makeUnits({ dimSpace: 1, scaleSpace: 1 })), false)).toBe('Kbyte (converting to Kbyte / sec)');
    expect(pmvalUnitsText(counter(makeUnits({})), false)).toBe('none (converting to / sec)');
    expect(pmvalUnitsText(counter(makeUnits({})), true)).toBe('none');
    expect(formatUnits(rateUnits(makeUnits({ dimCount: 1, dimTime: -1, scaleTime: 4 })))).toBe('count / min^2');
  });
});

describe('fetchgroup rate rule', () => {
  it('floors Δt at 1 ns and reports a decrease as PM_ERR_VALUE unless wrapping', () => {
    const t = { sec: 100, nsec: 5 };
    expect(fetchgroupDelta(t, t)).toBe(1e-9);
    expect(fetchgroupRate(10, 20, 2, PM_TYPE_U64, false)).toBe(5);
    expect(fetchgroupRate(20, 10, 2, PM_TYPE_U32, false)).toEqual({ code: PM_ERR_VALUE });
    expect(fetchgroupRate(20, 10, 2, PM_TYPE_U32, true)).toBe((2 ** 32 - 10) / 2);
    expect(fetchgroupRate(20, 10, 2, PM_TYPE_DOUBLE, true)).toBe(-5);
  });
});
