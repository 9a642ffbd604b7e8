import { expect, test } from '@playwright/test';

test('the app loads in Chromium', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'pmdash' })).toBeVisible();
  await expect(page.getByTestId('status')).toHaveText('pmdash engine');
  expect(errors).toEqual([]);
});
