// formatView: the canonical text, lossless round trips, colour respelling for pmchart, and
// refusals for what a view file cannot express (pmchart's acceptance of the output is
// checked in view-parser.conformance.test.ts and standard-views.conformance.test.ts).
import { describe, expect, it } from 'vitest';
import { emptyView, type ViewFile } from './view-model';
import { parseView } from './view-parser';
import { formatView, ViewFormatError } from './view-serializer';

const chart = (extra: object = {}) => ({ style: 'line' as const, legend: true, antialiasing: true, plots: [{ optional: false, metric: 'kernel.all.load', instances: { kind: 'all' as const } }], ...extra });

describe('formatView', () => {
  it('writes the canonical form', () => {
    const view: ViewFile = {
      ...emptyView(),
      globals: { points: 120 },
      tabs: [{
        label: 'Storage',
        charts: [{
          title: 'Disk"bytes"', style: 'stacking', scale: { min: 0, max: 1.5e21 }, legend: false, antialiasing: true,
          plots: [
            { optional: true, legend: 'read %i', color: 'navy blue', metric: 'disk.dev.read_bytes', instances: { kind: 'matching', pattern: '^(sd|vd)[a-z]$' } },
            { optional: false, host: 'web1', metric: 'disk.all.write_bytes', instances: { kind: 'instance', name: '1 minute' } },
          ],
        }],
      }],
    };
    expect(formatView(view)).toBe(`#kmchart
version 1

global points 120

tab "Storage"

chart title Disk"bytes" style stacking scale from 0 to 1.5e+21 legend off
\toptional-plot legend "read %i" color #000080 metric disk.dev.read_bytes matching "^(sd|vd)[a-z]$"
\tplot host web1 metric disk.all.write_bytes instance "1 minute"
`);
    // "navy blue" is an X11 name pmchart cannot read: written as #rrggbb unless asked not to.
    expect(formatView(view, { pmchartColors: false })).toContain('color "navy blue" metric');
  });

  it('round-trips a legacy view as a legacy view', () => {
    const text = '#pmchart\nVersion 1.2 host literal\nChart Style plot\n\tPlot Color #-cycle Host * Metric sample.drift Instance a b\n';
    const parsed = parseView(text).view;
    const written = formatView(parsed);
    expect(written).toBe('#pmchart\nversion 1.2 host literal\n\nchart style plot\n\tplot color #-cycle host * metric sample.drift instance "a b"\n');
    expect(parseView(written).view).toEqual(parsed);
  });

  it('keeps schemes where they are and writes a view with only schemes', () => {
    const text = '#kmchart\nversion 1\nscheme A red blue\nchart style plot\n\tplot metric a\ntab "x"\nscheme B green white\nchart style plot\n\tplot color B metric b\n';
    const v = parseView(text).view;
    expect(parseView(formatView(v)).view).toEqual(v);
    const only = parseView('#kmchart\nversion 1\nscheme Fire #f2b600 #ede200\nscheme Ocean #f5dd85 #aaf5cb\n').view;
    expect(formatView(only)).toBe('#kmchart\nversion 1\n\nscheme Fire #f2b600 #ede200\n\nscheme Ocean #f5dd85 #aaf5cb\n');
  });

  it('refuses what a view file cannot say', () => {
    const bad = (v: Partial<ViewFile>, pattern: RegExp) => expect(() => formatView({ ...emptyView(), ...v })).toThrow(pattern);
    bad({ tabs: [{ label: 'a', charts: [] }, { label: 'b', charts: [chart()] }] }, /has no charts/);
    bad({ tabs: [{ charts: [chart()] }, { charts: [chart()] }] }, /has no label/);
    bad({ tabs: [{ label: 'a', samples: 3, charts: [chart()] }] }, /samples/);
    bad({ tabs: [{ label: 'a "b" c', charts: [chart()] }] }, /holds one together with blanks/);
    bad({ tabs: [{ label: 'x'.repeat(256), charts: [chart()] }] }, /longer than 255/);
    bad({ tabs: [{ charts: [chart({ comments: ['not a comment'] })] }] }, /comment must be one line/);
    bad({ schemes: [{ name: 'S', colors: ['red'], beforeTab: 0 }] }, /at least two colours/);
    expect(() => formatView({ ...emptyView(), tabs: [{ label: 'a', charts: [] }, { label: 'b', charts: [chart()] }] })).toThrow(ViewFormatError);
  });

  it('writes awkward words so they read back the same', () => {
    const words = ['', ' lead', 'trail ', 'tab\there', 'a"b', '"start', '#hash', 'plain'];
    for (const w of words) {
      if (w === '"start') continue; // starts with a quote: neither form reads back (refused below)
      const v: ViewFile = { ...emptyView(), tabs: [{ label: w, charts: [chart({ title: w, plots: [{ optional: false, legend: w, metric: 'm', instances: { kind: 'instance', name: w } }] })] }] };
      expect(parseView(formatView(v)).view, JSON.stringify(w)).toEqual(v);
    }
    expect(() => formatView({ ...emptyView(), tabs: [{ charts: [chart({ title: '"start' })] }] })).toThrow(/double quote/);
  });
});
