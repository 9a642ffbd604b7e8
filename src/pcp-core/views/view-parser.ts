// pmchart view files (`#kmchart` and legacy `#pmchart`) → ViewFile. The statement grammar,
// the order of clauses, what ends the parse and every message follow pmchart 6.0.3's
// openView (src/pmchart/view.cpp, read for the facts; docs/pmchart-reference.md §1c): the
// parse stops at the first syntax error, except for unexpected words at the end of a line
// and over-long words, which are reported and skipped. Messages use pmchart's words, so
// `formatViewDiagnostic` prints exactly what `pmchart -C -c FILE` prints after "Error: "
// (view-parser.conformance.test.ts compares them). Words pmchart silently drops are
// reported here as warnings.
import { strtod } from '../c-numeric';
import { ViewLexer, type ViewToken } from './view-lexer';
import type { ViewChart, ViewChartStyle, ViewFile, ViewGlobals, ViewInstances, ViewPlot, ViewScheme, ViewTab } from './view-model';
import { parseUlong } from './view-numbers';

export interface ViewDiagnostic {
  readonly line: number;
  readonly message: string;
}

export interface ViewParseResult {
  /** What was read; partial when `errors` is not empty (pmchart keeps what it built too). */
  readonly view: ViewFile;
  /** pmchart's errors: any one makes pmchart refuse the view. */
  readonly errors: readonly ViewDiagnostic[];
  /** Things pmchart accepts silently but drops (a stray word, a chart without a style). */
  readonly warnings: readonly ViewDiagnostic[];
}

/** `file[line] message`, as pmchart prints a view error (without its "Error: " prefix). */
export function formatViewDiagnostic(file: string, d: ViewDiagnostic): string {
  return `${file}[${d.line}] ${d.message}`;
}

const STYLES: Readonly<Record<string, ViewChartStyle>> = {
  plot: 'line', line: 'line', bar: 'bar', stacking: 'stacking', area: 'area', utilization: 'utilization', event: 'event',
};
const PMCHART_VERSIONS = ['1.1', '1.2', '2.0', '2.1'];
const GLOBAL_KEYS: Readonly<Record<string, keyof ViewGlobals>> = { width: 'width', height: 'height', points: 'points', xpos: 'xpos', ypos: 'ypos' };

/** Thrown inside the parser to stop at the first syntax error (pmchart's "abandon"). */
class Abandon extends Error {}

type Word = Extract<ViewToken, { kind: 'word' }>;

const isWord = (t: ViewToken): t is Word => t.kind === 'word';
const is = (t: ViewToken, keyword: string): boolean => t.kind === 'word' && t.text.toLowerCase() === keyword;

function describe(t: ViewToken): string {
  return t.kind === 'eof' ? 'End-of-File' : t.kind === 'eol' ? 'End-of-Line' : `"${t.text}"`;
}

interface MutableTab {
  label?: string;
  host?: string;
  points?: number;
  samples?: number;
  charts: ViewChart[];
  comments: string[];
}

class Parser {
  private readonly lex: ViewLexer;
  readonly errors: ViewDiagnostic[] = [];
  readonly warnings: ViewDiagnostic[] = [];
  private legacy = false;
  private version = '1';
  private hostMode: 'literal' | 'dynamic' | undefined;
  private readonly globals: { -readonly [K in keyof ViewGlobals]: number } = {};
  private readonly schemes: ViewScheme[] = [];
  private readonly tabs: MutableTab[] = [];
  /** The chart plot lines go to, with its plots still growing. */
  private chart: { chart: Omit<ViewChart, 'plots'>; plots: ViewPlot[] } | undefined;
  private comments: string[] = [];
  private readonly headerComments: string[] = [];
  private readonly globalComments: string[] = [];

  constructor(text: string) {
    this.lex = new ViewLexer(text, (line, message) => this.errors.push({ line, message }));
  }

  private error(message: string): void {
    this.errors.push({ line: this.lex.line, message });
  }

  private warn(message: string): void {
    this.warnings.push({ line: this.lex.line, message });
  }

  /** pmchart's xpect: report and abandon the view. */
  private expect(want: string, got: ViewToken): never {
    this.error(`Syntax error: expecting "${want}", found ${describe(got)}`);
    throw new Abandon();
  }

  /** The next token, which must be a word; otherwise `expect(want)`. */
  private word(want: string): Word {
    const t = this.lex.next();
    if (!isWord(t)) this.expect(want, t);
    return t;
  }

  /** pmchart's eol(): every remaining word on the line is an error, but parsing goes on. */
  private endOfLine(): void {
    for (let t = this.lex.next(); isWord(t); t = this.lex.next()) this.error(`Syntax error: unexpected word "${t.text}"`);
  }

  private takeComments(): string[] {
    const c = this.comments;
    this.comments = [];
    return c;
  }

  run(): void {
    const first = this.lex.next();
    if (first.kind === 'eof') {
      this.warn('empty view file');
      return;
    }
    if (is(first, '#pmchart')) this.legacy = true;
    else if (!is(first, '#kmchart')) this.expect('#pmchart" or "#kmchart', first);
    this.endOfLine();
    let state: 'version' | 'top' | 'chart' = 'version';
    for (let t = this.lex.next(); t.kind !== 'eof'; t = this.lex.next()) {
      if (t.kind === 'eol') continue;
      if (t.text.startsWith('#')) {
        this.comments.push(this.lex.skipLine());
        continue;
      }
      if (state === 'version') {
        this.headerComments.push(...this.takeComments());
        this.versionLine(t);
        state = 'top';
      } else if (state === 'top' || !(is(t, 'plot') || is(t, 'optional-plot'))) {
        if (is(t, 'chart')) {
          this.chartLine();
          state = 'chart';
        } else if (is(t, 'tab') || is(t, 'view')) {
          this.tabLine();
          state = 'top';
        } else if (state === 'chart') {
          this.expect('plot" or "optional-plot', t);
        } else if (is(t, 'global')) {
          this.globalLine();
        } else if (is(t, 'scheme')) {
          this.schemeLine();
        } else {
          this.expect('chart", "global", "scheme" or "tab', t);
        }
      } else {
        this.plotLine(is(t, 'optional-plot'));
      }
    }
  }

  private versionLine(t: Word): void {
    if (!is(t, 'version')) this.expect('version', t);
    const v = this.word('<version number>');
    if (this.legacy ? !PMCHART_VERSIONS.includes(v.text) : v.text !== '1') this.expect('<version number>', v);
    this.version = v.text;
    const h = this.lex.next();
    if (!isWord(h)) {
      // `host literal|dynamic` is optional in the current format only.
      if (this.legacy) this.expect('host', h);
      return;
    }
    if (!is(h, 'host')) this.expect('host', h);
    const m = this.lex.next();
    if (is(m, 'literal')) this.hostMode = 'literal';
    else if (is(m, 'dynamic')) this.hostMode = 'dynamic';
    else this.expect('literal" or "dynamic', m);
    this.endOfLine();
  }

  private globalLine(): void {
    const want = 'width", "height", "xpos", "ypos", or "points';
    const a = this.word(want);
    const key = GLOBAL_KEYS[a.text.toLowerCase()];
    if (!key) this.expect(want, a);
    const v = this.word('<global attribute value>');
    const value = parseUlong(v.text);
    if (value === undefined) this.expect('<global attribute value>', v);
    this.globals[key] = Math.max(this.globals[key] ?? 0, value);
    this.globalComments.push(...this.takeComments());
    this.endOfLine();
  }

  private schemeLine(): void {
    const name = this.word('<color scheme value>');
    if (name.text === '#-cycle') this.expect('<non-default color scheme name>', name);
    if (this.schemes.some((s) => s.name === name.text)) {
      // pmchart skips a scheme it already knows (a view loaded twice).
      this.warn(`scheme "${name.text}" is already defined: this definition is ignored`);
      this.lex.skipLine();
      return;
    }
    const colors: string[] = [];
    let t = this.lex.next();
    for (; isWord(t); t = this.lex.next()) colors.push(t.text);
    if (colors.length < 2) this.expect('<list of color names>', t);
    this.schemes.push({ name: name.text, colors, beforeTab: Math.max(0, this.tabs.length - 1), comments: this.takeComments() });
  }

  private tabLine(): void {
    this.chart = undefined;
    const label = this.word('<tab label>').text;
    const tab: MutableTab = { label, charts: [], comments: this.takeComments() };
    let t = this.lex.next();
    if (is(t, 'host')) {
      tab.host = this.word('<host>').text;
      t = this.lex.next();
    }
    if (isWord(t)) {
      if (!is(t, 'points')) this.expect('<tab points>', t);
      tab.points = this.number(this.lex.next(), '<tab points value>');
      t = this.lex.next();
      if (isWord(t)) {
        if (!is(t, 'samples')) this.expect('<tab samples>', t);
        tab.samples = this.number(this.lex.next(), '<tab samples value>');
      }
    }
    const current = this.tabs[this.tabs.length - 1];
    if (current && current.charts.length === 0) {
      // pmchart renames the current tab while it is empty instead of adding one; its default
      // source stays in use unless this line names another.
      this.tabs[this.tabs.length - 1] = { ...tab, host: tab.host ?? current.host, comments: [...current.comments, ...tab.comments] };
    } else {
      this.tabs.push(tab);
    }
  }

  private number(t: ViewToken, want: string): number {
    const value = isWord(t) ? parseUlong(t.text) : undefined;
    if (value === undefined) this.expect(want, t);
    return value;
  }

  private chartLine(): void {
    const comments = this.takeComments();
    let title: string | undefined;
    let style: ViewChartStyle | undefined;
    let t: Word = this.word('title" or "style');
    if (is(t, 'title')) {
      title = this.word('<title>').text;
      t = this.word('style');
    }
    if (is(t, 'style')) {
      const s = this.word('<chart style>');
      style = STYLES[s.text.toLowerCase()];
      if (!style) this.expect('<chart style>', s);
    } else {
      this.warn(`ignored "${t.text}" where "style" was expected: the chart has no style and is drawn as a line chart`);
    }
    let scale: ViewChart['scale'];
    let legend = true;
    let antialiasing = true;
    const done = (): void => this.openChart({ ...(title !== undefined && { title }), style: style ?? 'line', ...(scale && { scale }), legend, antialiasing, ...(comments.length > 0 && { comments }) });
    let n = this.lex.next();
    if (!isWord(n)) return done();
    if (is(n, 'scale')) {
      let w = this.word('from or <ymin>');
      if (is(w, 'from')) w = this.word('<ymin>');
      const min = this.double(w, '<ymin>');
      w = this.word('to or <ymax>');
      if (is(w, 'to')) w = this.word('<ymax>');
      scale = { min, max: this.double(w, '<ymax>') };
      n = this.lex.next();
      if (!isWord(n)) return done();
    }
    if (is(n, 'legend')) {
      legend = this.onOff();
      n = this.lex.next();
      if (!isWord(n)) return done();
    }
    if (is(n, 'antialiasing')) {
      antialiasing = this.onOff();
      n = this.lex.next();
      if (!isWord(n)) return done();
    }
    // pmchart drops one word here without a complaint; anything after it is read as the next
    // statement.
    this.warn(`ignored "${n.text}" at the end of the chart clause`);
    done();
  }

  private onOff(): boolean {
    const w = this.word('on" or "off');
    if (is(w, 'on')) return true;
    if (is(w, 'off')) return false;
    return this.expect('on" or "off', w);
  }

  private double(w: Word, want: string): number {
    const r = strtod(w.text, 0);
    if (r.end !== w.text.length) this.expect(want, w);
    return r.value;
  }

  private openChart(chart: Omit<ViewChart, 'plots'>): void {
    if (this.tabs.length === 0) this.tabs.push({ charts: [], comments: [] });
    this.chart = { chart, plots: [] };
    const tab = this.tabs[this.tabs.length - 1];
    tab?.charts.push({ ...chart, plots: this.chart.plots });
  }

  private plotLine(optional: boolean): void {
    const comments = this.takeComments();
    let legend: string | undefined;
    let color: string | undefined;
    let host: string | undefined;
    let t = this.word('title" or "color');
    if (is(t, 'title') || (!this.legacy && is(t, 'legend'))) {
      legend = this.word('<legend title>').text;
      t = this.word('color');
    }
    // color and host are mandatory in legacy files, optional (#-cycle, host *) in current ones.
    if (is(t, 'color') || is(t, 'colour')) {
      color = this.word('<color>').text;
      t = this.word('host');
    } else if (this.legacy) {
      this.expect('color', t);
    }
    if (is(t, 'host')) {
      const h = this.word('<host>').text;
      if (h !== '*') host = h;
      t = this.word('metric');
    } else if (this.legacy) {
      this.expect('host', t);
    }
    if (!is(t, 'metric')) this.expect('metric', t);
    const metric = this.word('<metric>').text;
    let instances: ViewInstances = { kind: 'all' };
    const n = this.lex.next();
    if (isWord(n)) {
      const kind = n.text.toLowerCase();
      if (kind !== 'instance' && kind !== 'matching' && kind !== 'not-matching') this.expect('instance" or "matching" or "not-matching', n);
      let text = this.word(kind === 'instance' ? '<instance>' : '<pattern>').text;
      if (this.legacy) {
        // Legacy files: the instance runs to the end of the line, words joined by one space.
        for (let w = this.lex.next(); isWord(w); w = this.lex.next()) text += ' ' + w.text;
      } else {
        this.endOfLine();
      }
      instances = kind === 'instance' ? { kind, name: text } : { kind, pattern: text };
    }
    const plot: ViewPlot = {
      optional, metric, instances,
      ...(legend !== undefined && { legend }),
      ...(color !== undefined && { color }),
      ...(host !== undefined && { host }),
      ...(comments.length > 0 && { comments }),
    };
    this.chart?.plots.push(plot);
  }

  result(): ViewFile {
    const tabs: ViewTab[] = this.tabs.map((t) => ({
      ...(t.label !== undefined && { label: t.label }),
      ...(t.host !== undefined && { host: t.host }),
      ...(t.points !== undefined && { points: t.points }),
      ...(t.samples !== undefined && { samples: t.samples }),
      charts: t.charts,
      ...(t.comments.length > 0 && { comments: t.comments }),
    }));
    const schemes = this.schemes.map((s) => (s.comments && s.comments.length > 0 ? s : { name: s.name, colors: s.colors, beforeTab: s.beforeTab }));
    return {
      format: this.legacy ? 'pmchart' : 'kmchart',
      version: this.version,
      ...(this.hostMode && { hostMode: this.hostMode }),
      globals: { ...this.globals },
      schemes,
      tabs,
      ...(this.headerComments.length > 0 && { headerComments: this.headerComments }),
      ...(this.globalComments.length > 0 && { globalComments: this.globalComments }),
      ...(this.comments.length > 0 && { trailingComments: this.comments }),
    };
  }
}

/**
 * Whether text starts as pmchart accepts a view to start: its first word `#kmchart` or
 * `#pmchart` (any case, the parser's rule), or `#!` (an executable view). Lets a drop of
 * mixed files tell a view from a stray file by its first bytes.
 */
export function looksLikeView(head: string): boolean {
  return isExecutableView(head) || /^[ \t]*#(kmchart|pmchart)(?=[\s]|$)/i.test(head);
}

/** Whether a view is an executable script (`#!`), which pmchart runs and pmdash cannot. */
export function isExecutableView(text: string): boolean {
  return text.startsWith('#!');
}

/** Parses a view file's text; never throws. */
export function parseView(text: string): ViewParseResult {
  if (isExecutableView(text)) {
    return {
      view: { format: 'kmchart', version: '1', globals: {}, schemes: [], tabs: [] },
      errors: [{ line: 1, message: 'Executable view (it starts with "#!"): pmchart runs it to produce the view, pmdash cannot run programs' }],
      warnings: [],
    };
  }
  const p = new Parser(text);
  try {
    p.run();
  } catch (e) {
    if (!(e instanceof Abandon)) throw e;
  }
  return { view: p.result(), errors: p.errors, warnings: p.warnings };
}
