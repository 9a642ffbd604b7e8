// The small scanners libpcp's rtime.c builds its time parsers from (parseChar, parseInt,
// parseDouble, parse3char), with their C semantics: leading white space skipped and consumed
// even on a miss, strtol/strtod syntax, range checks that leave the position at the token.
// A Scanner is a string plus a position; interval.ts, ctime-parse.ts and time-window.ts use it.
import { isCAlpha, isCSpace, strtod, strtol } from '../c-numeric';

export class Scanner {
  constructor(
    readonly text: string,
    public pos = 0,
  ) {}

  get atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  peek(offset = 0): string | undefined {
    return this.text[this.pos + offset];
  }

  skipSpace(): void {
    while (isCSpace(this.text[this.pos])) this.pos++;
  }

  /** parseChar: white space, then `c` (consumed) — the white space is consumed either way. */
  char(c: string): boolean {
    this.skipSpace();
    if (this.text[this.pos] !== c) return false;
    this.pos++;
    return true;
  }

  /** parseInt: strtol in [min, max], or undefined (position after the white space). */
  int(min: number, max: number): number | undefined {
    this.skipSpace();
    const r = strtol(this.text, this.pos);
    if (r.end === this.pos || r.value < min || r.value > max) return undefined;
    this.pos = r.end;
    return r.value;
  }

  /** parseDouble: strtod in [min, max] (NaN passes, as its comparisons fail), or undefined. */
  double(min: number, max: number): number | undefined {
    this.skipSpace();
    const r = strtod(this.text, this.pos);
    if (r.end === this.pos || r.value < min || r.value > max) return undefined;
    this.pos = r.end;
    return r.value;
  }

  /**
   * parse3char: up to three letters, lower-cased, matched against `codes`; on a match the
   * index (the position moves past the letters read), else undefined.
   */
  threeChars(codes: readonly string[]): number | undefined {
    this.skipSpace();
    if (!isCAlpha(this.text[this.pos])) return undefined;
    let p = this.pos;
    let code = '';
    for (let i = 0; i < 3; i++) {
      code += (this.text[p] ?? '').toLowerCase();
      p++;
      if (!isCAlpha(this.text[p])) break;
    }
    const index = codes.indexOf(code);
    if (index < 0) return undefined;
    this.pos = p;
    return index;
  }
}
