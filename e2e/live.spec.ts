// Live mode against the real pmcd on localhost through the app's own bridge: connecting gives
// a live tab whose charts keep receiving new values; pause stops them.
import { expect, test } from '@playwright/test';
import { chart, legendNumber, openApp, source } from './dash';

test('a live host through the bridge shows updating values', async ({ page }) => {
  await openApp(page, '?empty');
  await page.getByTestId('host-input').fill('localhost');
  await page.getByTestId('connect-host').click();
  await expect(source(page, 'localhost')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('live-controls')).toBeVisible();
  const load = chart(page, /Average Load/);
  await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 20_000 }).toBeGreaterThan(0);
  // CPU user time is a counter: a rate appears from the second sample on and keeps changing.
  const cpu = chart(page, /CPU Utilization/);
  await expect.poll(() => legendNumber(cpu, 'User'), { timeout: 20_000 }).toBeGreaterThanOrEqual(0);
  const seen = new Set<number>();
  await expect.poll(async () => {
    seen.add(await legendNumber(cpu, 'User'));
    return seen.size;
  }, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  // Pause: values stop changing.
  await page.getByTestId('live-pause').click();
  await page.waitForTimeout(500);
  const frozen = await legendNumber(cpu, 'User');
  await page.waitForTimeout(2500);
  expect(await legendNumber(cpu, 'User')).toBe(frozen);
  await page.getByTestId('live-pause').click();
  await expect.poll(() => legendNumber(cpu, 'User'), { timeout: 10_000 }).not.toBe(frozen);
});
