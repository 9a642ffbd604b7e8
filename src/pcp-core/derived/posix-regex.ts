// matchinst()'s regular expressions: POSIX extended regular expressions as glibc's
// regcomp(REG_EXTENDED|REG_NOSUB) accepts them, with glibc's regerror texts for the patterns
// it refuses (derived-units-conversion.md §2.5: a pattern that does not compile is a syntax
// error "bad regular expression: '<regerror text>'"). The matcher is pcp-core/regex's
// automaton, linear in the instance name's length whatever the pattern.
import { PM_ERR_TOOBIG, PmError } from '../errors';
import { compileRegex, RegexLimitError } from '../regex';
import type { RegexMatcher, RegexResult } from '../regex';

export type { RegexMatcher, RegexResult };

export function compilePosixEre(pattern: string): RegexResult {
  const r = compileRegex(pattern, 'ere');
  if (!r.ok) return r;
  const inner = r.regex;
  // Only back-references can exceed the matcher's bound: that fetch fails as a PCP error.
  const regex: RegexMatcher = {
    test(subject: string): boolean {
      try {
        return inner.test(subject);
      } catch (e) {
        if (e instanceof RegexLimitError) throw new PmError(PM_ERR_TOOBIG, `${e.message} (${subject.length} characters)`, `matchinst(/${pattern.slice(0, 60)}/)`);
        throw e;
      }
    },
  };
  return { ok: true, regex };
}
