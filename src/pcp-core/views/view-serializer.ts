// ViewFile → view file text that pmchart 6.0.3 reads back (`pmchart -C -c FILE`) and that
// view-parser.ts turns into the same ViewFile: every tab, scheme, comment and instance pattern
// survives (docs/pmchart-reference.md §1c). Anything the grammar cannot say is refused with a
// ViewFormatError naming the element, never written in a form that would read back
// differently: a word with both a blank and a `"`, an empty tab followed by another (pmchart
// renames an empty tab instead of adding one), `samples` without `points`, and so on.
import { CYCLE_COLOR, formatHexColor, isPmchartColor, resolveColor } from './colors';
import { MAX_WORD_LENGTH } from './view-lexer';
import { VIEW_GLOBAL_KEYS, type ViewChart, type ViewFile, type ViewInstances, type ViewPlot, type ViewTab } from './view-model';

export class ViewFormatError extends Error {
  override readonly name = 'ViewFormatError';
}

export interface FormatViewOptions {
  /**
   * Write colours pmchart 6.0.3 cannot read (X11-only names, rgbi: at full intensity) as
   * #rrggbb, as pmchart itself saves colours (default true).
   */
  readonly pmchartColors?: boolean;
}

const BLANK = /[ \t\r\v\f\n]/;

/** One word of a view line: quoted when that reads back the same, bare otherwise. */
function word(value: string, what: string, preferQuotes: boolean): string {
  if (value.length > MAX_WORD_LENGTH) throw new ViewFormatError(`${what} is longer than ${MAX_WORD_LENGTH} characters, the most pmchart reads in one word: "${value.slice(0, 40)}…"`);
  const bare = value.length > 0 && !BLANK.test(value) && !value.startsWith('"');
  const quotable = !value.includes('"') && !value.includes('\n');
  if (quotable && (preferQuotes || !bare)) return `"${value}"`;
  if (bare) return value;
  throw new ViewFormatError(`${what} cannot be written in a view file: pmchart reads no word that starts with a double quote, or holds one together with blanks or a newline: ${JSON.stringify(value)}`);
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  return String(n);
}

function commentLines(comments: readonly string[] | undefined, indent: string, what: string): string[] {
  return (comments ?? []).map((c) => {
    if (c.includes('\n') || !(c.startsWith('#') || c.startsWith('"#'))) throw new ViewFormatError(`${what}: a comment must be one line starting with "#": ${JSON.stringify(c)}`);
    return indent + c;
  });
}

class Writer {
  readonly lines: string[] = [];
  private readonly schemeNames: Set<string>;

  constructor(
    private readonly view: ViewFile,
    private readonly options: FormatViewOptions,
  ) {
    this.schemeNames = new Set(view.schemes.map((s) => s.name));
  }

  private color(spec: string, what: string): string {
    const keep = spec === CYCLE_COLOR || this.schemeNames.has(spec) || this.options.pmchartColors === false || isPmchartColor(spec);
    const rgb = keep ? undefined : resolveColor(spec);
    return word(rgb ? formatHexColor(rgb) : spec, what, false);
  }

  run(): string {
    const v = this.view;
    const legacy = v.format === 'pmchart';
    this.lines.push(legacy ? '#pmchart' : '#kmchart');
    this.lines.push(...commentLines(v.headerComments, '', 'header'));
    if (legacy) this.lines.push(`version ${v.version} host ${v.hostMode ?? 'dynamic'}`);
    else this.lines.push(`version ${v.version}${v.hostMode ? ` host ${v.hostMode}` : ''}`);
    const globals = VIEW_GLOBAL_KEYS.filter((k) => v.globals[k] !== undefined);
    if (globals.length > 0 || v.globalComments) this.lines.push('');
    this.lines.push(...commentLines(v.globalComments, '', 'globals'));
    for (const k of globals) this.lines.push(`global ${k} ${v.globals[k]}`);
    if (v.tabs.length === 0) this.schemes(0);
    v.tabs.forEach((tab, i) => this.tab(tab, i));
    const trailing = commentLines(v.trailingComments, '', 'end of file');
    if (trailing.length > 0) this.lines.push('', ...trailing);
    return this.lines.join('\n') + '\n';
  }

  /** The scheme definitions that go before the charts of tab `tabIndex`. */
  private schemes(tabIndex: number): void {
    const lastTab = Math.max(0, this.view.tabs.length - 1);
    let previous = -1;
    for (const s of this.view.schemes) {
      if (s.beforeTab < previous) throw new ViewFormatError(`scheme "${s.name}": schemes must be listed in the order of the tabs they precede`);
      previous = s.beforeTab;
      if (Math.min(s.beforeTab, lastTab) !== tabIndex) continue;
      if (s.name === CYCLE_COLOR) throw new ViewFormatError(`"${CYCLE_COLOR}" is the default palette and cannot be redefined`);
      if (s.colors.length < 2) throw new ViewFormatError(`scheme "${s.name}" needs at least two colours`);
      this.lines.push('', ...commentLines(s.comments, '', `scheme "${s.name}"`));
      this.lines.push(['scheme', word(s.name, 'a scheme name', false), ...s.colors.map((c) => this.color(c, `a colour of scheme "${s.name}"`))].join(' '));
    }
  }

  private tab(tab: ViewTab, i: number): void {
    const what = `tab ${i + 1}${tab.label !== undefined ? ` "${tab.label}"` : ''}`;
    if (tab.charts.length === 0 && i < this.view.tabs.length - 1) throw new ViewFormatError(`${what} has no charts: pmchart would rename it to the next tab's label instead of keeping it`);
    if (tab.label === undefined) {
      if (i > 0) throw new ViewFormatError(`${what} has no label; only the first tab may go without a "tab" line`);
      if (tab.host !== undefined || tab.points !== undefined || tab.samples !== undefined || (tab.comments?.length ?? 0) > 0) {
        throw new ViewFormatError(`${what}: a tab with a host, points, samples or comments needs a label`);
      }
    } else {
      if (tab.samples !== undefined && tab.points === undefined) throw new ViewFormatError(`${what}: "samples" can only follow "points"`);
      const parts = ['tab', word(tab.label, `the label of ${what}`, true)];
      if (tab.host !== undefined) parts.push('host', word(tab.host, `the host of ${what}`, false));
      if (tab.points !== undefined) parts.push('points', String(tab.points));
      if (tab.samples !== undefined) parts.push('samples', String(tab.samples));
      this.lines.push('', ...commentLines(tab.comments, '', what), parts.join(' '));
    }
    this.schemes(i);
    tab.charts.forEach((c, k) => this.chart(c, `chart ${k + 1} of ${what}`));
  }

  private chart(c: ViewChart, what: string): void {
    const parts = ['chart'];
    if (c.title !== undefined) parts.push('title', word(c.title, `the title of ${what}`, true));
    parts.push('style', c.style === 'line' ? 'plot' : c.style);
    if (c.scale) parts.push('scale', 'from', formatNumber(c.scale.min), 'to', formatNumber(c.scale.max));
    if (!c.legend) parts.push('legend', 'off');
    if (!c.antialiasing) parts.push('antialiasing', 'off');
    this.lines.push('', ...commentLines(c.comments, '', what), parts.join(' '));
    c.plots.forEach((p, k) => this.plot(p, `plot ${k + 1} of ${what}`));
  }

  private plot(p: ViewPlot, what: string): void {
    const legacy = this.view.format === 'pmchart';
    const parts = [p.optional ? 'optional-plot' : 'plot'];
    if (p.legend !== undefined) parts.push(legacy ? 'title' : 'legend', word(p.legend, `the legend of ${what}`, true));
    // Legacy files need color and host on every plot.
    if (p.color !== undefined || legacy) parts.push('color', this.color(p.color ?? CYCLE_COLOR, `the colour of ${what}`));
    if (p.host !== undefined || legacy) parts.push('host', p.host === undefined ? '*' : word(p.host, `the host of ${what}`, false));
    if (p.host === '*') throw new ViewFormatError(`${what}: host "*" means the default source; leave the host out instead`);
    parts.push('metric', word(p.metric, `the metric of ${what}`, false));
    parts.push(...instanceClause(p.instances, what));
    this.lines.push(...commentLines(p.comments, '\t', what), '\t' + parts.join(' '));
  }
}

function instanceClause(inst: ViewInstances, what: string): string[] {
  switch (inst.kind) {
    case 'all': return [];
    case 'instance': return ['instance', word(inst.name, `the instance of ${what}`, true)];
    case 'matching':
    case 'not-matching': return [inst.kind, word(inst.pattern, `the pattern of ${what}`, true)];
  }
}

/** The text of a view file; throws ViewFormatError when the view cannot be written faithfully. */
export function formatView(view: ViewFile, options: FormatViewOptions = {}): string {
  return new Writer(view, options).run();
}
