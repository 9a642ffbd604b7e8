// (Here, not beside src/ui/time/zone.ts: it runs PCP tools, and the UI lint forbids Node imports.)
// The UI's zones are libpcp's: for POSIX TZ strings of every rule form (J1, J0 and Mm.w.d
// dates, southern order, no DST, DST without rules) and zoneinfo names, the wall clock the
// time bar and chart axes print for an archive's first sample equals what pmval -Z prints
// for it (libpcp's pmNewZone over glibc). The old UI parser knew only Mm.w.d rules.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES } from './oracle';
import { formatClock, formatCtime, olsonZone, posixZone } from '../src/ui/time/zone';

const A = `${QA_ARCHIVES}/20180416.10.00`;

/** The archive's label start in epoch ms (pmdumplog -L in UTC, microseconds kept). */
function labelStartMs(): number {
  const out = execFileSync('pmdumplog', ['-L', '-Z', 'UTC', A], { encoding: 'utf8' });
  const m = /commencing\s+\w{3} (\w{3})\s+(\d+) (\d\d):(\d\d):(\d\d)\.(\d+) (\d{4})/.exec(out);
  if (!m) throw new Error(`unexpected pmdumplog -L output:\n${out}`);
  const month = 'JanFebMarAprMayJunJulAugSepOctNovDec'.indexOf(m[1] ?? '') / 3;
  return Date.UTC(Number(m[7]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])) + Number(`0.${m[6]}`) * 1000;
}

/** pmval's start line and first sample's time of day with TZ `tz`. */
function pmvalTimes(tz: string): { start: string; first: string } {
  const out = execFileSync('pmval', ['-Z', tz, '-s', '1', '-a', A, 'kernel.all.load'], { encoding: 'utf8' });
  const start = /^start:\s+(.*)$/m.exec(out)?.[1]?.trim();
  const first = /^(\d\d:\d\d:\d\d\.\d{3})\s/m.exec(out)?.[1];
  if (!start || !first) throw new Error(`unexpected pmval output:\n${out}`);
  return { start, first };
}

describe('UI zones equal pmval -Z on 20180416.10.00', () => {
  const startMs = labelStartMs();
  const posix = [
    'XST5XDT,J100/2,J110/2', // J1 dates around 16 April (day 106): daylight time
    'XST5XDT,J110,J300', // J1 dates after it: standard time
    'XST5XDT,99/2,120/2', // J0 (zero-based) dates
    'EST5EDT,M3.2.0,M11.1.0',
    'AEST-10AEDT,M10.1.0,M4.1.0/3', // southern hemisphere order
    'EDT+4', // no DST (20180416.10.00's own label)
    'XST5XDT', // a DST name without rules: posixrules' dates
    '<+0530>-5:30',
  ];
  for (const tz of posix) {
    it(tz, () => {
      const z = posixZone(tz);
      expect(z).toBeDefined();
      if (!z) return;
      const want = pmvalTimes(tz);
      expect(formatCtime(startMs, z)).toBe(want.start);
      expect(formatClock(startMs, z)).toBe(want.first);
    });
  }
  for (const name of ['America/New_York', 'Australia/Melbourne', 'Asia/Kolkata']) {
    it(name, () => {
      const z = olsonZone(name);
      expect(z).toBeDefined();
      if (!z) return;
      const want = pmvalTimes(`:${name}`);
      expect(formatCtime(startMs, z)).toBe(want.start);
      expect(formatClock(startMs, z)).toBe(want.first);
    });
  }
});
