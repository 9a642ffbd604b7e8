// time/zone.ts, posix-tz.ts, calendar.ts and format.ts without PCP: rule parsing, southern
// hemisphere rules, Jn/n/Mm.w.d dates, pmNewZone's "+0", mktime across gaps and overlaps.
import { describe, expect, it } from 'vitest';
import { civilFromDays, daysFromCivil } from './calendar';
import { formatCtime, formatCtimeFraction, formatTimeOfDay, writeTimeOfDayMillis } from './format';
import { parsePosixTz, ruleChange } from './posix-tz';
import { Zone } from './zone';

const utc = (y: number, m: number, d: number, h = 0, mi = 0, s = 0): number => Date.UTC(y, m - 1, d, h, mi, s) / 1000;

describe('calendar', () => {
  it('round-trips day numbers', () => {
    for (let d = -800000; d <= 800000; d += 997) {
      const c = civilFromDays(d);
      expect(daysFromCivil(c.year, c.month, c.mday)).toBe(d);
    }
    expect(daysFromCivil(1970, 0, 1)).toBe(0);
    expect(daysFromCivil(2000, 2, 1)).toBe(11017);
  });
});

describe('POSIX TZ rules', () => {
  it('parses names, offsets and rules as glibc does', () => {
    const s = parsePosixTz('EST-11EST-10,86/2:00,303/2:00');
    expect(s.complete).toBe(true);
    expect(s.rules.map((r) => [r.name, r.offset, r.type, r.d, r.secs])).toEqual([
      ['EST', 39600, 'J0', 86, 7200],
      ['EST', 36000, 'J0', 303, 7200],
    ]);
    expect(parsePosixTz('<+0530>-5:30').rules[0]).toMatchObject({ name: '+0530', offset: 19800 });
    expect(parsePosixTz('AEDT-11').rules[1]).toMatchObject({ name: 'AEDT', offset: 39600 });
    expect(parsePosixTz('AEST-10AEDT,M10.1.0,M4.1.0/3').rules[1]).toMatchObject({ offset: 39600, type: 'M', m: 4, n: 1, d: 0, secs: 10800 });
    expect(parsePosixTz('AEST-10AEDT').defaultRules).toBe(true);
    expect(parsePosixTz('foo').complete).toBe(false);
  });

  it('computes rule dates (M, J1 and leap years, J0)', () => {
    const [start, end] = parsePosixTz('GMT0BST-1,M3.5.0/2,M10.5.0/2').rules;
    expect(ruleChange(start, 2011)).toBe(utc(2011, 3, 27, 2));
    expect(ruleChange(end, 2011)).toBe(utc(2011, 10, 30, 1));
    const [j60] = parsePosixTz('XST5XDT,J60/2,J300/2').rules;
    expect(ruleChange(j60, 2012)).toBe(utc(2012, 3, 1, 7));
    expect(ruleChange(j60, 2011)).toBe(utc(2011, 3, 1, 7));
  });
});

describe('Zone', () => {
  it('gives local times, DST flags and abbreviations', () => {
    const z = Zone.fromTz('AEST-10AEDT-11,M10.5.0/3,M3.5.0/2');
    expect(z.localtime(utc(2011, 12, 14, 9, 31, 47))).toMatchObject({ year: 2011, month: 11, mday: 14, hour: 20, min: 31, sec: 47, wday: 3, isdst: true, gmtoff: 39600, zone: 'AEDT' });
    expect(z.offsetAt(utc(2011, 7, 1))).toEqual({ gmtoff: 36000, isdst: false, zone: 'AEST' });
    // The "southern" trick: "daylight" EST-10 from day 86 to day 303, EST-11 otherwise.
    const q = Zone.fromTz('EST-11EST-10,86/2:00,303/2:00');
    expect(q.offsetAt(utc(2004, 11, 9)).gmtoff).toBe(39600);
    expect(q.offsetAt(utc(2004, 6, 9)).gmtoff).toBe(36000);
  });

  it('applies pmNewZone\'s "+0" to three-character names', () => {
    expect(Zone.fromTz('EST').tz).toBe('EST+0');
    expect(Zone.fromTz('EST').offsetAt(0)).toEqual({ gmtoff: 0, isdst: false, zone: 'EST' });
    expect(Zone.fromTz('UTC').kind).toBe('posix');
  });

  it('answers zoneinfo names through Intl', () => {
    const z = Zone.fromTz(':Australia/Melbourne');
    expect(z.kind).toBe('intl');
    expect(z.offsetAt(utc(2022, 4, 3, 6))).toEqual({ gmtoff: 36000, isdst: false, zone: 'AEST' });
    expect(z.offsetAt(utc(2022, 1, 3, 6))).toEqual({ gmtoff: 39600, isdst: true, zone: 'AEDT' });
    expect(Zone.fromTz('PST8PDT').kind).toBe('intl');
  });

  it('inverts localtime with mktime, gaps and overlaps included', () => {
    const z = Zone.fromTz('AEST-10AEDT-11,M10.5.0/3,M3.5.0/2');
    expect(z.mktime({ year: 2011, month: 11, mday: 14, hour: 20, min: 31, sec: 47, isdst: -1 })).toBe(utc(2011, 12, 14, 9, 31, 47));
    // 2011-10-30 03:30 does not exist (clocks go 03:00 → 04:00): glibc lands an hour on, in DST.
    const gap = z.mktime({ year: 2011, month: 9, mday: 30, hour: 3, min: 30, sec: 0, isdst: -1 });
    expect(z.localtime(gap ?? NaN).hour).toBe(4);
    // Out-of-range fields roll over.
    expect(z.mktime({ year: 2011, month: 12, mday: 1, hour: 0, min: 0, sec: 0, isdst: -1 })).toBe(utc(2011, 12, 31, 13));
  });
});

describe('formatting', () => {
  const z = Zone.fromTz('AEDT-11');
  it('prints pmCtime and the tools\' time-of-day forms', () => {
    expect(formatCtime(z, utc(2011, 12, 14, 9, 31, 47))).toBe('Wed Dec 14 20:31:47 2011');
    expect(formatCtime(z, utc(2011, 12, 3, 9, 31, 47))).toBe('Sat Dec  3 20:31:47 2011');
    const t = { sec: utc(2011, 12, 14, 9, 31, 56), nsec: 999_999_999 };
    expect(formatTimeOfDay(z, t, 3)).toBe('20:31:56.999');
    expect(formatTimeOfDay(z, t, 6)).toBe('20:31:56.999999');
    expect(formatTimeOfDay(z, t, 0)).toBe('20:31:56');
    expect(formatCtimeFraction(Zone.fromTz('UTC'), { sec: 1489620673, nsec: 870437000 }, 6)).toBe('Wed Mar 15 23:31:13.870437 2017');
  });

  // The values table writes its times as bytes: they must be formatTimeOfDay's text exactly,
  // across zones (POSIX, J-rules, zoneinfo), DST changes, days before 1970 and every digit.
  it('writes the time of day as bytes as formatTimeOfDay prints it', () => {
    const zones = ['UTC', 'AEDT-11', 'EST5EDT', 'XXX-3J100/2,J300/3', ':America/New_York', ':Australia/Melbourne'].map((tz) => Zone.fromTz(tz));
    const out = new Uint8Array(40);
    for (const zone of zones) {
      for (const sec of [0, -1, -86401, utc(2011, 3, 13, 6, 59, 59), utc(2011, 3, 13, 7), utc(2018, 4, 16, 14, 5, 9), utc(2018, 1, 2, 23, 59, 59), 2 ** 32 + 17]) {
        for (const nsec of [0, 1_000_000, 9_999_999, 123_456_789, 999_999_999]) {
          const t = { sec, nsec };
          const end = writeTimeOfDayMillis(zone, t.sec, t.nsec, out, 3);
          expect(String.fromCharCode(...out.subarray(3, end))).toBe(formatTimeOfDay(zone, t, 3));
        }
      }
    }
    // Damaged stamps are left to the string formatter.
    expect(writeTimeOfDayMillis(zones[0], 1.5, 0, out, 0)).toBe(-1);
    expect(writeTimeOfDayMillis(zones[0], 1, 1e9, out, 0)).toBe(-1);
    expect(writeTimeOfDayMillis(zones[0], 1, -1, out, 0)).toBe(-1);
  });
});
