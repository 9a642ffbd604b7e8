// Log lines of `pmdash serve` carry values a client chose (?target=, the Origin and Host
// headers, paths, close reasons quoting PDU contents). Each line is written through
// escapeLogText, so a client can neither start a forged line (CR, LF) nor hide text from a
// terminal (NUL, ESC, other controls): every control character is shown as an escape, and
// the backslash itself is doubled so the escapes stay unambiguous.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NEEDS_ESCAPE = /[\\\x00-\x1f\x7f-\x9f\u2028\u2029]/g;
const NAMED: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function escapeLogText(text: string): string {
  return text.replace(NEEDS_ESCAPE, (c) => {
    const named = NAMED[c];
    if (named !== undefined) return named;
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `text` cut to at most `maxBytes` of UTF-8 without splitting a character (close reasons). */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > maxBytes) break;
    out += ch;
    bytes += n;
  }
  return out;
}
