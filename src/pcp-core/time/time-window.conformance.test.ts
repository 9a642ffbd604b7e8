// time/interval.ts and time/time-window.ts against libpcp's pmParseHighResInterval and
// pmParseHighResTimeWindow (test/oracle/time-window.py). Intervals: every unit spelling,
// plurals, case, spacing, combined forms, errors. Windows: -S/-T/-A/-O over real archive
// bounds (labels and ends read by libpcp) in each archive's own label zone, with "+"/"-"
// offsets, "@" ctime dates built from the archive's local times, getdate forms (ISO,
// d-Mon-y, relative words, "ago", weekdays, zones) and bad input.
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, queryPythonOracle, runPythonOracle } from '../../../test/oracle';
import type { Timestamp } from '../types';
import { formatAsctime } from './format';
import { tryParseInterval } from './interval';
import { makeTimestamp } from './timestamp';
import { parseTimeWindow } from './time-window';
import type { TimeWindowArgs } from './time-window';
import { Zone } from './zone';

interface IntervalReply {
  sts: number;
  t: [number, number] | null;
  errmsg: string | null;
}
interface WindowReply {
  sts: number;
  start: [number, number];
  end: [number, number];
  origin: [number, number];
  errmsg: string | null;
  clock: [number, number];
}
interface WindowCase {
  tz: string;
  start: [number, number];
  end: [number, number];
  S: string | null;
  T: string | null;
  A: string | null;
  O: string | null;
}

function intervalInputs(): string[] {
  const units = ['nanosecond', 'microsecond', 'millisecond', 'second', 'minute', 'hour', 'day', 'msec', 'usec', 'nsec', 'sec', 'min', 'hr', 's', 'm', 'h', 'd'];
  const out = new Set<string>();
  for (const u of units) {
    for (const n of ['1', '2.5', '0.35', '7.3', '97']) out.add(`${n}${u}`);
    out.add(`3 ${u}s`);
    out.add(`4${u.toUpperCase()}`);
    out.add(`10 ${u}S`);
  }
  for (const t of ['10', '0', '0.0', '2.5', '1e3', '1.5e-3', '0x10', '.5', '5.', '1h30m', '1 hour 30 min', '1h 30m 15s', '10 20', '  7 ', '1d2h3m4s5msec6usec7nsec', '250ms', '250msec', '1.5min', '1hour', '1 day', '2 days', '3hrs', '4mins', '5secs', '0.000000001', '0.0000000004', '0.0000000005', '0.9999999999', '1e-10', '86400.5'])
    out.add(t);
  for (const t of ['', ' ', '10x', '-5', '+5', '5 -3', 'sec', '10 fortnights', '1e999', '1 2 x', 'ms5', '10\t\tq', 'nan', '1.5.5'])
    out.add(t);
  return [...out];
}

/** An archive's label bounds and its label zone. */
interface Archive {
  name: string;
  start: [number, number];
  end: [number, number];
  timezone: string;
}

function windowInputs(archives: readonly Archive[]): WindowCase[] {
  const out: WindowCase[] = [];
  for (const a of archives) {
    const zone = Zone.fromTz(a.timezone);
    const mid = Math.floor((a.start[0] + a.end[0]) / 2);
    const ct = formatAsctime(zone.localtime(mid + 7));
    const tm = zone.localtime(mid);
    const hhmm = `${String(tm.hour).padStart(2, '0')}:${String(tm.min).padStart(2, '0')}`;
    const iso = `${tm.year}-${String(tm.month + 1).padStart(2, '0')}-${String(tm.mday).padStart(2, '0')}`;
    const mon = ct.slice(4, 7);
    const starts = [
      '+10', '+1m30s', ' + 2.5 min', '-60', '-1:00', '@' + ct, `@ ${ct.slice(4)}`, `@ ${ct.slice(0, 19)}`, `@ ${mon} ${tm.mday} ${hhmm}`, `@ ${tm.mday} ${hhmm}:05.25`, `@ ${hhmm}`,
      `@${hhmm}:59.999999999`, `@ ${tm.hour % 12 || 12}pm`, `@ ${tm.hour % 12 || 12}:30 am ${tm.year}`, `@ ${ct.slice(0, 3)}`, `@ ${tm.year}`, `@ ${mon}`, `${iso} ${hhmm}`,
      `${iso} ${hhmm}:30`, `${tm.mday}-${mon}-${tm.year} ${hhmm}`, `${mon} ${tm.mday}, ${tm.year} ${hhmm}`, `${tm.month + 1}/${tm.mday}/${tm.year}`, `${iso} ${hhmm} EST`,
      `${iso} ${hhmm} -0300`, `${iso}T${hhmm}`, '-1 day', '+ 1 week', '-1 week', '2 hours ago', 'last year', `${iso} 2 days ago`, `${tm.year}${String(tm.month + 1).padStart(2, '0')}${String(tm.mday).padStart(2, '0')} ${hhmm}`,
      '@ Jan 5 10:00', '@ Dec 31 23:59', '@ 1 00:00', '@ 28 12:00', '@ 00:01', '@ 23:59', '@ :30', '@ 10::15', '@ Feb 29 2016', '@ 12am', '@ 12pm 2020', '@ 13pm',
      'garbage', '@ garbage', '@ Mar 32', '@ 25:00', '@ Xyz 10', '', '   ', `@ ${mon} ${tm.mday} ${hhmm} junk`, `${iso} (comment) ${hhmm}`, `${mon} ${tm.mday} ${tm.hour % 12 || 12} ${tm.hour < 12 ? 'am' : 'pm'}`,
    ];
    const base = { tz: a.timezone, start: a.start, end: a.end, S: null, T: null, A: null, O: null };
    for (const S of starts) out.push({ ...base, S });
    for (const T of ['-10', '+100', '-0', '+1000000', '@' + ct, `@ ${hhmm}`, `${iso} ${hhmm}`, 'bad', '2 min ago', '+5 min']) out.push({ ...base, T }, { ...base, S: '+20', T });
    for (const O of ['+30', '-5', '@' + ct, `@ ${hhmm}`, '+999999', 'bad']) out.push({ ...base, O }, { ...base, S: '+10', T: '-10', O });
    for (const A of ['10', '1min', '7.3', '0.35', '97', '1 day', '0', 'bad', '3h'])
      out.push({ ...base, A }, { ...base, S: '+13', A }, { ...base, S: '+3', T: '-3', A, O: '+40' }, { ...base, A, O: '-1' }, { ...base, A, T: '-0', O: '+1000' });
  }
  return out;
}

/** Forms anchored at the wall clock ("yesterday", "now") are compared at both clock readings. */
function now(sec: number): () => Timestamp {
  return () => ({ sec, nsec: 0 });
}

describe('interval and time-window parsing against libpcp', async () => {
  const labels = JSON.parse(
    await runPythonOracle('archive-label.py', ['bozo-disk', 'omnibus_v3', '20041125', '960624.08.17_v2', 'naslog', 'ac15', 'cputime', 'wrap'].map((a) => `${QA_ARCHIVES}/${a}`)),
  ) as Array<{ name: string; start: [number, number]; end: [number, number]; timezone: string }>;
  const archives: Archive[] = labels;
  const intervals = intervalInputs();
  const windows = windowInputs(archives);
  const reply = await queryPythonOracle<{ intervals: IntervalReply[]; windows: WindowReply[] }>('time-window.py', { intervals, windows });

  it('uses archives whose zones differ', () => {
    expect(new Set(archives.map((a) => a.timezone)).size).toBeGreaterThan(4);
  });

  it(`pmParseHighResInterval on ${intervals.length} texts`, () => {
    const mismatches: string[] = [];
    intervals.forEach((spec, i) => {
      const want = reply.intervals[i];
      const got = tryParseInterval(spec);
      // NaN: libpcp returns garbage, we refuse (docs/deviations.md).
      if (spec === 'nan') {
        if (got.ok) mismatches.push('nan accepted');
        return;
      }
      const g = got.ok ? { sts: 0, t: [got.interval.sec, got.interval.nsec], errmsg: null } : { sts: -1, t: null, errmsg: got.error.message };
      // libpcp may return tv_nsec = 1e9; ours is the same instant, normalised.
      const w = want?.t ? { ...want, t: ((t) => [t.sec, t.nsec])(makeTimestamp(want.t[0], want.t[1])) } : want;
      if (JSON.stringify(g) !== JSON.stringify(w)) mismatches.push(`${JSON.stringify(spec)}: ${JSON.stringify(g)} != ${JSON.stringify(want)}`);
    });
    expect(intervals.length).toBeGreaterThan(120);
    expect(mismatches).toEqual([]);
  });

  it(`pmParseHighResTimeWindow on ${windows.length} windows`, () => {
    const mismatches: string[] = [];
    windows.forEach((w, i) => {
      const want = reply.windows[i];
      if (!want) return;
      const args: TimeWindowArgs = {
        ...(w.S !== null ? { start: w.S } : {}),
        ...(w.T !== null ? { finish: w.T } : {}),
        ...(w.A !== null ? { align: w.A } : {}),
        ...(w.O !== null ? { origin: w.O } : {}),
      };
      const attempt = (clock: number): string => {
        // A fresh zone each time: libpcp's mktime guess was reset before each call too.
        const r = parseTimeWindow(args, { sec: w.start[0], nsec: w.start[1] }, { sec: w.end[0], nsec: w.end[1] }, { zone: Zone.fromTz(w.tz), now: now(clock) });
        const g = r.ok
          ? { sts: r.status, start: [r.start.sec, r.start.nsec], end: [r.end.sec, r.end.nsec], origin: [r.origin.sec, r.origin.nsec], errmsg: r.warning?.message ?? null }
          : { sts: -1, errmsg: r.error.message };
        return JSON.stringify(g);
      };
      const norm = ([sec, nsec]: [number, number]): number[] => ((t) => [t.sec, t.nsec])(makeTimestamp(sec, nsec));
      const expected = JSON.stringify(want.sts < 0 ? { sts: -1, errmsg: want.errmsg } : { sts: want.sts, start: norm(want.start), end: norm(want.end), origin: norm(want.origin), errmsg: want.errmsg });
      const got = [attempt(want.clock[0]), attempt(want.clock[1])];
      if (!got.includes(expected)) mismatches.push(`${JSON.stringify(w)}: ${got[0]} != ${expected}`);
    });
    expect(windows.length).toBeGreaterThan(500);
    expect(mismatches.slice(0, 15)).toEqual([]);
  });
});
