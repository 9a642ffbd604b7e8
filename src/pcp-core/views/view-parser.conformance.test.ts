// The view parser and serializer against pmchart 6.0.3's own parser (`pmchart -C`):
//  1. every view PCP installs parses without errors, and formatView → parseView gives the
//     same model back; the written text passes `pmchart -C`;
//  2. broken views (hand-written cases and seeded mutations of the installed views) get
//     exactly pmchart's messages, or none when pmchart accepts them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inBatches, pmchartCheckText } from '../../../test/pmchart-check';
import { resolveColor, formatHexColor } from './colors';
import type { ViewFile } from './view-model';
import { formatViewDiagnostic, isExecutableView, parseView } from './view-parser';
import { formatView } from './view-serializer';

const SYSTEM_VIEWS = '/var/lib/pcp/config/pmchart';

function installedViews(): { name: string; text: string }[] {
  const names = readdirSync(SYSTEM_VIEWS).sort();
  return names.filter((n) => statSync(join(SYSTEM_VIEWS, n)).isFile()).map((name) => ({ name, text: readFileSync(join(SYSTEM_VIEWS, name), 'utf8') }));
}

/** The model with every colour as the RGB it stands for (the serializer may respell X11 names). */
function withResolvedColors(v: ViewFile): ViewFile {
  const fix = (c: string | undefined): string | undefined => {
    const rgb = c === undefined ? undefined : resolveColor(c);
    return rgb ? formatHexColor(rgb) : c;
  };
  return {
    ...v,
    schemes: v.schemes.map((s) => ({ ...s, colors: s.colors.map((c) => fix(c) ?? c) })),
    tabs: v.tabs.map((t) => ({ ...t, charts: t.charts.map((c) => ({ ...c, plots: c.plots.map((p) => ({ ...p, ...(p.color !== undefined && { color: fix(p.color) }) })) })) })),
  };
}

/** What `pmchart -C` prints for our diagnostics of a file at `path`. */
function expectedMessages(path: string, text: string): string {
  const { errors } = parseView(text);
  return errors.map((e) => `Error: ${formatViewDiagnostic(path, e)}\n`).join('');
}

describe('views PCP installs', () => {
  const views = installedViews();

  it('finds the standard views', () => {
    const names = views.map((v) => v.name);
    for (const n of ['CPU', 'Disk', 'Loadavg', 'Memory', 'Netbytes', 'Overview', 'Iostat', 'Schemes', 'vCPU', 'PMCD']) expect(names).toContain(n);
  });

  it('parses every one (executable ones are refused with a clear error) and round-trips it', async () => {
    const texts = views.filter((v) => !isExecutableView(v.text));
    expect(texts.length).toBeGreaterThan(25);
    for (const v of views.filter((x) => isExecutableView(x.text))) {
      expect(parseView(v.text).errors[0]?.message, v.name).toMatch(/Executable view/);
    }
    const checks = await inBatches(texts, 2, async (v) => {
      const parsed = parseView(v.text);
      expect(parsed.errors, v.name).toEqual([]);
      const written = formatView(parsed.view);
      const again = parseView(written);
      expect(again.errors, `${v.name} rewritten`).toEqual([]);
      expect(again.warnings, `${v.name} rewritten`).toEqual([]);
      expect(withResolvedColors(again.view), v.name).toEqual(withResolvedColors(parsed.view));
      // Written again, the text is stable.
      expect(formatView(again.view), v.name).toBe(written);
      return { name: v.name, check: await pmchartCheckText(v.name, written) };
    });
    for (const { name, check } of checks) expect({ name, ...check, path: '' }).toEqual({ name, status: 0, messages: '', path: '' });
  });

  it('keeps every tab, pattern and comment of Iostat, Netbytes, PMCD and Overview', () => {
    const byName = new Map(views.map((v) => [v.name, parseView(v.text).view]));
    const iostat = byName.get('Iostat');
    expect(iostat?.tabs.map((t) => [t.label, t.charts.length])).toEqual([['SCSI Disk TRAFFIC', 4], ['SCSI Disk IOSTAT', 4]]);
    expect(iostat?.globals).toEqual({ width: 600, height: 300, points: 360 });
    expect(iostat?.tabs[1]?.charts[3]?.scale).toEqual({ min: 0, max: 100 });
    expect(byName.get('Netbytes')?.tabs[0]?.charts[0]?.plots[0]?.instances).toMatchObject({ kind: 'not-matching' });
    expect(byName.get('PMCD')?.tabs[0]?.charts[1]?.plots[0]?.instances).toEqual({ kind: 'matching', pattern: '[\\\\/](pmcd |pmcd$)' });
    expect(byName.get('Overview')?.tabs[0]?.charts[0]?.comments).toEqual(['# CPU view']);
    expect(byName.get('Schemes')?.schemes.map((s) => s.name)).toEqual(['Italian', 'Fire', 'Nature', 'Neon', 'Ocean']);
  });
});

/** Hand-written broken (or oddly accepted) views: the messages must be pmchart's. */
const CASES: Record<string, string> = {
  'no magic': 'kmchart\nversion 1\n',
  'blank first line': '\n#kmchart\nversion 1\n',
  'words after magic': '#kmchart extra words\nversion 1\nchart style plot\n',
  'no version': '#kmchart\nchart style plot\n',
  'bad version': '#kmchart\nversion 2\n',
  'legacy without host': '#pmchart\nversion 2.0\n',
  'legacy bad host mode': '#pmchart\nVersion 2.0 host sideways\n',
  'legacy version 1': '#pmchart\nversion 1\n',
  'kmchart host mode': '#kmchart\nversion 1 host literal extra\n',
  'chart alone': '#kmchart\nversion 1\nchart\n',
  'chart title only': '#kmchart\nversion 1\nchart title "x"\n',
  'bad style': '#kmchart\nversion 1\nchart style pie\n',
  'style without value': '#kmchart\nversion 1\nchart title "x" style\n',
  'chart without style': '#kmchart\nversion 1\nchart title "x" foo\n  plot metric kernel.all.load\n',
  'stray words after chart': '#kmchart\nversion 1\nchart style plot legend off one two\n',
  'scale without numbers': '#kmchart\nversion 1\nchart style plot scale\n',
  'scale from without min': '#kmchart\nversion 1\nchart style plot scale from\n',
  'scale bad min': '#kmchart\nversion 1\nchart style plot scale from 1x to 2\n',
  'scale without max': '#kmchart\nversion 1\nchart style plot scale 0\n',
  'scale bad max': '#kmchart\nversion 1\nchart style plot scale 0 to y\n',
  'scale odd numbers': '#kmchart\nversion 1\nchart style plot scale -1e3 0x10 legend off antialiasing off\n',
  'legend maybe': '#kmchart\nversion 1\nchart style plot legend maybe\n',
  'antialiasing missing': '#kmchart\nversion 1\nchart style plot antialiasing\n',
  'global unknown': '#kmchart\nversion 1\nglobal depth 3\n',
  'global no value': '#kmchart\nversion 1\nglobal width\n',
  'global bad value': '#kmchart\nversion 1\nglobal width 12px\n',
  'global odd values': '#kmchart\nversion 1\nglobal width ""\nglobal height 0x1f\nglobal points 010\nglobal xpos -1 extra\n',
  'global after chart': '#kmchart\nversion 1\nchart style plot\nglobal width 3\n',
  'scheme one colour': '#kmchart\nversion 1\nscheme Mine #ff0000\n',
  'scheme no name': '#kmchart\nversion 1\nscheme\n',
  'scheme cycle': '#kmchart\nversion 1\nscheme #-cycle red blue\n',
  'scheme twice': '#kmchart\nversion 1\nscheme A red blue\nscheme A green\nchart style plot\n',
  'tab no label': '#kmchart\nversion 1\ntab\n',
  'tab host no value': '#kmchart\nversion 1\ntab "x" host\n',
  'tab bad points': '#kmchart\nversion 1\ntab "x" points many\n',
  'tab samples without value': '#kmchart\nversion 1\ntab "x" points 10 samples\n',
  'tab wrong keyword': '#kmchart\nversion 1\ntab "x" width 10\n',
  'tab trailing': '#kmchart\nversion 1\ntab "x" points 10 samples 20 extra\n',
  'view alias': '#kmchart\nversion 1\nview "x"\nchart style bar\n\tplot metric kernel.all.load\n',
  'plot at top': '#kmchart\nversion 1\nplot metric kernel.all.load\n',
  'plot alone': '#kmchart\nversion 1\nchart style plot\nplot\n',
  'plot legend no text': '#kmchart\nversion 1\nchart style plot\nplot legend\n',
  'plot legend then nothing': '#kmchart\nversion 1\nchart style plot\nplot legend "a"\n',
  'plot color no value': '#kmchart\nversion 1\nchart style plot\nplot color\n',
  'plot host no value': '#kmchart\nversion 1\nchart style plot\nplot host\n',
  'plot no metric keyword': '#kmchart\nversion 1\nchart style plot\nplot legend "a" kernel.all.load\n',
  'plot metric no name': '#kmchart\nversion 1\nchart style plot\nplot metric\n',
  'plot bad instance keyword': '#kmchart\nversion 1\nchart style plot\nplot metric kernel.all.load instances "1 minute"\n',
  'plot instance no value': '#kmchart\nversion 1\nchart style plot\nplot metric kernel.all.load instance\n',
  'plot matching no value': '#kmchart\nversion 1\nchart style plot\nplot metric kernel.all.load matching\n',
  'plot trailing words': '#kmchart\nversion 1\nchart style plot\nplot metric kernel.all.load instance "1 minute" and more\n\tplot metric hinv.ncpu\n',
  'plot quote glued': '#kmchart\nversion 1\nchart style plot\n\tplot title "15 min"metric kernel.all.load instance "15 minute"\n',
  'other statement in chart': '#kmchart\nversion 1\nchart style plot\nscheme A red blue\n',
  'legacy plot no color': '#pmchart\nversion 2.0 host dynamic\nchart style plot\n\tplot host * metric kernel.all.load\n',
  'legacy plot no host': '#pmchart\nversion 2.0 host dynamic\nchart style plot\n\tplot color red metric kernel.all.load\n',
  'legacy legend keyword': '#pmchart\nversion 2.0 host dynamic\nchart style plot\n\tplot legend "x" color red host * metric kernel.all.load\n',
  'legacy instance to end of line': '#pmchart\nversion 2.0 host dynamic\nchart style plot\n\tplot color red host * metric kernel.all.load instance 1   minute\n',
  'comment mid line': '#kmchart\nversion 1\nchart style plot # comment\n',
  'quoted comment': '#kmchart\nversion 1\n"# a quoted comment"\nchart style plot\n',
  'unterminated quote': '#kmchart\nversion 1\nchart title "never closed\n\tplot metric kernel.all.load\n',
  'empty quoted title': '#kmchart\nversion 1\nchart title "" style plot\n',
  'crlf lines': '#kmchart\r\nversion 1\r\nchart style plot\r\n\tplot metric kernel.all.load\r\n',
  'no final newline': '#kmchart\nversion 1\nchart style plot\n\tplot metric kernel.all.load',
  'long word': `#kmchart\nversion 1\nchart title ${'T'.repeat(300)} style plot\n`,
  'long quoted word': `#kmchart\nversion 1\nchart title "${'abcdefghij'.repeat(30)}" style plot\n`,
  'long comment word': `#kmchart\nversion 1\n# ${'c'.repeat(260)}\nchart style plot\n`,
  'empty file': '',
  'keywords in capitals': '#KMCHART\nVERSION 1\nCHART TITLE "x" STYLE STACKING LEGEND OFF\n\tOPTIONAL-PLOT LEGEND "a" COLOUR Red HOST * METRIC kernel.all.load NOT-MATCHING "^1"\n',
};

/** A small deterministic generator (mulberry32) for the mutations. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Seeded word-level mutations of installed views: drop, duplicate or swap a word, or insert a keyword. */
function mutations(count: number): Record<string, string> {
  const rnd = random(20240611);
  const sources = installedViews().filter((v) => !isExecutableView(v.text) && v.text.length < 2000);
  const keywords = ['chart', 'plot', 'tab', 'title', 'style', 'legend', 'color', 'host', 'metric', 'instance', 'scale', 'global', '"x y"', '#', 'from', 'on'];
  const out: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const src = sources[Math.floor(rnd() * sources.length)];
    if (!src) break;
    const tokens = src.text.split(/([ \t\n]+)/);
    const wordAt = (): number => {
      for (;;) {
        const k = Math.floor(rnd() * tokens.length);
        if (tokens[k] && !/^[ \t\n]+$/.test(tokens[k])) return k;
      }
    };
    const k = wordAt();
    const op = Math.floor(rnd() * 4);
    if (op === 0) tokens[k] = '';
    else if (op === 1) tokens[k] = `${tokens[k]} ${tokens[k]}`;
    else if (op === 2) tokens[k] = `${keywords[Math.floor(rnd() * keywords.length)]} ${tokens[k]}`;
    else {
      const j = wordAt();
      [tokens[k], tokens[j]] = [tokens[j] ?? '', tokens[k] ?? ''];
    }
    out[`mutation ${i} of ${src.name} (op ${op})`] = tokens.join('');
  }
  return out;
}

describe('broken views get pmchart’s messages', () => {
  const all = { ...CASES, ...mutations(80) };

  it('matches `pmchart -C` on every case', async () => {
    const names = Object.keys(all);
    const results = await inBatches(names, 2, async (name) => {
      const text = all[name] ?? '';
      const check = await pmchartCheckText('view', text);
      return { name, ours: expectedMessages(check.path, text), theirs: check.messages, status: check.status, accepted: parseView(text).errors.length === 0 };
    });
    const differing = results.filter((r) => r.ours !== r.theirs || (r.accepted ? 0 : 1) !== r.status);
    expect(differing.map((r) => ({ name: r.name, text: all[r.name], ours: r.ours, theirs: r.theirs, status: r.status }))).toEqual([]);
    // The corpus exercises both outcomes.
    expect(results.filter((r) => r.accepted).length).toBeGreaterThan(10);
    expect(results.filter((r) => !r.accepted).length).toBeGreaterThan(50);
  });
});
