// INTERP against the worked example of archive-format.md §7.6.1 (results libpcp 6.0.3
// produced on the `demo` fixture), for both archive versions and both replay directions.
import { describe, expect, it } from 'vitest';
import { PM_ERR_EOL } from '../errors';
import type { AtomValue, PmId, Result } from '../types';
import { demoSpec, DEMO } from '../../../test/fixtures/demo-fixture';
import { fixtureReplaySet } from '../../../test/fixtures/replay-fixture';
import { PM_MODE_INTERP, ReplaySession } from './replay-session';

const T0 = 1700000000;
const S = 1_000_000_000n;

function value(r: Result, id: PmId, inst = -1): AtomValue | undefined {
  const set = r.sets.find((s) => s.pmid === id);
  if (!set) return undefined;
  const i = Array.from(set.inst).indexOf(inst);
  return i < 0 ? undefined : set.values[i];
}

// §7.6.1: t, ctr, inst, disc, str, i32, pi B ("-" = no value).
const TABLE: [number, number | null, number | null, number | null, string | null, number | null, number | null][] = [
  [0, 1000, 10, 5, 'alpha', 100, 200],
  [4, 1400, 10, 5, 'alpha', 80, 224],
  [8, 1800, 10, 5, 'alpha', 60, 248],
  [12, 2100, 20, 5, 'beta', 42, 264],
  [16, 2300, 20, 5, 'beta', 26, 272],
  [20, 2500, 40, 7, 'beta', 10, 280],
  [24, 2100, 40, 7, 'gamma', 22, 288],
  [28, 1700, 40, 7, 'gamma', 34, 296],
  [32, null, null, null, null, null, null],
  [36, null, null, null, null, null, null],
  [40, null, null, null, null, null, null],
  [44, null, null, null, null, null, null],
  [48, null, null, null, null, null, null],
  [52, 5200, 100, 9, 'eps', 62, 402],
  [56, 5600, 100, 9, 'eps', 66, 406],
  [60, 6000, 110, 9, 'eps', 70, 410],
];

const PMIDS = [DEMO.ctr, DEMO.inst, DEMO.disc, DEMO.str, DEMO.i32, DEMO.pi];

function row(r: Result): unknown[] {
  const num = (v: AtomValue | undefined): number | null => (v === undefined ? null : Number(v));
  const s = value(r, DEMO.str);
  return [r.timestamp.sec - T0, num(value(r, DEMO.ctr)), num(value(r, DEMO.inst)), num(value(r, DEMO.disc)), s === undefined ? null : s, num(value(r, DEMO.i32)), num(value(r, DEMO.pi, 1))];
}

describe('INTERP on the demo fixture (archive-format.md §7.6.1)', () => {
  for (const version of [2, 3] as const) {
    it(`V${version}: 4 s steps from t = 0 match libpcp`, async () => {
      const s = new ReplaySession(fixtureReplaySet([demoSpec(version)]));
      await s.setMode(PM_MODE_INTERP, { sec: T0, nsec: 0 }, 4n * S);
      const rows = [];
      for (let k = 0; k < TABLE.length; k++) rows.push(row(await s.fetch(PMIDS)));
      // Fetched together with the other metrics, the string is read afresh at t = 20; the
      // table's "beta" (the quirk of §7.4.5) is what a fetch of the string alone gives.
      const together = TABLE.map((r) => (r[0] === 20 ? r.with(4, 'gamma') : r));
      expect(rows).toEqual(together);
      await expect(s.fetch(PMIDS)).rejects.toMatchObject({ code: PM_ERR_EOL });
    });

    it(`V${version}: the string alone keeps the previous observation at t = 20 and 60`, async () => {
      const s = new ReplaySession(fixtureReplaySet([demoSpec(version)]));
      await s.setMode(PM_MODE_INTERP, { sec: T0, nsec: 0 }, 4n * S);
      const got = [];
      for (let k = 0; k < TABLE.length; k++) got.push(value(await s.fetch([DEMO.str]), DEMO.str) ?? null);
      expect(got).toEqual(TABLE.map((r) => r[4]));
    });
  }

  it('fetchEager gives the same rows, without a promise once the records are at hand', async () => {
    const s = new ReplaySession(fixtureReplaySet([demoSpec(3)]));
    await s.setMode(PM_MODE_INTERP, { sec: T0, nsec: 0 }, 4n * S);
    const rows = [];
    let settled = 0;
    for (let k = 0; k < TABLE.length; k++) {
      const out = s.fetchEager(PMIDS);
      if (!(out instanceof Promise)) settled++;
      rows.push(row(await out));
    }
    expect(rows).toEqual(TABLE.map((r) => (r[0] === 20 ? r.with(4, 'gamma') : r)));
    expect(settled).toBeGreaterThan(TABLE.length / 2);
    let end: unknown;
    try {
      await s.fetchEager(PMIDS);
    } catch (e) {
      end = e;
    }
    expect(end).toMatchObject({ code: PM_ERR_EOL });
  });

  it('the value seen once appears only at t = 10 with a 5 s step', async () => {
    const s = new ReplaySession(fixtureReplaySet([demoSpec(3)]));
    await s.setMode(PM_MODE_INTERP, { sec: T0, nsec: 0 }, 5n * S);
    const seen: [number, AtomValue | undefined][] = [];
    for (let k = 0; k < 13; k++) {
      const r = await s.fetch([DEMO.once]);
      seen.push([r.timestamp.sec - T0, value(r, DEMO.once)]);
    }
    expect(seen.filter(([, v]) => v !== undefined)).toEqual([[10, 42]]);
  });

  it('counter continuity: no value at t = 50 after crossing the mark with a 25 s step', async () => {
    const s = new ReplaySession(fixtureReplaySet([demoSpec(3)]));
    await s.setMode(PM_MODE_INTERP, { sec: T0, nsec: 0 }, 25n * S);
    const got = [];
    for (let k = 0; k < 3; k++) got.push(value(await s.fetch([DEMO.ctr]), DEMO.ctr));
    expect(got).toEqual([1000n, 2000n, undefined]);
  });

  it('backwards replay gives the same values at the same times', async () => {
    const s = new ReplaySession(fixtureReplaySet([demoSpec(3)]));
    await s.setMode(PM_MODE_INTERP, { sec: T0 + 60, nsec: 0 }, -4n * S);
    const rows = [];
    for (let k = 0; k < TABLE.length; k++) rows.push(row(await s.fetch(PMIDS)));
    const expected = [...TABLE].reverse().map((r) => [...r]);
    // Strings copy the lower bound; backwards that is the record at or below t (§7.4.5).
    for (const r of expected) if (r[4] !== null && (r[0] === 20 || r[0] === 60)) r[4] = r[0] === 20 ? 'gamma' : 'zeta';
    expect(rows).toEqual(expected);
  });
});
