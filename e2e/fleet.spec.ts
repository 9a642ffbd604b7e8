// The Fleet panel, as a user of `pmdash serve --pmproxy URL` meets it: the default page lists
// the series store's hosts with their labels; picking two hosts and a metric found by search
// opens a fleet tab whose chart draws one line per host, and whose stored samples equal the
// archives' recorded values (python3-pcp pmFetchArchive: test/oracle/stored-samples.py).
import { expect, test } from '@playwright/test';
import { runPythonOracle } from '../test/oracle';
import { QA } from './dash';

const port = Number(process.env.PMDASH_E2E_PORT ?? 8145);
const fleetPort = Number(process.env.PMDASH_E2E_FLEET_PORT ?? port + 1);

interface Stored {
  readonly samples: ReadonlyArray<{ readonly sec: number; readonly nsec: number; readonly values: Record<string, number> }>;
}

async function stored(archive: string, metric: string): Promise<Stored> {
  return JSON.parse(await runPythonOracle('stored-samples.py', [`${QA}/${archive}`, metric])) as Stored;
}

function utc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

test('the Fleet panel lists the store hosts; a fleet tab charts one metric across two hosts at their stored samples', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://localhost:${fleetPort}/`);
  await expect(page.getByTestId('time-bar')).toBeVisible();

  const panel = page.getByTestId('fleet-panel');
  await expect(panel).toBeVisible();
  for (const h of ['vm00', 'vm01']) await expect(panel.locator(`[data-testid=fleet-host][data-host=${h}]`)).toBeVisible();
  // Labels of the host (those all its series share) are shown with it.
  await expect(panel.locator('[data-testid=fleet-host][data-host=vm00] .fleet-chip').first()).toHaveText('hostname:vm00');

  // The filter narrows the list by name.
  await page.getByTestId('fleet-filter').fill('vm0');
  await expect(panel.getByTestId('fleet-host')).not.toHaveCount(0);
  for (const row of await panel.getByTestId('fleet-host').all()) expect(await row.getAttribute('data-host')).toContain('vm0');
  await panel.locator('[data-testid=fleet-host][data-host=vm00] input[type=checkbox]').check();
  await panel.locator('[data-testid=fleet-host][data-host=vm01] input[type=checkbox]').check();
  await page.getByTestId('fleet-open').click();

  const view = page.getByTestId('fleet-view');
  await expect(view).toBeVisible();
  await expect(page.getByTestId('fleet-note')).toContainText('not values interpolated by libpcp');

  // Metric search across the fleet, then the metric, folded per host by sum over its 9 instances.
  await page.getByTestId('fleet-metric-search').fill('sampledso.bi');
  await page.getByRole('button', { name: 'Search the fleet' }).click();
  await page.locator('[data-testid=fleet-metric][data-metric="sampledso.bin"]').click();
  await page.getByTestId('fleet-aggregate').selectOption('sum');

  const [a, b] = await Promise.all([stored('multi-vm00', 'sampledso.bin'), stored('multi-vm01', 'sampledso.bin')]);
  const times = [...a.samples, ...b.samples].map((s) => s.sec * 1000);
  const fromMs = Math.min(...times) - 1000;
  const toMs = Math.max(...times) + 2000;
  await page.getByTestId('fleet-from').fill(utc(fromMs));
  await page.getByTestId('fleet-to').fill(utc(toMs));
  await page.getByTestId('fleet-apply').click();

  await expect(page.locator('[data-testid=fleet-legend-host][data-host=vm00]')).toContainText('samples');
  await expect(page.locator('[data-testid=fleet-legend-host][data-host=vm01]')).toContainText('samples');
  await expect(page.getByTestId('fleet-chart').locator('canvas')).toBeVisible();

  for (const [host, s] of [['vm00', a], ['vm01', b]] as const) {
    const table = page.locator(`[data-testid=fleet-samples][data-host=${host}]`);
    await table.locator('summary').click();
    const rows = table.getByTestId('fleet-sample');
    await expect(rows).toHaveCount(s.samples.length);
    for (let i = 0; i < s.samples.length; i++) {
      const want = s.samples[i];
      const row = rows.nth(i);
      // The store keeps microseconds; the page's times are epoch ms.
      expect(Number(await row.getAttribute('data-time-ms'))).toBeCloseTo(want.sec * 1000 + want.nsec / 1e6, 3);
      expect(Number(await row.getAttribute('data-value'))).toBe(Object.values(want.values).reduce((x, y) => x + y, 0));
    }
  }

  // A counter, found by search, is drawn as rate() between stored samples: its own line per host.
  await page.getByTestId('fleet-metric-search').fill('kbyte_ctr');
  await page.getByRole('button', { name: 'Search the fleet' }).click();
  await page.locator('[data-testid=fleet-metric][data-metric="sampledso.kbyte_ctr"]').click();
  await expect(page.getByTestId('fleet-tab-title')).toContainText('sampledso.kbyte_ctr');
  await expect(page.locator('[data-testid=fleet-legend-host][data-host=vm01]')).toContainText('counter · Kbyte / sec');
  const [c, d] = await Promise.all([stored('multi-vm00', 'sampledso.kbyte_ctr'), stored('multi-vm01', 'sampledso.kbyte_ctr')]);
  for (const [host, s] of [['vm00', c], ['vm01', d]] as const) {
    const table = page.locator(`[data-testid=fleet-samples][data-host=${host}]`);
    await expect(table.locator('summary')).toContainText('rate(sampledso.kbyte_ctr');
    if ((await table.getAttribute('open')) === null) await table.locator('summary').click();
    const rows = table.getByTestId('fleet-sample');
    await expect(rows).toHaveCount(s.samples.length - 1);
    for (let i = 1; i < s.samples.length; i++) {
      const [p, q] = [s.samples[i - 1], s.samples[i]];
      const dt = q.sec - p.sec + (q.nsec - p.nsec) / 1e9;
      const want = (q.values[''] - p.values['']) / dt;
      const row = rows.nth(i - 1);
      expect(Number(await row.getAttribute('data-time-ms'))).toBeCloseTo(q.sec * 1000 + q.nsec / 1e6, 3);
      // pmproxy's REST answer prints the rate with 7 significant digits (122.9462 where pmseries prints 122.946211).
      expect(Math.abs(Number(await row.getAttribute('data-value')) - want), `${host} rate #${i}: ${await row.getAttribute('data-value')} vs ${want}`).toBeLessThanOrEqual(5e-7 + 5e-7 * Math.abs(want));
    }
  }
  // The heatmap has a row per host, with as many filled columns as its samples fall in (2 s apart).
  for (const [host, s] of [['vm00', c], ['vm01', d]] as const) {
    await expect(page.locator(`[data-testid=fleet-heat-row][data-host=${host}]`)).toHaveAttribute('data-filled', String(s.samples.length - 1));
  }
  await page.screenshot({ path: 'test-results/fleet-tab.png' });
  expect(errors).toEqual([]);
});
