// Every way to open an archive: `?archive=URL` in the page address (read from another server
// with HTTP Range requests), the URL field, the file picker, a picked folder; a slow archive
// shows its progress until it is ready; an unreachable URL is reported by name while the
// demo keeps working.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { archiveServer } from './archive-server';
import { chart, dropFiles, legendNumber, openApp, pmvalAt, position, QA, source } from './dash';
import { openDemo } from './menus';

/** The first grid offset of the position from the archive start, as pmval's -S +offset. */
async function offsetSec(page: Page, startMs: number): Promise<number> {
  return ((await position(page)) - startMs) / 1000;
}

test.describe('opening archives', () => {
  test('?archive= in the address opens an archive on another server, read by Range requests', async ({ page }) => {
    const srv = await archiveServer(QA);
    try {
      // 20180102: a 7 MB data volume, uncompressed, so the reader can seek in it.
      await openApp(page, `?archive=${srv.url}/20180102`);
      const s = source(page, '20180102');
      await expect(s).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
      await expect(page.getByTestId('headline-host')).toHaveText('bozo');
      // Only the asked-for archive opened (no demo).
      await expect(page.getByTestId('source')).toHaveCount(1);
      const load = chart(page, /Average Load/);
      await expect.poll(() => legendNumber(load, '1 min'), { timeout: 30_000 }).not.toBeNaN();
      // The legend is libpcp's value at the time bar's position and interval.
      // A 3-hour archive opens on its first hour, at an interval that follows the window
      // (about one sample per 2 px, never below the logging interval).
      const interval = Number(await page.getByTestId('time-bar').getAttribute('data-interval')) / 1000;
      expect(Number(await page.getByTestId('time-bar').getAttribute('data-window'))).toBe(3_600_000);
      expect(interval).toBeGreaterThanOrEqual(1);
      // Label start (pmdumplog -L): 13:10:11.563796 UTC on 1 Jan 2018 (00:10:11 AEDT).
      const off = await offsetSec(page, Date.UTC(2018, 0, 1, 13, 10, 11) + 563.796);
      expect(await legendNumber(load, '1 min')).toBeCloseTo(pmvalAt(`${QA}/20180102`, 'kernel.all.load', off, interval, '1 minute'), 4);
      // The data volume was read in ranges (206), never whole, and less than all of it.
      const volume = srv.served.filter((r) => r.file === '20180102.0' && r.method === 'GET');
      expect(volume.length).toBeGreaterThan(0);
      expect(volume.every((r) => r.status === 206 && r.range.startsWith('bytes='))).toBe(true);
      const read = volume.reduce((n, r) => n + r.bytes, 0);
      expect(read).toBeLessThan(statSync(`${QA}/20180102.0`).size);
    } finally {
      await srv.close();
    }
  });

  test('the archive URL field opens the archive at that URL in place of the untouched demo', async ({ page }) => {
    const srv = await archiveServer(QA);
    try {
      await openApp(page);
      await expect(source(page, 'pmdash-demo')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
      await page.getByTestId('url-input').fill(`${srv.url}/20180102`);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await expect(source(page, '20180102')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
      await expect(page.getByTestId('url-input')).toHaveValue('');
      await expect(page.getByTestId('source')).toHaveCount(1);
      await expect(page.getByTestId('headline')).toContainText('Archive 20180102 from host bozo');
      await expect.poll(() => legendNumber(chart(page, /Average Load/), '1 min'), { timeout: 30_000 }).not.toBeNaN();
    } finally {
      await srv.close();
    }
  });

  test('a drop at once on the default page, before the demo has opened, shows the dropped archive and no demo', async ({ page }) => {
    // No wait for the demo: the drop comes as soon as the page can take it, as an impatient
    // user's does, and the demo's bytes come slowly (a slow network), so the drop's archive
    // opens first. The demo, finishing later, must not take the screen back.
    await page.route('**/demo/**', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.goto('/');
    await expect(page.getByTestId('drop-target')).toBeVisible();
    await dropFiles(page, ['meta', 'index', '0'].map((s) => `${QA}/20180415.09.16.${s}`));
    await expect(source(page, '20180415.09.16')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await expect(page.getByTestId('headline-host')).toHaveText('brolley-t530');
    // Past the demo's own (slowed) open, still only the drop.
    await page.waitForTimeout(6000);
    await expect(page.getByTestId('source')).toHaveCount(1);
    await expect(page.getByTestId('headline-host')).toHaveText('brolley-t530');
    await expect.poll(() => legendNumber(chart(page, /CPU Utilization/), 'Idle'), { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
  });

  test('Open files… opens the picked files of an archive', async ({ page }) => {
    await openApp(page);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Open files…' }).click()]);
    expect(chooser.isMultiple()).toBe(true);
    await chooser.setFiles(['meta', 'index', '0'].map((s) => `${QA}/20180415.09.16.${s}`));
    await expect(source(page, '20180415.09.16')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await expect(page.getByTestId('headline-host')).toHaveText('brolley-t530');
    await expect(page.getByTestId('chart')).toHaveCount(5);
    await expect.poll(() => legendNumber(chart(page, /CPU Utilization/), 'Idle'), { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
  });

  test('Open folder… opens the archive inside the picked folder (the folder input, where there is no File System Access API)', async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'pmdash-folder-'));
    // Chromium's folder picker cannot be answered by Playwright (follow-folder.spec.ts tests
    // that path); without it the page picks through the folder input, as Firefox and Safari do.
    await page.addInitScript(() => {
      delete (window as Window & { showDirectoryPicker?: unknown }).showDirectoryPicker;
    });
    try {
      // A folder as pmlogger leaves one: the archive's files and something else beside them.
      const logs = join(dir, 'pmlogger');
      mkdirSync(logs);
      for (const s of ['meta', 'index', '0']) copyFileSync(`${QA}/20180415.09.16.${s}`, join(logs, `20180415.09.16.${s}`));
      await openApp(page);
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Open folder…' }).click()]);
      await chooser.setFiles(logs);
      const s = source(page, '20180415.09.16');
      await expect(s).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
      await expect(page.getByTestId('source')).toHaveCount(1);
      await expect(s.getByTestId('source-meta')).toContainText('host brolley-t530');
      await expect.poll(() => legendNumber(chart(page, /CPU Utilization/), 'Idle'), { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a slow archive shows its progress while it opens, and none once it is ready', async ({ page }) => {
    // A slow network: every answer of the archive's server comes 400 ms late, so the open
    // takes seconds however fast this machine decodes.
    const srv = await archiveServer(QA);
    try {
      await page.route(`${srv.url}/**`, async (route) => {
        await new Promise((r) => setTimeout(r, 400));
        await route.continue();
      });
      await openApp(page);
      await page.getByTestId('url-input').fill(`${srv.url}/20180416.10.00`);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      const s = source(page, '20180416.10.00');
      await expect(s).toHaveAttribute('data-status', 'opening');
      await expect(s.getByTestId('source-progress')).toBeVisible();
      await expect(s.getByTestId('source-phase')).toContainText('20180416.10.00');
      await expect(s).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
      await expect(page.getByTestId('source-progress')).toHaveCount(0);
      await expect(s.getByTestId('source-meta')).toContainText('host brolley-t530');
    } finally {
      await srv.close();
    }
  });

  test('an unreachable URL shows an error naming it while the demo keeps working', async ({ page }) => {
    await openDemo(page);
    // Port 9 (discard) on 127.0.0.1: nothing listens, the connection is refused.
    const url = 'http://127.0.0.1:9/archives/nowhere';
    await page.getByTestId('url-input').fill(url);
    await page.getByTestId('url-input').press('Enter');
    const bad = source(page, 'nowhere');
    await expect(bad).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
    // One notice, in the notification area, naming the URL; the panel only marks the source.
    const notice = page.getByTestId('notice').filter({ hasText: url });
    await expect(notice).toHaveCount(1);
    await expect(notice).toHaveAttribute('data-kind', 'error');
    await expect(bad.getByTestId('source-status')).toBeVisible();
    await expect(source(page, 'pmdash-demo')).toHaveAttribute('data-status', 'ready');
    // The demo still answers: a step moves the position and the legend reads the new time
    // (in a 60-point window: the whole demo leaves the window no room to move).
    await page.getByTestId('window').selectOption('60');
    const p0 = await position(page);
    await page.getByTestId('vcr-step-back').click();
    await expect.poll(() => position(page)).toBeLessThan(p0);
    await expect.poll(() => legendNumber(chart(page, /CPU Utilization/), 'Idle')).toBeGreaterThan(0);
  });
});
