// POSIX TZ rule strings ("AEDT-11", "EST-11EST-10,86/2:00,303/2:00",
// "GMT0BST-1,M3.5.0/2,M10.5.0/2", "<+0530>-5:30") interpreted exactly as glibc's tzset does
// — which is what libpcp's pmNewZone ends up using for an archive's label timezone:
// partial parses keep what was read, a missing DST offset means std + 1 h, rule dates J1 /
// J0 / Mm.w.d at a given local time, the southern-hemisphere order, the UTC year deciding
// which year's rules apply. A DST name without rules takes its transition instants from the
// system's posixrules file (America/New_York on Debian), as glibc's __tzfile_default does.
import { daysFromCivil, isLeapYear, MON_YDAY, SECS_PER_DAY } from './calendar';

type RuleType = 'J0' | 'J1' | 'M';

/** One of glibc's two tz_rules: the name and offset in force, and when it starts. */
interface TzRule {
  name: string;
  /** Seconds east of UTC. */
  offset: number;
  type: RuleType;
  /** J0/J1 day, or M day of week. */
  d: number;
  m: number;
  n: number;
  /** Local time of day of the change, seconds (may be negative or beyond a day). */
  secs: number;
}

/** A parsed TZ string: rule 0 is standard time (and the start of DST), rule 1 daylight time. */
export interface PosixTzSpec {
  readonly text: string;
  readonly rules: readonly [Readonly<TzRule>, Readonly<TzRule>];
  /** A DST name was given without rules: transitions come from posixrules (§ file comment). */
  readonly defaultRules: boolean;
  /** True when glibc's parser accepted the whole text. */
  readonly complete: boolean;
}

function zeroRule(): TzRule {
  return { name: '', offset: 0, type: 'J0', d: 0, m: 0, n: 0, secs: 0 };
}

const isAsciiAlpha = (c: string | undefined): boolean => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
const isAsciiDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';

/** sscanf's %hu from `pos`: white space, optional sign, digits; stored as unsigned short. */
function scanHu(text: string, pos: number): { value: number; end: number } | undefined {
  let i = pos;
  while (isSpace(text[i])) i++;
  let neg = false;
  if (text[i] === '+' || text[i] === '-') {
    neg = text[i] === '-';
    i++;
  }
  if (!isAsciiDigit(text[i])) return undefined;
  let v = 0;
  while (isAsciiDigit(text[i])) {
    v = Math.min(v * 10 + Number(text[i]), 2 ** 53);
    i++;
  }
  // strtoul saturates, then the store keeps the low 16 bits.
  const ul = v >= 2 ** 64 ? 0xffff : v;
  const value = Number(BigInt.asUintN(16, BigInt(neg ? -ul : ul)));
  return { value, end: i };
}

/** sscanf(tz, "%hu%n:%hu%n:%hu%n"): up to three numbers and where the last one ended. */
function scanHms(text: string, pos: number): { count: number; values: [number, number, number]; consumed: number } {
  const values: [number, number, number] = [0, 0, 0];
  let count = 0;
  let consumed = 0;
  let at = pos;
  for (let k = 0; k < 3; k++) {
    if (k > 0) {
      if (text[at] !== ':') break;
      at++;
    }
    const r = scanHu(text, at);
    if (!r) break;
    values[k] = r.value;
    count++;
    at = r.end;
    consumed = r.end - pos;
  }
  return { count, values, consumed };
}

/** Parses a TZ string with glibc's __tzset_parse_tz, never failing (as glibc never does). */
export function parsePosixTz(text: string): PosixTzSpec {
  const rules: [TzRule, TzRule] = [zeroRule(), zeroRule()];
  let pos = 0;
  let complete = true;

  const parseTzname = (which: 0 | 1): boolean => {
    let p = pos;
    while (isAsciiAlpha(text[p])) p++;
    let start = pos;
    let len = p - pos;
    if (len < 3) {
      p = pos;
      if (text[p++] !== '<') return false;
      start = p;
      while (isAsciiAlpha(text[p]) || isAsciiDigit(text[p]) || text[p] === '+' || text[p] === '-') p++;
      len = p - start;
      if (text[p++] !== '>' || len < 3) return false;
    }
    rules[which].name = text.slice(start, start + len);
    pos = p;
    return true;
  };

  const parseOffset = (which: 0 | 1): boolean => {
    let p = pos;
    const c = text[p];
    if (which === 0 && (c === undefined || (c !== '+' && c !== '-' && !isAsciiDigit(c)))) return false;
    let sign = -1;
    if (c === '+' || c === '-') {
      sign = c === '-' ? 1 : -1;
      p++;
    }
    pos = p;
    const hms = scanHms(text, p);
    if (hms.count > 0) {
      const [hh, mm, ss] = hms.values;
      rules[which].offset = sign * (Math.min(ss, 59) + Math.min(mm, 59) * 60 + Math.min(hh, 24) * 3600) || 0;
    } else if (which === 0) {
      rules[0].offset = 0;
      return false;
    } else {
      rules[1].offset = rules[0].offset + 3600;
    }
    pos = p + hms.consumed;
    return true;
  };

  const parseRule = (which: 0 | 1): boolean => {
    let p = pos;
    const r = rules[which];
    if (text[p] === ',') p++;
    const c = text[p];
    if (c === 'J' || isAsciiDigit(c)) {
      r.type = c === 'J' ? 'J1' : 'J0';
      if (r.type === 'J1' && !isAsciiDigit(text[++p])) return false;
      let q = p;
      let d = 0;
      while (isAsciiDigit(text[q])) d = Math.min(d * 10 + Number(text[q++]), 1e9);
      if (q === p || d > 365) return false;
      if (r.type === 'J1' && d === 0) return false;
      r.d = d;
      p = q;
    } else if (c === 'M') {
      r.type = 'M';
      // sscanf(tz, "M%hu.%hu.%hu%n", ...) must convert all three.
      const m = scanHu(text, p + 1);
      const n = m && text[m.end] === '.' ? scanHu(text, m.end + 1) : undefined;
      const d = n && text[n.end] === '.' ? scanHu(text, n.end + 1) : undefined;
      if (m) r.m = m.value;
      if (n) r.n = n.value;
      if (d) r.d = d.value;
      if (!m || !n || !d || r.m < 1 || r.m > 12 || r.n < 1 || r.n > 5 || r.d > 6) return false;
      p = d.end;
    } else if (c === undefined) {
      // The default US rules, M3.2.0 and M11.1.0 (only reached without posixrules).
      r.type = 'M';
      [r.m, r.n, r.d] = which === 0 ? [3, 2, 0] : [11, 1, 0];
    } else {
      return false;
    }
    if (text[p] !== undefined && text[p] !== '/' && text[p] !== ',') return false;
    if (text[p] === '/') {
      p++;
      if (text[p] === undefined) return false;
      const negative = text[p] === '-';
      if (negative) p++;
      const hms = scanHms(text, p);
      const [hh, mm, ss] = hms.count > 0 ? hms.values : [2, 0, 0];
      // An unparsed hour keeps its default of 2; minutes and seconds default to 0.
      const h = hms.count >= 1 ? hh : 2;
      p += hms.consumed;
      r.secs = (negative ? -1 : 1) * (h * 3600 + (hms.count >= 2 ? mm : 0) * 60 + (hms.count >= 3 ? ss : 0));
    } else {
      r.secs = 2 * 3600;
    }
    pos = p;
    return true;
  };

  let defaultRules = false;
  if (parseTzname(0) && parseOffset(0)) {
    if (pos < text.length) {
      if (parseTzname(1)) {
        parseOffset(1);
        if (pos === text.length || (text[pos] === ',' && pos + 1 === text.length)) defaultRules = true;
      } else {
        complete = false;
      }
      if (!defaultRules) {
        if (parseRule(0)) {
          if (!parseRule(1)) complete = false;
        } else {
          complete = false;
        }
      }
    } else {
      rules[1].name = rules[0].name;
      rules[1].offset = rules[0].offset;
    }
    if (pos !== text.length && !defaultRules) complete = false;
  } else {
    complete = false;
  }
  return { text, rules, defaultRules, complete };
}

/** UTC instant of a rule's change in `year` (glibc's compute_change, quirks included). */
export function ruleChange(rule: Readonly<TzRule>, year: number): number {
  // glibc starts from Jan 1 of the year only after 1970; earlier years use 1970-01-01.
  let t = year > 1970 ? daysFromCivil(year, 0, 1) * SECS_PER_DAY : 0;
  const leap = isLeapYear(year) ? 1 : 0;
  switch (rule.type) {
    case 'J1':
      t += (rule.d - 1) * SECS_PER_DAY;
      if (rule.d >= 60 && leap) t += SECS_PER_DAY;
      break;
    case 'J0':
      t += rule.d * SECS_PER_DAY;
      break;
    case 'M': {
      const table = MON_YDAY[leap];
      const before = table[rule.m - 1] ?? 0;
      const monthDays = (table[rule.m] ?? 0) - before;
      t += before * SECS_PER_DAY;
      // Day of week of the first of the month (glibc uses Zeller's congruence; same result).
      const dow = (((daysFromCivil(year, rule.m - 1, 1) + 4) % 7) + 7) % 7;
      let d = rule.d - dow;
      if (d < 0) d += 7;
      for (let i = 1; i < rule.n; i++) {
        if (d + 7 >= monthDays) break;
        d += 7;
      }
      t += d * SECS_PER_DAY;
      break;
    }
  }
  return t - rule.offset + rule.secs;
}

export interface ZoneOffset {
  /** Seconds east of UTC. */
  readonly gmtoff: number;
  readonly isdst: boolean;
  /** Abbreviation (tm_zone). */
  readonly zone: string;
}

/**
 * The offset glibc's __tz_compute gives at UTC second `sec` for a spec with explicit (or no)
 * rules. The rules of the UTC year containing `sec` decide.
 */
export function posixOffsetAt(spec: PosixTzSpec, sec: number, utcYear: number): ZoneOffset {
  return posixYearOffsets(spec, utcYear).at(sec);
}

/** A spec's offsets within one UTC year: its two change instants worked out once. */
export interface PosixYearOffsets {
  readonly year: number;
  /** The instants the offset changes at (either may lie outside the year). */
  readonly changes: readonly [number, number];
  at(sec: number): ZoneOffset;
}

/**
 * posixOffsetAt for many instants of one year (a replay formats a time per sample): the
 * change instants and both offsets computed once, not per call.
 */
export function posixYearOffsets(spec: PosixTzSpec, utcYear: number): PosixYearOffsets {
  const [r0, r1] = spec.rules;
  const c0 = ruleChange(r0, utcYear);
  const c1 = ruleChange(r1, utcYear);
  const std: ZoneOffset = { gmtoff: r0.offset, isdst: false, zone: r0.name };
  const dst: ZoneOffset = { gmtoff: r1.offset, isdst: true, zone: r1.name };
  return {
    year: utcYear,
    changes: [c0, c1],
    at: (sec) => ((c0 > c1 ? sec < c1 || sec >= c0 : sec >= c0 && sec < c1) ? dst : std),
  };
}
