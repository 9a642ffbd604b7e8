// The heatmap chart style (issue 14 item 5): from the default page a user drops
// 20180416.10.00, charts network.interface.in.packets (a counter per interface, drawn as a
// rate) and switches the chart to "heatmap": one row per interface, cells bounded by the
// plot's pixels and the window's samples, the aggregation named; a hovered cell's value is
// the largest (then the mean) of pmval's values for that interface in the cell's span.
import { execFileSync } from 'node:child_process';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { dropAndHeatmap, labelStartMs, QA } from './dash';

const ARCH = `${QA}/20180416.10.00`;
const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${ARCH}.${s}`);
const METRIC = 'network.interface.in.packets';
const STEP_S = 10;

/** pmval's values of one instance at the grid fromMs, fromMs + STEP_S, … (n of them). */
function pmvalSeries(inst: string, fromMs: number, n: number): number[] {
  const offset = (fromMs - labelStartMs(ARCH)) / 1000 - STEP_S;
  const out = execFileSync('pmval', ['-z', '-f', '6', '-a', ARCH, '-S', `+${offset}`, '-t', String(STEP_S), '-s', String(n + 1), '-i', inst, METRIC], { encoding: 'utf8' });
  // pmval fetches the sample before the grid silently (a rate's first reading): the first n rows are the grid's.
  return out
    .split('\n')
    .filter((l) => /^\d\d:\d\d:\d\d\.\d{3}\s/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[1]))
    .slice(0, n);
}

async function hoverCell(page: Page, c: Locator, fx: number, row: number, rows: number): Promise<Locator> {
  const area = c.locator('.heatmap-area');
  const box = await area.boundingBox();
  if (!box) throw new Error('no heatmap area');
  // The plot area: 64 px gutter left, 18 px right, 10 px top (as the other charts).
  const x = box.x + 64 + (box.width - 64 - 18) * fx;
  const y = box.y + 10 + ((box.height - 10) / rows) * (row + 0.5);
  await page.mouse.move(x, y);
  const tip = c.getByTestId('heatmap-tooltip');
  await expect(tip).toBeVisible();
  return tip;
}

test('a heatmap of a per-interface rate: rows per instance, cells equal the max (and mean) of pmval\'s values in their span', async ({ page }) => {
  const c = await dropAndHeatmap(page, ARCH_FILES, '20180416.10.00', METRIC, STEP_S, '2018-04-16 10:41:25.325');

  const heat = c.getByTestId('heatmap');
  await expect(heat).toBeVisible();
  const rows = await c.getByTestId('heatmap-row').count();
  expect(rows).toBeGreaterThanOrEqual(5);
  await expect(heat).toHaveAttribute('data-agg', 'max');
  await expect(c.getByTestId('heatmap-scale')).toContainText('in each of');
  const columns = Number(await heat.getAttribute('data-columns'));
  // Never more columns than samples in the window, nor cells narrower than 4 px.
  expect(columns).toBeGreaterThan(1);
  expect(columns).toBeLessThanOrEqual(61);
  await c.scrollIntoViewIfNeeded();

  const label = (await c.getByTestId('heatmap-row').nth(0).getAttribute('data-label')) ?? '';
  const inst = /\[(.*)\]$/.exec(label)?.[1] ?? '';
  expect(inst).not.toBe('');
  const pos = Number(await page.getByTestId('time-bar').getAttribute('data-position'));
  const grid = pmvalSeries(inst, pos - 60 * STEP_S * 1000, 61).map((v, k) => ({ t: pos - (60 - k) * STEP_S * 1000, v }));
  for (const agg of ['max', 'avg'] as const) {
    if (agg === 'avg') {
      await c.getByTestId('heatmap-agg').selectOption('avg');
      await expect(heat).toHaveAttribute('data-agg', 'avg');
    }
    for (const fx of [0.3, 0.75]) {
      const tip = await hoverCell(page, c, fx, 0, rows);
      await expect(tip).toHaveAttribute('data-label', label);
      const t0 = Number(await tip.getAttribute('data-t0'));
      const t1 = Number(await tip.getAttribute('data-t1'));
      const inCell = grid.filter((g) => g.t >= t0 - 1e-6 && g.t <= t1 + 1e-6 && Number.isFinite(g.v)).map((g) => g.v);
      expect(inCell.length).toBeGreaterThan(0);
      const want = agg === 'max' ? Math.max(...inCell) : inCell.reduce((a, b) => a + b, 0) / inCell.length;
      const got = Number(await tip.getAttribute('data-value'));
      expect(Math.abs(got - want), `${agg} at ${fx}: ${got} vs pmval ${want} (${inCell.join(', ')})`).toBeLessThanOrEqual(Math.max(1e-3 * Math.abs(want), 2e-6));
    }
  }
  await page.screenshot({ path: 'test-results/heatmap.png' });
});
