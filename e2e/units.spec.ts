// Units never mix silently (issue 14 item 1): from the default page, a dropped archive, a
// chart of disk.dev.read (count / sec); disk.dev.read_bytes added to it goes to a right y axis
// labelled with its own units, whose values are pmval's; a third kind of units (a plain
// metric from the browser, a derived Kbyte / count expression in the editor) is refused
// with a message naming its units and both axes', and the chart keeps its two plots. And CSV
// (issue 14 item 4): a FLOAT in its own precision; an export with nothing in it says so.
import { execFileSync } from 'node:child_process';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chart, dropFiles, labelStartMs, legendNumber, pmvalAt, position, QA, setIntervalSec, setPosition, source } from './dash';
import { download, downloadText, menu, openDemo } from './menus';

const ARCH = `${QA}/20180416.10.00`;
const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${ARCH}.${s}`);
/** The position: 2400 s after the label start (EDT+4), interval 10 s. */
const OFFSET = 2400;

const labels = (c: Locator): Promise<string[]> => c.getByTestId('legend-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-label') ?? ''));

/**
 * Once the dropped archive's Overview has data (it sets the window when it opens), a 10 min
 * window on a 10 s grid ending OFFSET s after the archive's start.
 */
async function atOffset(page: Page): Promise<void> {
  await expect.poll(() => legendNumber(chart(page, /IOPS over all Disks \[brolley-t530\]/), 'Reads'), { timeout: 60_000 }).not.toBeNaN();
  await setIntervalSec(page, 10);
  await page.getByTestId('window').selectOption('60');
  await expect(async () => {
    await setPosition(page, '2018-04-16 10:41:25.325');
    expect(await position(page)).toBeCloseTo(labelStartMs(ARCH) + OFFSET * 1000, 0);
  }).toPass({ timeout: 30_000 });
}

/** Kbyte multiples per unit of a byte-rate label ("Kbyte / sec" → 1, "Mbyte / sec" → 1024). */
function perKbyte(label: string): number {
  const k = ['Kbyte', 'Mbyte', 'Gbyte'].findIndex((u) => label.startsWith(`${u} / sec`));
  if (k < 0) throw new Error(`not a byte rate above Kbyte: ${label}`);
  return 1024 ** k;
}

test('a second kind of units goes to a right axis with its own label; a third is refused, naming the units', async ({ page }, info) => {
  test.setTimeout(120_000);
  // The default page (the demo) settled first: a drop while the demo's Overview is still
  // being laid out can leave the dropped archive without its own Overview.
  await openDemo(page);
  await dropFiles(page, ARCH_FILES);
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await atOffset(page);
  // The metric browser shows the dropped archive's metrics (the demo stays open beside it).
  await source(page, '20180416.10.00').click();
  const names = execFileSync('pminfo', ['-a', ARCH], { encoding: 'utf8' }).split('\n').filter(Boolean);
  await expect(page.getByTestId('metric-browser').locator('.panel-title')).toContainText(`(${names.length})`);

  // A chart of disk.dev.read[sda] (count / sec), from the metric browser.
  const search = page.getByTestId('metric-search');
  const details = page.getByTestId('metric-details');
  await search.fill('disk.dev.read');
  await page.locator('[data-testid="pmns-row"][data-path="disk.dev.read"]').click();
  await details.getByLabel('sda').check();
  await details.getByTestId('add-new-chart').click();
  const c = chart(page, 'disk.dev.read');
  // Charts scrolled away draw when they come into view.
  await c.scrollIntoViewIfNeeded();
  await expect.poll(() => legendNumber(c, 'disk.dev.read[sda]'), { timeout: 30_000 }).toBeCloseTo(pmvalAt(ARCH, 'disk.dev.read', OFFSET, 10, 'sda'), 4);
  await expect(c.locator('.plot-y')).toHaveAttribute('data-units', 'count / sec');
  await expect(c.getByTestId('y-units')).toHaveText('count / sec');
  await expect(c.getByTestId('y2-units')).toHaveCount(0);

  // disk.dev.read_bytes[sda] (Kbyte / sec) added to it: a right axis in its own units.
  await c.getByTestId('chart-title').click();
  await search.fill('disk.dev.read_bytes');
  await page.locator('[data-testid="pmns-row"][data-path="disk.dev.read_bytes"]').click();
  await expect(details).toContainText('Kbyte');
  await details.getByLabel('sda').check();
  await details.getByTestId('add-to-chart').click();
  await expect.poll(() => labels(c)).toEqual(['disk.dev.read[sda]', 'disk.dev.read_bytes[sda]']);
  await c.scrollIntoViewIfNeeded();
  const right = c.locator('.plot-y2');
  await expect(right).toHaveAttribute('data-units', /byte \/ sec$/);
  const rightLabel = (await right.getAttribute('data-units')) ?? '';
  await expect(c.getByTestId('y2-units')).toHaveText(rightLabel);
  // The left axis is still count / sec, and the right one is drawn in its own units.
  await expect(c.locator('.plot-y')).toHaveAttribute('data-units', 'count / sec');
  const k = perKbyte(rightLabel);
  const bytes = pmvalAt(ARCH, 'disk.dev.read_bytes', OFFSET, 10, 'sda');
  await expect.poll(() => legendNumber(c, 'disk.dev.read_bytes[sda]'), { timeout: 30_000 }).toBeCloseTo(bytes / k, 4);
  // The right axis covers the byte rate's values (the largest pmval value of the window).
  const windowMax = Math.max(...Array.from({ length: 60 }, (_, i) => pmvalAt(ARCH, 'disk.dev.read_bytes', OFFSET - 590 + i * 10, 10, 'sda')).filter((v) => !Number.isNaN(v)));
  expect(Number(await right.getAttribute('data-max'))).toBeGreaterThanOrEqual(windowMax / k);
  expect(Number(await right.getAttribute('data-max'))).toBeLessThan((windowMax / k) * 2.5);
  // Units in each legend entry and each tooltip row.
  await expect(c.locator('[data-testid="legend-item"][data-label="disk.dev.read[sda]"] [data-testid="legend-units"]')).toHaveText('count / sec');
  await expect(c.locator('[data-testid="legend-item"][data-label="disk.dev.read_bytes[sda]"] [data-testid="legend-units"]')).toHaveText(rightLabel);
  const body = c.getByTestId('chart-body');
  const box = await body.boundingBox();
  if (!box) throw new Error('no chart body');
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
  await expect(c.getByTestId('chart-tooltip')).toBeVisible();
  await expect(c.locator('[data-testid="tooltip-row"][data-series="disk.dev.read_bytes[sda]"]')).toHaveAttribute('data-units', rightLabel);
  await expect(c.locator('[data-testid="tooltip-row"][data-series="disk.dev.read_bytes[sda]"] .units')).toHaveText(rightLabel);
  await expect(c.locator('[data-testid="tooltip-row"][data-series="disk.dev.read[sda]"] .units')).toHaveText('count / sec');
  const shot = await c.boundingBox();
  if (shot) await page.screenshot({ path: info.outputPath('two-axes-tooltip.png'), clip: shot });
  await page.mouse.move(0, 0);

  // A third kind: kernel.all.load (none) from the browser is refused with both axes named.
  await c.getByTestId('chart-title').click();
  await search.fill('kernel.all.load');
  await page.locator('[data-testid="pmns-row"][data-path="kernel.all.load"]').click();
  await expect(details).toContainText('instant');
  await details.getByTestId('add-to-chart').click();
  const notice = page.getByTestId('notice').filter({ hasText: 'kernel.all.load not added' });
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText('none');
  await expect(notice).toContainText('count / sec (left axis)');
  await expect(notice).toContainText('Kbyte / sec (right axis)');
  expect(await labels(c)).toEqual(['disk.dev.read[sda]', 'disk.dev.read_bytes[sda]']);

  // A derived Kbyte / count expression typed in the chart editor: refused there, in place.
  await c.getByTestId('edit-chart').click();
  const editor = page.getByTestId('chart-editor');
  await editor.getByTestId('derived-expr').fill('rate(disk.dev.read_bytes) / rate(disk.dev.read)');
  await expect(editor.getByTestId('derived-ok')).toContainText('Kbyte / count');
  await editor.getByTestId('add-derived').click();
  const refused = editor.getByTestId('units-refused');
  await expect(refused).toContainText('Kbyte / count');
  await expect(refused).toContainText('count / sec (left axis)');
  await expect(refused).toContainText('Kbyte / sec (right axis)');
  await expect(page.getByTestId('notice').filter({ hasText: 'Kbyte / count' })).toHaveCount(1);
  expect(await labels(c)).toEqual(['disk.dev.read[sda]', 'disk.dev.read_bytes[sda]']);
  await page.screenshot({ path: info.outputPath('refused.png') });
});

test('CSV prints a FLOAT in its own precision, and an export with nothing to export says so', async ({ page }) => {
  // The default page (the demo) settled first: a drop while the demo's Overview is still
  // being laid out can leave the dropped archive without its own Overview.
  await openDemo(page);
  await dropFiles(page, ARCH_FILES);
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await atOffset(page);
  await source(page, '20180416.10.00').click();

  // A chart of kernel.all.load (FLOAT), selected: its CSV.
  await page.getByTestId('metric-search').fill('kernel.all.load');
  await page.locator('[data-testid="pmns-row"][data-path="kernel.all.load"]').click();
  await expect(page.getByTestId('metric-details')).toContainText('FLOAT');
  await page.getByTestId('metric-details').getByTestId('add-new-chart').click();
  const c = chart(page, 'kernel.all.load');
  await c.scrollIntoViewIfNeeded();
  await expect.poll(() => legendNumber(c, 'kernel.all.load[1 minute]'), { timeout: 30_000 }).not.toBeNaN();
  await c.getByTestId('chart-title').click();
  // The visible window ends at the position (nothing moved it since).
  await expect.poll(() => position(page)).toBeCloseTo(labelStartMs(ARCH) + OFFSET * 1000, 0);
  const csv = await downloadText(await download(page, 'export', 'export-csv-chart'));
  const [head = '', ...rows] = csv.trimEnd().split('\r\n');
  const headers = head.split(',');
  expect(headers.slice(1)).toEqual(['kernel.all.load[1 minute]', 'kernel.all.load[5 minute]', 'kernel.all.load[15 minute]']);
  // No float noise anywhere (0.32, never 0.3199999928474426).
  expect(rows.length).toBeGreaterThan(30);
  expect(csv).not.toMatch(/\d{9,}/);
  // The row at the position: each cell is pmval's value as a float32, in the fewest digits.
  const last = rows.find((r) => r.includes('T10:41:25.325'));
  expect(last, `no row at the position: ${rows[0]} … ${rows[rows.length - 1]}`).toBeDefined();
  const row = last?.split(',') ?? [];
  for (const [i, inst] of ['1 minute', '5 minute', '15 minute'].entries()) {
    const cell = row[i + 1] ?? '';
    const want = pmvalAt(ARCH, 'kernel.all.load', OFFSET, 10, inst);
    expect(Math.fround(Number(cell)), `${inst}: ${cell}`).toBe(Math.fround(want));
    expect(cell).toBe(String(Number(want.toFixed(6))));
  }

  // An empty chart ("+ Chart") selected: "Selected chart CSV" says there is nothing, no file.
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.getByTestId('add-chart').click();
  await page.getByTestId('editor-close').click();
  await menu(page, 'export');
  await page.getByTestId('export-csv-chart').click();
  const notice = page.getByTestId('notice').filter({ hasText: 'CSV export failed: nothing to export' });
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText('the selected chart has no metrics');
  expect(downloads).toBe(0);
});
