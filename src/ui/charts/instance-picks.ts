// The chart editor's instance pick list: which of a metric's instances a plot's selector
// takes (the engine's own rules, workers/instance-pattern.ts: exact names for a list, a
// pmchart-style pattern tested anywhere in the name for matching / not matching), and the
// explicit list that ticking or unticking one instance makes of any selector.
import type { InstanceSelector } from '../../workers/engine-types';
import { instancePredicate } from '../../workers/instance-pattern';

/** The instance names, of those given, that the selector keeps; a bad regex keeps none. */
export function selectedNames(sel: InstanceSelector, names: readonly string[]): ReadonlySet<string> {
  switch (sel.kind) {
    case 'all':
      return new Set(names);
    case 'list': {
      const wanted = new Set(sel.names);
      return new Set(names.filter((n) => wanted.has(n)));
    }
    case 'matching':
    case 'not-matching': {
      // The engine's own predicate; a pattern it refuses keeps none (the editor shows why).
      let keep: (name: string) => boolean;
      try {
        keep = instancePredicate(sel);
      } catch (e) {
        if (e instanceof SyntaxError) return new Set();
        throw e;
      }
      return new Set(names.filter(keep));
    }
  }
}

/**
 * The selector after ticking (`on`) or unticking one instance: always an explicit list, in
 * the instance domain's order, of what was selected with that one changed. Names a typed
 * list holds that are not (or no longer) in the domain are kept, after the domain's.
 */
export function toggledSelector(sel: InstanceSelector, names: readonly string[], name: string, on: boolean): InstanceSelector {
  const picked = new Set(selectedNames(sel, names));
  if (on) picked.add(name);
  else picked.delete(name);
  const known = new Set(names);
  const others = sel.kind === 'list' ? sel.names.filter((n) => !known.has(n)) : [];
  return { kind: 'list', names: [...names.filter((n) => picked.has(n)), ...others] };
}
