import { describe, expect, it } from 'vitest';
import { Pmns } from './pmns';
import { PM_ERR_NAME, PM_ERR_NONLEAF, PmError } from './errors';
import { pmid } from './types';

const A = pmid(1, 0, 1);
const B = pmid(1, 0, 2);
const C = pmid(1, 1, 1);

function tree(): Pmns {
  return Pmns.fromNames([
    ['kernel.all.load', A],
    ['kernel.all.cpu.user', B],
    ['kernel.percpu.cpu.user', C],
    ['mem.free', pmid(2, 0, 1)],
  ]);
}

describe('Pmns', () => {
  it('looks names up, leaves only', () => {
    const p = tree();
    expect(p.lookup('kernel.all.load')).toBe(A);
    expect(p.lookup('kernel.all')).toBe(PM_ERR_NONLEAF);
    expect(p.lookup('kernel.nope')).toBe(PM_ERR_NAME);
    expect(p.lookup('')).toBe(PM_ERR_NAME);
    expect(p.size).toBe(4);
  });

  it('lists children and traverses newest first, as libpcp chains new nodes at the front', () => {
    const p = tree();
    expect(p.children('')).toEqual([
      { name: 'mem', leaf: false },
      { name: 'kernel', leaf: false },
    ]);
    expect(p.children('kernel.all')).toEqual([
      { name: 'cpu', leaf: false },
      { name: 'load', leaf: true },
    ]);
    expect(p.children('kernel.all.load')).toEqual([]);
    expect(p.traverse('')).toEqual(['mem.free', 'kernel.percpu.cpu.user', 'kernel.all.cpu.user', 'kernel.all.load']);
    expect(p.traverse('kernel.all')).toEqual(['kernel.all.cpu.user', 'kernel.all.load']);
    expect(p.traverse('kernel.all.load')).toEqual(['kernel.all.load']);
    expect(() => p.traverse('nope')).toThrow(expect.objectContaining({ code: PM_ERR_NAME }));
    expect(() => p.children('kernel.nope')).toThrow(PmError);
  });

  it('keeps the first pmid of a name and lists every name of a pmid in reverse traversal order', () => {
    const p = new Pmns();
    expect(p.add('a.x', A)).toBe('added');
    expect(p.add('a.x', A)).toBe('exists');
    expect(p.add('a.x', B)).toBe('conflict');
    expect(p.add('a', B)).toBe('conflict');
    expect(p.add('b.y', A)).toBe('added');
    expect(p.add('c.z', A)).toBe('added');
    expect(p.lookup('a.x')).toBe(A);
    // traversal: c.z, b.y, a.x; pmNameAll: the reverse.
    expect(p.traverse('')).toEqual(['c.z', 'b.y', 'a.x']);
    expect(p.nameAll(A)).toEqual(['a.x', 'b.y', 'c.z']);
    expect(p.nameOf(A)).toBe('a.x');
    expect(p.nameAll(C)).toEqual([]);
    expect(() => p.nameOf(C)).toThrow(PmError);
  });

  it('handles many children through its name index', () => {
    const p = Pmns.fromNames(Array.from({ length: 50 }, (_, i) => [`m.n${i}`, pmid(3, 0, i)] as const));
    expect(p.lookup('m.n37')).toBe(pmid(3, 0, 37));
    expect(p.children('m')).toHaveLength(50);
    expect(p.children('m')[0]).toEqual({ name: 'n49', leaf: true });
  });
});
