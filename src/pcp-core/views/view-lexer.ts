// Words of a pmchart view file, read the way pmchart 6.0.3 reads them (src/pmchart/view.cpp
// getwd, read for the facts; docs/pmchart-reference.md §1c "General rules"):
//  - words are separated by white space; a newline is a token of its own (EOL);
//  - a word that starts with `"` runs to the next `"` (or the end of the line), white space
//    included, and has no escapes; the closing quote ends the word even when a letter
//    follows (`"15 min"metric` is two words); a `"` inside an unquoted word is an ordinary
//    character;
//  - a word holds at most 255 characters: a longer one is reported and cut, and the rest is
//    read as the next word;
//  - the line number advances when the EOL token is handed out, so an error that found
//    End-of-Line names the next line (pmchart's numbering, kept for identical messages).

/** A word, the end of a line, or the end of the file. */
export type ViewToken =
  | { readonly kind: 'word'; readonly text: string; readonly quoted: boolean }
  | { readonly kind: 'eol' }
  | { readonly kind: 'eof' };

export const MAX_WORD_LENGTH = 255;

const isBlank = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\v' || c === '\f';

export class ViewLexer {
  private pos = 0;
  /** pmchart's line counter (see the file comment). */
  private lineNo = 1;
  private pendingEol = false;
  /** Where the last word began (its opening quote included). */
  private wordStart = 0;

  /** `report` receives pmchart's complaint about an over-long word, with its line. */
  constructor(
    private readonly text: string,
    private readonly report: (line: number, message: string) => void,
  ) {}

  get line(): number {
    return this.lineNo;
  }

  next(): ViewToken {
    if (this.pendingEol) {
      this.pendingEol = false;
      this.lineNo++;
      return { kind: 'eol' };
    }
    const t = this.text;
    // Skip blanks up to the first character of the word.
    let c: string | undefined;
    for (;;) {
      c = t[this.pos];
      if (c === undefined) return { kind: 'eof' };
      this.pos++;
      if (c === '\n') {
        this.lineNo++;
        return { kind: 'eol' };
      }
      if (!isBlank(c)) break;
    }
    this.wordStart = this.pos - 1;
    const quoted = c === '"';
    let word = quoted ? '' : c;
    // One slot more than the limit: filling it means the word was too long (as in pmchart).
    while (word.length < MAX_WORD_LENGTH + 1) {
      const d = t[this.pos];
      if (d === undefined) break;
      this.pos++;
      if (d === '\n') {
        this.pendingEol = true;
        break;
      }
      if (quoted ? d === '"' : isBlank(d)) break;
      word += d;
    }
    if (word.length > MAX_WORD_LENGTH) {
      word = word.slice(0, MAX_WORD_LENGTH);
      this.report(this.lineNo, `Word truncated after ${MAX_WORD_LENGTH} characters!\n"${word.slice(0, 20)} ... ${word.slice(-20)}"`);
    }
    return { kind: 'word', text: word, quoted };
  }

  /**
   * Skips the rest of the line after the word just read (pmchart's skip2eol, so over-long
   * words in a comment are still reported) and returns the line's text from that word on.
   */
  skipLine(): string {
    const start = this.wordStart;
    let tok = this.next();
    while (tok.kind === 'word') tok = this.next();
    const raw = this.text.slice(start, this.pos);
    return raw.endsWith('\n') ? raw.slice(0, -1) : raw;
  }
}
