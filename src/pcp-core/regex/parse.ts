// Regular-expression syntax to a tree, without recursion: POSIX extended regular expressions
// as glibc's regcomp(REG_EXTENDED|REG_NOSUB) reads them in the C locale (libpcp's matchinst,
// derive_parser.y.in), and the regular subset of PCRE2 that pmchart's QRegularExpression
// reads in view files ('pcre'). The pattern is read as UTF-8 bytes, as glibc sees it in the
// C locale: '.' and a bracket expression take one byte.
//
// ERE syntax quirks kept from glibc: repetition operators at the start of an expression or
// after an anchor are errors, a lone ')' and '}' are ordinary characters, empty alternatives
// and groups are allowed, '{m,n}' is checked as glibc's fetch_number does (RE_DUP_MAX 32767),
// brackets take ']' first, ranges, [:class:], [=c=], [.c.]; GNU escapes \w \W \s \S \b \B
// \< \> \` \' and back-references \1…\9 to closed groups. Refusals carry regerror's text.

export const REG_BADPAT = 'Invalid regular expression';
export const REG_BADRPT = 'Invalid preceding regular expression';
export const REG_EPAREN = 'Unmatched ( or \\(';
export const REG_EBRACE = 'Unmatched \\{';
export const REG_BADBR = 'Invalid content of \\{\\}';
export const REG_ESIZE = 'Regular expression too big';
export const REG_EBRACK = 'Unmatched [, [^, [:, [., or [=';
export const REG_ERANGE = 'Invalid range end';
export const REG_ECTYPE = 'Invalid character class name';
export const REG_ECOLLATE = 'Invalid collation character';
export const REG_EESCAPE = 'Trailing backslash';
export const REG_ESUBREG = 'Invalid back reference';
export const REG_ESPACE = 'Memory exhausted';

const RE_DUP_MAX = 0x7fff;

export type Dialect = 'ere' | 'pcre';

/** bol/eol are '^' '$' (line anchors in glibc's DFA, see automaton.ts); bos/eos the subject's ends. */
export type AssertKind = 'bol' | 'eol' | 'word-boundary' | 'not-word-boundary' | 'word-start' | 'word-end' | 'bos' | 'eos' | 'eos-or-final-newline';

/** A parsed expression. A set is 256 bits over bytes. */
export type Node =
  | { readonly t: 'set'; readonly bits: Uint32Array }
  | { readonly t: 'seq'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly items: readonly Node[] }
  | { readonly t: 'group'; readonly index: number; readonly child: Node }
  | { readonly t: 'rep'; readonly min: number; readonly max: number; readonly child: Node }
  | { readonly t: 'assert'; readonly kind: AssertKind }
  | { readonly t: 'backref'; readonly index: number };

export interface Parsed {
  readonly root: Node;
  /** Groups some back-reference names: only those need capture positions when matching. */
  readonly referenced: ReadonlySet<number>;
}

export class RegexSyntaxError extends Error {}

type Range = readonly [lo: number, hi: number];
const CLASSES: Readonly<Record<string, readonly Range[]>> = {
  alpha: [[65, 90], [97, 122]],
  upper: [[65, 90]],
  lower: [[97, 122]],
  digit: [[48, 57]],
  xdigit: [[48, 57], [65, 70], [97, 102]],
  alnum: [[48, 57], [65, 90], [97, 122]],
  space: [[9, 13], [32, 32]],
  blank: [[9, 9], [32, 32]],
  print: [[32, 126]],
  graph: [[33, 126]],
  punct: [[33, 47], [58, 64], [91, 96], [123, 126]],
  cntrl: [[0, 31], [127, 127]],
};
const WORD: readonly Range[] = [[48, 57], [65, 90], [95, 95], [97, 122]];
const SPACE: readonly Range[] = [[9, 13], [32, 32]];
const DIGIT: readonly Range[] = [[48, 57]];

export function setOf(ranges: readonly Range[], negate = false): Uint32Array {
  const bits = new Uint32Array(8);
  for (const [lo, hi] of ranges) for (let c = lo; c <= hi; c++) bits[c >>> 5] |= 1 << (c & 31);
  if (negate) for (let i = 0; i < 8; i++) bits[i] = ~bits[i];
  return bits;
}

const BYTE_NODES: Node[] = Array.from({ length: 256 }, (_, c) => ({ t: 'set', bits: setOf([[c, c]]) }));
const byteSet = (c: number): Node => BYTE_NODES[c];
const ANY: Node = { t: 'set', bits: setOf([[0, 255]]) };
const CONT_BYTE = setOf([[0x80, 0xbf]]);
/** One UTF-8 encoded non-ASCII character (PCRE2_UTF reads the subject by code points). */
const MULTIBYTE: Node = {
  t: 'alt',
  items: [
    { t: 'seq', items: [{ t: 'set', bits: setOf([[0xc0, 0xdf]]) }, { t: 'set', bits: CONT_BYTE }] },
    { t: 'seq', items: [{ t: 'set', bits: setOf([[0xe0, 0xef]]) }, { t: 'set', bits: CONT_BYTE }, { t: 'set', bits: CONT_BYTE }] },
    { t: 'seq', items: [{ t: 'set', bits: setOf([[0xf0, 0xf7]]) }, { t: 'set', bits: CONT_BYTE }, { t: 'set', bits: CONT_BYTE }, { t: 'set', bits: CONT_BYTE }] },
  ],
};

/** A PCRE class over code points: its ASCII members, any non-ASCII character when a byte ≥ 0x80 is in `bits`, and listed non-ASCII characters. */
function codePointSet(bits: Uint32Array, literals: readonly Node[] = []): Node {
  const ascii = bits.slice();
  const anyNonAscii = ascii.slice(4).some((w) => w !== 0);
  ascii.fill(0, 4);
  const items: Node[] = [{ t: 'set', bits: ascii }];
  if (anyNonAscii) items.push(MULTIBYTE);
  else items.push(...literals);
  return items.length === 1 ? items[0] : { t: 'alt', items };
}
const ANY_BUT_NEWLINE: Node = codePointSet(setOf([[10, 10]], true));

const ch = (s: string): number => s.charCodeAt(0);

interface Frame {
  readonly branches: Node[];
  seq: Node[];
  readonly group: number;
  /** Groups 1…9 closed when this alternation began, and those closed in its earlier branches. */
  readonly initialClosed: number;
  accumulatedClosed: number;
}

/** Parses a pattern, or throws RegexSyntaxError with the refusal text. */
export function parseRegex(pattern: string, dialect: Dialect): Parsed {
  return new Parser(new TextEncoder().encode(pattern), dialect).parse();
}

class Parser {
  private pos = 0;
  private groupsOpened = 0;
  /** Set by pcreAtom for '$' and '\\Z', which PCRE does not let a quantifier follow. */
  private anchor = false;
  /**
   * Groups 1…9 a back-reference may name here: closed, and (glibc's completed_bkref_map) not
   * in an earlier branch of an alternation that is still open.
   */
  private groupsClosed = 0;
  private readonly referenced = new Set<number>();

  constructor(
    private readonly p: Uint8Array,
    private readonly dialect: Dialect,
  ) {}

  private peek(offset = 0): number {
    const i = this.pos + offset;
    return i < this.p.length ? this.p[i] : -1;
  }
  private atEnd(): boolean {
    return this.pos >= this.p.length;
  }

  parse(): Parsed {
    const stack: Frame[] = [{ branches: [], seq: [], group: 0, initialClosed: 0, accumulatedClosed: 0 }];
    // Whether a repetition operator may follow: after an atom or another operator only.
    let canRepeat = false;
    const top = (): Frame => stack[stack.length - 1];
    const pcre = this.dialect === 'pcre';
    while (!this.atEnd()) {
      const c = this.peek();
      if (c === ch('|')) {
        this.pos++;
        const f = top();
        f.branches.push(seqNode(f.seq));
        f.seq = [];
        f.accumulatedClosed |= this.groupsClosed;
        this.groupsClosed = f.initialClosed;
        canRepeat = false;
        continue;
      }
      if (c === ch(')') && stack.length > 1) {
        this.pos++;
        const f = stack.pop() as Frame;
        f.branches.push(seqNode(f.seq));
        const inner = f.branches.length === 1 ? f.branches[0] : { t: 'alt' as const, items: f.branches };
        this.groupsClosed |= f.accumulatedClosed;
        if (f.group > 0 && f.group <= 9) this.groupsClosed |= 1 << f.group;
        top().seq.push(f.group > 0 ? { t: 'group', index: f.group, child: inner } : inner);
        canRepeat = true;
        continue;
      }
      if (c === ch('*') || c === ch('+') || c === ch('?') || c === ch('{')) {
        if (c === ch('{') && pcre && !this.pcreQuantifierAhead()) {
          // PCRE: a '{' that does not start a quantifier is an ordinary character.
          this.pos++;
          top().seq.push(byteSet(c));
          canRepeat = true;
          continue;
        }
        if (!canRepeat) throw new RegexSyntaxError(pcre ? 'quantifier does not follow a repeatable item' : REG_BADRPT);
        this.pos++;
        const seq = top().seq;
        const atom = seq.pop() as Node;
        let min = 0;
        let max = -1;
        if (c === ch('+')) min = 1;
        else if (c === ch('?')) max = 1;
        else if (c === ch('{')) [min, max] = pcre ? this.pcreInterval() : this.interval();
        seq.push({ t: 'rep', min, max, child: atom });
        if (pcre) {
          // A lazy '?' changes which match is found, not whether one is; possessive '+' would.
          if (this.peek() === ch('?')) this.pos++;
          else if (this.peek() === ch('+')) throw new RegexSyntaxError('possessive quantifiers are not supported');
          // PCRE: a quantifier cannot follow another ('a**' is an error, unlike in ERE).
          canRepeat = false;
        }
        continue;
      }
      if (c === ch('(')) {
        this.pos++;
        let group = 0;
        if (pcre && this.peek() === ch('?')) {
          if (this.peek(1) !== ch(':')) throw new RegexSyntaxError('look-around, named groups and inline options are not supported, only (?:…) groups');
          this.pos += 2;
        } else group = ++this.groupsOpened;
        stack.push({ branches: [], seq: [], group, initialClosed: this.groupsClosed, accumulatedClosed: 0 });
        canRepeat = false;
        continue;
      }
      this.anchor = false;
      const item = pcre ? this.pcreAtom() : this.ereAtom();
      top().seq.push(item);
      canRepeat = item.t !== 'assert' && !this.anchor;
    }
    if (stack.length > 1) throw new RegexSyntaxError(pcre ? 'missing closing parenthesis' : REG_EPAREN);
    if (pcre && [...this.referenced].some((n) => n > this.groupsOpened)) throw new RegexSyntaxError('reference to non-existent subpattern');
    const f = stack[0];
    f.branches.push(seqNode(f.seq));
    const root = f.branches.length === 1 ? f.branches[0] : { t: 'alt' as const, items: f.branches };
    return { root, referenced: this.referenced };
  }

  /** One atom or anchor of an ERE (not '(' ')' '|' or an operator). */
  private ereAtom(): Node {
    const c = this.p[this.pos++];
    switch (c) {
      case ch('^'):
        return { t: 'assert', kind: 'bol' };
      case ch('$'):
        return { t: 'assert', kind: 'eol' };
      case ch('['):
        return this.bracket();
      case ch('.'):
        return ANY;
      case ch('\\'):
        return this.ereEscape();
      default:
        // Includes a ')' outside any group and '}': ordinary characters in ERE.
        return byteSet(c);
    }
  }

  private ereEscape(): Node {
    if (this.atEnd()) throw new RegexSyntaxError(REG_EESCAPE);
    const c = this.p[this.pos++];
    const shared = this.classEscape(c);
    if (shared !== undefined) return shared;
    switch (c) {
      case ch('<'):
        return { t: 'assert', kind: 'word-start' };
      case ch('>'):
        return { t: 'assert', kind: 'word-end' };
      case ch('`'):
        return { t: 'assert', kind: 'bos' };
      case ch("'"):
        return { t: 'assert', kind: 'eos' };
      default:
        if (c >= ch('1') && c <= ch('9')) return this.backref(c - 48, REG_ESUBREG);
        return byteSet(c);
    }
  }

  /** Escapes both dialects share: \w \W \s \S \b \B. */
  private classEscape(c: number): Node | undefined {
    switch (c) {
      case ch('w'):
        return { t: 'set', bits: setOf(WORD) };
      case ch('W'):
        return { t: 'set', bits: setOf(WORD, true) };
      case ch('s'):
        return { t: 'set', bits: setOf(SPACE) };
      case ch('S'):
        return { t: 'set', bits: setOf(SPACE, true) };
      case ch('b'):
        return { t: 'assert', kind: 'word-boundary' };
      case ch('B'):
        return { t: 'assert', kind: 'not-word-boundary' };
      default:
        return undefined;
    }
  }

  private backref(n: number, refusal: string): Node {
    if ((this.groupsClosed & (1 << n)) === 0) throw new RegexSyntaxError(refusal);
    this.referenced.add(n);
    return { t: 'backref', index: n };
  }

  /** Reads a number of `{m,n}` as glibc's fetch_number: −1 none, −2 invalid or at the end. */
  private fetchNumber(): { value: number; stop: number } {
    let num = -1;
    for (;;) {
      if (this.atEnd()) return { value: -2, stop: -1 };
      let c = this.p[this.pos++];
      // An escaped character is one token: `\}` does not close, `\,` still separates, and
      // `\1`…`\9` are back-references, not digits (glibc's fetch_number looks at the token).
      let escaped = false;
      if (c === ch('\\') && !this.atEnd()) {
        c = this.p[this.pos++];
        escaped = true;
      }
      if ((c === ch('}') && !escaped) || c === ch(',')) return { value: num, stop: c };
      const d = c >= ch('0') && c <= ch('9') && !(escaped && c !== ch('0')) ? c - 48 : -1;
      num = d < 0 || num === -2 ? -2 : num === -1 ? d : Math.min(RE_DUP_MAX + 1, num * 10 + d);
    }
  }

  /** An ERE interval after its '{': [min, max], max −1 for none. */
  private interval(): [number, number] {
    const a = this.fetchNumber();
    let start = a.value;
    let end: number;
    let stop = a.stop;
    if (start === -1) {
      if (a.stop === ch(',')) start = 0;
      else throw new RegexSyntaxError(REG_BADBR);
    }
    if (start === -2) throw new RegexSyntaxError(this.atEnd() && stop === -1 ? REG_EBRACE : REG_BADBR);
    if (a.stop === ch('}')) end = start;
    else {
      const b = this.fetchNumber();
      end = b.value;
      stop = b.stop;
      if (end === -2) throw new RegexSyntaxError(stop === -1 ? REG_EBRACE : REG_BADBR);
    }
    if ((end !== -1 && start > end) || stop !== ch('}')) throw new RegexSyntaxError(REG_BADBR);
    if ((end === -1 ? start : end) > RE_DUP_MAX) throw new RegexSyntaxError(REG_ESIZE);
    return [start, end];
  }

  /** A bracket expression after its '[' (ERE, and PCRE's with its escapes). */
  private bracket(): Node {
    const pcre = this.dialect === 'pcre';
    let negate = false;
    if (this.peek() === ch('^')) {
      negate = true;
      this.pos++;
    }
    // glibc: a bracket that ends the pattern before its first element is a bad pattern.
    if (this.atEnd()) throw new RegexSyntaxError(pcre ? 'missing terminating ] for character class' : REG_BADPAT);
    const ranges: Range[] = [];
    const literals: Node[] = [];
    let first = true;
    for (;;) {
      if (this.atEnd()) throw new RegexSyntaxError(pcre ? 'missing terminating ] for character class' : REG_EBRACK);
      if (this.peek() === ch(']') && !first) {
        this.pos++;
        break;
      }
      if (pcre && this.peek() >= 0xc0) {
        // A non-ASCII character: a member by its UTF-8 bytes (not as a range end).
        literals.push(this.utf8Char());
        if (negate) throw new RegexSyntaxError('negated classes with non-ASCII characters are not supported');
        if (this.peek() === ch('-') && this.peek(1) !== ch(']')) throw new RegexSyntaxError('ranges of non-ASCII characters are not supported');
        first = false;
        continue;
      }
      const start = this.bracketElement(first);
      first = false;
      if (pcre && start.kind === 'class' && this.peek() === ch('-') && this.peek(1) !== ch(']') && this.pos + 1 < this.p.length) throw new RegexSyntaxError('invalid range in character class');
      let isRange = false;
      if (start.kind === 'char' && this.peek() === ch('-')) {
        if (this.pos + 1 >= this.p.length) throw new RegexSyntaxError(pcre ? 'missing terminating ] for character class' : REG_EBRACK);
        isRange = this.peek(1) !== ch(']');
      }
      if (isRange) {
        this.pos++;
        const end = this.bracketElement(true);
        if (pcre && end.kind !== 'char') throw new RegexSyntaxError('invalid range in character class');
        if (pcre && this.p[this.pos - 1] >= 0x80) throw new RegexSyntaxError('ranges of non-ASCII characters are not supported');
        if (start.kind !== 'char' || end.kind !== 'char' || start.code > end.code) throw new RegexSyntaxError(pcre ? 'range out of order in character class' : REG_ERANGE);
        ranges.push([start.code, end.code]);
      } else {
        ranges.push(...(start.kind === 'char' ? [[start.code, start.code] as const] : start.ranges));
      }
    }
    return pcre ? codePointSet(setOf(ranges, negate), literals) : { t: 'set', bits: setOf(ranges, negate) };
  }

  private bracketElement(acceptHyphen: boolean): { kind: 'char'; code: number } | { kind: 'class'; ranges: readonly Range[] } {
    if (this.atEnd()) throw new RegexSyntaxError(REG_EBRACK);
    const pcre = this.dialect === 'pcre';
    const c = this.peek();
    const next = this.peek(1);
    const close = c === ch('[') && (next === ch(':') || next === ch('=') || next === ch('.')) ? this.posixTermClose(next) : -1;
    // PCRE: '[' is itself unless a complete [:…:] (or [.….], [=…=]) follows.
    if (c === ch('[') && (next === ch(':') || next === ch('=') || next === ch('.')) && !(pcre && close < 0)) {
      // [:class:], [=c=], [.c.]: names of up to 31 characters.
      if (close < 0 || close - (this.pos + 2) >= 32) throw new RegexSyntaxError(REG_EBRACK);
      const name = String.fromCharCode(...this.p.subarray(this.pos + 2, close));
      this.pos = close + 2;
      if (next === ch(':')) {
        const ranges = Object.hasOwn(CLASSES, name) ? CLASSES[name] : undefined;
        if (ranges === undefined) throw new RegexSyntaxError(pcre ? 'unknown POSIX class name' : REG_ECTYPE);
        return { kind: 'class', ranges };
      }
      if (pcre) throw new RegexSyntaxError('POSIX collating elements are not supported');
      if (name.length !== 1) throw new RegexSyntaxError(REG_ECOLLATE);
      const code = name.charCodeAt(0);
      // An equivalence class is a set in glibc: it cannot bound a range.
      return next === ch('=') ? { kind: 'class', ranges: [[code, code]] } : { kind: 'char', code };
    }
    if (pcre && c === ch('\\')) {
      this.pos++;
      if (this.atEnd()) throw new RegexSyntaxError('\\ at end of pattern');
      const e = this.p[this.pos++];
      const cls = this.pcreClassRanges(e);
      if (cls !== undefined) return { kind: 'class', ranges: cls };
      return { kind: 'char', code: this.pcreLiteralEscape(e, true) };
    }
    if (!pcre && c === ch('-') && !acceptHyphen && next !== ch(']')) throw new RegexSyntaxError(REG_ERANGE);
    this.pos++;
    return { kind: 'char', code: c };
  }

  /** Where the `:]` (or `.]`, `=]`) closing a bracket term starting here is, or −1. */
  private posixTermClose(delim: number): number {
    for (let i = this.pos + 2; i + 1 < this.p.length; i++) {
      if (this.dialect === 'pcre' && this.p[i] === ch(']') && this.p[i - 1] !== delim) return -1;
      if (this.p[i] === delim && this.p[i + 1] === ch(']')) return i;
    }
    return -1;
  }

  // PCRE2 (pmchart's QRegularExpression): the regular subset only, since the matcher is an
  // automaton; back-references are kept, look-around and possessive quantifiers refused.

  private pcreAtom(): Node {
    const c = this.p[this.pos++];
    switch (c) {
      case ch('^'):
        // Without PCRE2_MULTILINE: the subject's start only.
        return { t: 'assert', kind: 'bos' };
      case ch('$'):
        return this.pcreDollar();
      case ch('['):
        return this.bracket();
      case ch('.'):
        return ANY_BUT_NEWLINE;
      case ch(')'):
        throw new RegexSyntaxError('unmatched closing parenthesis');
      case ch('\\'): {
        if (this.atEnd()) throw new RegexSyntaxError('\\ at end of pattern');
        const e = this.p[this.pos++];
        const shared = this.classEscape(e);
        if (shared !== undefined) return shared;
        const cls = this.pcreClassRanges(e);
        if (cls !== undefined) return codePointSet(setOf(cls));
        if (e === ch('A')) return { t: 'assert', kind: 'bos' };
        if (e === ch('z')) return { t: 'assert', kind: 'eos' };
        if (e === ch('Z')) return this.pcreDollar();
        if (e >= ch('1') && e <= ch('9')) {
          // \1…\9 refer to groups; \10 and up too when that many groups are open, else octal.
          let n = e - 48;
          let i = this.pos;
          while (this.p[i] >= ch('0') && this.p[i] <= ch('9') && n < 1000) n = n * 10 + this.p[i++] - 48;
          if (n < 10) {
            // PCRE allows a reference to any group of the pattern, even one not yet closed
            // (it then fails to match); parse() checks that the group exists.
            this.referenced.add(n);
            return { t: 'backref', index: n };
          }
          if (n <= this.groupsOpened) throw new RegexSyntaxError('back-references past \\9 are not supported');
        }
        return this.utf8Literal(this.pcreLiteralEscape(e, false));
      }
      default:
        this.pos--;
        return this.utf8Char();
    }
  }

  /** One character of the pattern as its UTF-8 bytes: one atom for quantifiers. */
  private utf8Char(): Node {
    const c = this.p[this.pos++];
    const len = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    if (len === 0) return byteSet(c);
    const items = [byteSet(c)];
    for (let k = 0; k < len && !this.atEnd(); k++) items.push(byteSet(this.p[this.pos++]));
    return { t: 'seq', items };
  }

  private utf8Literal(code: number): Node {
    if (code < 0x80) return byteSet(code);
    const bytes = new TextEncoder().encode(String.fromCodePoint(code));
    return { t: 'seq', items: [...bytes].map(byteSet) };
  }

  /** PCRE's '$' and '\Z': at the end, or before a newline that ends the subject. */
  private pcreDollar(): Node {
    this.anchor = true;
    return { t: 'assert', kind: 'eos-or-final-newline' };
  }

  private pcreClassRanges(e: number): readonly Range[] | undefined {
    switch (e) {
      case ch('d'):
        return DIGIT;
      case ch('D'):
        return invert(DIGIT);
      case ch('w'):
        return WORD;
      case ch('W'):
        return invert(WORD);
      case ch('s'):
        return SPACE;
      case ch('S'):
        return invert(SPACE);
      default:
        return undefined;
    }
  }

  private pcreLiteralEscape(e: number, inBracket: boolean): number {
    switch (e) {
      case ch('t'):
        return 9;
      case ch('n'):
        return 10;
      case ch('r'):
        return 13;
      case ch('f'):
        return 12;
      case ch('v'):
        return 11;
      case ch('e'):
        return 27;
      case ch('a'):
        return 7;
      case ch('0'):
      case ch('1'):
      case ch('2'):
      case ch('3'):
      case ch('4'):
      case ch('5'):
      case ch('6'):
      case ch('7'): {
        // Octal: up to three digits in all (\12 without twelve groups is a newline).
        let v = e - 48;
        for (let k = 0; k < 2 && this.peek() >= ch('0') && this.peek() <= ch('7'); k++) v = v * 8 + this.p[this.pos++] - 48;
        return v;
      }
      case ch('8'):
      case ch('9'):
        return e;
      case ch('b'):
        if (inBracket) return 8;
        break;
      case ch('x'): {
        let v = 0;
        let n = 0;
        while (n < 2 && isHex(this.peek())) {
          v = v * 16 + parseInt(String.fromCharCode(this.p[this.pos++]), 16);
          n++;
        }
        return v;
      }
      default:
        break;
    }
    // Escaped punctuation is itself; an unknown letter escape is an error in PCRE2.
    const isLetterOrDigit = (e >= ch('a') && e <= ch('z')) || (e >= ch('A') && e <= ch('Z')) || (e >= ch('0') && e <= ch('9'));
    if (isLetterOrDigit) throw new RegexSyntaxError(`unsupported escape sequence \\${String.fromCharCode(e)}`);
    return e;
  }

  /** Whether the text after '{' is a PCRE quantifier. */
  private pcreQuantifierAhead(): boolean {
    let i = this.pos + 1;
    const digits = (): number => {
      const s = i;
      while (i < this.p.length && this.p[i] >= ch('0') && this.p[i] <= ch('9')) i++;
      return i - s;
    };
    // PCRE2 10.42 (Debian 12): {n}, {n,}, {n,m}; '{,m}' is literal text.
    if (digits() === 0) return false;
    if (this.p[i] === ch('}')) return true;
    if (this.p[i] !== ch(',')) return false;
    i++;
    digits();
    return this.p[i] === ch('}');
  }

  private pcreInterval(): [number, number] {
    const read = (): number => {
      let v = -1;
      while (this.peek() >= ch('0') && this.peek() <= ch('9')) v = Math.min(65536, (v < 0 ? 0 : v * 10) + this.p[this.pos++] - 48);
      return v;
    };
    const a = read();
    let b = a;
    if (this.peek() === ch(',')) {
      this.pos++;
      b = read();
    }
    this.pos++; // '}'
    const min = a < 0 ? 0 : a;
    if (min > 65535 || b > 65535) throw new RegexSyntaxError('number too big in {} quantifier');
    if (b >= 0 && b < min) throw new RegexSyntaxError('numbers out of order in {} quantifier');
    return [min, b];
  }
}

function invert(ranges: readonly Range[]): readonly Range[] {
  const out: Range[] = [];
  let lo = 0;
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    if (a > lo) out.push([lo, a - 1]);
    lo = b + 1;
  }
  if (lo <= 255) out.push([lo, 255]);
  return out;
}

function isHex(c: number): boolean {
  return (c >= ch('0') && c <= ch('9')) || (c >= ch('a') && c <= ch('f')) || (c >= ch('A') && c <= ch('F'));
}

function seqNode(items: Node[]): Node {
  return items.length === 1 ? items[0] : { t: 'seq', items };
}
