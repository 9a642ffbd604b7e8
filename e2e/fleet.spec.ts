// The Fleet panel, as a user of `pmdash serve --pmproxy URL` meets it: the default page lists
// the series store's hosts with their labels; picking two hosts and a metric found by search
// opens a fleet tab whose chart draws one line per host, and whose stored samples equal the
// archives' recorded values (python3-pcp pmFetchArchive: test/oracle/stored-samples.py).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { runPythonOracle } from '../test/oracle';
import { QA, source } from './dash';

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
  await defaultPage(page);

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
  // Opening the tab moves the time bar onto the hosts' stored history (2013 for these archives).
  await expect(page.getByTestId('fleet-from')).toHaveValue(/^2013-01-0/);
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

/** pmproxy's REST answers print 7 significant digits. */
function closeTo(got: number, want: number): boolean {
  return Math.abs(got - want) <= 5e-7 * Math.max(1, Math.abs(want));
}

/**
 * The default page of the fleet server once its demo has opened and become current (a tab
 * opened before would have its time moved back into the demo as the demo opens).
 */
async function defaultPage(page: Page): Promise<void> {
  await page.goto(`http://localhost:${fleetPort}/`);
  await expect(page.getByTestId('time-bar')).toBeVisible();
  await expect(source(page, 'pmdash-demo')).toHaveClass(/current/, { timeout: 30_000 });
  await expect(page.getByTestId('chart').first()).toBeVisible();
}

/** Opens a stored-samples table (a <details>) unless it is open. */
async function openSamples(details: Locator): Promise<void> {
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  await expect(details).toHaveAttribute('open', '');
}

/** The time bar's window the fleet view shows, read from its From/To fields (UTC). */
async function shownWindow(page: Page): Promise<{ fromMs: number; toMs: number }> {
  const from = await page.getByTestId('fleet-from').inputValue();
  const to = await page.getByTestId('fleet-to').inputValue();
  return { fromMs: Date.parse(`${from.replace(' ', 'T')}Z`), toMs: Date.parse(`${to.replace(' ', 'T')}Z`) };
}

test('clicking a host drills down to its Overview from the store, with the stored samples; a share link restores it', async ({ page, browser }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await defaultPage(page);
  const row = page.locator('[data-testid=fleet-host][data-host="sourceware.org"]');
  await row.getByTestId('fleet-drill').click();

  const view = page.getByTestId('fleet-host-view');
  await expect(view).toHaveAttribute('data-host', 'sourceware.org');
  await expect(page.getByTestId('fleet-tab-title')).toHaveText('Overview of sourceware.org from the store');
  // The time bar moved onto the host's stored history (bug1057: 2014-06-10 00:52 – 01:01 UTC).
  await expect(page.getByTestId('fleet-from')).toHaveValue(/^2014-06-10 00:5/);
  await expect(page.getByTestId('fleet-busy')).toHaveCount(0);
  const win = await shownWindow(page);

  // Average load: one line per plot of pmchart's Overview chart (kernel.all.load's 1 minute instance, hinv.ncpu).
  const load = await stored('bug1057', 'kernel.all.load');
  const ncpu = await stored('bug1057', 'hinv.ncpu');
  const inWindow = load.samples.filter((x) => x.sec * 1000 >= win.fromMs && x.sec * 1000 <= win.toMs);
  expect(inWindow.length).toBe(load.samples.length);
  const loadChart = view.locator('[data-testid=fleet-host-chart][data-title="Average Load [sourceware.org]"]');
  await expect(loadChart.getByTestId('fleet-chart').locator('canvas')).toBeVisible();
  await openSamples(loadChart.getByTestId('fleet-samples'));
  for (const [line, s, inst] of [['1 min', load, '1 minute'], ['# cpus', ncpu, '']] as const) {
    const rows = loadChart.locator(`[data-testid=fleet-sample][data-line="${line}"]`);
    await expect(rows).toHaveCount(s.samples.length);
    for (let i = 0; i < s.samples.length; i++) {
      const want = s.samples[i];
      const r = rows.nth(i);
      expect(Number(await r.getAttribute('data-time-ms'))).toBeCloseTo(want.sec * 1000 + want.nsec / 1e6, 3);
      const got = Number(await r.getAttribute('data-value'));
      expect(closeTo(got, want.values[inst]), `${line} #${i}: ${got} vs ${want.values[inst]}`).toBe(true);
    }
  }

  // Disk IOPS: disk.all.read, a counter, as rate() between stored samples.
  const reads = await stored('bug1057', 'disk.all.read');
  const disk = view.locator('[data-testid=fleet-host-chart][data-title="IOPS over all Disks [sourceware.org]"]');
  await openSamples(disk.getByTestId('fleet-samples'));
  const readRows = disk.locator('[data-testid=fleet-sample][data-line="Reads"]');
  await expect(readRows).toHaveCount(reads.samples.length - 1);
  for (let i = 1; i < reads.samples.length; i++) {
    const [p, q] = [reads.samples[i - 1], reads.samples[i]];
    const want = (q.values[''] - p.values['']) / (q.sec - p.sec + (q.nsec - p.nsec) / 1e9);
    const got = Number(await readRows.nth(i - 1).getAttribute('data-value'));
    expect(closeTo(got, want), `Reads #${i}: ${got} vs ${want}`).toBe(true);
  }
  await page.screenshot({ path: 'test-results/fleet-drill.png', fullPage: false });

  // The address holds the drill-down and the time bar's window: a new page restores both.
  await expect.poll(() => page.url()).toContain('fleet=');
  const link = page.url();
  const other = await browser.newPage();
  await other.goto(link);
  await expect(other.getByTestId('fleet-host-view')).toHaveAttribute('data-host', 'sourceware.org');
  await expect(other.getByTestId('fleet-from')).toHaveValue(await page.getByTestId('fleet-from').inputValue());
  await expect(other.getByTestId('fleet-to')).toHaveValue(await page.getByTestId('fleet-to').inputValue());
  await expect(other.locator('[data-testid=fleet-host-chart][data-title="Average Load [sourceware.org]"] [data-testid=fleet-chart] canvas')).toBeVisible();
  await other.close();
  expect(errors).toEqual([]);
});

test('top N instances per host at each stored sample; the fleet tab comes back from a share link', async ({ page, browser }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await defaultPage(page);
  const panel = page.getByTestId('fleet-panel');
  await panel.locator('[data-testid=fleet-host][data-host=vm00] input[type=checkbox]').check();
  await panel.locator('[data-testid=fleet-host][data-host=vm01] input[type=checkbox]').check();
  await page.getByTestId('fleet-open').click();
  await expect(page.getByTestId('fleet-from')).toHaveValue(/^2013-01-0/);
  await expect(page.getByTestId('fleet-busy')).toHaveCount(0);
  await page.getByTestId('fleet-metric-search').fill('sampledso.bin');
  await page.getByRole('button', { name: 'Search the fleet' }).click();
  await page.locator('[data-testid=fleet-metric][data-metric="sampledso.bin"]').click();
  await page.getByTestId('fleet-aggregate').selectOption('top');
  await page.getByTestId('fleet-top-n').fill('2');
  await expect(page.locator('[data-testid=fleet-legend-host][data-host=vm00]')).toContainText('samples');

  const win = await shownWindow(page);
  for (const host of ['vm00', 'vm01'] as const) {
    const s = await stored(`multi-${host}`, 'sampledso.bin');
    const samples = s.samples.filter((x) => x.sec * 1000 + x.nsec / 1e6 >= win.fromMs && x.sec * 1000 + x.nsec / 1e6 <= win.toMs);
    expect(samples.length).toBeGreaterThan(1);
    const table = page.locator(`[data-testid=fleet-samples][data-host=${host}]`);
    await table.locator('summary').click();
    const rows = table.getByTestId('fleet-sample');
    await expect(rows).toHaveCount(2 * samples.length);
    // At each stored sample, the two largest instances' names and values.
    const got = new Map<number, Array<[string, number]>>();
    for (const r of await rows.all()) {
      const t = Math.round(Number(await r.getAttribute('data-time-ms')));
      got.set(t, [...(got.get(t) ?? []), [(await r.getAttribute('data-line')) ?? '', Number(await r.getAttribute('data-value'))]]);
    }
    for (const x of samples) {
      const want = Object.entries(x.values).sort((a, b) => b[1] - a[1]).slice(0, 2);
      const have = (got.get(Math.round(x.sec * 1000 + x.nsec / 1e6)) ?? []).sort((a, b) => b[1] - a[1]);
      expect(have, `${host} at ${x.sec}`).toEqual(want);
    }
  }

  await expect.poll(() => page.url()).toContain('fleet=');
  const other = await browser.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId('fleet-tab-title')).toContainText('sampledso.bin on vm00, vm01');
  await expect(other.getByTestId('fleet-aggregate')).toHaveValue('top');
  await expect(other.getByTestId('fleet-top-n')).toHaveValue('2');
  await expect(other.getByTestId('fleet-from')).toHaveValue(await page.getByTestId('fleet-from').inputValue());
  await expect(other.locator('[data-testid=fleet-samples][data-host=vm01]')).toBeAttached();
  await other.close();
  expect(errors).toEqual([]);
});
