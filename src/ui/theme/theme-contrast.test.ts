// Readable contrast in both themes: every text colour variable against every surface it is
// drawn on meets WCAG AA for normal text (4.5:1), computed from the stylesheets themselves
// (styles.css for the light base, theme.css for the overrides).
import { describe, expect, it } from 'vitest';

// The stylesheets as text. Vitest empties CSS imports, so the files are read from disk: a
// test runs under Node even for browser code (a dynamic import keeps the UI's own modules
// free of Node).
const fs = await import('node:fs');
const base = fs.readFileSync(new URL('../styles.css', import.meta.url), 'utf8');
const theme = fs.readFileSync(new URL('./theme.css', import.meta.url), 'utf8');

function vars(css: string, selector: string): Record<string, string> {
  const at = css.indexOf(selector);
  if (at < 0) return {};
  const body = css.slice(css.indexOf('{', at) + 1, css.indexOf('}', at));
  return Object.fromEntries([...body.matchAll(/--([a-z]+):\s*(#[0-9a-fA-F]{6})/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
}

function luminance(hex: string): number {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * (c[0] ?? 0) + 0.7152 * (c[1] ?? 0) + 0.0722 * (c[2] ?? 0);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

describe('theme contrast', () => {
  const light = { ...vars(base, ':root {'), ...vars(theme, ":root[data-theme='light']") };
  const dark = { ...light, ...vars(theme, ":root[data-theme='dark']") };
  it.each([['light', light], ['dark', dark]] as const)('%s: text colours on surfaces ≥ 4.5:1', (_name, v) => {
    expect(Object.keys(v)).toEqual(expect.arrayContaining(['bg', 'panel', 'text', 'muted', 'accent', 'bad', 'ok']));
    for (const fg of ['text', 'muted', 'accent', 'bad', 'ok']) {
      for (const bg of ['bg', 'panel']) {
        const ratio = contrast(v[fg] ?? '', v[bg] ?? '');
        expect(ratio, `${fg} ${v[fg]} on ${bg} ${v[bg]}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
  it('the dark theme really differs', () => {
    expect(dark.bg).not.toBe(light.bg);
    expect(luminance(dark.panel ?? '')).toBeLessThan(0.05);
  });
});
