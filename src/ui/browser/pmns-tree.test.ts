import { describe, expect, it } from 'vitest';
import { buildTree, searchRows, visibleRows } from './pmns-tree';

const names = ['kernel.all.load', 'kernel.all.cpu.user', 'kernel.all.cpu.sys', 'mem.util.free', 'hinv.ncpu'];

describe('pmns tree', () => {
  it('shows top-level nodes and expands on demand, in PMNS order', () => {
    const root = buildTree(names);
    expect(visibleRows(root, new Set()).map((r) => r.label)).toEqual(['kernel', 'mem', 'hinv']);
    const rows = visibleRows(root, new Set(['kernel', 'kernel.all', 'kernel.all.cpu']));
    expect(rows.map((r) => `${'  '.repeat(r.depth)}${r.label}${r.leaf ? '' : '/'}`)).toEqual([
      'kernel/', '  all/', '    load', '    cpu/', '      user', '      sys', 'mem/', 'hinv/',
    ]);
  });
  it('searches by every term', () => {
    expect(searchRows(names, 'CPU kern').map((r) => r.path)).toEqual(['kernel.all.cpu.user', 'kernel.all.cpu.sys']);
  });
});
