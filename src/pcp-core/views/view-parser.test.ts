// View parser case tables: the model each statement builds, pmchart's tab renaming and
// scheme placement, legacy files, comments, and the diagnostics (the exact messages are
// checked against pmchart itself in view-parser.conformance.test.ts).
import { describe, expect, it } from 'vitest';
import { schemeForTab } from './view-model';
import { formatViewDiagnostic, parseView } from './view-parser';

const ok = (text: string) => {
  const r = parseView(text);
  expect(r.errors).toEqual([]);
  return r.view;
};

describe('parseView', () => {
  it('reads a current-format view with tabs, charts and every plot clause', () => {
    const v = ok(`#kmchart
version 1
global points 120
global width 800
global width 600
tab "Storage"
chart title "Disk bytes on %h" style stacking
\tplot legend "read" color #3a7bd5 metric disk.all.read_bytes
\toptional-plot legend "%i" colour orange host myhost metric disk.dev.util matching "^(sd|vd)"
chart title "Load" style line scale from 0 to 5000 legend off antialiasing off
\tplot metric kernel.all.load instance "1 minute"
\tplot metric network.interface.in.bytes not-matching "^lo"
tab "Memory" points 30 samples 90
chart style area
\tplot metric mem.util.available
`);
    expect(v.globals).toEqual({ points: 120, width: 800 });
    expect(v.tabs.map((t) => t.label)).toEqual(['Storage', 'Memory']);
    expect(v.tabs[1]).toMatchObject({ points: 30, samples: 90 });
    const [c1, c2] = v.tabs[0]?.charts ?? [];
    expect(c1).toMatchObject({ title: 'Disk bytes on %h', style: 'stacking', legend: true, antialiasing: true });
    expect(c1?.plots).toEqual([
      { optional: false, legend: 'read', color: '#3a7bd5', metric: 'disk.all.read_bytes', instances: { kind: 'all' } },
      { optional: true, legend: '%i', color: 'orange', host: 'myhost', metric: 'disk.dev.util', instances: { kind: 'matching', pattern: '^(sd|vd)' } },
    ]);
    expect(c2).toMatchObject({ style: 'line', scale: { min: 0, max: 5000 }, legend: false, antialiasing: false });
    expect(c2?.plots.map((p) => p.instances)).toEqual([{ kind: 'instance', name: '1 minute' }, { kind: 'not-matching', pattern: '^lo' }]);
  });

  it('puts charts before any tab line in an unnamed first tab, and renames an empty tab', () => {
    expect(ok('#kmchart\nversion 1\nchart style bar\n\tplot metric a\n').tabs).toEqual([
      { charts: [{ style: 'bar', legend: true, antialiasing: true, plots: [{ optional: false, metric: 'a', instances: { kind: 'all' } }] }] },
    ]);
    const v = ok('#kmchart\nversion 1\ntab "A" host h1\ntab "B" points 5\nchart style bar\n\tplot metric a\n');
    expect(v.tabs.map((t) => [t.label, t.host, t.points, t.charts.length])).toEqual([['B', 'h1', 5, 1]]);
  });

  it('places schemes before the tab whose charts follow them', () => {
    const v = ok('#kmchart\nversion 1\nscheme S1 red blue\nchart style plot\n\tplot color S1 metric a\ntab "two"\nscheme S2 #fff #000 green\nchart style plot\n\tplot metric b\n');
    expect(v.schemes).toEqual([
      { name: 'S1', colors: ['red', 'blue'], beforeTab: 0 },
      { name: 'S2', colors: ['#fff', '#000', 'green'], beforeTab: 1 },
    ]);
    expect(schemeForTab(v, 0)?.name).toBe('S1');
    expect(schemeForTab(v, 1)?.name).toBe('S2');
  });

  it('ignores a second definition of a scheme, with a warning', () => {
    const r = parseView('#kmchart\nversion 1\nscheme A red blue\nscheme A green white\n');
    expect(r.errors).toEqual([]);
    expect(r.view.schemes).toEqual([{ name: 'A', colors: ['red', 'blue'], beforeTab: 0 }]);
    expect(r.warnings.map((w) => w.line)).toEqual([4]);
  });

  it('reads legacy #pmchart files: capitalised keywords, mandatory color and host, instance to end of line', () => {
    const v = ok('#pmchart\nVersion 2.0 host dynamic\n\nChart Title "Hits" Style plot\n\tPlot Color #-cycle Host * Metric apache.requests_per_sec\n\tPlot Title "x" Color rgbi:1.0/0.5/0.0 Host web1 Metric m Instance cpu  0   busy\n');
    expect(v).toMatchObject({ format: 'pmchart', version: '2.0', hostMode: 'dynamic' });
    expect(v.tabs[0]?.charts[0]?.plots).toEqual([
      { optional: false, color: '#-cycle', metric: 'apache.requests_per_sec', instances: { kind: 'all' } },
      { optional: false, legend: 'x', color: 'rgbi:1.0/0.5/0.0', host: 'web1', metric: 'm', instances: { kind: 'instance', name: 'cpu 0 busy' } },
    ]);
  });

  it('keeps whole-line comments with the statement they precede', () => {
    const v = ok('#kmchart\n# made by hand\nversion 1\n# wide\nglobal width 10\n# CPU view\nchart style plot\n\t# Linux\n\tplot metric a\n#\n# the end\n');
    expect(v.headerComments).toEqual(['# made by hand']);
    expect(v.globalComments).toEqual(['# wide']);
    expect(v.tabs[0]?.charts[0]?.comments).toEqual(['# CPU view']);
    expect(v.tabs[0]?.charts[0]?.plots[0]?.comments).toEqual(['# Linux']);
    expect(v.trailingComments).toEqual(['#', '# the end']);
  });

  it('reads words as pmchart does: glued quotes, empty quotes, unterminated quotes, CRLF', () => {
    expect(ok('#kmchart\nversion 1\nchart style plot\n\tplot title "15 min"metric kernel.all.load\n').tabs[0]?.charts[0]?.plots[0]).toMatchObject({ legend: '15 min', metric: 'kernel.all.load' });
    expect(ok('#kmchart\nversion 1\nchart title "" style plot\n').tabs[0]?.charts[0]?.title).toBe('');
    expect(ok('#kmchart\r\nversion 1\r\nchart style plot\r\n\tplot metric a\r\n').tabs[0]?.charts[0]?.plots[0]?.metric).toBe('a');
    expect(ok('#kmchart\nversion 1\nchart style plot\n\tplot metric a instance "x y\n').tabs[0]?.charts[0]?.plots[0]?.instances).toEqual({ kind: 'instance', name: 'x y' });
  });

  it('warns about words pmchart drops silently', () => {
    const r = parseView('#kmchart\nversion 1\nchart title "x" pie\n\tplot metric a\nchart style bar legend off extra\n');
    expect(r.errors).toEqual([]);
    expect(r.warnings.map((w) => [w.line, w.message.slice(0, 14)])).toEqual([[3, 'ignored "pie" '], [5, 'ignored "extra']]);
    expect(r.view.tabs[0]?.charts.map((c) => c.style)).toEqual(['line', 'bar']);
  });

  it('stops at the first syntax error with pmchart’s message and line, keeping what it read', () => {
    const r = parseView('#kmchart\nversion 1\nchart style plot\n\tplot metric a\n\tplot legend\n\tplot metric b\n');
    expect(r.errors.map((e) => formatViewDiagnostic('v', e))).toEqual(['v[6] Syntax error: expecting "<legend title>", found End-of-Line']);
    expect(r.view.tabs[0]?.charts[0]?.plots.map((p) => p.metric)).toEqual(['a']);
  });

  it('reports every unexpected word at the end of a line and carries on', () => {
    const r = parseView('#kmchart one two\nversion 1\nchart style plot\n\tplot metric a instance "x" y\n');
    expect(r.errors.map((e) => formatViewDiagnostic('v', e))).toEqual([
      'v[1] Syntax error: unexpected word "one"',
      'v[1] Syntax error: unexpected word "two"',
      'v[4] Syntax error: unexpected word "y"',
    ]);
    expect(r.view.tabs[0]?.charts[0]?.plots).toHaveLength(1);
  });

  it('refuses executable views and accepts an empty file', () => {
    expect(parseView('#!/bin/sh\necho\n').errors[0]?.message).toMatch(/Executable view/);
    const empty = parseView('');
    expect(empty.errors).toEqual([]);
    expect(empty.view.tabs).toEqual([]);
  });
});
