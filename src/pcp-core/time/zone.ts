// Zone: what libpcp's pmNewZone(tz) + pmUseZone give a client — UTC seconds ↔ local
// broken-down time with offset, DST flag and abbreviation, and mktime — for an archive's
// label timezone, a -Z argument or a v3 zoneinfo name. pmNewZone appends "+0" to 3-character
// names; glibc then loads a zoneinfo file when one has that name (":" prefix or not) and
// otherwise parses POSIX rules. Files are answered by Intl (intl-zone.ts), rules by
// posix-tz.ts. Used by the time-window parser and every formatter of local times.
import { breakDown, civilFromDays, daysFromCivil, SECS_PER_DAY } from './calendar';
import type { BrokenDownTime } from './calendar';
import { IntlZoneRules, isIntlZone } from './intl-zone';
import { mktimeProbe } from './mktime';
import type { LocalTimeFields, MktimeState } from './mktime';
import { parsePosixTz, posixOffsetAt, posixYearOffsets } from './posix-tz';
import type { PosixTzSpec, PosixYearOffsets, ZoneOffset } from './posix-tz';

export type { BrokenDownTime } from './calendar';
export type { LocalTimeFields } from './mktime';
export type { ZoneOffset } from './posix-tz';

/**
 * Zoneinfo files whose names also parse as POSIX rules: glibc finds the file first, with its
 * historical US rules (other rule-like names are not files on a Debian system).
 */
const RULE_LIKE_FILES = new Set(['EST5EDT', 'CST6CDT', 'MST7MDT', 'PST8PDT']);

/**
 * glibc's posixrules is America/New_York (Debian): a TZ string with a DST name but no rules
 * (glibc's __tzfile_default) switches at New York's transitions moved by the user's offsets —
 * a switch into DST by std + 5 h, a switch out of it by the DST offset (what glibc 2.36
 * does, measured) — until the file's last transition; from then on the file's footer rule
 * "EST5EDT,M3.2.0,M11.1.0" applies with its own names and offsets.
 */
const POSIXRULES_FOOTER = 'EST5EDT,M3.2.0,M11.1.0';
const NY_STANDARD_OFFSET = -5 * 3600;
const NY_DAYLIGHT_OFFSET = -4 * 3600;
/** The last transition in America/New_York's file: 2037-11-01 06:00 UTC. */
const NY_LAST_TRANSITION = daysFromCivil(2037, 10, 1) * SECS_PER_DAY + 6 * 3600;
const NY_FIRST_SCAN = daysFromCivil(1883, 0, 1) * SECS_PER_DAY;

/** New York's offset changes up to its file's last one: [instant, isdst after] pairs. */
let nyTransitions: Array<readonly [number, boolean]> | undefined;
function newYorkTransitions(): ReadonlyArray<readonly [number, boolean]> {
  if (nyTransitions) return nyTransitions;
  const ny = new IntlZoneRules('America/New_York');
  const list: Array<readonly [number, boolean]> = [];
  const step = 20 * SECS_PER_DAY;
  let prev = NY_FIRST_SCAN;
  let prevOff = ny.gmtoff(prev);
  for (let t = prev + step; prev < NY_LAST_TRANSITION; t += step) {
    const off = ny.gmtoff(t);
    if (off !== prevOff) {
      let lo = prev;
      let hi = t;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (ny.gmtoff(mid) === prevOff) lo = mid;
        else hi = mid;
      }
      list.push([hi, ny.gmtoff(hi) === NY_DAYLIGHT_OFFSET]);
    }
    prev = t;
    prevOff = off;
  }
  nyTransitions = list.filter(([t]) => t <= NY_LAST_TRANSITION);
  return nyTransitions;
}

interface Transitions {
  readonly at: Float64Array;
  readonly dst: Uint8Array;
}

/**
 * The user's transitions under __tzfile_default. glibc 2.36 keeps part of its state between
 * parses, so there are two views (measured): after a TZ change, a switch out of DST moves by
 * the DST offset (what pmLocaltime and pmCtime see); after mktime's own re-parse of the same
 * TZ it does not move at all (what __pmMktime sees). Switches into DST move by std + 5 h in
 * both.
 */
function shiftedTransitions(spec: PosixTzSpec): { readonly shifted: Transitions; readonly raw: Transitions } {
  const [std, dst] = spec.rules;
  const ny = newYorkTransitions();
  const at = new Float64Array(ny.length);
  const raw = new Float64Array(ny.length);
  const flags = new Uint8Array(ny.length);
  let prevDst = false;
  ny.forEach(([t, isdst], i) => {
    at[i] = t + (prevDst ? dst.offset : std.offset - NY_STANDARD_OFFSET);
    raw[i] = prevDst ? t : t + std.offset - NY_STANDARD_OFFSET;
    flags[i] = isdst ? 1 : 0;
    prevDst = isdst;
  });
  return { shifted: { at, dst: flags }, raw: { at: raw, dst: flags } };
}

/** Whether the last transition at or before `sec` entered DST, or undefined past the last. */
function dstAt(tr: Transitions, sec: number): boolean | undefined {
  const { at, dst } = tr;
  if (sec >= (at[at.length - 1] ?? Infinity)) return undefined;
  let lo = 0;
  let hi = at.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((at[mid] ?? Infinity) <= sec) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && dst[lo - 1] === 1;
}

type Rules =
  | { readonly kind: 'posix'; readonly spec: PosixTzSpec }
  | { readonly kind: 'posixrules'; readonly spec: PosixTzSpec; readonly shifted: { readonly shifted: Transitions; readonly raw: Transitions }; readonly footer: PosixTzSpec }
  | { readonly kind: 'intl'; readonly intl: IntlZoneRules };

export class Zone {
  /** glibc's mktime offset guess, kept per zone (glibc keeps one per process). */
  private readonly mktimeState: MktimeState = { offsetGuess: 0 };
  private yearStart = NaN;
  private yearEnd = NaN;
  private year = NaN;
  /** The 'posix' rules' offsets in `year` (offsetAt runs once per sample printed). */
  private posixYear: PosixYearOffsets | undefined;
  /** The last 'posix' answer and the span [spanFrom, spanTo) it holds for. */
  private spanFrom = 0;
  private spanTo = -1;
  private spanOffset: ZoneOffset | undefined;

  private constructor(
    /** The TZ value in force, after pmNewZone's "+0" for 3-character names. */
    readonly tz: string,
    private readonly rules: Rules,
  ) {}

  /** How the zone is answered: POSIX rules, POSIX rules with posixrules dates, or zoneinfo. */
  get kind(): Rules['kind'] {
    return this.rules.kind;
  }

  /** pmNewZone: a zone from a TZ value such as an archive label's timezone. */
  static fromTz(tz: string): Zone {
    const value = tz.length === 3 ? `${tz}+0` : tz;
    return new Zone(value, chooseRules(value));
  }

  /** UTC offset, DST flag and abbreviation in force at UTC second `sec`. */
  offsetAt(sec: number): ZoneOffset {
    const r = this.rules;
    switch (r.kind) {
      case 'intl':
        return r.intl.offsetAt(sec);
      case 'posix': {
        // Successive samples nearly always fall in the span of the previous answer.
        if (this.spanOffset && sec >= this.spanFrom && sec < this.spanTo) return this.spanOffset;
        const year = this.utcYear(sec);
        if (this.posixYear?.year !== year) this.posixYear = posixYearOffsets(r.spec, year);
        const o = this.posixYear.at(sec);
        // The answer holds between the year's change instants either side of sec.
        let from = this.yearStart;
        let to = this.yearEnd;
        for (const c of this.posixYear.changes) {
          if (c <= sec && c > from) from = c;
          if (c > sec && c < to) to = c;
        }
        this.spanFrom = from;
        this.spanTo = to;
        this.spanOffset = o;
        return o;
      }
      case 'posixrules':
        return this.posixrulesOffset(r, r.shifted.shifted, sec);
    }
  }

  /** pmLocaltime: the local broken-down time of UTC second `sec`. */
  localtime(sec: number): BrokenDownTime {
    const o = this.offsetAt(sec);
    return breakDown(sec, o.gmtoff, o.isdst, o.zone);
  }

  /**
   * __pmMktime: the UTC second of a local time (fields may be out of range), or undefined
   * where glibc's mktime returns −1. Like glibc, remembers the last offset as its next guess,
   * which decides between the two instants of an ambiguous (fall-back) local time.
   */
  mktime(fields: LocalTimeFields): number | undefined {
    const r = this.rules;
    const localtime =
      r.kind === 'posixrules'
        ? (s: number): BrokenDownTime => {
            const o = this.posixrulesOffset(r, r.shifted.raw, s);
            return breakDown(s, o.gmtoff, o.isdst, o.zone);
          }
        : (s: number): BrokenDownTime => this.localtime(s);
    return mktimeProbe(fields, localtime, this.mktimeState);
  }

  private posixrulesOffset(r: Extract<Rules, { kind: 'posixrules' }>, view: Transitions, sec: number): ZoneOffset {
    const isdst = dstAt(view, sec);
    if (isdst === undefined) return posixOffsetAt(r.footer, sec, this.utcYear(sec));
    const rule = r.spec.rules[isdst ? 1 : 0];
    return { gmtoff: rule.offset, isdst, zone: rule.name };
  }

  private utcYear(sec: number): number {
    if (!(sec >= this.yearStart && sec < this.yearEnd)) {
      const y = civilFromDays(Math.floor(sec / SECS_PER_DAY)).year;
      this.year = y;
      this.yearStart = daysFromCivil(y, 0, 1) * SECS_PER_DAY;
      this.yearEnd = daysFromCivil(y + 1, 0, 1) * SECS_PER_DAY;
    }
    return this.year;
  }
}

function chooseRules(value: string): Rules {
  // glibc: "" means the UTC file; a leading ':' is dropped; a file by that name wins.
  if (value === '') return { kind: 'intl', intl: new IntlZoneRules('UTC') };
  const name = value.startsWith(':') ? value.slice(1) : value;
  const spec = parsePosixTz(name);
  const file = RULE_LIKE_FILES.has(name) || ((!spec.complete || value.startsWith(':')) && isIntlZone(name));
  if (file && isIntlZone(name)) return { kind: 'intl', intl: new IntlZoneRules(name) };
  if (spec.defaultRules) return { kind: 'posixrules', spec, shifted: shiftedTransitions(spec), footer: parsePosixTz(POSIXRULES_FOOTER) };
  return { kind: 'posix', spec };
}

/** The UTC zone ("UTC" abbreviation, never DST). */
export function utcZone(): Zone {
  return Zone.fromTz('UTC');
}
