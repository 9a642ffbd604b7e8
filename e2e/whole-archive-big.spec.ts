// "Whole archive" on a large archive (issue 19): about 1.3 GB, 18 h, made at run time from the
// QA archive 20180416.10.00 (its volumes decompressed, three time-shifted copies joined by
// pmlogrewrite and pmlogextract) and dropped on the default page. The Overview draws every
// chart across the full span with the values libpcp gives (pmval at the position and step:
// the step spans many logging intervals, so each sample is fetched from a fresh position
// through the temporal index); after fixing the interval at 10 s and at 1 s every chart's
// legend still shows values.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { joinedShiftedArchive } from '../test/big-archives';
import { scratchDir } from '../test/oracle';
import { chart, labelSpanMs, legendNumber, pmvalAt, position, setIntervalSec } from './dash';
import { dropAndShowOverview } from './menus';

let dir = '';
let files: string[] = [];

test.beforeAll(() => {
  dir = scratchDir('pmdash-e2e-big-');
  files = joinedShiftedArchive(dir);
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const attr = async (page: Page, name: string): Promise<number> => Number(await page.getByTestId('time-bar').getAttribute(name));

/** Every chart of the active tab has its data for the current window (no chart still loading)
 *  and shows a value in its legend. */
async function everyChartHasData(page: Page, when: string): Promise<void> {
  await expect(page.locator('[data-testid="chart"] .spinner'), `charts loading (${when})`).toHaveCount(0, { timeout: 240_000 });
  const charts = page.getByTestId('chart');
  const n = await charts.count();
  expect(n).toBeGreaterThanOrEqual(5);
  for (let i = 0; i < n; i++) {
    const c = charts.nth(i);
    const title = await c.getAttribute('data-title');
    await expect.poll(async () => c.locator('[data-testid="legend-value"][data-value]:not([data-value=""])').count(), { message: `${title} shows values (${when})`, timeout: 240_000 }).toBeGreaterThan(0);
  }
}

test('"Whole archive" on a 1.3 GB archive draws every Overview chart with pmval\'s values, and at 10 s and 1 s intervals still shows values', async ({ page }) => {
  test.setTimeout(900_000);
  const archive = join(dir, 'joined');
  const span = labelSpanMs(archive);
  await dropAndShowOverview(page, files, 'joined', 240_000);

  await page.getByTestId('range-picker').click();
  await page.getByTestId('range-whole').click();
  const I = await attr(page, 'data-interval');
  const w = await attr(page, 'data-window');
  const p = await position(page);
  // The whole 18 h, at a step of many 10 s logging intervals.
  expect(p - w).toBeCloseTo(span.startMs, 3);
  expect(span.endMs - p).toBeLessThan(1.5 * I);
  expect(w).toBeGreaterThan(17 * 3_600_000);
  expect(I).toBeGreaterThanOrEqual(40_000);
  await everyChartHasData(page, 'whole archive');
  // The values at the position are libpcp's: pmval from one step before, at the same step.
  const offsetSec = Math.round((p - span.startMs) / 1000);
  const iops = chart(page, /IOPS over all Disks/);
  const load = chart(page, /Average Load/);
  const reads = pmvalAt(archive, 'disk.all.read', offsetSec, I / 1000);
  const load1 = pmvalAt(archive, 'kernel.all.load', offsetSec, I / 1000, '1 minute');
  expect(Number.isFinite(reads) && Number.isFinite(load1)).toBe(true);
  await expect.poll(() => legendNumber(iops, 'Reads'), { timeout: 60_000 }).toBeCloseTo(reads, 4);
  await expect.poll(() => legendNumber(load, '1 min'), { timeout: 60_000 }).toBeCloseTo(load1, 4);
  await page.screenshot({ path: test.info().outputPath('whole-1.3GB.png') });

  for (const sec of [10, 1]) {
    await setIntervalSec(page, sec);
    await expect.poll(() => attr(page, 'data-interval')).toBe(sec * 1000);
    // The new window is being fetched (a spinner) before it is drawn.
    await expect(page.locator('[data-testid="chart"] .spinner').first()).toBeAttached();
    await everyChartHasData(page, `interval ${sec} s`);
    await page.screenshot({ path: test.info().outputPath(`whole-1.3GB-${sec}s.png`) });
  }
});
