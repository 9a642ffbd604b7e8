// Archives dropped on the page: a multi-volume xz-compressed QA archive gives the Overview
// charts; their values equal pmval's (libpcp) at the same time and interval; a corrupt archive
// shows its error while the good one keeps working. Each starts from the default page (the
// demo), which the first drop replaces.
import { expect, test } from '@playwright/test';
import { BAD, chart, dropFiles, legendNumber, pmvalAt, position, QA, setIntervalSec, setPosition, source } from './dash';
import { openDemo } from './menus';

const ARCH = `${QA}/20180416.10.00`;
const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${ARCH}.${s}`);

test.describe('dropped archives', () => {
  test('a dropped multi-volume compressed archive opens with charts full of data', async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, ARCH_FILES);
    await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(page.getByTestId('headline-host')).toHaveText('brolley-t530');
    const cpu = chart(page, 'CPU Utilization [brolley-t530]');
    await expect(cpu).toBeVisible();
    // Data at once (pmchart opens empty, §1d D9): the legend shows values at the position.
    await expect.poll(() => legendNumber(cpu, 'Idle'), { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
    await expect(page.getByTestId('chart')).toHaveCount(5);
  });

  test('legend values equal pmval at the same time and interval', async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, ARCH_FILES);
    await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await setIntervalSec(page, 10);
    // A 10 min window: the window cannot leave the data (it opens on the first hour).
    await page.getByTestId('window').selectOption('60');
    // 600 s after the label start (10:01:25.325 in the archive's zone, EDT+4).
    await setPosition(page, '2018-04-16 10:11:25.325');
    const iops = chart(page, /IOPS over all Disks/);
    const load = chart(page, /Average Load/);
    const reads = pmvalAt(ARCH, 'disk.all.read', 600, 10);
    const writes = pmvalAt(ARCH, 'disk.all.write', 600, 10);
    const load1 = pmvalAt(ARCH, 'kernel.all.load', 600, 10, '1 minute');
    expect(Number.isFinite(reads) && Number.isFinite(load1)).toBe(true);
    await expect.poll(() => legendNumber(iops, 'Reads'), { timeout: 30_000 }).toBeCloseTo(reads, 4);
    expect(await legendNumber(iops, 'Writes')).toBeCloseTo(writes, 4);
    await expect.poll(() => legendNumber(load, '1 min')).toBeCloseTo(load1, 4);
  });

  test('hovering a chart shows pmval\'s values at the sample under the pointer, with a crosshair in every chart', async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, ARCH_FILES);
    await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await setIntervalSec(page, 10);
    // A 10 min window: the window cannot leave the data (it opens on the first hour).
    await page.getByTestId('window').selectOption('60');
    // 2400 s after the label start; the window ends at the position.
    await setPosition(page, '2018-04-16 10:41:25.325');
    const iops = chart(page, /IOPS over all Disks/);
    await expect.poll(() => legendNumber(iops, 'Reads'), { timeout: 30_000 }).not.toBeNaN();
    const pos = await position(page);
    const body = iops.getByTestId('chart-body');
    const box = await body.boundingBox();
    if (!box) throw new Error('no chart body');
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
    const tip = iops.getByTestId('chart-tooltip');
    await expect(tip).toBeVisible();
    // Every chart of the tab draws the crosshair at the same time; only this one a tooltip.
    const t = Number(await tip.getAttribute('data-time'));
    const charts = await page.getByTestId('chart').count();
    await expect(page.locator(`[data-testid="crosshair"][data-time="${t}"]`)).toHaveCount(charts);
    await expect(page.getByTestId('chart-tooltip')).toHaveCount(1);
    // The tooltip snaps to a sample on the interval grid through the position.
    const k = Math.round((t - pos) / 10_000);
    expect(Math.abs(t - (pos + k * 10_000))).toBeLessThan(1);
    expect(k).toBeLessThan(0);
    const offset = 2400 + 10 * k;
    expect(offset).toBeGreaterThan(0);
    const row = (label: string) => tip.locator(`[data-testid="tooltip-row"][data-series="${label}"]`);
    expect(Number(await row('Reads').getAttribute('data-value'))).toBeCloseTo(pmvalAt(ARCH, 'disk.all.read', offset, 10), 4);
    expect(Number(await row('Writes').getAttribute('data-value'))).toBeCloseTo(pmvalAt(ARCH, 'disk.all.write', offset, 10), 4);
    // The legend follows the hovered time too.
    expect(await legendNumber(iops, 'Reads')).toBeCloseTo(pmvalAt(ARCH, 'disk.all.read', offset, 10), 4);
    await page.mouse.move(box.x + box.width / 2, box.y - 40);
    await expect(page.getByTestId('chart-tooltip')).toHaveCount(0);
    await expect(page.getByTestId('crosshair')).toHaveCount(0);
  });

  test('a corrupt archive shows its error while another archive keeps working', async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, [...ARCH_FILES, ...['meta', 'index', '0'].map((s) => `${BAD}/badlabel-1.${s}`)]);
    const bad = source(page, 'badlabel-1');
    await expect(bad).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
    // Told once, in the notification area, naming the file; the panel only marks the source.
    const notice = page.getByTestId('notice').filter({ hasText: 'badlabel-1' });
    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText('badlabel-1.meta');
    await expect(notice).toContainText('Illegal label record');
    await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    const cpu = chart(page, /CPU Utilization/);
    await expect.poll(() => legendNumber(cpu, 'Idle'), { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
    // A stray file in the drop is reported by name, not silently ignored.
    await dropFiles(page, [`${BAD}/README`]);
    await expect(source(page, 'README')).toHaveAttribute('data-status', 'failed');
    await expect(page.getByTestId('notice').filter({ hasText: 'README' })).toContainText('not a PCP archive file');
    expect(await legendNumber(cpu, 'Idle')).toBeGreaterThanOrEqual(0);
  });
});
