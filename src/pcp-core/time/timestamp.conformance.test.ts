// time/timestamp.ts against libpcp's pmtimespecToReal, pmtimespecSub and pmtimespecFromReal
// (test/oracle/time-real.py): the x87 long double roundings behind pmval's rate interval and
// fetchgroup's Δt, on archive-like instants, near-midpoint fractions and random values.
import { describe, expect, it } from 'vitest';
import { queryPythonOracle } from '../../../test/oracle';
import { makeTimestamp, subtractTimestampsLongDouble, timestampFromReal, timestampToReal } from './timestamp';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('long double timestamp conversions against libpcp', async () => {
  const rnd = lcg(7);
  const toReal: Array<[number, number]> = [];
  for (let i = 0; i < 3000; i++) toReal.push([1_000_000_000 + Math.floor(rnd() * 800_000_000), Math.floor(rnd() * 1e9)]);
  // Instants where a plain double computation differs from libpcp's double rounding.
  for (let found = 0, i = 0; found < 60 && i < 2_000_000; i++) {
    const sec = 1_000_000_000 + Math.floor(rnd() * 800_000_000);
    const nsec = Math.floor(rnd() * 1e9);
    if (sec + nsec / 1e9 !== timestampToReal({ sec, nsec })) {
      toReal.push([sec, nsec]);
      found++;
    }
  }
  for (const sec of [0, 1, 2, 3, 59, 86400, 2 ** 30, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 40, -1, -2, -1e9])
    for (const nsec of [0, 1, 499_999_999, 500_000_000, 500_000_001, 999_999_999, 123_456_789, 1000, 250_000_000]) toReal.push([sec, nsec]);
  // Microsecond-resolution stamps (v2 archives) and millisecond ones.
  for (let i = 0; i < 500; i++) toReal.push([1_300_000_000 + i * 7, (i * 1000 * 997) % 1e9], [1_600_000_000 + i, (i * 1_000_000) % 1e9]);
  const sub: Array<[number, number, number, number]> = [];
  for (let i = 0; i < 1500; i++) {
    const a = 1_000_000_000 + Math.floor(rnd() * 800_000_000);
    sub.push([a + Math.floor(rnd() * 100), Math.floor(rnd() * 1e9), a, Math.floor(rnd() * 1e9)]);
  }
  sub.push([5, 0, 5, 0], [5, 1, 5, 0], [5, 0, 5, 1], [0, 999_999_999, 1, 0]);
  const fromReal: number[] = [0, 1, 0.5, 2.5, 0.1, 0.35, 7.3, 97, 1e-9, 1.5e-9, 0.9999999999999999, 0.99999999949, 0.9999999995, 123456.000000001, 1e9 + 0.1, 2 ** 40 + 0.5, -1.5, -0.25];
  for (let i = 0; i < 1000; i++) fromReal.push(rnd() * 10 ** Math.floor(rnd() * 10 - 3));
  const reply = await queryPythonOracle<{ toReal: number[]; sub: number[]; fromReal: Array<[number, number]> }>('time-real.py', { toReal, sub, fromReal });

  it(`pmtimespecToReal on ${toReal.length} timestamps`, () => {
    const bad = toReal.filter(([s, n], i) => timestampToReal({ sec: s, nsec: n }) !== reply.toReal[i]);
    expect(bad).toEqual([]);
  });

  it(`pmtimespecSub on ${sub.length} pairs`, () => {
    const bad = sub.filter(([a, an, b, bn], i) => subtractTimestampsLongDouble({ sec: a, nsec: an }, { sec: b, nsec: bn }) !== reply.sub[i]);
    expect(bad).toEqual([]);
  });

  it(`pmtimespecFromReal on ${fromReal.length} doubles`, () => {
    fromReal.forEach((x, i) => {
      const [sec, nsec] = reply.fromReal[i] ?? [NaN, NaN];
      expect(timestampFromReal(x), String(x)).toEqual(makeTimestamp(sec, nsec));
    });
  });
});
