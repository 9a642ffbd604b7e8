// units.ts against libpcp 6.0.3 (test/oracle/units.py calls pmParseUnitsStr, pmUnitsStr_r and
// pmConvScale through ctypes). Inputs are generated: every keyword spelling, every exponent,
// every scale pair, edge values of every type, odd spacing and invalid texts.
import { describe, expect, it } from 'vitest';
import { queryPythonOracle } from '../../test/oracle';
import { PmError } from './errors';
import type { Units } from './types';
import { convertScale, formatUnits, tryParseUnits } from './units';

type U6 = [number, number, number, number, number, number];
const toUnits = ([dimSpace, dimTime, dimCount, scaleSpace, scaleTime, scaleCount]: U6): Units => ({ dimSpace, dimTime, dimCount, scaleSpace, scaleTime, scaleCount });
const toU6 = (u: Units): U6 => [u.dimSpace, u.dimTime, u.dimCount, u.scaleSpace, u.scaleTime, u.scaleCount];

type OracleNumber = number | string | null;
interface ParseReply {
  sts?: number;
  units?: U6;
  mult?: OracleNumber;
  errmsg?: string | null;
  crash?: number;
}
interface ConvertReply {
  sts?: number;
  value?: OracleNumber;
  crash?: number;
}
interface Reply {
  parse: ParseReply[];
  format: string[];
  convert: ConvertReply[];
}

function fromOracleNumber(v: OracleNumber | undefined): number {
  if (typeof v === 'string') return Number(v);
  if (v === null || v === undefined) throw new Error('missing number');
  return v;
}

/** A small deterministic generator, so every run checks the same cases. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// --- parse inputs --------------------------------------------------------------------------
const TIME_WORDS = ['nanoseconds', 'nanosecond', 'nanosec', 'ns', 'microseconds', 'microsecond', 'microsec', 'us', 'milliseconds', 'millisecond', 'millisec', 'ms', 'seconds', 'second', 'sec', 's', 'minutes', 'minute', 'min', 'hours', 'hour', 'hr', 'h'];
const SPACE_WORDS = ['bytes', 'byte', ...['K', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y'].flatMap((p, i) => {
  const iec = ['Kibi', 'Mebi', 'Gibi', 'Tebi', 'Pebi', 'Exbi', 'Zebi', 'Yobi'][i] ?? '';
  const word = ['Kilo', 'Mega', 'Giga', 'Tera', 'Peta', 'Exa', 'Zetta', 'Yotta'][i] ?? '';
  return [`${p}B`, `${p}iB`, `${p}bytes`, `${p}byte`, `${iec}bytes`, `${iec}byte`, `${word}bytes`, `${word}byte`];
})];
const COUNT_WORDS = ['count', 'counts', 'count x 10', ...[-8, -7, -6, -5, -4, -3, -2, -1, 2, 3, 4, 5, 6, 7].map((n) => `count x 10^${n}`)];
const N_WORDS = Array.from({ length: 16 }, (_, n) => [`time-${n}`, `space-${n}`]).flat();

function parseInputs(): string[] {
  const out = new Set<string>();
  for (const w of [...TIME_WORDS, ...SPACE_WORDS, ...COUNT_WORDS, ...N_WORDS]) out.add(w);
  // Exponents: every spelled exponent (and some that are not) on each axis, both sides.
  for (const e of ['-9', '-8', '-3', '-1', '0', '1', '2', '7', '8', '15', '16', '+2', '02', '1.5']) {
    out.add(`sec^${e}`);
    out.add(`Kbyte^${e} / sec`);
    out.add(`/ count^${e}`);
    out.add(`byte / ms^${e}`);
  }
  // Every space × time scale pair, and the same axis on both sides.
  const times = ['nanosec', 'usec', 'us', 'millisec', 'sec', 'min', 'hour'];
  const spaces = ['byte', 'KB', 'MiB', 'Gbyte', 'TB', 'PB', 'EB', 'ZB', 'YB'];
  for (const s of spaces) for (const t of times) out.add(`${s} / ${t}`);
  for (const a of times) for (const b of times) out.add(`${a} / ${b}^2`);
  for (const a of spaces) for (const b of spaces) out.add(`${a}^2/${b}`);
  for (const a of ['count', 'count x 10^-3', 'count x 10^6']) for (const b of ['count', 'count x 10', 'count x 10^-8']) out.add(`${a} / ${b}`);
  // Multipliers, spacing and case.
  for (const t of ['2 count', '-1 count', '1e3 byte', '0x10 sec', '.5 ms', '10kb/hr', '1e-400 sec', '1e-310 sec', '1e400 s', '-inf sec', '-nan sec', '5-3 sec', '1e sec', '- sec', '. sec', '3 2 byte / 4 sec', '0 count', 'count / 0', '2.5e2 count x 10^3 / 10 kilobytes', '0x1p-3 byte', '1e+ s'])
    out.add(t);
  for (const t of [' sec', 'sec ', '\tsec\t/\tbyte\n', 'mib/s', 'kb/hr', 'MS', 'Sec', 'KIB/SEC', 'COUNT X 10^3', 'Count x 10^-2 / Hours', 'byte\vsec', 'bytes s', 'byte  sec  count'])
    out.add(t);
  // Invalid texts.
  for (const t of ['', ' ', '/', '//', 'sec/', '/sec', 'sec//sec', 'msec', 'none', 'per sec', 'Kbyte*sec', 'ms ms', 'x 10^3', 'count x 10^8', 'count x 10^23', 'byte^15 / byte^-8', 'sec^7 / sec^-1', 'time-6 sec', 'sec ^2', 'secs', 'bytesx', 'count x10', 'countx 10', '1/2', 'ms^0 ms', 'time-7^0 / time-2^0', 'time-7 / sec', 'space-9 / Kbyte', 'Kbyte^0 / byte'])
    out.add(t);
  return [...out];
}

// --- format inputs -------------------------------------------------------------------------
function formatInputs(): U6[] {
  const rnd = lcg(4);
  const out: U6[] = [];
  for (let ds = -3; ds <= 3; ds++)
    for (let dt = -3; dt <= 3; dt++)
      for (let dc = -3; dc <= 3; dc++) out.push([ds, dt, dc, Math.floor(rnd() * 16), Math.floor(rnd() * 16), Math.floor(rnd() * 16) - 8]);
  for (let s = 0; s < 16; s++) out.push([1, 0, 0, s, 0, 0], [0, -1, 0, 0, s, 0], [0, 0, 1, 0, 0, s - 8], [0, 0, 0, 3, 2, s - 8], [-8, -8, -8, s, s, s - 8], [7, 7, 7, s, 15 - s, 7 - s]);
  return out;
}

// --- conversion inputs ---------------------------------------------------------------------
const TYPE_VALUES: Record<number, ReadonlyArray<number | string>> = {
  0: [0, 1, -1, 499, 500, 1535, 1536, -1535, -1536, -1537, 2147483647, -2147483648],
  1: [0, 1, 89, 90, 499, 500, 1535, 1536, 4000000000, 4294967295],
  2: ['0', '1', '-1', '1536', '-1537', '9007199254740993', '-9223372036854775808', '9223372036854775807', '4611686018427387904'],
  3: ['0', '1', '1535', '1536', '9007199254740993', '9223372036854775808', '18446744073709551615'],
  4: [0, 1.5, -2.7, 3.4028234663852886e38, 1e-40, 'NaN', 'Infinity'],
  5: [0, 1, 1500, -0.5, 1e300, 4294967295.5, 'NaN', '-Infinity'],
};

function unitPairs(): Array<[U6, U6]> {
  const pairs: Array<[U6, U6]> = [];
  for (let a = 0; a <= 8; a++) for (let b = 0; b <= 8; b += 2) pairs.push([[1, 0, 0, a, 0, 0], [1, 0, 0, b, 0, 0]]);
  for (let a = 0; a <= 6; a++) for (let b = 0; b <= 6; b++) pairs.push([[0, 1, 0, 0, a, 0], [0, 1, 0, 0, b, 0]]);
  for (const [a, b] of [[0, 3], [3, 0], [-2, 0], [0, -2], [-8, 7], [7, -8], [2, -1]]) {
    pairs.push([[0, 0, 1, 0, 0, a ?? 0], [0, 0, 1, 0, 0, b ?? 0]]);
    pairs.push([[0, 0, 0, 0, 0, a ?? 0], [0, 0, 0, 0, 0, b ?? 0]]);
    pairs.push([[0, 0, 0, 0, 0, a ?? 0], [0, 0, 1, 0, 0, b ?? 0]]);
  }
  // Powers and compound units, including 64-bit factor overflow (libpcp divides by zero).
  pairs.push(
    [[1, -1, 0, 1, 3, 0], [1, -1, 0, 2, 5, 0]],
    [[0, -1, 1, 0, 3, 0], [0, -1, 1, 0, 4, 0]],
    [[2, 0, 0, 0, 0, 0], [2, 0, 0, 3, 0, 0]],
    [[-2, 1, 0, 6, 0, 0], [-2, 1, 0, 0, 0, 0]],
    [[0, 3, 0, 0, 5, 0], [0, 3, 0, 0, 0, 0]],
    [[0, -2, 0, 0, 1, 0], [0, -2, 0, 0, 4, 0]],
    [[4, 0, 0, 0, 0, 0], [4, 0, 0, 6, 0, 0]],
    [[-4, 0, 0, 0, 0, 0], [-4, 0, 0, 6, 0, 0]],
    [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 3, 0]],
    [[1, 1, 1, 0, 6, 0], [1, 1, 1, 0, 0, 0]],
    [[0, 1, 0, 0, 9, 0], [0, 1, 0, 0, 3, 0]],
  );
  return pairs;
}

interface ConvertCase {
  type: number;
  value: number | string;
  from: U6;
  to: U6;
}
function convertInputs(): ConvertCase[] {
  const out: ConvertCase[] = [];
  const pairs = unitPairs();
  pairs.forEach(([from, to], i) => {
    for (let type = 0; type <= 5; type++) {
      const values = TYPE_VALUES[type] ?? [];
      // Every value for a few pairs, then a rotating pair of values, to keep the run short.
      const pick = i % 7 === 0 ? values : [values[i % values.length], values[(i * 3 + 1) % values.length]];
      for (const value of pick) if (value !== undefined) out.push({ type, value, from, to });
    }
  });
  out.push({ type: 6, value: 0, from: [1, 0, 0, 0, 0, 0], to: [1, 0, 0, 1, 0, 0] }, { type: 6, value: 0, from: [1, 0, 0, 9, 0, 0], to: [1, 0, 0, 1, 0, 0] });
  return out;
}

function ourValue(c: ConvertCase): number | bigint {
  if (c.type === 2 || c.type === 3) return BigInt(c.value);
  const n = Number(c.value);
  return c.type === 4 ? Math.fround(n) : n;
}

describe('units against libpcp', async () => {
  const format = formatInputs();
  // pmUnitsStr's own texts go back through the parser too (libpcp's round-trip invariant).
  const parse = [...new Set([...parseInputs(), ...format.map((u) => formatUnits(toUnits(u)))])];
  const convert = convertInputs();
  const reply = await queryPythonOracle<Reply>('units.py', { parse, format, convert });

  it(`pmParseUnitsStr: ${parse.length} texts`, () => {
    expect(parse.length).toBeGreaterThan(300);
    parse.forEach((text, i) => {
      const want = reply.parse[i];
      const got = tryParseUnits(text);
      const where = JSON.stringify(text);
      if (want?.crash !== undefined) {
        // libpcp aborts (assertion) here; we report the text as unrecognized instead.
        expect(got.ok, where).toBe(false);
        return;
      }
      if (want?.sts !== 0) {
        expect(got.ok ? 'ok' : `${got.code} ${got.message}`, where).toBe(`${want?.sts} ${want?.errmsg}`);
        return;
      }
      expect(got.ok, where).toBe(true);
      if (got.ok) {
        expect(toU6(got.units), where).toEqual(want.units);
        expect(Object.is(got.multiplier, fromOracleNumber(want.mult)) || got.multiplier === fromOracleNumber(want.mult), `${where} mult ${got.multiplier}`).toBe(true);
      }
    });
  });

  it(`pmUnitsStr: ${format.length} units`, () => {
    expect(format.map((u) => formatUnits(toUnits(u)))).toEqual(reply.format);
  });

  it(`pmConvScale: ${convert.length} conversions`, () => {
    expect(convert.length).toBeGreaterThan(300);
    convert.forEach((c, i) => {
      const want = reply.convert[i];
      const where = JSON.stringify(c);
      let got: string;
      try {
        const v = convertScale(c.type, ourValue(c), toUnits(c.from), toUnits(c.to));
        got = typeof v === 'bigint' ? `ok ${v}` : `ok ${Number.isNaN(v) ? 'NaN' : String(v)}`;
      } catch (e) {
        if (!(e instanceof PmError)) throw e;
        got = `error ${e.code}`;
      }
      if (want?.crash !== undefined) {
        // libpcp divides by zero (SIGFPE) when its 64-bit factors wrap; we refuse with PM_ERR_CONV.
        expect(got, where).toBe('error -12362');
        return;
      }
      const expected = want?.sts === 0 ? `ok ${typeof want.value === 'number' ? String(want.value) : String(want.value)}` : `error ${want?.sts}`;
      expect(got, where).toBe(expected);
    });
  });
});
