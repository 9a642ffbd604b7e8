// The tokens of libpcp's getdate grammar (getdate.y, the public-domain "getdate" of Bellovin,
// $alz and Berets): numbers with or without a sign, words looked up in its month/day, zone,
// unit and relative-word tables (abbreviations, plurals, periods and military zones as it
// allows them), single characters, and parenthesised comments skipped. getdate.ts parses them.
import { isCAlpha, isCDigit, isCSpace } from '../c-numeric';

export type Token =
  | { readonly kind: 'UNUMBER' | 'SNUMBER'; readonly value: number }
  | { readonly kind: 'MONTH' | 'DAY' | 'ZONE' | 'DAYZONE' | 'MINUTE_UNIT' | 'SEC_UNIT' | 'MONTH_UNIT' | 'DAMINUTE_UNIT'; readonly value: number }
  | { readonly kind: 'MERIDIAN'; readonly value: 'am' | 'pm' }
  | { readonly kind: 'AGO' | 'DST' | 'ID' | 'END' }
  | { readonly kind: 'CHAR'; readonly char: string };

type WordKind = 'MONTH' | 'DAY' | 'ZONE' | 'DAYZONE' | 'MINUTE_UNIT' | 'SEC_UNIT' | 'MONTH_UNIT' | 'DAMINUTE_UNIT' | 'UNUMBER' | 'AGO';
type Entry = readonly [name: string, kind: WordKind, value: number];

const MONTH_DAY: readonly Entry[] = [
  ['january', 'MONTH', 1], ['february', 'MONTH', 2], ['march', 'MONTH', 3], ['april', 'MONTH', 4], ['may', 'MONTH', 5], ['june', 'MONTH', 6],
  ['july', 'MONTH', 7], ['august', 'MONTH', 8], ['september', 'MONTH', 9], ['sept', 'MONTH', 9], ['october', 'MONTH', 10], ['november', 'MONTH', 11],
  ['december', 'MONTH', 12], ['sunday', 'DAY', 0], ['monday', 'DAY', 1], ['tuesday', 'DAY', 2], ['tues', 'DAY', 2], ['wednesday', 'DAY', 3],
  ['wednes', 'DAY', 3], ['thursday', 'DAY', 4], ['thur', 'DAY', 4], ['thurs', 'DAY', 4], ['friday', 'DAY', 5], ['saturday', 'DAY', 6],
];
const UNITS: readonly Entry[] = [
  ['year', 'MONTH_UNIT', 12], ['month', 'MONTH_UNIT', 1], ['fortnight', 'MINUTE_UNIT', 14 * 24 * 60], ['week', 'MINUTE_UNIT', 7 * 24 * 60],
  ['day', 'MINUTE_UNIT', 24 * 60], ['hour', 'MINUTE_UNIT', 60], ['minute', 'MINUTE_UNIT', 1], ['min', 'MINUTE_UNIT', 1], ['second', 'SEC_UNIT', 1], ['sec', 'SEC_UNIT', 1],
];
const OTHER: readonly Entry[] = [
  ['tomorrow', 'DAMINUTE_UNIT', 24 * 60], ['yesterday', 'DAMINUTE_UNIT', -24 * 60], ['today', 'DAMINUTE_UNIT', 0], ['now', 'MINUTE_UNIT', 0],
  ['last', 'UNUMBER', -1], ['this', 'MINUTE_UNIT', 0], ['next', 'UNUMBER', 2], ['first', 'UNUMBER', 1], ['third', 'UNUMBER', 3],
  ['fourth', 'UNUMBER', 4], ['fifth', 'UNUMBER', 5], ['sixth', 'UNUMBER', 6], ['seventh', 'UNUMBER', 7], ['eighth', 'UNUMBER', 8],
  ['ninth', 'UNUMBER', 9], ['tenth', 'UNUMBER', 10], ['eleventh', 'UNUMBER', 11], ['twelfth', 'UNUMBER', 12], ['ago', 'AGO', 1],
];
/** Zones in minutes west of UTC (HOUR(x) = 60x). */
const H = (x: number): number => x * 60;
const ZONES: readonly Entry[] = [
  ['gmt', 'ZONE', H(0)], ['ut', 'ZONE', H(0)], ['utc', 'ZONE', H(0)], ['wet', 'ZONE', H(0)], ['bst', 'DAYZONE', H(0)], ['wat', 'ZONE', H(1)],
  ['at', 'ZONE', H(2)], ['ast', 'ZONE', H(4)], ['adt', 'DAYZONE', H(4)], ['est', 'ZONE', H(5)], ['edt', 'DAYZONE', H(5)], ['cst', 'ZONE', H(6)],
  ['cdt', 'DAYZONE', H(6)], ['mst', 'ZONE', H(7)], ['mdt', 'DAYZONE', H(7)], ['pst', 'ZONE', H(8)], ['pdt', 'DAYZONE', H(8)], ['yst', 'ZONE', H(9)],
  ['ydt', 'DAYZONE', H(9)], ['hst', 'ZONE', H(10)], ['hdt', 'DAYZONE', H(10)], ['cat', 'ZONE', H(10)], ['ahst', 'ZONE', H(10)], ['nt', 'ZONE', H(11)],
  ['idlw', 'ZONE', H(12)], ['cet', 'ZONE', -H(1)], ['met', 'ZONE', -H(1)], ['mewt', 'ZONE', -H(1)], ['mest', 'DAYZONE', -H(1)], ['swt', 'ZONE', -H(1)],
  ['sst', 'DAYZONE', -H(1)], ['fwt', 'ZONE', -H(1)], ['fst', 'DAYZONE', -H(1)], ['eet', 'ZONE', -H(2)], ['bt', 'ZONE', -H(3)], ['zp4', 'ZONE', -H(4)],
  ['zp5', 'ZONE', -H(5)], ['zp6', 'ZONE', -H(6)], ['wast', 'ZONE', -H(7)], ['wadt', 'DAYZONE', -H(7)], ['cct', 'ZONE', -H(8)], ['jst', 'ZONE', -H(9)],
  ['east', 'ZONE', -H(10)], ['eadt', 'DAYZONE', -H(10)], ['gst', 'ZONE', -H(10)], ['nzt', 'ZONE', -H(12)], ['nzst', 'ZONE', -H(12)], ['nzdt', 'DAYZONE', -H(12)],
  ['idle', 'ZONE', -H(12)],
];
/** Military zones a–z without j. */
const MILITARY: ReadonlyMap<string, number> = new Map(
  'abcdefghiklm'.split('').map((c, i) => [c, H(i + 1)] as [string, number]).concat('nopqrstuvwxy'.split('').map((c, i) => [c, H(-(i + 1))] as [string, number]), [['z', 0]]),
);

function entry(e: Entry): Token {
  const [, kind, value] = e;
  return kind === 'AGO' ? { kind: 'AGO' } : { kind, value };
}

/** LookupWord: `word` is the letters and periods read (at most 19 kept). */
function lookupWord(raw: string): Token {
  let buff = raw.toLowerCase();
  if (buff === 'am' || buff === 'a.m.') return { kind: 'MERIDIAN', value: 'am' };
  if (buff === 'pm' || buff === 'p.m.') return { kind: 'MERIDIAN', value: 'pm' };
  let abbrev = false;
  if (buff.length === 3) abbrev = true;
  else if (buff.length === 4 && buff[3] === '.') {
    abbrev = true;
    buff = buff.slice(0, 3);
  }
  const md = MONTH_DAY.find(([name]) => (abbrev ? name.slice(0, 3) === buff : name === buff));
  if (md) return entry(md);
  const zone = ZONES.find(([name]) => name === buff);
  if (zone) return entry(zone);
  if (buff === 'dst') return { kind: 'DST' };
  const unit = UNITS.find(([name]) => name === buff);
  if (unit) return entry(unit);
  if (buff.endsWith('s')) {
    const single = UNITS.find(([name]) => name === buff.slice(0, -1));
    if (single) return entry(single);
  }
  const other = OTHER.find(([name]) => name === buff);
  if (other) return entry(other);
  if (buff.length === 1 && isCAlpha(buff)) {
    const m = MILITARY.get(buff);
    if (m !== undefined) return { kind: 'ZONE', value: m };
  }
  if (buff.includes('.')) {
    const z = ZONES.find(([name]) => name === buff.replaceAll('.', ''));
    if (z) return entry(z);
  }
  return { kind: 'ID' };
}

/** yylex: the tokens of `text`, ending with END. */
export function lexGetdate(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  for (;;) {
    while (isCSpace(text[i])) i++;
    const c = text[i];
    if (c === undefined) {
      out.push({ kind: 'END' });
      return out;
    }
    if (isCDigit(c) || c === '-' || c === '+') {
      let sign = 0;
      if (c === '-' || c === '+') {
        sign = c === '-' ? -1 : 1;
        i++;
        // A sign not followed by a digit is skipped.
        if (!isCDigit(text[i])) continue;
      }
      let n = 0;
      while (isCDigit(text[i])) n = 10 * n + Number(text[i++]);
      out.push({ kind: sign ? 'SNUMBER' : 'UNUMBER', value: sign < 0 ? -n : n });
      continue;
    }
    if (isCAlpha(c)) {
      let word = '';
      while (isCAlpha(text[i]) || text[i] === '.') {
        if (word.length < 19) word += text[i];
        i++;
      }
      out.push(lookupWord(word));
      continue;
    }
    if (c !== '(') {
      out.push({ kind: 'CHAR', char: c });
      i++;
      continue;
    }
    // A parenthesised comment (nested); an unclosed one ends the input.
    let depth = 0;
    do {
      const d = text[i++];
      if (d === undefined) {
        out.push({ kind: 'END' });
        return out;
      }
      if (d === '(') depth++;
      else if (d === ')') depth--;
    } while (depth > 0);
  }
}
