// Binder case tables (derived-units-conversion.md §3): type promotion, units and scale
// mapping (with the two scale defects fixed), semantics, the relational U32 exemption, the
// check order of the ternary, and operand resolution. Operands are described by hand here;
// libpcp's answers on real metadata are in derived-context.conformance.test.ts.
import { describe, expect, it } from 'vitest';
import { bindExpression, promote, type OperandLookup } from './binder';
import { parseExpression } from './parser';
import { unitsText } from './units-port';
import { indom, makeUnits } from '../../../test/derived/units-helpers';
import { formatSem, formatType, PM_INDOM_NULL, PM_SEM_COUNTER, PM_SEM_DISCRETE, PM_SEM_INSTANT, pmid } from '../types';
import type { Desc, PmId, Units } from '../types';

const I1 = indom(60, 1);
const I2 = indom(60, 2);
let nextItem = 1;
const m = (type: number, sem: number, units: Partial<Units>, ind = PM_INDOM_NULL): Desc => ({ pmid: pmid(60, 0, nextItem++), type, sem, indom: ind, units: makeUnits(units) });

const METRICS: Record<string, Desc> = {
  'i32.none': m(0, PM_SEM_INSTANT, {}),
  'u32.none': m(1, PM_SEM_INSTANT, {}),
  'i64.none': m(2, PM_SEM_INSTANT, {}),
  'u64.none': m(3, PM_SEM_INSTANT, {}),
  'flt.none': m(4, PM_SEM_INSTANT, {}),
  'dbl.none': m(5, PM_SEM_INSTANT, {}),
  'disc.none': m(1, PM_SEM_DISCRETE, {}),
  'ctr.count': m(3, PM_SEM_COUNTER, { dimCount: 1 }, I1),
  'ctr.kbyte': m(1, PM_SEM_COUNTER, { dimSpace: 1, scaleSpace: 1 }, I1),
  'ctr.msec': m(1, PM_SEM_COUNTER, { dimTime: 1, scaleTime: 2 }, I1),
  'inst.kbyte': m(5, PM_SEM_INSTANT, { dimSpace: 1, scaleSpace: 1 }),
  'inst.mbyte': m(5, PM_SEM_INSTANT, { dimSpace: 1, scaleSpace: 2 }),
  'inst.nsec': m(5, PM_SEM_INSTANT, { dimTime: 1, scaleTime: 0 }),
  'inst.byte_per_msec': m(2, PM_SEM_INSTANT, { dimSpace: 1, dimTime: -1, scaleTime: 2 }, I1),
  'inst.count_x1000': m(5, PM_SEM_INSTANT, { dimCount: 1, scaleCount: 3 }),
  'other.indom': m(3, PM_SEM_COUNTER, { dimCount: 1 }, I2),
  'str.x': m(6, PM_SEM_DISCRETE, {}),
};
const lookup = (name: string): OperandLookup => {
  if (name === 'derived.x') return { kind: 'derived', pmid: pmid(511, 0, 9) };
  const d = METRICS[name];
  return d === undefined ? { kind: 'unknown', code: -12357 } : { kind: 'ok', pmid: d.pmid, desc: d };
};

function bind(text: string): string {
  const p = parseExpression(text);
  if (!p.ok) throw new Error(`syntax: ${text}`);
  const r = bindExpression('t', 0 as PmId, p.expr, lookup);
  if (!r.ok) return r.failure.kind === 'semantic' ? `error: ${r.failure.context}: ${r.failure.reason}` : `${r.failure.reason}: ${r.failure.message ?? ''}`;
  const d = r.desc;
  return `${formatType(d.type)} ${formatSem(d.sem)} ${d.indom === PM_INDOM_NULL ? '-' : 'I'} "${unitsText(d.units)}"`;
}

describe('type promotion (§3.1 step 5)', () => {
  const names = ['i32', 'u32', 'i64', 'u64', 'flt', 'dbl'];
  const expected = [
    ['32', 'U32', '64', 'U64', 'FLOAT', 'DOUBLE'],
    ['U32', 'U32', '64', 'U64', 'FLOAT', 'DOUBLE'],
    ['64', '64', '64', 'U64', 'FLOAT', 'DOUBLE'],
    ['U64', 'U64', 'U64', 'U64', 'FLOAT', 'DOUBLE'],
    ['FLOAT', 'FLOAT', 'FLOAT', 'FLOAT', 'FLOAT', 'DOUBLE'],
    ['DOUBLE', 'DOUBLE', 'DOUBLE', 'DOUBLE', 'DOUBLE', 'DOUBLE'],
  ];
  it.each(names.flatMap((l, i) => names.map((r, j) => [l, r, expected[i]?.[j]] as const)))('%s + %s → %s', (l, r, type) => {
    expect(formatType(promote(i(l), i(r)))).toBe(type);
    expect(bind(`${l}.none + ${r}.none`).split(' ')[0]).toBe(type);
    expect(bind(`${l}.none / ${r}.none`).split(' ')[0]).toBe('DOUBLE');
    expect(bind(`${l}.none < ${r}.none`).split(' ')[0]).toBe('U32');
  });
  function i(n: string): number {
    return names.indexOf(n);
  }
});

describe('units and scales (§3.1 step 9)', () => {
  it.each([
    ['inst.kbyte + inst.mbyte', 'DOUBLE instant - "Mbyte"'],
    ['inst.mbyte - inst.kbyte', 'DOUBLE instant - "Mbyte"'],
    ['inst.kbyte * inst.mbyte', 'DOUBLE instant - "Mbyte^2"'],
    ['inst.kbyte / inst.mbyte', 'DOUBLE instant - ""'],
    ['inst.byte_per_msec * inst.nsec', 'DOUBLE instant I "byte"'],
    ['inst.nsec * inst.byte_per_msec', 'DOUBLE instant I "byte"'],
    ['mkconst(2, type=double, units="Kbyte") + inst.mbyte', 'DOUBLE instant - "Mbyte"'],
    ['mkconst(1, units="Kbyte/sec") * u32.none', 'U32 instant - "Kbyte / sec"'],
    ['mkconst(1, units="Kbyte/sec") * inst.nsec', 'DOUBLE instant - "Kbyte"'],
    ['inst.count_x1000 + 1', 'DOUBLE instant - "count x 10^3"'],
    ['u32.none + ctr.count', 'error: u32.none + ctr.count: Illegal operator for non-counter and counter'],
    ['inst.kbyte + inst.nsec', 'error: inst.kbyte + inst.nsec: Dimensions are not the same'],
  ])('%s → %s', (text, desc) => {
    expect(bind(text)).toBe(desc);
  });

  it('converts each rescaled operand by its own dimension', () => {
    const scale = (text: string): string => {
      const p = parseExpression(text);
      const r = p.ok ? bindExpression('t', 0 as PmId, p.expr, lookup) : undefined;
      const root = r?.ok ? r.metric.root : undefined;
      return root?.kind === 'arith' ? JSON.stringify([root.leftScale, root.rightScale]) : 'none';
    };
    // Left operand in nsec (dimension +1) against msec^-1: divided, not multiplied (6.0.3 inverts).
    expect(scale('inst.nsec * inst.byte_per_msec')).toBe(JSON.stringify([{ mul: 1, div: 1e6 }, { mul: 1, div: 1 }]));
    expect(scale('inst.byte_per_msec * inst.nsec')).toBe(JSON.stringify([{ mul: 1, div: 1 }, { mul: 1, div: 1e6 }]));
    expect(scale('inst.kbyte + inst.mbyte')).toBe(JSON.stringify([{ mul: 1, div: 1024 }, { mul: 1, div: 1 }]));
  });
});

describe('semantics and operators', () => {
  it.each([
    ['disc.none * ctr.count', 'U64 discrete I "count"'],
    ['ctr.count * disc.none', 'U64 counter I "count"'],
    ['2 * ctr.count', 'U64 counter I "count"'],
    ['disc.none + disc.none', 'U32 discrete - ""'],
    ['disc.none + u32.none', 'U32 instant - ""'],
    ['ctr.count > 300000.5', 'U32 counter I ""'],
    ['inst.kbyte > 0', 'U32 instant - ""'],
    ['inst.kbyte > 0.5', 'error: inst.kbyte > 0.5: Dimensions are not the same'],
    ['u32.none > inst.kbyte', 'U32 instant - ""'],
    ['inst.kbyte && 1', 'error: inst.kbyte && 1: Dimensions are not the same'],
    ['ctr.count * ctr.count', 'error: ctr.count * ctr.count: Illegal operator for counters'],
    ['ctr.kbyte > mkconst(8, units=Kbyte)', 'error: ctr.kbyte > 8: Non-counter and not dimensionless for right operand'],
    ['ctr.count + other.indom', 'error: ctr.count + other.indom: Operands should have the same instance domain'],
    ['-u32.none', '32 instant - ""'],
    ['-u64.none', '64 instant - ""'],
    ['!dbl.none', 'U32 instant - ""'],
    ['!str.x', 'error: ! str.x: Non-arithmetic operand for boolean negation'],
    ['str.x + 1', 'error: str.x + 1: Non-arithmetic type for left operand'],
    ['rate(ctr.msec)', 'DOUBLE instant I ""'],
    ['rate(ctr.kbyte)', 'DOUBLE instant I "Kbyte / sec"'],
    ['rate(inst.byte_per_msec)', 'error: RATE(inst.byte_per_msec): Incorrect time dimension for operand'],
    ['delta(ctr.kbyte)', '64 instant I "Kbyte"'],
    ['delta(ctr.count)', 'DOUBLE instant I "count"'],
    ['sum(ctr.count)', 'U64 counter - "count"'],
    ['avg(ctr.kbyte)', 'FLOAT instant - "Kbyte"'],
    ['count(str.x)', 'U32 instant - "count"'],
    ['instant(ctr.count)', 'U64 instant I "count"'],
    ['scalar(ctr.count)', 'U64 counter - "count"'],
    ['defined(nope.x) + defined(u32.none)', 'U32 discrete - ""'],
    ['rescale(inst.kbyte, "Mbyte")', 'DOUBLE instant - "Mbyte"'],
    ['rescale(inst.kbyte, "sec")', 'error: inst.kbyte RESCALE sec: Incompatible dimensions'],
    ['anon(PM_TYPE_64)', '64 discrete - ""'],
  ])('%s → %s', (text, desc) => {
    expect(bind(text)).toBe(desc);
  });
});

describe('ternary (§3.3)', () => {
  it.each([
    ['u32.none ? ctr.count : ctr.count', 'U64 counter I "count"'],
    ['u32.none ? 1 : ctr.count', 'error: 1 : ctr.count: Different types for ternary operands'],
    ['u32.none ? ctr.count : other.indom', 'error: ctr.count : other.indom: Different instance domains for ternary operands'],
    ['u32.none ? inst.kbyte : inst.mbyte', 'error: inst.kbyte : inst.mbyte: Different units or scale (space) for ternary operands'],
    ['ctr.count > 0 ? 1 : 2', 'error: <expr> ? 1 : 2: Non-scalar ternary guard with scalar expressions'],
    ['str.x ? 1 : 2', 'error: str.x ? 1 : 2: Non-arithmetic operand for ternary guard'],
    ['str.x ? 1 : 2.5', 'error: 1 : 2.5: Different types for ternary operands'],
    ['u32.none ? str.x : str.x', 'STRING discrete - ""'],
  ])('%s → %s', (text, desc) => {
    expect(bind(text)).toBe(desc);
  });
});

describe('operands', () => {
  it('fails silently on an unknown name, first in text order', () => {
    expect(bind('nope.a * str.x + ctr.count * ctr.count')).toBe('unknown: ');
  });
  it('refuses a derived operand', () => {
    expect(bind('derived.x + 1')).toBe('nested: Semantic error: derived metric t: operand derived.x: Illegal nested derived metric\n');
  });
});
