// Derived metrics over a live pmcd (LiveContext) against libpcp on a PM_CONTEXT_HOST context:
// expressions generated over the host's own metrics (hardware, kernel, disks, memory,
// network, strings), registration, PMIDs, descriptors and semantic errors compared exactly;
// values compared for expressions whose operands do not change while the test runs
// (hinv.*, kernel.uname.*, pmcd configuration), structurally (count, instances) otherwise.
import { describe, expect, it } from 'vitest';
import { runDerivedOracle } from '../../../test/derived/oracle';
import { runOurs, type Reply, type Request } from '../../../test/derived/ours';
import { openLiveContext } from '../../node/open-live-context';
import { isNumericType, PM_INDOM_NULL } from '../types';
import type { PmId } from '../types';

const STABLE = /^(hinv\.|kernel\.uname\.|pmcd\.(numagents|version|build|services))/;

async function liveMetrics(): Promise<Array<{ name: string; numeric: boolean; instanced: boolean }>> {
  const ctx = await openLiveContext('localhost');
  try {
    const out: Array<{ name: string; numeric: boolean; instanced: boolean }> = [];
    for (const prefix of ['hinv', 'kernel.uname', 'kernel.all.cpu', 'kernel.all.load', 'disk.dev', 'mem.util', 'network.interface.in', 'pmcd.numagents', 'pmcd.version']) {
      const names = (await ctx.traverse(prefix)).slice(0, 8);
      const ids = await ctx.lookupNames(names);
      const descs = await ctx.lookupDescs(ids.filter((i) => i >= 0) as PmId[]);
      let k = 0;
      names.forEach((name, i) => {
        if ((ids[i]) < 0) return;
        const d = descs[k++];
        if (d === undefined || typeof d === 'number') return;
        out.push({ name, numeric: isNumericType(d.type), instanced: d.indom !== PM_INDOM_NULL });
      });
    }
    return out;
  } finally {
    await ctx.close();
  }
}

function expressions(metrics: ReadonlyArray<{ name: string; numeric: boolean; instanced: boolean }>): string[] {
  const out = new Set<string>();
  for (const m of metrics) {
    const n = m.name;
    out.add(n);
    if (m.numeric) for (const t of ['% * 2', 'rate(%)', 'delta(%)', 'sum(%)', 'count(%)', 'avg(%)', '% > 0', '-%', '% + %', '% / %', '!(% > 1)', '% > 0 ? % : %']) out.add(t.replaceAll('%', n));
    else for (const t of ['count(%)', '% + 1', 'sum(%)']) out.add(t.replaceAll('%', n));
  }
  const numeric = metrics.filter((m) => m.numeric);
  for (let i = 0; i + 1 < numeric.length; i += 3) {
    const a = numeric[i]?.name;
    const b = numeric[i + 1]?.name;
    for (const op of ['+', '*', '/', '>']) out.add(`${a} ${op} ${b}`);
  }
  return [...out];
}

describe('derived metrics over live pmcd match libpcp', () => {
  it('descriptors, semantic errors and stable values', async () => {
    const exprs = expressions(await liveMetrics());
    const req: Request = { host: 'localhost', mode: 'live', deltaMs: 0, samples: 2, metrics: exprs.map((e, i) => [`lv.m${i}`, e] as const) };
    const theirs = await runDerivedOracle<Reply>('derived-values.py', req);
    const ours = await runOurs(req);
    expect(ours.register).toEqual(theirs.register);
    expect(ours.bind).toEqual(theirs.bind);
    const bound = exprs.filter((_, i) => theirs.bind[i]?.desc !== null);
    expect(bound.length).toBeGreaterThan(100);
    expect(theirs.bind.filter((b) => b.stderr !== '').length).toBeGreaterThan(10);
    let stable = 0;
    bound.forEach((e, k) => {
      const names = e.match(/[a-z][a-z0-9_.]*/g)?.filter((w) => w.includes('.')) ?? [];
      const constant = names.every((n) => STABLE.test(n)) && !/rate|delta/.test(e);
      for (let s = 0; s < 2; s++) {
        const o = ours.samples[s]?.sets[k];
        const t = theirs.samples[s]?.sets[k];
        if (constant) {
          // The oracle prints doubles with repr() and 64-bit integers as strings.
          const norm = (x: typeof o) => x && { ...x, values: x.values.map((v) => (typeof v === 'string' && /^-?[0-9.]+(e[-+]?[0-9]+)?$/.test(v) ? Number(v) : v)) };
          expect({ e, s, o: norm(o) }).toEqual({ e, s, o: norm(t) });
          stable++;
        } else {
          expect({ e, s, failed: (o?.numval ?? 0) < 0 }).toEqual({ e, s, failed: (t?.numval ?? 0) < 0 });
        }
      }
    });
    expect(stable).toBeGreaterThan(20);
  });
});
