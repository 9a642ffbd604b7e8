// pmchart's command line as page parameters (issue 13): a `?view=…&archive=…&S=…&T=…`
// bookmark opens that view on that archive over that window, with libpcp's values; a bad
// time names the parameter in the parser's words; a share link made over dropped files asks
// for them and, when the recipient drops the same archive, restores tabs, charts and time.
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { chart, dropFiles, legendNumber, openApp, pmvalAt, position, QA, source } from './dash';
import { chartsShown, DEMO, legendValues, loadStandardView, settled, shareLink, tabLabels } from './menus';

const ARCH = `${QA}/20180416.10.00`;
const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${ARCH}.${s}`);
/** The demo's label start, 12:04:50.351762 UTC (pmdumplog -L). */
const DEMO_START = Date.UTC(2026, 10, 21, 12, 4, 50) + 351.762363;

test('a ?view=&archive=&S=&T= bookmark opens that view over that window', async ({ page }) => {
  const q = new URLSearchParams({ view: 'Loadavg', archive: 'demo/pmdash-demo', Z: 'UTC', S: '@ 12:06:00', T: '@ 12:09:00' });
  await openApp(page, `?${q.toString()}`);
  await expect(source(page, 'pmdash-demo')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  // The view replaces the automatic Overview.
  await expect.poll(() => tabLabels(page)).toEqual(['Loadavg']);
  const load = chart(page, /Load Average/);
  await expect(load).toBeVisible();
  await expect(page.getByTestId('zone')).toHaveValue('utc');
  const t0 = Date.UTC(2026, 10, 21, 12, 6);
  const t1 = Date.UTC(2026, 10, 21, 12, 9);
  await expect.poll(() => position(page), { timeout: 30_000 }).not.toBeNaN();
  const p = await position(page);
  const w = Number(await page.getByTestId('time-bar').getAttribute('data-window'));
  const I = Number(await page.getByTestId('time-bar').getAttribute('data-interval'));
  expect(w).toBe(t1 - t0);
  expect(Math.abs(p - t1)).toBeLessThanOrEqual(I / 2);
  // libpcp's value at that position and interval.
  const off = (p - DEMO_START) / 1000;
  const want = pmvalAt(DEMO, 'kernel.all.load', off, I / 1000, '1 minute');
  await expect.poll(() => legendNumber(load, '1 min'), { timeout: 30_000 }).toBeCloseTo(want, 4);
  await page.screenshot({ path: test.info().outputPath('bookmark.png') });
});

test('a bad time in the address is reported in the parser\'s words, the archive still opens', async ({ page }) => {
  await openApp(page, `?${new URLSearchParams({ archive: 'demo/pmdash-demo', S: '@ 25:99' }).toString()}`);
  await expect(source(page, 'pmdash-demo')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  const notice = page.getByTestId('notice').filter({ hasText: '?S=@ 25:99' });
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice).toContainText('^ -- unexpected value');
  await expect.poll(() => legendNumber(chart(page, /CPU Utilization/), 'Idle'), { timeout: 30_000 }).not.toBeNaN();
});

test('a share link over dropped files binds when the recipient drops them: tabs, charts and time come back', async ({ page, browser }) => {
  await openApp(page);
  await expect(page.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
  await dropFiles(page, ARCH_FILES);
  const src = source(page, '20180416.10.00');
  await expect(src).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await src.click();
  await loadStandardView(page, 'Loadavg');
  await loadStandardView(page, 'Overview');
  // Only the dropped archive's tabs: close the demo's.
  await page.getByTestId('tab').first().getByTitle('Close tab').click();
  await page.getByTestId('range-picker').click();
  await page.getByTestId('range-from').fill('@ 11:30');
  await page.getByTestId('range-to').fill('@ 12:00');
  await page.getByTestId('range-apply').click();
  await settled(page);
  await expect.poll(() => legendNumber(chart(page, /Average Load/), '1 min'), { timeout: 30_000 }).not.toBeNaN();
  const link = await shareLink(page);
  const want = { tabs: await tabLabels(page), charts: await chartsShown(page), position: await position(page), values: await legendValues(page) };
  // The Overview opened beside the demo's Overview tab names the archive's host to tell them apart.
  const host = /host (\S+)/.exec(execFileSync('pmdumplog', ['-L', ARCH], { encoding: 'utf8' }))?.[1];
  expect(want.tabs).toEqual(['Loadavg', `Overview · ${host}`]);

  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByTestId('time-bar')).toBeVisible();
  await expect(other.getByTestId('notice').filter({ hasText: 'Drop 20180416.10.00 (host brolley-t530)' })).toBeVisible({ timeout: 30_000 });
  await dropFiles(other, ARCH_FILES);
  await expect(source(other, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect.poll(() => position(other), { timeout: 30_000 }).toBe(want.position);
  await settled(other);
  expect(await tabLabels(other)).toEqual(want.tabs);
  expect(await chartsShown(other)).toEqual(want.charts);
  await expect.poll(() => legendValues(other), { timeout: 30_000 }).toEqual(want.values);
  await other.screenshot({ path: test.info().outputPath('rebound.png') });
  await context.close();
});
