// Instance selectors as the engine applies them, shared by plot resolution and the UI's pick
// list (so the list shows what the chart will plot): exact names for a list; for matching /
// not-matching, the pattern as pmchart's view files mean it (QRegularExpression, unanchored,
// case-sensitive) run on pcp-core's linear-time matcher, so an instance name chosen by
// someone else can never stall the worker or the page.
import { compileRegex } from '../pcp-core/regex';
import type { InstanceSelector } from './engine-types';

/** Compiles a selector into an instance-name predicate; a bad pattern throws a SyntaxError naming it. */
export function instancePredicate(sel: InstanceSelector): (name: string) => boolean {
  switch (sel.kind) {
    case 'all':
      return () => true;
    case 'list': {
      const wanted = new Set(sel.names);
      return (name) => wanted.has(name);
    }
    case 'matching':
    case 'not-matching': {
      const re = compileRegex(sel.pattern, 'pcre');
      if (!re.ok) throw new SyntaxError(`Invalid regular expression: /${sel.pattern}/: ${re.message}`);
      const want = sel.kind === 'matching';
      return (name) => re.regex.test(name) === want;
    }
  }
}

/** Why an instance pattern is refused, or undefined when it compiles. */
export function instancePatternError(pattern: string): string | undefined {
  const re = compileRegex(pattern, 'pcre');
  return re.ok ? undefined : re.message;
}
