// pmchart view files in the dashboard (issue 8): a view PCP installed shows its charts (picked
// or dropped), pmchart's standard views come from the Views menu, a broken view is refused in
// pmchart's words, and a saved view is accepted by pmchart's own parser and reloads as the
// same dashboard.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { pmchartCheck } from '../test/pmchart-check';
import { scratchDir } from '../test/oracle';
import { chart, dropFiles, legendNumber, pmvalAt, setIntervalSec, setPosition } from './dash';
import { chartsShown, closeAllCharts, DEMO, download, downloadText, legendValues, loadStandardView, openDemo, openViewFile, selectTab, settled, SYSTEM_VIEWS, tabLabels } from './menus';

test.describe('view files', () => {
  test.beforeEach(async ({ page }) => {
    await openDemo(page);
  });

  test('a view file PCP installed shows its charts, with pmval’s values', async ({ page }) => {
    await openViewFile(page, `${SYSTEM_VIEWS}/Loadavg`);
    await expect.poll(() => tabLabels(page)).toEqual(['Overview', 'Loadavg']);
    const load = chart(page, 'Load Average [vm]');
    await expect(load).toBeVisible();
    // 300 s after the archive's start (12:04:50.351762 UTC), on a 10 s grid.
    await setIntervalSec(page, 10);
    // The window shows the whole archive, so its right edge cannot move back to 300 s: 5 min can.
    await page.getByTestId('window').selectOption('30');
    await expect(page.getByTestId('time-bar')).toHaveAttribute('data-window', '300000');
    await setPosition(page, '2026-11-21 12:09:50.351');
    for (const [label, inst] of [['1 min', '1 minute'], ['5 min', '5 minute'], ['15 min', '15 minute']] as const) {
      await expect.poll(() => legendNumber(load, label), { timeout: 30_000 }).toBeCloseTo(pmvalAt(DEMO, 'kernel.all.load', 300, 10, inst), 4);
    }
  });

  test('a two-tab view (Iostat) keeps both tabs; a dropped view file loads too', async ({ page }) => {
    await openViewFile(page, `${SYSTEM_VIEWS}/Iostat`);
    await expect.poll(() => tabLabels(page)).toEqual(['Overview', 'SCSI Disk TRAFFIC', 'SCSI Disk IOSTAT']);
    await expect(page.getByTestId('chart')).toHaveCount(4);
    await expect(chart(page, 'Disk Avg %Util [vm]')).toBeVisible();
    await dropFiles(page, [`${SYSTEM_VIEWS}/Disk`]);
    await expect.poll(() => tabLabels(page)).toEqual(['Overview', 'SCSI Disk TRAFFIC', 'SCSI Disk IOSTAT', 'Disk']);
    await expect(chart(page, 'IOPS over all Disks [vm]').getByTestId('legend-item')).toHaveCount(2);
  });

  test('pmchart’s standard views are in the Views menu', async ({ page }) => {
    await loadStandardView(page, 'CPU');
    await expect.poll(() => tabLabels(page)).toEqual(['Overview', 'CPU']);
    const cpu = chart(page, 'CPU Utilization [vm]');
    await expect.poll(() => legendNumber(cpu, 'Idle'), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(cpu.getByTestId('legend-item')).toHaveCount(7);
  });

  test('a broken view is refused with pmchart’s message and changes nothing', async ({ page }) => {
    await openViewFile(page, { name: 'Broken', text: '#kmchart\nversion 1\nchart\n\tplot metric kernel.all.load\n' });
    await expect(page.getByTestId('notice').filter({ hasText: 'Broken[4] Syntax error: expecting "title" or "style", found End-of-Line' })).toBeVisible();
    expect(await tabLabels(page)).toEqual(['Overview']);
  });

  test('a saved view passes pmchart -C and reloads as the same dashboard', async ({ page, browser }) => {
    await loadStandardView(page, 'Loadavg');
    await loadStandardView(page, 'Iostat');
    // Something pmchart's grammar cannot say: a stacked-bar chart and a hidden series.
    await selectTab(page, 'Overview');
    await chart(page, /Network Interface Bytes/).locator('[data-testid="legend-item"]').first().getByRole('button').click();
    const saved = await downloadText(await download(page, 'views', 'save-view'));
    expect(saved).toMatch(/^#kmchart\nversion 1\n/);
    expect(saved).toContain('tab "SCSI Disk IOSTAT"');
    const file = join(scratchDir('pmdash-e2e-view-'), 'saved.view');
    writeFileSync(file, saved);
    expect(await pmchartCheck(file)).toEqual({ status: 0, messages: '' });

    const before = { tabs: await tabLabels(page), overview: await chartsShown(page) };
    await setPosition(page, '2026-11-21 12:10:00');
    await settled(page);
    const values = await legendValues(page);
    // The right edge is on data, so every legend has a value to compare.
    expect(Object.values(values).filter((v) => v === '')).toEqual([]);

    // A fresh page on the same archive: clear its Overview, load the saved view.
    const fresh = await browser.newPage();
    await openDemo(fresh);
    await closeAllCharts(fresh);
    await expect(fresh.getByTestId('chart')).toHaveCount(0);
    await openViewFile(fresh, file);
    await expect.poll(() => tabLabels(fresh)).toEqual(before.tabs);
    await selectTab(fresh, 'Overview');
    expect(await chartsShown(fresh)).toEqual(before.overview);
    await setPosition(fresh, '2026-11-21 12:10:00');
    await settled(fresh);
    await expect.poll(() => legendValues(fresh)).toEqual(values);
    // Saved again, it is the same file.
    expect(await downloadText(await download(fresh, 'views', 'save-view'))).toBe(saved);
    await fresh.close();
  });
});
