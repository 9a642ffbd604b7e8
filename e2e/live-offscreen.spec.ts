// Live charts nobody can see cost no drawing (issue 19): a chart scrolled out of view keeps
// the strip it last drew while its data keeps coming, and draws the newest samples as soon as
// it is scrolled back; values are those of the local pmcd (pminfo).
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
