// The first thing a newcomer sees: `npm start` opens the bundled demo archive, names its host
// and time span (read here from the archive by pmdumplog, the oracle) and shows the Overview
// charts with data in them.
import { expect, test } from '@playwright/test';
import { chart, demoLabel, legendNumber, openApp, source } from './dash';

test('the app opens the bundled demo archive with its host, time span and Overview charts', async ({ page }) => {
  const label = demoLabel();
  await openApp(page);
  await expect(source(page, 'pmdash-demo')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('headline-host')).toHaveText(label.host);
  await expect(page.getByTestId('headline-span')).toHaveText(`${label.start} – ${label.end}`);
  await expect(page.getByTestId('chart')).toHaveCount(5);
  const cpu = chart(page, /CPU Utilization/);
  await expect.poll(() => legendNumber(cpu, 'Idle'), { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
});
