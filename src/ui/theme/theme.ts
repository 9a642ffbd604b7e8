// Light and dark themes (issue 8): the choice is "system" (follow the OS's
// prefers-color-scheme, live), "light" or "dark", remembered in local storage; the resolved
// theme is set as `data-theme` on <html>, where theme.css switches the CSS variables and the
// few fixed colours of the shell, and charts read their axis colours from `chartColors`.
// A tiny external store (useSyncExternalStore) so theme changes re-render only what draws.
import { useSyncExternalStore } from 'react';
import './theme.css';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const STORAGE_KEY = 'pmdash.theme';
const listeners = new Set<() => void>();
const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;

function storedChoice(): ThemeChoice {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return v === 'light' || v === 'dark' || v === 'system' ? v : 'system';
  } catch {
    // Storage can be off (private mode, policies): the OS decides.
    return 'system';
  }
}

let choice: ThemeChoice = storedChoice();

function resolve(c: ThemeChoice): Theme {
  return c === 'system' ? (media?.matches ? 'dark' : 'light') : c;
}

function apply(): void {
  document.documentElement.dataset.theme = resolve(choice);
  for (const l of listeners) l();
}

media?.addEventListener('change', () => {
  if (choice === 'system') apply();
});
apply();

export function themeChoice(): ThemeChoice {
  return choice;
}

export function currentTheme(): Theme {
  return resolve(choice);
}

export function setThemeChoice(c: ThemeChoice): void {
  choice = c;
  try {
    localStorage.setItem(STORAGE_KEY, c);
  } catch {
    // Not remembered, but still applied for this page.
  }
  apply();
}

function subscribe(cb: () => void): () => void {
  listeners.add(cb);
  return () => listeners.delete(cb);
}

/** The resolved theme, re-rendering on change. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, currentTheme);
}

/** The user's choice, re-rendering on change. */
export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, themeChoice);
}

/** Colours a chart draws itself (ECharts cannot read CSS variables). */
export interface ChartColors {
  readonly axisText: string;
  readonly axisName: string;
  readonly splitLine: string;
  readonly pointer: string;
  /** Outline of stacked bands (pmchart draws them black). */
  readonly stackOutline: string;
}

export const LIGHT_CHART: ChartColors = { axisText: '#333333', axisName: '#444444', splitLine: '#e4e8ee', pointer: '#1b8a3a', stackOutline: '#202020' };
export const DARK_CHART: ChartColors = { axisText: '#c9d3df', axisName: '#b6c2d0', splitLine: '#2e3946', pointer: '#4cc17a', stackOutline: '#0b0f14' };

export function chartColors(theme: Theme): ChartColors {
  return theme === 'dark' ? DARK_CHART : LIGHT_CHART;
}
