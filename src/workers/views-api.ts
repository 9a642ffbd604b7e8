// The engine's side of pmchart view files (issue 8): the UI may not run pcp-core itself, so
// reading a view (parse, pmchart's messages, every colour resolved to #rrggbb), writing one
// and listing the standard views happen here, behind three EngineApi calls.
import { EINVAL, PmError } from '../pcp-core/errors';
import { STANDARD_VIEWS, formatHexColor, formatView, formatViewDiagnostic, parseView, resolveColor, ViewFormatError, type ViewFile } from '../pcp-core/views';

export interface ReadView {
  readonly view: ViewFile;
  /** pmchart's messages, "file[line] …": any one means pmchart would refuse the view. */
  readonly errors: readonly string[];
  /** What pmchart accepts but drops silently. */
  readonly warnings: readonly string[];
  /** '#rrggbb' for every colour specification in the view that is a colour. */
  readonly colors: Readonly<Record<string, string>>;
}

function colorsOf(view: ViewFile): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (spec: string | undefined): void => {
    if (spec === undefined || spec in out) return;
    const rgb = resolveColor(spec);
    if (rgb) out[spec] = formatHexColor(rgb);
  };
  for (const s of view.schemes) s.colors.forEach(add);
  for (const t of view.tabs) for (const c of t.charts) for (const p of c.plots) add(p.color);
  return out;
}

export function readView(name: string, text: string): ReadView {
  const r = parseView(text);
  return {
    view: r.view,
    errors: r.errors.map((d) => formatViewDiagnostic(name, d)),
    warnings: r.warnings.map((d) => formatViewDiagnostic(name, d)),
    colors: colorsOf(r.view),
  };
}

/** The text of a view; a view the grammar cannot say fails (EINVAL) with the reason. */
export function writeView(view: ViewFile): string {
  try {
    return formatView(view);
  } catch (e) {
    if (e instanceof ViewFormatError) throw new PmError(EINVAL, e.message, 'view');
    throw e;
  }
}

export interface StandardViewEntry {
  readonly name: string;
  readonly description: string;
  readonly view: ViewFile;
  readonly colors: Readonly<Record<string, string>>;
}

export function standardViews(): StandardViewEntry[] {
  return STANDARD_VIEWS.map((s) => ({ name: s.name, description: s.description, view: s.view, colors: colorsOf(s.view) }));
}
