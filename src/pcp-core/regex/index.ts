// One regular-expression matcher for pmdash, linear in the subject's length (see README.md).
import { Automaton } from './automaton';
import { parseRegex, RegexSyntaxError } from './parse';
import type { Dialect } from './parse';

export { RegexLimitError, MAX_NFA_STATES } from './automaton';
export type { Dialect } from './parse';

/** A compiled pattern: whether it matches somewhere in a subject (unanchored, case-sensitive). */
export interface RegexMatcher {
  test(subject: string): boolean;
}

export type RegexResult = { readonly ok: true; readonly regex: RegexMatcher } | { readonly ok: false; readonly message: string };

/**
 * Compiles a pattern: 'ere' as glibc regcomp(REG_EXTENDED|REG_NOSUB) in the C locale
 * (libpcp's matchinst), refusals in regerror's words; 'pcre' as pmchart's QRegularExpression
 * for view-file instance patterns, its regular subset.
 */
export function compileRegex(pattern: string, dialect: Dialect): RegexResult {
  try {
    return { ok: true, regex: new Automaton(parseRegex(pattern, dialect)) };
  } catch (e) {
    if (e instanceof RegexSyntaxError) return { ok: false, message: e.message };
    throw e;
  }
}
