// Where a page's charts change pixels (CSS px), for the floor pages of the live and playback
// rows (live-ui-bench.ts, play-floor.ts): each strip's canvas (backing size, place, and its
// chart's clip), the legend values and the time-axis labels.
import type { Page } from '@playwright/test';

export interface ChartParts {
  readonly canvases: readonly { x: number; y: number; w: number; h: number; pw: number; ph: number; clip: { x: number; y: number; w: number; h: number } }[];
  readonly values: readonly { x: number; y: number }[];
  readonly labels: readonly { x: number; y: number }[];
}

export function chartParts(page: Page): Promise<ChartParts> {
  return page.evaluate((): ChartParts => {
    const rect = (e: Element): { x: number; y: number; w: number; h: number } => {
      const r = e.getBoundingClientRect();
      return { x: r.left, y: r.top, w: r.width, h: r.height };
    };
    return {
      canvases: [...document.querySelectorAll('.plot-viewport')].flatMap((v) => [...v.querySelectorAll('canvas')].map((c) => ({ ...rect(c), pw: c.width, ph: c.height, clip: rect(v) }))),
      values: [...document.querySelectorAll('[data-testid="legend-value"]')].map(rect),
      labels: [...document.querySelectorAll('[data-testid="axis-tick"]')].map(rect),
    };
  });
}
