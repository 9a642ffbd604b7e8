import { expect, test } from '@playwright/test';

test('the app shell loads in Chromium without page errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.getByTestId('time-bar')).toBeVisible();
  await expect(page.getByTestId('sources')).toBeVisible();
  expect(errors).toEqual([]);
});
