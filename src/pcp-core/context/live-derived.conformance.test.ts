// Derived metrics evaluated live: the core DerivedContext over a LiveContext on pmcd 6.0.3,
// against libpcp registering the same expressions (pmRegisterDerivedMetric) on a host
// context. Descriptors (type, semantics, indom, units) must be identical; expressions over
// discrete metrics give identical values; a rate() gives no value on the first fetch, as in
// libpcp, then utilisations that sum with the other CPU states to hinv.ncpu.
import { describe, expect, it } from 'vitest';
import { PYTHON, runTool } from '../../../test/oracle';
import { openTcpTransport } from '../../node/tcp-transport';
import { DerivedContext } from '../derived/derived-context';
import { DerivedRegistry } from '../derived/registry';
import { encodeUnits, type Desc, type PmId } from '../types';
import { LiveContext } from './live-context';

const DEFS: Array<[string, string]> = [
  ['pmdash.live.cpus', 'hinv.ncpu * 2 + hinv.ndisk'],
  ['pmdash.live.mem_kb', 'hinv.physmem * 1024'],
  ['pmdash.live.pagesize_ratio', 'hinv.hugepagesize / hinv.pagesize'],
  ['pmdash.live.user', 'rate(kernel.all.cpu.user)'],
  ['pmdash.live.busy', 'rate(kernel.all.cpu.user) + rate(kernel.all.cpu.sys) + rate(kernel.all.cpu.nice) + rate(kernel.all.cpu.intr) + rate(kernel.all.cpu.steal) + rate(kernel.all.cpu.wait.total)'],
  ['pmdash.live.idle', 'rate(kernel.all.cpu.idle)'],
];
const DISCRETE = DEFS.slice(0, 3).map(([n]) => n);

interface OracleFetch {
  readonly sets: ReadonlyArray<{ pmid: number; numval: number; values: Array<[number, string]> }>;
}

async function oracle(ops: readonly object[]): Promise<unknown[]> {
  const run = await runTool(PYTHON, [`${import.meta.dirname}/../../../test/oracle/live-context.py`], {
    input: JSON.stringify({ host: 'localhost', derived: DEFS, ops }),
    env: { PCP_DERIVED_CONFIG: '' },
  });
  if (run.status !== 0) throw new Error(`oracle live-context.py: ${run.stderr}`);
  return JSON.parse(run.stdout) as unknown[];
}

describe('derived metrics on a live pmcd', () => {
  it('bind and evaluate as libpcp does', async () => {
    const live = await LiveContext.open({ target: 'localhost:44321', connect: () => openTcpTransport('localhost', 44321), reconnectDelaysMs: [] });
    const ctx = new DerivedContext(live, { registry: new DerivedRegistry() });
    try {
      for (const [name, expr] of DEFS) expect(await ctx.addDerived(name, expr)).toEqual({ status: 0 });
      const names = DEFS.map(([n]) => n);
      const ids = (await ctx.lookupNames(names)) as PmId[];
      const descs = (await ctx.lookupDescs(ids)) as Desc[];
      const [wantDescs, first, second] = (await oracle([{ op: 'descs', names }, { op: 'fetch', names: DISCRETE }, { op: 'fetch', names: DISCRETE }])) as [Array<{ type: number; indom: number; sem: number; units: number }>, OracleFetch, OracleFetch];
      expect(descs.map((d) => ({ type: d.type, indom: d.indom, sem: d.sem, units: encodeUnits(d.units) }))).toEqual(wantDescs.map((d) => ({ type: d.type, indom: d.indom, sem: d.sem, units: d.units })));

      const r1 = await ctx.fetch(ids);
      const discrete = r1.sets.slice(0, DISCRETE.length).map((s) => s.values.map(String));
      expect(discrete).toEqual(first.sets.map((s) => s.values.map(([, v]) => v.replace(/^f:/, '').replace(/\.0$/, ''))));
      expect(discrete).toEqual(second.sets.map((s) => s.values.map(([, v]) => v.replace(/^f:/, '').replace(/\.0$/, ''))));
      // rate() needs a previous sample: no value on the first fetch, as libpcp.
      expect(r1.sets.slice(3).map((s) => s.numval)).toEqual([0, 0, 0]);
      await new Promise((r) => setTimeout(r, 1000));
      const r2 = await ctx.fetch(ids);
      const [user, busy, idle] = r2.sets.slice(3).map((s) => Number(s.values[0]));
      const ncpu = Number((await live.fetch((await live.lookupNames(['hinv.ncpu'])) as PmId[])).sets[0]?.values[0]);
      expect(user).toBeGreaterThanOrEqual(0);
      expect(busy).toBeGreaterThanOrEqual(user ?? 0);
      // Busy plus idle time accounts for every CPU for the whole interval (in clock ticks).
      expect(Math.abs((busy ?? 0) + (idle ?? 0) - ncpu) / ncpu).toBeLessThan(0.05);
    } finally {
      await ctx.close();
    }
  });
});
