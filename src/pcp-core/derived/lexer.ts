// Lexer of the derived-metric language: expression text → tokens with kind and span. First
// stage of derived/ (lexer → parser → binder → evaluator). It reproduces libpcp 6.0.3's
// scanner exactly (derived-units-conversion.md §2.1): which characters end a token, where a
// token starts (the caret position of every syntax error), when a function keyword is
// recognised (only with '(' immediately after the name), and the scanner's own error texts.
//
// The scanner is pulled one token at a time by the parser, because what '/' means depends
// on parser state: inside `matchinst(` … up to the reduction of the whole call, '/' opens a
// PATTERN (libpcp's in_matchinst flag, which the parser clears).

/** Token kinds. Names follow libpcp's L_* tokens so the grammar reads like the spec. */
export type TokenKind =
  | 'EOS'
  | 'ERROR'
  | 'PLUS' | 'MINUS' | 'STAR' | 'SLASH'
  | 'QUEST' | 'COLON' | 'LPAREN' | 'RPAREN' | 'COMMA' | 'ASSIGN'
  | 'LT' | 'LEQ' | 'EQ' | 'GEQ' | 'GT' | 'NEQ' | 'AND' | 'OR' | 'NOT'
  | 'AVG' | 'COUNT' | 'DELTA' | 'MAX' | 'MIN' | 'SUM' | 'ANON' | 'RATE' | 'INSTANT'
  | 'MKCONST' | 'RESCALE' | 'DEFINED' | 'MATCHINST' | 'SCALAR'
  | 'TYPE' | 'SEMANTICS' | 'UNITS'
  | 'INTEGER' | 'DOUBLE' | 'NAME' | 'STRING' | 'INSTNAME' | 'PATTERN';

/** A half-open range of UTF-16 offsets into the expression text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface Token {
  readonly kind: TokenKind;
  /**
   * Where the token starts, as libpcp's error pointer: for EOS the last character of the
   * text (−1 for an empty text), for everything else the token's first character.
   */
  readonly span: Span;
  /**
   * NAME, INTEGER, DOUBLE: the spelling. STRING: the text between the quotes. INSTNAME and
   * PATTERN: the text between the delimiters with each `\x` reduced to `x`. ERROR: the
   * scanner's message. Otherwise the operator or keyword spelling.
   */
  readonly text: string;
}

/** Function keywords, recognised only when '(' follows the name immediately. */
const FUNCTIONS: ReadonlyMap<string, TokenKind> = new Map<string, TokenKind>([
  ['avg', 'AVG'],
  ['count', 'COUNT'],
  ['delta', 'DELTA'],
  ['max', 'MAX'],
  ['min', 'MIN'],
  ['sum', 'SUM'],
  ['anon', 'ANON'],
  ['rate', 'RATE'],
  ['instant', 'INSTANT'],
  ['mkconst', 'MKCONST'],
  ['rescale', 'RESCALE'],
  ['defined', 'DEFINED'],
  ['matchinst', 'MATCHINST'],
  ['scalar', 'SCALAR'],
]);

/** Reserved words: always keywords, so they can never be metric names. */
const RESERVED: ReadonlyMap<string, TokenKind> = new Map<string, TokenKind>([
  ['type', 'TYPE'],
  ['semantics', 'SEMANTICS'],
  ['units', 'UNITS'],
]);

const SINGLE: Readonly<Record<string, TokenKind>> = {
  '+': 'PLUS',
  '-': 'MINUS',
  '*': 'STAR',
  '(': 'LPAREN',
  ')': 'RPAREN',
  '?': 'QUEST',
  ':': 'COLON',
  ',': 'COMMA',
};

// C locale character classes (isspace, isdigit, isalpha); anything beyond ASCII is none.
const isSpace = (c: string): boolean => c === ' ' || (c >= '\t' && c <= '\r');
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isAlpha = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isNameChar = (c: string): boolean => isAlpha(c) || isDigit(c) || c === '_' || c === '.';

const MAX_U32 = 4294967295n;

export class Lexer {
  /** The text as libpcp sees it: a C string ends at the first NUL. */
  readonly text: string;
  private pos = 0;
  /** libpcp's in_matchinst: '/' opens a PATTERN until the parser reduces matchinst(...). */
  inMatchinst = false;
  /** Start of the most recent token: libpcp's `lexicon`, the error pointer. */
  lastStart = 0;

  constructor(text: string) {
    const nul = text.indexOf('\0');
    this.text = nul < 0 ? text : text.slice(0, nul);
  }

  next(): Token {
    const s = this.text;
    while (this.pos < s.length && isSpace(s.charAt(this.pos))) this.pos++;
    // At the end, libpcp points at the last character read (the last blank, if any).
    if (this.pos >= s.length) {
      this.lastStart = s.length - 1;
      return this.token('EOS', this.lastStart, this.lastStart + 1, '');
    }
    const start = this.pos;
    this.lastStart = start;
    const c = s.charAt(start);

    if (isDigit(c)) return this.number(start);
    if (c === '.') return this.double(start, start + 1);
    if (isAlpha(c)) return this.name(start);

    const single = SINGLE[c];
    if (single !== undefined) {
      this.pos = start + 1;
      return this.token(single, start, start + 1, c);
    }
    const following = s.charAt(start + 1);
    switch (c) {
      case '/':
        if (this.inMatchinst) return this.delimited(start, 'PATTERN', '/', 'unterminated pattern');
        this.pos = start + 1;
        return this.token('SLASH', start, start + 1, c);
      case '<':
        return following === '=' ? this.op('LEQ', start, 2) : this.op('LT', start, 1);
      case '>':
        return following === '=' ? this.op('GEQ', start, 2) : this.op('GT', start, 1);
      case '=':
        return following === '=' ? this.op('EQ', start, 2) : this.op('ASSIGN', start, 1);
      case '!':
        return following === '=' ? this.op('NEQ', start, 2) : this.op('NOT', start, 1);
      case '&':
        return following === '&' ? this.op('AND', start, 2) : this.error(start, start + 1, 'Illegal character');
      case '|':
        return following === '|' ? this.op('OR', start, 2) : this.error(start, start + 1, 'Illegal character');
      case '"':
        return this.string(start);
      case '[':
        return this.delimited(start, 'INSTNAME', ']', 'unterminated instance name');
      default:
        return this.error(start, start + 1, 'Illegal character');
    }
  }

  private token(kind: TokenKind, start: number, end: number, text: string): Token {
    return { kind, span: { start, end }, text };
  }

  private op(kind: TokenKind, start: number, length: number): Token {
    this.pos = start + length;
    return this.token(kind, start, this.pos, this.text.slice(start, this.pos));
  }

  private error(start: number, end: number, message: string): Token {
    this.pos = end;
    return this.token('ERROR', start, end, message);
  }

  /** INTEGER, or DOUBLE when a '.' follows the digits. */
  private number(start: number): Token {
    const s = this.text;
    let i = start;
    while (i < s.length && isDigit(s.charAt(i))) i++;
    if (s.charAt(i) === '.') return this.double(start, i + 1);
    const text = s.slice(start, i);
    if (BigInt(text) > MAX_U32) return this.error(start, i, 'Constant value too large');
    this.pos = i;
    return this.token('INTEGER', start, i, text);
  }

  /** DOUBLE: digits already consumed up to `from`, then more digits (no exponent). */
  private double(start: number, from: number): Token {
    const s = this.text;
    let i = from;
    while (i < s.length && isDigit(s.charAt(i))) i++;
    this.pos = i;
    return this.token('DOUBLE', start, i, s.slice(start, i));
  }

  private name(start: number): Token {
    const s = this.text;
    let i = start + 1;
    while (i < s.length && isNameChar(s.charAt(i))) i++;
    const text = s.slice(start, i);
    this.pos = i;
    if (s.charAt(i) === '(') {
      const fn = FUNCTIONS.get(text);
      if (fn !== undefined) {
        if (fn === 'MATCHINST') this.inMatchinst = true;
        return this.token(fn, start, i, text);
      }
    }
    const reserved = RESERVED.get(text);
    if (reserved !== undefined) return this.token(reserved, start, i, text);
    return this.token('NAME', start, i, text);
  }

  /** A double-quoted string: no escapes, must close before the end of the text. */
  private string(start: number): Token {
    const close = this.text.indexOf('"', start + 1);
    if (close < 0) return this.error(start, this.text.length, 'unterminated STRING');
    this.pos = close + 1;
    return this.token('STRING', start, close + 1, this.text.slice(start + 1, close));
  }

  /** `[name]` and `/pattern/`: a backslash escapes the next character and is dropped. */
  private delimited(start: number, kind: TokenKind, close: string, unterminated: string): Token {
    const s = this.text;
    let out = '';
    for (let i = start + 1; i < s.length; i++) {
      const c = s.charAt(i);
      if (c === '\\') {
        if (i + 1 >= s.length) break;
        out += s.charAt(++i);
      } else if (c === close) {
        this.pos = i + 1;
        return this.token(kind, start, i + 1, out);
      } else {
        out += c;
      }
    }
    return this.error(start, s.length, unterminated);
  }
}
