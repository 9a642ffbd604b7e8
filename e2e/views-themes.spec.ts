// Themes and keyboard (issue 8): light and dark themes (screenshots of both), the "system"
// choice following the OS's colour scheme, the choice remembered, and every menu reachable
// and usable from the keyboard alone.
import { expect, test, type Page } from '@playwright/test';
import { setPosition } from './dash';
import { openDemo, settled, tabLabels } from './menus';

async function steady(page: Page): Promise<void> {
  await setPosition(page, '2026-11-21 12:09:50.351');
  await page.mouse.move(0, 0);
  await settled(page);
}

test('light and dark themes', async ({ page }) => {
  await openDemo(page);
  await page.getByTestId('theme').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await steady(page);
  await expect(page).toHaveScreenshot('theme-light.png');
  await page.getByTestId('theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await steady(page);
  await expect(page).toHaveScreenshot('theme-dark.png');
  // Remembered for the next visit.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('theme')).toHaveValue('dark');
});

test('"system" follows the OS colour scheme as it changes', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openDemo(page);
  await expect(page.getByTestId('theme')).toHaveValue('system');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

test('menus work from the keyboard alone', async ({ page }) => {
  await openDemo(page);
  const focused = (): Promise<string | null> => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
  // Tab from the top of the page to the Views menu button.
  await page.locator('body').focus();
  for (let i = 0; i < 40 && (await focused()) !== 'views-menu'; i++) await page.keyboard.press('Tab');
  expect(await focused()).toBe('views-menu');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu', { name: 'Views' })).toBeVisible();
  // Escape closes it and gives focus back to its button.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu', { name: 'Views' })).toHaveCount(0);
  expect(await focused()).toBe('views-menu');
  // Open again, Tab to a standard view, Enter loads it.
  await page.keyboard.press('Space');
  for (let i = 0; i < 40 && (await focused()) !== 'standard-view-Memory'; i++) await page.keyboard.press('Tab');
  expect(await focused()).toBe('standard-view-Memory');
  await page.keyboard.press('Enter');
  await expect.poll(() => tabLabels(page)).toEqual(['Overview', 'Memory']);
  // The other menus and the theme switch are in the tab order too.
  for (const id of ['export-menu', 'share-menu', 'theme']) {
    for (let i = 0; i < 40 && (await focused()) !== id; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe(id);
  }
});

test('charts and tabs from the keyboard: focus makes a chart current, F2 renames a tab', async ({ page }) => {
  await openDemo(page);
  const focused = (): Promise<string | null> => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
  const charts = page.getByTestId('chart');
  // Tab into the second chart's tools: it becomes the current chart (Export → chart PNG).
  const second = charts.nth(1);
  await second.getByTestId('edit-chart').focus();
  await page.keyboard.press('Shift+Tab');
  await expect(second).toHaveClass(/current/);
  await expect(charts.nth(0)).not.toHaveClass(/current/);
  for (let i = 0; i < 60 && (await focused()) !== 'close-chart'; i++) await page.keyboard.press('Tab');
  await expect(charts.nth(1)).toHaveClass(/current/);
  // F2 on the focused tab opens its name for editing; Enter keeps the new name.
  await page.getByTestId('tab').first().getByRole('button').first().focus();
  await page.keyboard.press('F2');
  const name = page.getByLabel('tab name');
  await expect(name).toBeFocused();
  await name.fill('Mine');
  await page.keyboard.press('Enter');
  await expect.poll(() => tabLabels(page)).toEqual(['Mine']);
});
