// The dashboard in the page address (issue 8): a link copied from Share and opened in a fresh
// browser context (no storage, nothing shared) shows the same tabs, charts, time position,
// interval, zoom and zone, and the same values; a damaged link is reported, and the app
// starts as usual.
import { expect, test } from '@playwright/test';
import { position, setIntervalSec, setPosition } from './dash';
import { chartsShown, legendValues, loadStandardView, openDemo, selectTab, settled, shareLink, tabLabels } from './menus';

test('a copied link opened in a fresh browser context shows the same charts at the same time', async ({ page, browser }) => {
  await openDemo(page);
  await loadStandardView(page, 'Loadavg');
  await loadStandardView(page, 'Diskbytes');
  await selectTab(page, 'Loadavg');
  await setIntervalSec(page, 5);
  await page.getByTestId('zone').selectOption('utc');
  await page.getByTestId('window').selectOption('120');
  await setPosition(page, '2026-11-21 12:08:20.351');
  await settled(page);
  const link = await shareLink(page);
  expect(link).toMatch(/#dash=[A-Za-z0-9_-]+$/);
  const want = {
    tabs: await tabLabels(page),
    charts: await chartsShown(page),
    position: await position(page),
    interval: await page.getByTestId('interval').inputValue(),
    window: await page.getByTestId('window').locator('option').first().innerText(),
    zone: await page.getByTestId('zone').inputValue(),
    values: await legendValues(page),
  };
  expect(Object.keys(want.values).length).toBeGreaterThan(2);

  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
  await expect.poll(() => position(other), { timeout: 30_000 }).toBe(want.position);
  await settled(other);
  expect(await tabLabels(other)).toEqual(want.tabs);
  expect(await chartsShown(other)).toEqual(want.charts);
  expect(await other.getByTestId('interval').inputValue()).toBe(want.interval);
  expect(await other.getByTestId('window').locator('option').first().innerText()).toBe(want.window);
  expect(await other.getByTestId('zone').inputValue()).toBe(want.zone);
  await expect.poll(() => legendValues(other)).toEqual(want.values);
  await context.close();
});

test('a damaged link is reported and the app starts as usual', async ({ page }) => {
  await page.goto('/#dash=not-a-dashboard');
  await expect(page.getByTestId('notice').filter({ hasText: "This link's dashboard could not be restored" })).toBeVisible();
  await expect(page.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
});
