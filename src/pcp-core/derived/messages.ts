// libpcp's texts for derived-metric errors (derived-units-conversion.md §3.4, §5): the message
// pmRegisterDerivedMetric/pmAddDerivedMetric return (format A), the lines a configuration file
// produces (format B), and the semantic-error line. Caret columns count bytes, as libpcp's
// do, so text with non-ASCII characters lines up exactly as the C library prints it.

const encoder = new TextEncoder();
const byteLength = (s: string): number => encoder.encode(s).length;

/** Spaces before the caret for a position in `expr` (UTF-16 offset; −1 for an empty text). */
function caretIndent(expr: string, position: number): string {
  // libpcp prints "%*s" with a negative width when the pointer is before the text: |width|.
  const n = position < 0 ? -position : byteLength(expr.slice(0, position));
  return ' '.repeat(n);
}

/** Format A, pmRegisterDerivedMetric: name, expression, caret line, optional reason. */
export function formatRegisterError(name: string, expr: string, position: number, reason: string | null): string {
  return `Error: pmRegisterDerivedMetric("${name}", ...)\n${expr}\n${caretIndent(expr, position)}^\n${reason === null ? '' : `${reason}\n`}`;
}

/** Format A, pmAddDerivedMetric: "Syntax Error" or "Semantic Error" (caret in column 0). */
export function formatAddError(kind: 'Syntax' | 'Semantic', name: string, expr: string, position: number, reason: string | null): string {
  return `${kind} Error: pmAddDerivedMetric("${name}", ...)\n${expr}\n${caretIndent(expr, position)}^\n${reason === null ? '' : `${reason}\n`}`;
}

/** pmAddDerivedMetric when the call itself fails (duplicate name, PMIDs exhausted). */
export function formatAddPmapiError(name: string, status: number, reason: string | null): string {
  return `Error: pmAddDerivedMetric("${name}", ...): returns ${status}\n${reason === null ? '' : `${reason}\n`}`;
}

const isCSpace = (byte: number): boolean => byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);

/**
 * Format B, a configuration file line `name = expr` whose registration failed. `rhs` is the
 * text after the first '=' (leading blanks kept); `position` is the error offset within the
 * expression proper, which starts after those blanks. The caret line keeps the line's length
 * and its white space, every other byte becomes a blank.
 */
export function formatConfigSyntaxError(file: string, line: number, name: string, rhs: string, position: number, reason: string | null): string {
  const skipped = rhs.length - rhs.replace(/^[ \t\n\v\f\r]+/, '').length;
  const bytes = encoder.encode(rhs);
  const caretAt = position < 0 ? -1 : byteLength(rhs.slice(0, skipped + position));
  let caret = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    caret += i === caretAt ? '^' : isCSpace(b) ? String.fromCharCode(b) : ' ';
  }
  return `[${file}:${line}] Error: pmRegisterDerived(${name}, ...) syntax error\n${rhs}\n${caret}\n${reason === null ? '' : `${reason}\n`}`;
}

/** `Semantic error: derived metric NAME: CONTEXT: REASON` (printed when a context binds). */
export function formatSemanticError(metric: string, context: string, reason: string): string {
  return `Semantic error: derived metric ${metric}: ${context}: ${reason}\n`;
}
