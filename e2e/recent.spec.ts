// Recent dashboards (issue 8): a dashboard the user changed is remembered by the browser; a
// fresh page of the same browser lists it under Views → Recent dashboards, and picking it
// brings back the same tabs, charts and time.
import { expect, test } from '@playwright/test';
import { position, setIntervalSec, setPosition } from './dash';
import { chartsShown, menu, openDemo, settled, tabLabels } from './menus';

test('a changed dashboard is listed in a fresh page and reopens as it was', async ({ page, context }) => {
  await openDemo(page);
  // Rename the tab, drop a chart, move to another interval and time.
  await page.getByTestId('tab').getByRole('button', { name: 'Overview', exact: true }).dblclick();
  await page.getByLabel('tab name').fill('Disks and load');
  await page.getByLabel('tab name').press('Enter');
  await page.getByTestId('chart').filter({ hasText: 'CPU Utilization' }).getByTestId('close-chart').click();
  await setIntervalSec(page, 5);
  await setPosition(page, '2026-11-21 12:08:20.351');
  await settled(page);
  const want = { tabs: await tabLabels(page), charts: await chartsShown(page), position: await position(page) };
  expect(want.tabs).toEqual(['Disks and load']);
  expect(want.charts.map((c) => c.title)).not.toContain('CPU Utilization [vm]');
  expect(want.charts).toHaveLength(4);
  // The address follows the dashboard at most twice a second (url-sync.ts), and the browser
  // remembers what the address holds: wait past one round, then for the two to agree.
  await page.waitForTimeout(700);
  const remembered = () => page.evaluate(() => {
    const [first] = JSON.parse(localStorage.getItem('pmdash.recent') ?? '[]') as { fragment: string }[];
    return first !== undefined && location.hash === `#${first.fragment}`;
  });
  await expect.poll(remembered, { timeout: 5000 }).toBe(true);

  // A fresh page of the same browser opens the default demo dashboard…
  const fresh = await context.newPage();
  await openDemo(fresh);
  expect(await tabLabels(fresh)).toEqual(['Overview']);
  await expect(fresh.getByTestId('chart')).toHaveCount(5);
  // …and lists the changed one among the recent dashboards.
  await menu(fresh, 'views');
  await expect(fresh.getByRole('menu', { name: 'Views' }).getByText('Recent dashboards')).toBeVisible();
  const entry = fresh.getByRole('menuitem', { name: /pmdash-demo — Disks and load/ });
  await expect(entry).toHaveCount(1);
  await entry.click();
  await expect(fresh.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
  await expect.poll(() => position(fresh), { timeout: 30_000 }).toBe(want.position);
  await settled(fresh);
  expect(await tabLabels(fresh)).toEqual(want.tabs);
  expect(await chartsShown(fresh)).toEqual(want.charts);
  await expect(fresh.getByTestId('interval')).toHaveValue('5');
  await expect(fresh.getByLabel('interval unit')).toHaveValue('sec');
});
