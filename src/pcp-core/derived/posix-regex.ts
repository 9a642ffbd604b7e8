// matchinst()'s regular expressions: POSIX extended regular expressions as glibc's
// regcomp(REG_EXTENDED|REG_NOSUB) accepts them, with glibc's regerror texts for the patterns
// it refuses (derived-units-conversion.md §2.5: a pattern that does not compile is a syntax
// error "bad regular expression: '<regerror text>'"). The matcher is pcp-core/regex's
// automaton, linear in the instance name's length whatever the pattern.
import { compileRegex } from '../regex';
import type { RegexMatcher, RegexResult } from '../regex';

export type { RegexMatcher, RegexResult };

export function compilePosixEre(pattern: string): RegexResult {
  return compileRegex(pattern, 'ere');
}
