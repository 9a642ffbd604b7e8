import { describe, expect, it } from 'vitest';
import { displayZone, formatCtime, formatIso, parseIso, posixZone, UTC_ZONE } from './zone';

describe('zones', () => {
  it('reads a fixed POSIX zone as pmdumplog prints it (EDT+4 is UTC-4)', () => {
    const z = posixZone('EDT+4');
    expect(z?.offsetMinutes(0)).toBe(-240);
    // 20180416.10.00 starts at 18:01:25 UTC = 14:01:25 EDT.
    const start = Date.UTC(2018, 3, 16, 18, 1, 25, 325);
    expect(z && formatCtime(start, z)).toBe('Mon Apr 16 14:01:25 2018');
  });

  it('applies POSIX DST rules', () => {
    const z = posixZone('EST5EDT,M3.2.0,M11.1.0');
    expect(z?.offsetMinutes(Date.UTC(2018, 0, 10))).toBe(-300);
    expect(z?.offsetMinutes(Date.UTC(2018, 6, 10))).toBe(-240);
    // 2018-03-11 02:00 EST = 07:00 UTC.
    expect(z?.offsetMinutes(Date.UTC(2018, 2, 11, 6, 59))).toBe(-300);
    expect(z?.offsetMinutes(Date.UTC(2018, 2, 11, 7, 0))).toBe(-240);
    expect(posixZone('AEST-10AEDT,M10.1.0,M4.1.0/3')?.offsetMinutes(Date.UTC(2018, 0, 10))).toBe(660);
  });

  it('prefers the v3 Olson name and falls back to the POSIX string', () => {
    expect(displayZone('archive', { zoneinfo: ':America/New_York', timezone: 'EST5EDT' }).offsetMinutes(Date.UTC(2018, 6, 1))).toBe(-240);
    expect(displayZone('archive', { zoneinfo: '', timezone: 'EDT+4' }).label).toBe('EDT');
    expect(displayZone('utc').label).toBe('UTC');
  });

  it('round-trips the position text', () => {
    const z = posixZone('EDT+4');
    const t = Date.UTC(2018, 3, 16, 18, 31, 5, 325);
    expect(z && formatIso(t, z)).toBe('2018-04-16 14:31:05.325');
    expect(z && parseIso('2018-04-16 14:31:05.325', z)).toBe(t);
    expect(parseIso('nonsense', UTC_ZONE)).toBeNaN();
  });
});
