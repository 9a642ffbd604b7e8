// Visual regression of the main screens (committed baselines in e2e/screenshots/): the
// Overview of a dropped QA archive, the metric browser with a metric's details, the chart
// editor, and a failed archive next to a working one. Rendering is made deterministic by the
// Playwright config: fixed viewport, UTC, animations off, DejaVu fonts, CSS pixels.
import { expect, test, type Page } from '@playwright/test';
import { BAD, chart, dropFiles, legendNumber, openApp, QA, setPosition, source } from './dash';

const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${QA}/20180416.10.00.${s}`);

async function settled(page: Page): Promise<void> {
  await expect(page.locator('.spinner')).toHaveCount(0, { timeout: 60_000 });
  // Two frames for ECharts' lazy updates to paint.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function overview(page: Page): Promise<void> {
  await openApp(page);
  // The demo first (then listed under Recent once the drop replaces it): a drop before it has
  // opened makes it give way unseen, and the panel would differ from shot to shot.
  await expect(source(page, 'pmdash-demo')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await dropFiles(page, ARCH_FILES);
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await setPosition(page, '2018-04-16 11:00:00');
  await expect.poll(() => legendNumber(chart(page, /CPU Utilization/), 'Idle'), { timeout: 60_000 }).toBeGreaterThan(0);
  await page.mouse.move(0, 0);
  await settled(page);
}

test('overview of a dropped archive', async ({ page }) => {
  await overview(page);
  await expect(page).toHaveScreenshot('overview.png');
});

test('metric browser with details', async ({ page }) => {
  await overview(page);
  await page.getByTestId('metric-search').fill('network.interface.in.bytes');
  await page.locator('[data-testid="pmns-row"][data-path="network.interface.in.bytes"]').click();
  await expect(page.getByTestId('metric-details')).toContainText('counter');
  await settled(page);
  await expect(page.locator('.side')).toHaveScreenshot('metric-browser.png');
});

test('chart editor', async ({ page }) => {
  await overview(page);
  await chart(page, /Network Interface Bytes/).getByTestId('edit-chart').click();
  await expect(page.getByTestId('chart-editor')).toBeVisible();
  // Each plot's pick list of instances arrives from the engine after the editor opens.
  await expect(page.getByTestId('instance-picks')).toHaveCount(2);
  await settled(page);
  await expect(page).toHaveScreenshot('chart-editor.png');
});

test('a corrupt archive beside a working one', async ({ page }) => {
  await overview(page);
  await dropFiles(page, ['meta', 'index', '0'].map((s) => `${BAD}/badlabel-1.${s}`));
  await expect(source(page, 'badlabel-1')).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  await settled(page);
  await expect(page.getByTestId('sources')).toHaveScreenshot('corrupt-archive.png');
  // Its error is told once, in the notification area under the header.
  await expect(page.getByTestId('notices')).toHaveScreenshot('corrupt-archive-notice.png');
});

test('an empty chart after "+ Chart"', async ({ page }) => {
  await overview(page);
  await page.getByTestId('add-chart').click();
  await page.getByTestId('editor-close').click();
  const empty = chart(page, 'New chart');
  await empty.scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  await settled(page);
  // The tab's time grid, no y scale, the hint centred.
  await expect(empty).toHaveScreenshot('empty-chart.png');
});
