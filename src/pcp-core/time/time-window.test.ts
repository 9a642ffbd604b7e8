// interval.ts, ctime-parse.ts, getdate.ts and time-window.ts without PCP: the forms of
// PCPIntro(1)'s time-window section and libpcp's quirks.
import { describe, expect, it } from 'vitest';
import { parseCtime } from './ctime-parse';
import { getDate } from './getdate';
import { parseInterval, tryParseInterval } from './interval';
import { TimeParseError } from './parse-error';
import { parseTimeWindow } from './time-window';
import { Zone } from './zone';

describe('parseInterval (pmParseHighResInterval)', () => {
  it.each([
    ['10', 10, 0],
    ['2.5sec', 2, 500_000_000],
    ['250 msec', 0, 250_000_000],
    ['1.5min', 90, 0],
    ['1hour', 3600, 0],
    ['1 day', 86400, 0],
    ['1h30m', 5400, 0],
    ['0.35', 0, 350_000_000],
    ['250ms', 15000, 0], // "ms" loses its trailing s: minutes, as in libpcp
  ])('%j', (text, sec, nsec) => {
    expect(parseInterval(text)).toEqual({ sec, nsec });
  });

  it('reports errors with libpcp\'s caret text', () => {
    const r = tryParseInterval('10x');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe('10x\n  ^ -- unexpected value\n');
    expect(() => parseInterval('')).toThrow(TimeParseError);
    expect(() => parseInterval('nan')).toThrow(TimeParseError);
  });
});

describe('parseCtime (the @ form)', () => {
  it('fills defaults after the first field given', () => {
    expect(parseCtime('Mar 16 10:31')).toEqual({ ok: true, fields: { year: -1, month: 2, mday: 16, hour: 10, min: 31, sec: 0, nsec: 0 } });
    expect(parseCtime('10:31:13.5')).toEqual({ ok: true, fields: { year: -1, month: -1, mday: -1, hour: 10, min: 31, sec: 13, nsec: 500_000_000 } });
    expect(parseCtime('10pm 2017')).toEqual({ ok: true, fields: { year: 2017, month: 0, mday: 1, hour: 22, min: 0, sec: 0, nsec: 0 } });
  });
  it('refuses what libpcp refuses', () => {
    const junk = parseCtime('Mar 16 junk');
    expect(junk.ok || junk.error.reason).toBe('unexpected value');
    const bare = parseCtime('Thu');
    expect(bare.ok || bare.error.reason).toBe('more information expected');
  });
});

describe('getDate (__pmGetDate)', () => {
  const z = Zone.fromTz('UTC');
  const now = Date.UTC(2011, 11, 14, 20, 31, 47) / 1000;
  it.each([
    ['2011-12-14 20:31', Date.UTC(2011, 11, 14, 20, 31) / 1000],
    ['14-Dec-2011 8pm', Date.UTC(2011, 11, 14, 20) / 1000],
    ['Dec 14, 2011 10:00 EST', Date.UTC(2011, 11, 14, 15) / 1000],
    ['yesterday', Date.UTC(2011, 11, 13) / 1000],
    ['2 days ago', now - 2 * 86400],
    ['now', now],
    ['tomorrow 10:00', Date.UTC(2011, 11, 15, 10) / 1000],
    ['20111214', Date.UTC(2011, 11, 14) / 1000],
  ])('%j', (text, want) => {
    expect(getDate(text, now, z)).toBe(want);
  });
  it('fails where libpcp fails', () => {
    expect(getDate('garbage', now, z)).toBeUndefined();
    expect(getDate('10:00 11:00', now, z)).toBeUndefined();
    expect(getDate('1960-01-01', now, z)).toBeUndefined();
  });
});

describe('parseTimeWindow (pmParseHighResTimeWindow)', () => {
  const zone = Zone.fromTz('AEDT-11');
  const start = { sec: 1489620673, nsec: 870437000 };
  const end = { sec: 1489620853, nsec: 891408000 };
  const ctx = { zone, now: () => ({ sec: 1489620700, nsec: 0 }) };
  it('anchors +offsets at the start and -offsets at the end, and clamps', () => {
    const r = parseTimeWindow({ start: '+10', finish: '-30sec' }, start, end, ctx);
    expect(r).toMatchObject({ ok: true, status: 1, start: { sec: 1489620683, nsec: 870437000 }, end: { sec: 1489620823, nsec: 891408000 } });
    expect(parseTimeWindow({ start: '-1000', finish: '+1000000' }, start, end, ctx)).toMatchObject({ start, end });
  });
  it('reads @ dates in the zone and aligns with -A', () => {
    expect(parseTimeWindow({ start: '@ 10:32' }, start, end, ctx)).toMatchObject({ ok: true, start: { sec: 1489620720, nsec: 0 } });
    expect(parseTimeWindow({ align: '1min' }, start, end, ctx)).toMatchObject({ ok: true, status: 1, start: { sec: 1489620720, nsec: 0 } });
    const far = parseTimeWindow({ align: '1 day' }, start, end, ctx);
    expect(far.ok && far.status).toBe(0);
  });
  it('returns libpcp\'s message for bad input', () => {
    const r = parseTimeWindow({ start: 'garbage' }, start, end, ctx);
    expect(r.ok || r.error.message).toBe('garbage\n^ -- unexpected value\n');
  });
});
