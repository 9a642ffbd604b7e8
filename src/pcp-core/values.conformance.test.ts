// values.ts against libpcp 6.0.3's pmExtractValue (test/oracle/extract-value.py, ctypes) on a
// systematic matrix: every input type × every output type × edge values (2^31, 2^32−1,
// 2^53+1, 2^63, 2^64−1, negatives, NaN, ±Inf, .5 roundings, float double-rounding traps),
// in the value format libpcp expects and in the wrong ones.
import { describe, expect, it } from 'vitest';
import { queryPythonOracle } from '../../test/oracle';
import { PM_TYPE_AGGREGATE, PM_TYPE_EVENT, PM_VAL_DPTR, PM_VAL_INSITU } from './types';
import type { AtomValue } from './types';
import { tryExtractValue } from './values';

type Wire = number | string;
interface Case {
  itype: number;
  otype: number;
  valfmt: number;
  value: Wire;
}
interface Reply {
  sts: number;
  value: Wire | null;
}

const f = Math.fround;
const INPUTS: Record<number, readonly Wire[]> = {
  0: [0, 1, -1, 2147483647, -2147483648, 16777217, -16777217, 123456789],
  1: [0, 1, 2147483647, 2147483648, 4294967295, 16777217, 3000000000],
  2: ['0', '-1', '2147483647', '2147483648', '-2147483648', '-2147483649', '4294967295', '4294967296', '9007199254740993', '-9007199254740993', '9223372036854775807', '-9223372036854775808', '-5000000000', '9007199791611905', '16777217'],
  3: ['0', '1', '2147483647', '2147483648', '4294967295', '4294967296', '9007199254740993', '9223372036854775807', '9223372036854775808', '18446744073709551615', '9007199791611905', '9223372586610589697'],
  4: [0, 0.5, 1.5, -0.5, -1.5, 2.5, f(-2.7), 2147483648, 2147483520, -2147483648, 4294967040, 4294967296, 2 ** 63, f(9.2233714e18), 2 ** 64, f(1.8446743e19), f(3.4e38), f(1e-45), 'NaN', 'Infinity', '-Infinity'],
  5: [0, 0.5, 0.49999999999999994, -0.5, 2.7, -2.7, 2147483646.9, 2147483647, -2147483647, -2147483646.5, 4294967294.9, 4294967295, 4294967295.5, 2 ** 53 + 2, 9223372036854774784, 2 ** 63, 18446744073709549568, 2 ** 64, -9.3e18, 1e300, -1e300, 3.4028235677973366e38, 5e-324, 'NaN', 'Infinity', '-Infinity'],
  6: ['', 'hello', 'a longer string, with spaces and digits 12345'],
  7: ['', '00', '0102030405060708090a0b0c0d'],
  255: [5, -5],
  8: [''],
  9: [''],
};
const OTYPES = [0, 1, 2, 3, 4, 5, 6, 7, 9];
/** The value format a decoder would deliver each type in. */
const NATURAL_VALFMT: Record<number, number> = { 0: 0, 1: 0, 255: 0, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1 };

function cases(): Case[] {
  const out: Case[] = [];
  for (const [it, values] of Object.entries(INPUTS)) {
    const itype = Number(it);
    for (const value of values) for (const otype of OTYPES) out.push({ itype, otype, valfmt: NATURAL_VALFMT[itype] ?? 1, value });
  }
  // FLOAT in situ (the PCP 1.x encoding) and types in the wrong value format.
  for (const value of INPUTS[4] ?? []) for (const otype of [0, 1, 4, 5]) out.push({ itype: 4, otype, valfmt: PM_VAL_INSITU, value });
  for (const [itype, value] of [[2, '1'], [3, '1'], [5, 1], [6, 'x'], [7, '00']] as const) out.push({ itype, otype: 5, valfmt: PM_VAL_INSITU, value });
  for (const [itype, value] of [[0, 1], [1, 1], [255, 1]] as const) out.push({ itype, otype: 5, valfmt: PM_VAL_DPTR, value });
  return out;
}

/** The decoded AtomValue our decoders would produce for a wire value. */
function atom(c: Case): AtomValue {
  switch (c.itype) {
    case 2:
    case 3:
      return BigInt(c.value);
    case 4:
      return Math.fround(Number(c.value));
    case 6:
      return String(c.value);
    case PM_TYPE_AGGREGATE:
    case 8: {
      const hex = String(c.value);
      return Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16));
    }
    case PM_TYPE_EVENT:
      return { kind: 'events', highres: false, records: [] };
    default:
      return Number(c.value);
  }
}

function wire(v: AtomValue): Wire {
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : v;
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('');
  return 'events';
}

describe('pmExtractValue against libpcp', async () => {
  const all = cases();
  const reply = await queryPythonOracle<Reply[]>('extract-value.py', all);

  it(`casts ${all.length} (value, input type, output type) triples as libpcp does`, () => {
    expect(all.length).toBeGreaterThan(900);
    expect(reply.length).toBe(all.length);
    const errors = new Set<number>();
    all.forEach((c, i) => {
      const want = reply[i];
      const got = tryExtractValue(atom(c), c.itype, c.otype, c.valfmt);
      const where = JSON.stringify(c);
      if (want?.sts !== 0) {
        errors.add(want?.sts ?? 0);
        expect(got.ok ? `ok ${String(wire(got.value))}` : got.code, where).toBe(want?.sts);
      } else {
        expect(got.ok ? wire(got.value) : `error ${got.code}`, where).toEqual(want.value);
      }
    });
    // The matrix reaches every error libpcp can return here.
    expect([...errors].sort()).toEqual([-12364, -12363, -12362].sort());
  });
});
