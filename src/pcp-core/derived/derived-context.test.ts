// DerivedContext over an in-memory copy of the bozo-disk QA archive (derived-units-conversion.md
// §10.1): the value vectors of §10.2 and the semantic-error vectors of §10.3, plus the PMNS,
// descriptor and registration behaviour of §2.6–2.9. Conformance against libpcp on the real
// archives is in derived-context.conformance.test.ts.
import { describe, expect, it } from 'vitest';
import { bozoDisk, DISK } from '../../../test/derived/bozo-disk';
import { DerivedContext } from './derived-context';
import { DerivedRegistry } from './registry';
import { formatPmId, formatSem, formatType, PM_INDOM_NULL } from '../types';
import type { AtomValue, PmId, Result } from '../types';
import { PM_ERR_BADDERIVE } from '../errors';
import { unitsText } from './units-port';

const INST = ['sda', 'sdb', 'sdc', 'sdd', 'sde'];

interface Run {
  readonly ctx: DerivedContext;
  readonly messages: string[];
  readonly ids: PmId[];
}

async function open(defs: Record<string, string>, kind: 'archive' | 'live' = 'archive', initFirst = false): Promise<Run> {
  const registry = new DerivedRegistry();
  // pmLoadDerivedConfig initialises first; a bare pmRegisterDerived before any context does not.
  if (initFirst) registry.initialize();
  for (const [name, text] of Object.entries(defs)) {
    const r = registry.register(name, text);
    if (!r.ok) throw new Error(`${name}: ${r.message}`);
  }
  const messages: string[] = [];
  const ctx = new DerivedContext(bozoDisk(kind), { registry, onMessage: (m) => messages.push(m) });
  const ids = (await ctx.lookupNames(Object.keys(defs))) as PmId[];
  return { ctx, messages, ids };
}

/** Values of one metric in records R0 … R4, as { instance name: value } ('' for singular). */
async function series(text: string): Promise<Array<Record<string, AtomValue> | number>> {
  const { ctx, ids } = await open({ 'my.m': text });
  const out: Array<Record<string, AtomValue> | number> = [];
  for (let r = 0; r < 5; r++) {
    const res = await ctx.fetch(ids);
    const s = res.sets[0];
    if (s === undefined) throw new Error('no set');
    if (s.numval < 0) {
      out.push(s.numval);
      continue;
    }
    const row: Record<string, AtomValue> = {};
    for (let i = 0; i < s.numval; i++) row[s.inst[i] === -1 ? '' : (INST[s.inst[i]])] = s.values[i];
    out.push(row);
  }
  return out;
}

async function describeMetric(text: string): Promise<string> {
  const { ctx, ids } = await open({ 'my.m': text });
  const [d] = await ctx.lookupDescs(ids);
  if (typeof d === 'number' || d === undefined) return `error ${d}`;
  return `${formatType(d.type)} ${formatSem(d.sem)} ${d.indom === PM_INDOM_NULL ? 'singular' : 'instanced'} "${unitsText(d.units)}"`;
}

const close = (actual: AtomValue | undefined, expected: number, digits = 6): void => {
  expect(typeof actual === 'bigint' ? Number(actual) : actual).toBeCloseTo(expected, digits);
};

describe('§10.2 value vectors on bozo-disk', () => {
  it('1 rate(disk.dev.read)', async () => {
    expect(await describeMetric('rate(disk.dev.read)')).toBe('DOUBLE instant instanced "count / sec"');
    const s = await series('rate(disk.dev.read)');
    expect(s[1]).toEqual({});
    const r2 = s[2] as Record<string, number>;
    close(r2.sda, 4.999782);
    close(r2.sdd, 41.898173);
    close((s[3] as Record<string, number>).sdd, 34.400805);
    close((s[4] as Record<string, number>).sdd, 43.498765);
  });

  it('2 delta(disk.dev.read) is DOUBLE for a U64 operand', async () => {
    expect(await describeMetric('delta(disk.dev.read)')).toBe('DOUBLE instant instanced "count"');
    const s = await series('delta(disk.dev.read)');
    expect([2, 3, 4].map((r) => (s[r] as Record<string, number>).sda)).toEqual([50, 0, 0]);
    expect([2, 3, 4].map((r) => (s[r] as Record<string, number>).sdd)).toEqual([419, 344, 435]);
  });

  it('3 rate() of a millisecond counter is a time utilization', async () => {
    expect(await describeMetric('rate(disk.dev.avactive)')).toBe('DOUBLE instant instanced ""');
    const s = await series('rate(disk.dev.avactive)');
    close((s[2] as Record<string, number>).sda, 0.045998);
    close((s[3] as Record<string, number>).sdb, 0.0144);
    close((s[4] as Record<string, number>).sdd, 0.067998);
  });

  it('4 sum() keeps the counter semantics and the U64 type', async () => {
    expect(await describeMetric('sum(disk.dev.read)')).toBe('U64 counter singular "count"');
    const s = await series('sum(disk.dev.read)');
    expect(s.slice(1).map((r) => (r as Record<string, AtomValue>)[''])).toEqual([1537640n, 1538109n, 1538453n, 1538888n]);
    expect(s[0]).toEqual({ '': 0n });
  });

  it('6 avg() accumulates in single precision', async () => {
    expect(await describeMetric('avg(disk.dev.read_bytes)')).toBe('FLOAT instant singular "Kbyte"');
    const s = await series('avg(disk.dev.read_bytes)');
    expect(s.slice(1).map((r) => (r as Record<string, AtomValue>)[''])).toEqual([6946290.5, 6948347, 6951355.5, 6955243.5]);
  });

  it('7 count(), max(), min()', async () => {
    for (const [f, v] of [['count', 5], ['max', 543494n], ['min', 180884n]] as const) {
      const s = await series(`${f}(disk.dev.read)`);
      for (const r of s.slice(1)) expect((r as Record<string, AtomValue>)['']).toBe(v);
    }
  });

  it('8 ternary with a mkconst branch', async () => {
    const text = 'delta(disk.dev.read) == 0 ? mkconst(0, type=double, semantics=instant, units="Kbyte/count") : delta(disk.dev.read_bytes) / delta(disk.dev.read)';
    expect(await describeMetric(text)).toBe('DOUBLE instant instanced "Kbyte / count"');
    const s = await series(text);
    close((s[2] as Record<string, number>).sda, 21.44);
    expect((s[3] as Record<string, number>).sda).toBe(0);
    expect((s[2] as Record<string, number>).sdb).toBe(0);
    close((s[2] as Record<string, number>).sdd, 21.98568);
    close((s[3] as Record<string, number>).sdd, 43.732558);
    close((s[4] as Record<string, number>).sdd, 44.689655);
  });

  it('10, 11 division: x/0 is inf, 0/x and 0/0 are 0', async () => {
    const s = await series('delta(disk.dev.write) / delta(disk.dev.read)');
    close((s[2] as Record<string, number>).sda, 5.78);
    expect((s[3] as Record<string, number>).sda).toBe(Infinity);
    expect((s[2] as Record<string, number>).sdb).toBe(Infinity);
    const z = await series('delta(disk.dev.read) / delta(disk.dev.read)');
    expect([2, 3, 4].map((r) => (z[r] as Record<string, number>).sda)).toEqual([1, 0, 0]);
    expect([2, 3, 4].map((r) => (z[r] as Record<string, number>).sdb)).toEqual([0, 0, 0]);
  });

  it('12, 13 rescale()', async () => {
    const s = await series('rescale(rate(disk.dev.read_bytes), "Mbyte/hour")');
    close((s[2] as Record<string, number>).sda, 376.858569);
    close((s[4] as Record<string, number>).sdd, 6834.180909);
    expect(await describeMetric('rescale(disk.dev.read_bytes, "Mbyte")')).toBe('U32 counter instanced "Mbyte"');
    const u = await series('rescale(disk.dev.read_bytes, "Mbyte")');
    expect(u.slice(1).map((r) => (r as Record<string, number>).sda)).toEqual([7159, 7160, 7160, 7160]);
    expect(u.slice(1).map((r) => (r as Record<string, number>).sdd)).toEqual([7964, 7973, 7988, 8007]);
  });

  it('14 boolean of relational', async () => {
    const s = await series('delta(disk.dev.read) > 0 && delta(disk.dev.write) > 0');
    expect([2, 3, 4].map((r) => (s[r] as Record<string, number>).sda)).toEqual([1, 0, 0]);
    expect([2, 3, 4].map((r) => (s[r] as Record<string, number>).sdd)).toEqual([1, 1, 1]);
  });

  it('15 matchinst()', async () => {
    const s = await series('matchinst(/^sd[de]$/, delta(disk.dev.write))');
    expect(s[2]).toEqual({ sdd: 1856, sde: 4 });
    expect(s[4]).toEqual({ sdd: 31, sde: 8 });
    const inv = await series('matchinst(!/^sd[de]$/, disk.dev.write)');
    expect(Object.keys(inv[1] as object)).toEqual(['sda', 'sdb', 'sdc']);
  });

  it('16 scalar() of one instance', async () => {
    expect(await describeMetric('scalar(disk.dev.read[sdd])')).toBe('U64 counter singular "count"');
    const s = await series('scalar(disk.dev.read[sdd])');
    expect((s[1] as Record<string, AtomValue>)['']).toBe(310566n);
    expect((s[2] as Record<string, AtomValue>)['']).toBe(310985n);
  });

  it('17 metadata of constants and discrete operands', async () => {
    expect(await describeMetric('hinv.physmem + hinv.pagesize')).toBe('DOUBLE discrete singular "Mbyte"');
    close(((await series('hinv.physmem + hinv.pagesize'))[0] as Record<string, number>)[''], 32075.003906);
    expect(await describeMetric('hinv.ncpu - 13')).toBe('U32 discrete singular ""');
    expect(((await series('hinv.ncpu - 13'))[0] as Record<string, number>)['']).toBe(4294967295);
    expect(((await series('defined(disk.dev.read) + defined(no.such.metric)'))[0] as Record<string, number>)['']).toBe(1);
  });

  it('18, 19 constants and relational promotion without scale', async () => {
    const one = async (t: string): Promise<AtomValue | undefined> => ((await series(t))[0] as Record<string, AtomValue>)[''];
    expect(await one('1 ? 0 : 1 ? 10 : 20')).toBe(20);
    expect(await one('1 || 0 && 0')).toBe(0);
    expect(await one('- 10 - 3')).toBe(4294967283);
    expect(await one('-hinv.ncpu < 0')).toBe(0);
    expect(await one('-hinv.ncpu < mkconst(0, type=32)')).toBe(1);
    expect(await one('hinv.physmem > mkconst(40, type=double, units=Gbyte)')).toBe(1);
    expect(await one('mkconst(4294967295,type=u32)+1')).toBe(0);
    expect(await one('mkconst(3,type=32) - 5')).toBe(4294967294);
  });
});

describe('§10.3 semantic errors on bozo-disk', () => {
  it.each([
    ['e.leftdim', 'hinv.physmem * disk.dev.read', 'hinv.physmem * disk.dev.read: Non-counter and not dimensionless for left operand'],
    ['e.ternspace', '1 ? hinv.physmem : hinv.pagesize', 'hinv.physmem : hinv.pagesize: Different units or scale (space) for ternary operands'],
    ['e.ternindom', 'hinv.ncpu > 1 ? disk.dev.read : disk.partitions.read', 'disk.dev.read : disk.partitions.read: Different instance domains for ternary operands'],
    ['e.rightstr', 'hinv.ncpu + hinv.machine', 'hinv.ncpu + hinv.machine: Non-arithmetic type for right operand'],
    ['e.indom', 'disk.dev.read + disk.partitions.read', 'disk.dev.read + disk.partitions.read: Operands should have the same instance domain'],
    ['r.b', 'disk.dev.read_bytes > mkconst(8000000, units=Kbyte)', 'disk.dev.read_bytes > 8000000: Non-counter and not dimensionless for right operand'],
    ['s.strfunc', 'sum(hinv.machine)', 'SUM(hinv.machine): Non-arithmetic operand for function'],
    ['s.strneg', '-hinv.machine', '- hinv.machine: Non-arithmetic operand for unary negation'],
    ['s.ctrs', 'disk.dev.read * disk.dev.write', 'disk.dev.read * disk.dev.write: Illegal operator for counters'],
    ['s.ratetime', 'rate(hinv.physmem / disk.dev.avactive)', null],
    ['s.guard', 'disk.dev.queue > 0 ? 1 : 2', '<expr> ? 1 : 2: Non-scalar ternary guard with scalar expressions'],
    ['s.strguard', 'hinv.machine ? 1 : 2', 'hinv.machine ? 1 : 2: Non-arithmetic operand for ternary guard'],
    ['s.rescale', 'rescale(disk.dev.read, "Kbyte")', 'disk.dev.read RESCALE Kbyte: Incompatible dimensions'],
  ])('%s', async (name, text, expected) => {
    const registry = new DerivedRegistry();
    const r = registry.register(name, text);
    if (!r.ok) {
      expect(expected).toBeNull();
      return;
    }
    const messages: string[] = [];
    const ctx = new DerivedContext(bozoDisk(), { registry, onMessage: (m) => messages.push(m) });
    const [id] = await ctx.lookupNames([name]);
    expect(await ctx.lookupDescs([id as PmId])).toEqual([PM_ERR_BADDERIVE]);
    expect(messages).toEqual([`Semantic error: derived metric ${name}: ${expected}\n`]);
    // Reported once, when the context binds the metric.
    await ctx.fetch([id as PmId]);
    expect(messages.length).toBe(1);
  });
});

describe('names, PMIDs and binding', () => {
  it('allocates 511.0.3 onwards after the anonymous event metrics', async () => {
    const early = await open({ 'my.a': '1' });
    expect(early.ids.map(formatPmId)).toEqual(['511.0.1']);
    const { ctx, ids } = await open({ 'my.a': 'disk.dev.read', 'my.b': '1', 'my.c': 'no.such.metric' }, 'archive', true);
    expect(ids.map(formatPmId)).toEqual(['511.0.3', '511.0.4', '511.0.5']);
    expect(await ctx.nameAll(ids[0])).toEqual(['my.a']);
    // Unbound names are listed until a failed binding removes them.
    expect(await ctx.traverse('my')).toEqual(['my.a', 'my.b', 'my.c']);
    expect(await ctx.lookupDescs([ids[2]])).toEqual([PM_ERR_BADDERIVE]);
    expect(await ctx.traverse('my')).toEqual(['my.a', 'my.b']);
    expect((await ctx.traverse('')).slice(-4)).toEqual(['event.flags', 'event.missed', 'my.a', 'my.b']);
  });

  it('lets a real metric win over a derived one of the same name', async () => {
    const { ctx, ids } = await open({ 'hinv.ncpu': '42' });
    expect(formatPmId(ids[0])).toBe('60.0.32');
    const r = await ctx.fetch(ids);
    expect(r.sets[0]?.values).toEqual([12]);
  });

  it('refuses derived operands (6.2.2 and later)', async () => {
    const registry = new DerivedRegistry();
    registry.register('my.a', 'disk.dev.read + 1');
    registry.register('my.b', 'my.a * 2');
    const messages: string[] = [];
    const ctx = new DerivedContext(bozoDisk(), { registry, onMessage: (m) => messages.push(m) });
    const ids = (await ctx.lookupNames(['my.b'])) as PmId[];
    expect(await ctx.lookupDescs(ids)).toEqual([PM_ERR_BADDERIVE]);
    expect(messages).toEqual(['Semantic error: derived metric my.b: operand my.a: Illegal nested derived metric\n']);
  });

  it('fetches operands once and returns only the caller\'s PMIDs', async () => {
    const { ctx, ids } = await open({ 'my.a': 'disk.dev.read + disk.dev.write', 'my.b': 'disk.dev.read' });
    const inner = ctx.inner as ReturnType<typeof bozoDisk>;
    const r = await ctx.fetch(ids);
    expect(r.sets.map((s) => s.pmid)).toEqual(ids);
    expect(inner.fetched[0]?.map(formatPmId)).toEqual(['60.0.4', '60.0.5']);
  });

  it('answers a fetch of real metrics alone by the inner context\'s fetchEager, one with a derived metric by fetch', async () => {
    const { ctx, ids } = await open({ 'my.a': 'disk.dev.read + 1' });
    const inner = ctx.inner as ReturnType<typeof bozoDisk> & { fetchEager?: (ids: readonly PmId[]) => Result };
    const real = (await ctx.lookupNames(['disk.dev.read'])) as PmId[];
    const eager: Result = { timestamp: { sec: 1, nsec: 0 }, sets: [] };
    inner.fetchEager = () => eager;
    expect(ctx.fetchEager(real)).toBe(eager);
    const derived = ctx.fetchEager([...real, ...ids]);
    expect(derived).toBeInstanceOf(Promise);
    const again = await open({ 'my.a': 'disk.dev.read + 1' });
    expect(await derived).toEqual(await again.ctx.fetch([...real, ...again.ids]));
  });

  it('adds per-context metrics from 511.2047.1023 downwards', async () => {
    const { ctx } = await open({});
    expect(await ctx.addDerived('ctx.a', 'disk.dev.read * 2')).toEqual({ status: 0 });
    expect(await ctx.addDerived('ctx.b', 'disk.dev.read * disk.dev.write')).toEqual({
      status: PM_ERR_BADDERIVE,
      message: 'Semantic Error: pmAddDerivedMetric("ctx.b", ...)\ndisk.dev.read * disk.dev.write\n^\nIllegal operator for counters\n',
    });
    expect(await ctx.addDerived('ctx.c', 'disk.dev.read +')).toEqual({
      status: PM_ERR_BADDERIVE,
      message: 'Syntax Error: pmAddDerivedMetric("ctx.c", ...)\ndisk.dev.read +\n              ^\nArithmetic expression expected to follow PLUS\n',
    });
    expect(await ctx.addDerived('ctx.a', '1')).toEqual({ status: PM_ERR_BADDERIVE, message: 'Error: pmAddDerivedMetric("ctx.a", ...): returns -12409\nDuplicate per-context derived metric name\n' });
    const ids = (await ctx.lookupNames(['ctx.a', 'ctx.b'])) as PmId[];
    expect(ids.map((i) => (i >>> 0).toString(16))).toEqual(['ffdfffff', 'ffdffffe']);
  });

  it('checks an expression being typed, with its location', async () => {
    const { ctx } = await open({});
    expect(await ctx.checkExpression('disk.dev.read + * 3')).toEqual({ ok: false, problem: { stage: 'syntax', span: { start: 16, end: 17 }, message: 'Arithmetic expression expected to follow PLUS' } });
    expect(await ctx.checkExpression('disk.dev.read + nope.x')).toEqual({ ok: false, problem: { stage: 'operand', span: { start: 16, end: 22 }, message: 'Unknown metric name: nope.x' } });
    const sem = await ctx.checkExpression('hinv.ncpu + (disk.dev.read * disk.dev.write)');
    expect(sem).toEqual({ ok: false, problem: { stage: 'semantic', span: { start: 13, end: 43 }, message: 'Illegal operator for counters' } });
    const ok = await ctx.checkExpression('rate(disk.dev.read)');
    expect(ok.ok && ok.desc.indom).toBe(DISK);
  });
});
