import { describe, expect, it } from 'vitest';
import { selectedNames, toggledSelector } from './instance-picks';

const DISKS = ['sda', 'sdb', 'sr0'];

describe('selectedNames', () => {
  it('takes every instance for all, exact names for a list', () => {
    expect([...selectedNames({ kind: 'all' }, DISKS)]).toEqual(DISKS);
    expect([...selectedNames({ kind: 'list', names: ['sr0', 'sd', 'sda'] }, DISKS)]).toEqual(['sda', 'sr0']);
    expect([...selectedNames({ kind: 'list', names: [] }, DISKS)]).toEqual([]);
  });
  it('tests a regex anywhere in the name, and its negation; a bad regex takes none', () => {
    expect([...selectedNames({ kind: 'matching', pattern: 'd[ab]' }, DISKS)]).toEqual(['sda', 'sdb']);
    expect([...selectedNames({ kind: 'not-matching', pattern: '^sd' }, DISKS)]).toEqual(['sr0']);
    expect([...selectedNames({ kind: 'matching', pattern: '(' }, DISKS)]).toEqual([]);
    expect([...selectedNames({ kind: 'not-matching', pattern: '(' }, DISKS)]).toEqual([]);
  });
});

describe('toggledSelector', () => {
  it('unticking one of all leaves a list of the others', () => {
    expect(toggledSelector({ kind: 'all' }, DISKS, 'sdb', false)).toEqual({ kind: 'list', names: ['sda', 'sr0'] });
  });
  it('ticking adds to a list in domain order, unticking removes, down to an empty list', () => {
    expect(toggledSelector({ kind: 'list', names: ['sr0'] }, DISKS, 'sda', true)).toEqual({ kind: 'list', names: ['sda', 'sr0'] });
    expect(toggledSelector({ kind: 'list', names: ['sda'] }, DISKS, 'sda', false)).toEqual({ kind: 'list', names: [] });
  });
  it('keeps typed names that are not instances, after the picked ones', () => {
    expect(toggledSelector({ kind: 'list', names: ['nvme0n1', 'sdb'] }, DISKS, 'sda', true)).toEqual({ kind: 'list', names: ['sda', 'sdb', 'nvme0n1'] });
  });
  it('turns a regex into the list of what it matched, with the one changed', () => {
    expect(toggledSelector({ kind: 'matching', pattern: '^sd' }, DISKS, 'sr0', true)).toEqual({ kind: 'list', names: DISKS });
    expect(toggledSelector({ kind: 'not-matching', pattern: '^sd' }, DISKS, 'sr0', false)).toEqual({ kind: 'list', names: [] });
  });
});
