// POSIX extended regular expressions as glibc's regcomp(REG_EXTENDED|REG_NOSUB) accepts them,
// translated to a JavaScript RegExp, with glibc's regerror texts for the patterns it refuses.
// Used by the parser for matchinst(/re/, expr) (derived-units-conversion.md §2.5): a pattern
// that does not compile is a syntax error "bad regular expression: '<regerror text>'".
//
// Only whether a match exists matters (REG_NOSUB), so POSIX leftmost-longest versus
// JavaScript leftmost-first makes no difference. What is reproduced is the syntax: repetition
// operators at the start of an expression or after an anchor are errors, a lone ')' and '}'
// are ordinary characters, empty alternatives and groups are allowed, '{m,n}' is checked as
// glibc does (RE_DUP_MAX 32767), brackets take ']' first, ranges, [:class:], [=c=], [.c.].

const REG_BADPAT = 'Invalid regular expression';
const REG_BADRPT = 'Invalid preceding regular expression';
const REG_EPAREN = 'Unmatched ( or \\(';
const REG_EBRACE = 'Unmatched \\{';
const REG_BADBR = 'Invalid content of \\{\\}';
const REG_ESIZE = 'Regular expression too big';
const REG_EBRACK = 'Unmatched [, [^, [:, [., or [=';
const REG_ERANGE = 'Invalid range end';
const REG_ECTYPE = 'Invalid character class name';
const REG_ECOLLATE = 'Invalid collation character';
const REG_EESCAPE = 'Trailing backslash';
const REG_ESUBREG = 'Invalid back reference';

const RE_DUP_MAX = 0x7fff;

export type RegexResult = { readonly ok: true; readonly regex: RegExp } | { readonly ok: false; readonly message: string };

class RegexError extends Error {}

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

const hex4 = (c: number): string => `\\u${c.toString(16).padStart(4, '0')}`;
const literal = (c: string): string => hex4(c.charCodeAt(0));

export function compilePosixEre(pattern: string): RegexResult {
  try {
    const source = new EreTranslator(pattern).translate();
    return { ok: true, regex: new RegExp(source, 's') };
  } catch (e) {
    if (e instanceof RegexError) return { ok: false, message: e.message };
    throw e;
  }
}

class EreTranslator {
  private pos = 0;
  private groupsOpened = 0;
  private readonly groupsClosed = new Set<number>();

  constructor(private readonly p: string) {}

  translate(): string {
    const out = this.alternation(0);
    // Only a ')' closing a group can stop the top level, and at depth 0 it is ordinary.
    return out;
  }

  private peek(offset = 0): string {
    return this.p.charAt(this.pos + offset);
  }
  private atEnd(): boolean {
    return this.pos >= this.p.length;
  }

  private alternation(depth: number): string {
    const branches = [this.branch(depth)];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.branch(depth));
    }
    return branches.join('|');
  }

  private branch(depth: number): string {
    let out = '';
    while (!this.atEnd()) {
      const c = this.peek();
      if (c === '|' || (c === ')' && depth > 0)) break;
      out += this.expression(depth);
    }
    return out;
  }

  /** One atom with its repetition operators, or an anchor (which takes none). */
  private expression(depth: number): string {
    const c = this.peek();
    let atom: string;
    switch (c) {
      case '*':
      case '+':
      case '?':
      case '{':
        throw new RegexError(REG_BADRPT);
      case '^':
      case '$':
        this.pos++;
        return c;
      case '(': {
        this.pos++;
        const n = ++this.groupsOpened;
        const inner = this.alternation(depth + 1);
        if (this.peek() !== ')') throw new RegexError(REG_EPAREN);
        this.pos++;
        this.groupsClosed.add(n);
        atom = `(${inner})`;
        break;
      }
      case '[':
        this.pos++;
        atom = this.bracket();
        break;
      case '.':
        this.pos++;
        atom = '.';
        break;
      case '\\': {
        const escaped = this.escape();
        if (escaped.anchor) return escaped.js;
        atom = escaped.js;
        break;
      }
      default:
        // Includes a ')' outside any group and '}': ordinary characters in ERE.
        this.pos++;
        atom = literal(c);
    }
    for (;;) {
      const op = this.peek();
      if (op === '*' || op === '+' || op === '?') {
        this.pos++;
        atom = `(?:${atom})${op}`;
      } else if (op === '{') {
        this.pos++;
        atom = `(?:${atom})${this.interval()}`;
      } else {
        return atom;
      }
    }
  }

  /** Reads a number of `{m,n}` as glibc's fetch_number: −1 none, −2 invalid or at the end. */
  private fetchNumber(): { value: number; stop: string } {
    let num = -1;
    for (;;) {
      if (this.atEnd()) return { value: -2, stop: '' };
      let c = this.p.charAt(this.pos++);
      // An escaped character is one token: `\}` does not close, `\,` still separates, and
      // `\1`…`\9` are back-references, not digits (glibc's fetch_number looks at the token).
      let escaped = false;
      if (c === '\\' && !this.atEnd()) {
        c = this.p.charAt(this.pos++);
        escaped = true;
      }
      if ((c === '}' && !escaped) || c === ',') return { value: num, stop: c };
      const d = c >= '0' && c <= '9' && !(escaped && c !== '0') ? c.charCodeAt(0) - 48 : -1;
      num = d < 0 || num === -2 ? -2 : num === -1 ? d : Math.min(RE_DUP_MAX + 1, num * 10 + d);
    }
  }

  private interval(): string {
    const a = this.fetchNumber();
    let start = a.value;
    let end: number;
    let stop = a.stop;
    if (start === -1) {
      if (a.stop === ',') start = 0;
      else throw new RegexError(REG_BADBR);
    }
    if (start === -2) throw new RegexError(this.atEnd() && stop === '' ? REG_EBRACE : REG_BADBR);
    if (a.stop === '}') end = start;
    else {
      const b = this.fetchNumber();
      end = b.value;
      stop = b.stop;
      if (end === -2) throw new RegexError(stop === '' ? REG_EBRACE : REG_BADBR);
    }
    if ((end !== -1 && start > end) || stop !== '}') throw new RegexError(REG_BADBR);
    if ((end === -1 ? start : end) > RE_DUP_MAX) throw new RegexError(REG_ESIZE);
    return end === -1 ? `{${start},}` : `{${start},${end}}`;
  }

  private escape(): { js: string; anchor: boolean } {
    this.pos++;
    if (this.atEnd()) throw new RegexError(REG_EESCAPE);
    const c = this.p.charAt(this.pos++);
    switch (c) {
      case 'w':
        return { js: '[A-Za-z0-9_]', anchor: false };
      case 'W':
        return { js: '[^A-Za-z0-9_]', anchor: false };
      case 's':
        return { js: '[\\t-\\r ]', anchor: false };
      case 'S':
        return { js: '[^\\t-\\r ]', anchor: false };
      case 'b':
        return { js: '\\b', anchor: true };
      case 'B':
        return { js: '\\B', anchor: true };
      case '<':
        return { js: '\\b(?=[A-Za-z0-9_])', anchor: true };
      case '>':
        return { js: '\\b(?<=[A-Za-z0-9_])', anchor: true };
      case '`':
        return { js: '^', anchor: true };
      case "'":
        return { js: '$', anchor: true };
      default:
        if (c >= '1' && c <= '9') {
          const n = c.charCodeAt(0) - 48;
          if (!this.groupsClosed.has(n)) throw new RegexError(REG_ESUBREG);
          return { js: `\\${n}`, anchor: false };
        }
        return { js: literal(c), anchor: false };
    }
  }

  /** A bracket expression after its '['. */
  private bracket(): string {
    let negate = false;
    if (this.peek() === '^') {
      negate = true;
      this.pos++;
    }
    // glibc: a bracket that ends the pattern before its first element is a bad pattern.
    if (this.atEnd()) throw new RegexError(REG_BADPAT);
    const ranges: Range[] = [];
    let first = true;
    for (;;) {
      if (this.atEnd()) throw new RegexError(REG_EBRACK);
      if (this.peek() === ']' && !first) {
        this.pos++;
        break;
      }
      const start = this.bracketElement(first);
      first = false;
      let isRange = false;
      if (start.kind === 'char' && this.peek() === '-') {
        if (this.pos + 1 >= this.p.length) throw new RegexError(REG_EBRACK);
        isRange = this.peek(1) !== ']';
      }
      if (isRange) {
        this.pos++;
        const end = this.bracketElement(true);
        if (start.kind !== 'char' || end.kind !== 'char' || start.code > end.code) throw new RegexError(REG_ERANGE);
        ranges.push([start.code, end.code]);
      } else {
        ranges.push(...(start.kind === 'char' ? [[start.code, start.code] as const] : start.ranges));
      }
    }
    const body = ranges.map(([lo, hi]) => (lo === hi ? hex4(lo) : `${hex4(lo)}-${hex4(hi)}`)).join('');
    return `[${negate ? '^' : ''}${body}]`;
  }

  private bracketElement(acceptHyphen: boolean): { kind: 'char'; code: number } | { kind: 'class'; ranges: readonly Range[] } {
    if (this.atEnd()) throw new RegexError(REG_EBRACK);
    const c = this.peek();
    const next = this.peek(1);
    if (c === '[' && (next === ':' || next === '=' || next === '.')) {
      // [:class:], [=c=], [.c.]: names of up to 31 characters.
      const close = this.p.indexOf(`${next}]`, this.pos + 2);
      if (close < 0 || close - (this.pos + 2) >= 32) throw new RegexError(REG_EBRACK);
      const name = this.p.slice(this.pos + 2, close);
      this.pos = close + 2;
      if (next === ':') {
        const ranges = CLASSES[name];
        if (ranges === undefined) throw new RegexError(REG_ECTYPE);
        return { kind: 'class', ranges };
      }
      if (name.length !== 1) throw new RegexError(REG_ECOLLATE);
      const code = name.charCodeAt(0);
      // An equivalence class is a set in glibc: it cannot bound a range.
      return next === '=' ? { kind: 'class', ranges: [[code, code]] } : { kind: 'char', code };
    }
    if (c === '-' && !acceptHyphen && next !== ']') throw new RegexError(REG_ERANGE);
    this.pos++;
    return { kind: 'char', code: c.charCodeAt(0) };
  }
}
