// The chart editor's instance pick list: which of a metric's instances a plot's selector
// takes (the same rules as the engine's plot resolution: exact names for a list, a JS regex
// tested anywhere in the name for matching / not matching), and the explicit list that
// ticking or unticking one instance makes of any selector.
import type { InstanceSelector } from '../../workers/engine-types';

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
      let re: RegExp;
      try {
        re = new RegExp(sel.pattern);
      } catch {
        return new Set();
      }
      const want = sel.kind === 'matching';
      return new Set(names.filter((n) => re.test(n) === want));
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
