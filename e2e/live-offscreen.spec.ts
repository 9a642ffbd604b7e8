// Live charts nobody can see cost no drawing (issue 19): a chart scrolled out of view keeps
// the strip it last drew while its data keeps coming, and draws the newest samples as soon as
// it is scrolled back; a chart in a tab not shown is not drawn at all but keeps collecting,
// and shows the samples of the time it was away when its tab is shown again. Values are
// those of the local pmcd (pminfo).
import { execFileSync } from 'node:child_process';
import { expect, test, type Locator } from '@playwright/test';
import { chart, legendNumber, openApp, source } from './dash';

/** The newest sample time the chart's strip shows (NaN before its first drawing). */
async function drawnEnd(c: Locator): Promise<number> {
  return Number((await c.getByTestId('chart-canvas').getAttribute('data-drawn-end')) ?? NaN);
}

/** The newest sample time the chart has (its live window ends there). */
async function newest(c: Locator): Promise<number> {
  return Number(await c.getAttribute('data-window-end'));
}

const ncpu = (): number => Number(/value (\d+)/.exec(execFileSync('pminfo', ['-f', 'hinv.ncpu'], { encoding: 'utf8' }))?.[1]);

test('a live chart scrolled out of view stops drawing and catches up when scrolled back', async ({ page }) => {
  // Short enough that the Overview's last charts are below the fold.
  await page.setViewportSize({ width: 1280, height: 700 });
  await openApp(page, '?host=localhost');
  await expect(source(page, 'localhost')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  const load = chart(page, /Average Load/);
  const last = page.getByTestId('chart').last();
  await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 20_000 }).toBe(ncpu());
  await expect.poll(() => drawnEnd(load), { timeout: 20_000 }).toBeGreaterThan(0);
  // Scrolled to the bottom: the last chart draws, Average Load (at the top) is out of view.
  await last.scrollIntoViewIfNeeded();
  await expect(load).not.toBeInViewport();
  const frozen = await drawnEnd(load);
  // Several samples later the visible chart has drawn them; the hidden one still shows its old strip.
  await expect.poll(async () => (await drawnEnd(last)) - frozen, { timeout: 15_000 }).toBeGreaterThanOrEqual(3000);
  expect(await drawnEnd(load)).toBe(frozen);
  // Its data kept coming all along (the legend is not the strip).
  expect(await newest(load)).toBeGreaterThanOrEqual(frozen + 3000);
  await load.scrollIntoViewIfNeeded();
  // Back in view: it draws the newest sample at once, with the right values.
  await expect.poll(async () => (await drawnEnd(load)) >= (await newest(load)) - 1000, { timeout: 5_000 }).toBe(true);
  expect(await drawnEnd(load)).toBeGreaterThan(frozen);
  expect(await legendNumber(load, '# cpus')).toBe(ncpu());
  // The strip's y axis holds the value drawn.
  const yMax = Number(await load.getByTestId('chart-canvas').locator('.plot-y').getAttribute('data-max'));
  expect(yMax).toBeGreaterThanOrEqual(ncpu());
  await load.screenshot({ path: test.info().outputPath('caught-up.png') });
});

test('a live chart in a tab not shown keeps its samples and shows them with its tab', async ({ page }) => {
  await openApp(page, '?host=localhost');
  await expect(source(page, 'localhost')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  const load = chart(page, /Average Load/);
  await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 20_000 }).toBe(ncpu());
  const left = await newest(load);
  // A new tab is shown: the Overview's charts leave the page.
  await page.getByTestId('add-tab').click();
  await expect(page.getByTestId('chart')).toHaveCount(0);
  await page.waitForTimeout(5000);
  await page.getByTestId('tab').first().getByRole('button').first().click();
  // At once the whole history, the time away included, up to the newest sample.
  await expect.poll(async () => (await drawnEnd(load)) >= left + 4000, { timeout: 3_000 }).toBe(true);
  const back = await newest(load);
  expect(await drawnEnd(load)).toBeGreaterThanOrEqual(back - 1000);
  // The samples of the time away are there, with pmcd's values: the tooltip in the middle of it.
  const t0 = Number(await load.getAttribute('data-window-start'));
  const t1 = Number(await load.getAttribute('data-window-end'));
  const box = await load.getByTestId('chart-canvas').boundingBox();
  if (!box) throw new Error('no chart canvas');
  // The plot area: the canvas minus the y axis gutter (64 px) and the right margin (18 px).
  const mid = (left + back) / 2;
  await page.mouse.move(box.x + 64 + ((mid - t0) / (t1 - t0)) * (box.width - 64 - 18), box.y + box.height / 2);
  const tip = load.getByTestId('chart-tooltip');
  const at = Number(await tip.getAttribute('data-time'));
  expect(at).toBeGreaterThan(left);
  expect(at).toBeLessThan(back);
  expect(Number(await tip.locator('[data-testid="tooltip-row"][data-series="# cpus"]').getAttribute('data-value'))).toBe(ncpu());
  await load.screenshot({ path: test.info().outputPath('tab-shown.png') });
});
