// Recent dashboards (issue 8): a dashboard the user changed is remembered by the browser; a
// fresh page of the same browser lists it under Views → Recent dashboards, and picking it
// brings back the same tabs, charts and time. Recent sources: archive URLs and live hosts
// that opened are listed in the sources panel of a fresh page, open again from there, and
// stay forgotten once removed.
import { expect, test } from '@playwright/test';
import { archiveServer } from './archive-server';
import { openApp, QA, position, setIntervalSec, setPosition, source } from './dash';
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

test('opened archive URLs and live hosts are listed in a fresh page, reopen from there and can be removed', async ({ page, context, baseURL }) => {
  const demoUrl = `${baseURL}/demo/pmdash-demo`;
  const srv = await archiveServer(QA);
  const archiveUrl = `${srv.url}/20180102`;
  try {
    await openApp(page);
    await expect(source(page, 'pmdash-demo')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    // A fresh browser has nothing to offer: the one source it has seen (the demo) is open.
    await expect(page.getByTestId('recent-sources')).toHaveCount(0);
    await page.getByTestId('url-input').fill(archiveUrl);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(source(page, '20180102')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await page.getByTestId('host-input').fill('localhost');
    await page.getByTestId('connect-host').click();
    await expect(source(page, 'localhost')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    // Both are open in this page, so it offers neither again; the demo they replaced it does.
    const here = page.getByTestId('recent-source');
    await expect(here).toHaveCount(1);
    await expect(here).toHaveAttribute('data-target', demoUrl);
    await page.close();

    // A fresh page of the same browser opens the demo and offers the other two, newest first,
    // each with its kind.
    const fresh = await context.newPage();
    await openApp(fresh);
    await expect(source(fresh, 'pmdash-demo')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    const recent = fresh.getByTestId('recent-source');
    await expect(recent).toHaveCount(2);
    await expect(recent.nth(0)).toHaveAttribute('data-kind', 'live');
    await expect(recent.nth(0)).toHaveAttribute('data-target', 'localhost');
    await expect(recent.nth(0)).toContainText('LIVE');
    await expect(recent.nth(1)).toHaveAttribute('data-kind', 'url');
    await expect(recent.nth(1)).toHaveAttribute('data-target', archiveUrl);
    await expect(recent.nth(1)).toContainText('ARCHIVE');
    await expect(recent.nth(1)).toContainText('20180102');
    const archive = fresh.getByRole('button', { name: `Open archive URL ${archiveUrl}`, exact: true });
    const live = fresh.getByRole('button', { name: 'Connect to live host localhost', exact: true });
    await expect(archive).toBeVisible();
    await expect(live).toBeVisible();

    // The archive entry opens the archive, as typing its URL would, in place of the untouched demo.
    await archive.click();
    await expect(source(fresh, '20180102')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(fresh.getByTestId('headline-host')).toHaveText('bozo');
    await expect(fresh.getByTestId('source')).toHaveCount(1);
    // Open now, so no longer offered; the live host still is, and so is the demo it replaced.
    await expect(archive).toHaveCount(0);
    await expect(recent).toHaveCount(2);
    await expect(recent.nth(0)).toHaveAttribute('data-target', demoUrl);
    await expect(recent.nth(1)).toHaveAttribute('data-target', 'localhost');

    // The recent entries are reached from the host field's button with Tab; Enter connects.
    await fresh.getByTestId('connect-host').focus();
    const focused = (): Promise<boolean> => live.evaluate((el) => el === document.activeElement);
    for (let tabs = 0; tabs < 4 && !(await focused()); tabs++) await fresh.keyboard.press('Tab');
    await expect(live).toBeFocused();
    await fresh.keyboard.press('Enter');
    await expect(source(fresh, 'localhost').getByTestId('connection')).toHaveAttribute('data-state', 'connected', { timeout: 30_000 });
    await expect(recent).toHaveCount(1);
    await expect(recent).toHaveAttribute('data-target', demoUrl);
    await fresh.close();

    // ✕ forgets an entry, and it stays forgotten after a reload.
    const third = await context.newPage();
    await openApp(third);
    await expect(source(third, 'pmdash-demo')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    const offered = third.getByTestId('recent-source');
    await expect(offered).toHaveCount(2);
    await third.getByRole('button', { name: `Remove archive URL ${archiveUrl} from recent sources`, exact: true }).click();
    await expect(offered).toHaveCount(1);
    await expect(offered).toHaveAttribute('data-target', 'localhost');
    await third.reload();
    await expect(third.getByTestId('time-bar')).toBeVisible();
    await expect(source(third, 'pmdash-demo')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(offered).toHaveCount(1);
    await expect(offered).toHaveAttribute('data-kind', 'live');
    await expect(offered).toHaveAttribute('data-target', 'localhost');
    await expect(third.getByRole('button', { name: `Open archive URL ${archiveUrl}`, exact: true })).toHaveCount(0);
  } finally {
    await srv.close();
  }
});
