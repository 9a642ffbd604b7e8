// The error of a time specification that libpcp rejects, carrying libpcp's own message text:
// the specification, then a line pointing at the offending position ("^ -- unexpected
// value"), as pmval and friends print after "invalid time window" or "-t argument not in
// pmParseInterval(3) format". The position is a character offset into `spec`.

export class TimeParseError extends Error {
  override readonly name = 'TimeParseError';
  constructor(
    /** The text that was parsed. */
    readonly spec: string,
    /** Where parsing stopped, as an offset into spec. */
    readonly position: number,
    /** "unexpected value", "more information expected", ... */
    readonly reason: string,
  ) {
    super(formatTimeParseError(spec, position, reason));
  }
}

/**
 * libpcp's parseError text: the spec, a newline, the characters before the error with every
 * printable one replaced by a space (tabs kept, so the caret lines up), "^ -- ", the reason
 * and a newline.
 */
export function formatTimeParseError(spec: string, position: number, reason: string): string {
  const lead = Array.from(spec.slice(0, position), (c) => (c > ' ' && c <= '~' ? ' ' : c)).join('');
  return `${spec}\n${lead}^ -- ${reason}\n`;
}
