// Record for live sources (issue 14 item 6), from the default page: connect to the local pmcd,
// Record → "this tab's live charts", let samples arrive while the charts keep running, pause,
// stop and take the download. The .tar unpacks with tar, pmlogcheck accepts the archive, and
// pmdumplog's values at the time the charts show equal the charts' legend values (load and
// # cpus as recorded, CPU user as the rate pmval's rule gives between the recorded counters).
// Then the archive and its view file dropped on a fresh default page reopen the same charts
// on the recorded archive, with the recorded values.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { dayMicros, parseDumplogValues, type DumplogRecords } from '../test/dumplog-values';
import { chart, dropFiles, labelStartMs, legendNumber, pmvalAt, source } from './dash';
import { chartsShown, openDemo } from './menus';

/** The newest sample a chart shows: hover the right edge, read the tooltip's time. */
async function newestSample(page: Page, c: Locator): Promise<number> {
  const box = await c.getByTestId('chart-body').boundingBox();
  if (!box) throw new Error('no chart body');
  const tip = c.getByTestId('chart-tooltip');
  for (let x = box.x + box.width - 2; x > box.x + box.width / 2; x -= 3) {
    await page.mouse.move(x, box.y + box.height / 2);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if ((await tip.count()) > 0) return Number(await tip.getAttribute('data-time'));
  }
  throw new Error('no tooltip over the chart');
}

/** The record of `records` at epoch-ms `t` (pmdumplog prints microseconds), with the one before it. */
function recordAt(records: DumplogRecords, t: number): { row: Map<string, number>; prev: Map<string, number> | undefined; dtMs: number } {
  const keys = [...records.keys()].sort((a, b) => a - b);
  const want = dayMicros(t);
  const i = keys.findIndex((k) => Math.abs(k - want) <= 1000);
  expect(i, `a recorded sample at ${new Date(t).toISOString()}`).toBeGreaterThanOrEqual(0);
  const row = records.get(keys[i] ?? NaN);
  if (!row) throw new Error('no row');
  const prevKey = keys[i - 1];
  return { row, prev: prevKey === undefined ? undefined : records.get(prevKey), dtMs: prevKey === undefined ? NaN : ((keys[i] ?? 0) - prevKey) / 1000 };
}

test('Record writes the live charts into an archive PCP reads, with the values the charts show, and a view that reopens them', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await openDemo(page);
  await page.getByTestId('host-input').fill('localhost');
  await page.getByTestId('connect-host').click();
  await expect(source(page, 'localhost')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  const load = chart(page, /Average Load/);
  const cpu = chart(page, /CPU Utilization/);
  await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 20_000 }).toBeGreaterThan(0);

  await page.getByTestId('record-menu').click();
  await page.getByTestId('record-tab').click();
  const button = page.getByTestId('record-menu');
  await expect(button).toHaveText(/● Recording \(\d+\)/);
  // A few samples arrive; the charts keep running meanwhile.
  await expect.poll(async () => Number((await button.innerText()).match(/\((\d+)\)/)?.[1] ?? 0), { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
  await button.click();
  await expect(page.getByTestId('recording-status')).toContainText(/localhost|samples of \d+ metrics/);
  await page.screenshot({ path: test.info().outputPath('recording.png') });
  await page.keyboard.press('Escape');
  // Pause: the charts hold their newest sample, and the recording (riding on their fetches) stops with them.
  await page.getByTestId('live-pause').click();
  await page.waitForTimeout(1500);
  await button.click();
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('record-stop').click()]);
  await expect(button).toHaveText('Record ▾');

  const dir = mkdtempSync(join(tmpdir(), 'pmdash-record-e2e-'));
  try {
    const tar = join(dir, download.suggestedFilename());
    await download.saveAs(tar);
    execFileSync('tar', ['-xf', tar, '-C', dir]);
    const files = readdirSync(dir).filter((f) => f !== download.suggestedFilename()).sort();
    const base = files[0]?.replace(/\.(0|index|meta|view)$/, '') ?? '';
    expect(files).toEqual([`${base}.0`, `${base}.index`, `${base}.meta`, `${base}.view`]);
    expect(execFileSync('pmlogcheck', [join(dir, base)], { encoding: 'utf8' })).toBe('');
    const label = execFileSync('pmdumplog', ['-l', join(dir, base)], { encoding: 'utf8' });
    expect(label).toContain('Log Format Version 3');
    const CPU = ['user', 'sys', 'nice', 'intr', 'wait.total', 'steal', 'idle'].map((m) => `kernel.all.cpu.${m}`);
    const dump = execFileSync('pmdumplog', ['-Z', 'UTC', join(dir, base), 'kernel.all.load', 'hinv.ncpu', ...CPU], { encoding: 'utf8' });
    const records = parseDumplogValues(dump);
    expect(records.size).toBeGreaterThanOrEqual(4);

    // The charts' newest sample against the archive's record at that time.
    const t = await newestSample(page, load);
    const { row, prev } = recordAt(records, t);
    expect(await legendNumber(load, '# cpus')).toBe(row.get('hinv.ncpu'));
    const oneMin = await legendNumber(load, '1 min');
    expect(Math.abs(oneMin - (row.get('kernel.all.load[1 minute]') ?? NaN))).toBeLessThanOrEqual(1e-6);
    expect(await newestSample(page, cpu)).toBe(t);
    // CPU user: a counter whose rate the utilization chart shows as its share of all the CPU
    // counters' rates, in % (the interval cancels out).
    const delta = (m: string): number => (row.get(m) ?? NaN) - (prev?.get(m) ?? NaN);
    const sum = CPU.filter((m) => row.has(m)).reduce((a, m) => a + delta(m), 0);
    const user = await legendNumber(cpu, 'User');
    const share = (100 * delta('kernel.all.cpu.user')) / sum;
    expect(Math.abs(user - share), `User ${user} vs ${share} from pmdumplog`).toBeLessThanOrEqual(1e-6);
    await page.screenshot({ path: test.info().outputPath('paused-after-record.png') });

    // The archive and its view, dropped on a fresh default page: the same charts, on the archive.
    const shown = await chartsShown(page);
    const again = await browser.newPage();
    await openDemo(again);
    await dropFiles(again, files.map((f) => join(dir, f)));
    await expect(source(again, base)).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await expect.poll(async () => (await chartsShown(again)).map((c) => c.title), { timeout: 20_000 }).toEqual(shown.map((c) => c.title));
    expect((await chartsShown(again)).map((c) => c.legend)).toEqual(shown.map((c) => c.legend));
    const load2 = chart(again, /Average Load/);
    await expect.poll(() => legendNumber(load2, '# cpus'), { timeout: 20_000 }).toBe(row.get('hinv.ncpu'));
    // At the cursor on the archive (a point of the chart's grid): pmval's value there.
    const t2 = await newestSample(again, load2);
    const archive = join(dir, base);
    const want = pmvalAt(archive, 'kernel.all.load', (t2 - labelStartMs(archive)) / 1000, 1, '1 minute');
    expect(Math.abs((await legendNumber(load2, '1 min')) - want)).toBeLessThanOrEqual(1e-5);
    await again.screenshot({ path: test.info().outputPath('reopened.png') });
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
