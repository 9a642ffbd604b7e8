// Which colour spellings pmchart 6.0.3 accepts in a plot clause, against `pmchart -C -C`
// (which plots each line against the local pmcd and so resolves its colour): isPmchartColor
// must agree on every SVG name, on X11-only names, on the hex forms and on rgbi: limits.
import { describe, expect, it } from 'vitest';
import { pmchartCheckText } from '../../../test/pmchart-check';
import { isPmchartColor, resolveColor } from './colors';
import { SVG_COLORS, X11_COLORS } from './color-names';

const names = (table: string): string[] => table.trim().split(' ').map((e) => e.split(':')[0] ?? '');

/** One plot per colour; pmchart reports each colour it refuses on the line after its plot. */
async function refusedByPmchart(colors: readonly string[]): Promise<string[]> {
  const lines = ['#kmchart', 'version 1', 'chart title "colours" style plot'];
  for (const c of colors) lines.push(`\tplot color ${c.includes(' ') ? `"${c}"` : c} metric kernel.all.load instance "1 minute"`);
  const check = await pmchartCheckText('colours', lines.join('\n') + '\n', 2);
  const refused = [...check.messages.matchAll(/Invalid color name: (.*)/g)].map((m) => m[1] ?? '');
  // Anything else pmchart says would mean the check itself went wrong (pmcd down, …).
  expect(check.messages.split('\n').filter((l) => l !== '' && !l.includes('Invalid color name'))).toEqual([]);
  return refused;
}

describe('colour names and forms against pmchart -C -C', () => {
  it('accepts every SVG name, in any case and with blanks', async () => {
    const svg = names(SVG_COLORS);
    expect(svg.length).toBe(147);
    const spelled = [...svg, 'transparent', 'Dark Slate Gray', 'CornflowerBlue', 'LIME'];
    // One bad name proves the run really resolved colours.
    expect(await refusedByPmchart([...spelled, 'bogus'])).toEqual(['bogus']);
    for (const n of spelled) expect(isPmchartColor(n), n).toBe(true);
  });

  it('refuses the X11 names that are not SVG names, which pmdash still resolves', async () => {
    const svg = new Set(names(SVG_COLORS));
    const x11Only = names(X11_COLORS).filter((n) => !svg.has(n));
    expect(x11Only.length).toBeGreaterThan(400);
    // Every 7th, to keep one pmchart run small, plus the multi-word spellings.
    const sample = [...x11Only.filter((_, i) => i % 7 === 0), 'navy blue', 'NavyBlue', 'grey50', 'LightGoldenrod'];
    expect(await refusedByPmchart(sample)).toEqual(sample);
    for (const n of sample) {
      expect(isPmchartColor(n), n).toBe(false);
      expect(resolveColor(n), n).toBeDefined();
    }
  });

  it('agrees on the hex forms, rgbi: limits and nonsense', async () => {
    const cases = ['#abc', '#a0b1c2', '#80a0b1c2', '#aaabbbccc', '#aaaabbbbcccc', '#ab', '#abcd', '#abcde', '#ggg', '#a0b1c2d3e4',
      'rgbi:0.5/0.2/0.1', 'rgbi:0.997/0/0', 'rgbi:0.998/0/0', 'rgbi:1.0/1.0/0.0', 'rgbi:0/0', 'rgbi:-0.01/0/0', 'rgbi:1e-1/0x.8p0/0junk', 'bogus', '#-cyclex'];
    const refused = await refusedByPmchart(cases);
    expect(cases.filter((c) => !isPmchartColor(c))).toEqual(refused);
    expect(refused).toContain('rgbi:1.0/1.0/0.0');
    expect(refused).not.toContain('rgbi:0.997/0/0');
  });
});
