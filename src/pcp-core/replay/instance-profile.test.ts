import { describe, expect, it } from 'vitest';
import { PM_ERR_PROFILESPEC } from '../errors';
import { indom } from '../types';
import { InstanceProfile, PM_PROFILE_EXCLUDE, PM_PROFILE_INCLUDE } from './instance-profile';

const LOAD = indom(60, 2);
const included = (p: InstanceProfile): number[] => [1, 5, 15].filter((i) => p.includes(LOAD, i));

// The expectations follow libpcp 6.0.3's profile.c, confirmed with python3-pcp against pmcd
// (instance-profile.conformance.test.ts runs the same sequences against the real thing).
describe('InstanceProfile (pmAddProfile / pmDelProfile)', () => {
  it('includes everything by default', () => {
    expect(included(new InstanceProfile())).toEqual([1, 5, 15]);
  });

  it('add on a fresh indom includes only the listed instances', () => {
    const p = new InstanceProfile();
    p.apply({ op: 'add', indom: LOAD, instances: [15] });
    expect(included(p)).toEqual([15]);
    expect(p.snapshot()).toEqual({ state: PM_PROFILE_INCLUDE, entries: [{ indom: LOAD, state: PM_PROFILE_EXCLUDE, instances: [15] }] });
  });

  it('delete on a fresh indom includes nothing, as libpcp 6.0.3 does', () => {
    const p = new InstanceProfile();
    p.apply({ op: 'delete', indom: LOAD, instances: [5] });
    expect(included(p)).toEqual([]);
    p.apply({ op: 'add', indom: LOAD, instances: [1] });
    expect(included(p)).toEqual([1]);
  });

  it('delete after add-all excludes just the listed instances', () => {
    const p = new InstanceProfile();
    p.apply({ op: 'add', indom: LOAD });
    p.apply({ op: 'delete', indom: LOAD, instances: [5] });
    expect(included(p)).toEqual([1, 15]);
    p.apply({ op: 'add', indom: LOAD, instances: [5] });
    expect(included(p)).toEqual([1, 5, 15]);
  });

  it('resets globally with a null indom, and refuses a null indom with instances', () => {
    const p = new InstanceProfile();
    p.apply({ op: 'delete', indom: null });
    expect(included(p)).toEqual([]);
    p.apply({ op: 'add', indom: null });
    expect(included(p)).toEqual([1, 5, 15]);
    const v = p.version;
    expect(() => p.apply({ op: 'add', indom: null, instances: [1] })).toThrow(expect.objectContaining({ code: PM_ERR_PROFILESPEC }) as Error);
    expect(p.version).toBe(v);
  });
});
