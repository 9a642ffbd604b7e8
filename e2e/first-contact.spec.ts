// Issue 13 items 1, 2, 6 and 8, from the default page exactly as `npm start` opens it (the
// demo archive), with real drops of real QA archives: what is dropped is what is shown (the
// demo gives way, the time moves into the archive, values are pmval's); several archives of one
// host are one source and one timeline (pmval -a DIR across the seam); hosts stay apart;
// closing a source takes its charts away; a corrupt archive is one notice naming the volume
// and offset; `?` shows every shortcut; with nothing open the page says what to drop.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { BAD, chart, dropFiles, labelStartMs, legendNumber, openApp, pmvalAt, position, QA, setIntervalSec, setPosition, source } from './dash';
import { openDemo, tabLabels } from './menus';

const XZ = `${QA}/20180416.10.00`;
const XZ_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${XZ}.${s}`);
const files = (base: string): string[] => ['meta', 'index', '0'].map((s) => `${base}.${s}`);

/** Seconds from the label start to the time bar's position, as pmval's -S +offset. */
async function offsetSec(page: Page, startMs: number): Promise<number> {
  return Math.round(((await position(page)) - startMs) * 1000) / 1e6;
}

/** The legend equals pmval's value, or shows none where pmval prints "No values available". */
async function expectPmval(c: Locator, label: string, expected: number): Promise<void> {
  if (Number.isNaN(expected)) await expect.poll(() => legendNumber(c, label), { timeout: 30_000 }).toBeNaN();
  else await expect.poll(() => legendNumber(c, label), { timeout: 30_000 }).toBeCloseTo(expected, 4);
}

test.describe('what you open is what you see', () => {
  test('a drop on the default page replaces the untouched demo by the archive\'s Overview, at the archive\'s time, with pmval\'s values', async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, XZ_FILES);
    const s = source(page, '20180416.10.00');
    await expect(s).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    // The demo gave way: one source, its Overview, its host everywhere.
    await expect(source(page, 'pmdash-demo')).toHaveCount(0);
    await expect(page.getByTestId('source')).toHaveCount(1);
    await expect(s).toHaveClass(/current/);
    expect(await tabLabels(page)).toEqual(['Overview']);
    await expect(page.getByTestId('headline-host')).toHaveText('brolley-t530');
    await expect(page.getByTestId('chart')).toHaveCount(5);
    await expect(page.getByTestId('chart-title').first()).toContainText('[brolley-t530]');
    // The time moved into the archive, and every chart has data at once.
    const start = labelStartMs(XZ);
    expect(await position(page)).toBeGreaterThan(start);
    const cpu = chart(page, /CPU Utilization/);
    await expect.poll(() => legendNumber(cpu, 'Idle'), { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
    // The values are libpcp's at the position and interval.
    await setIntervalSec(page, 10);
    const off = await offsetSec(page, start);
    await expectPmval(chart(page, /Average Load/), '1 min', pmvalAt(XZ, 'kernel.all.load', off, 10, '1 minute'));
    await expectPmval(chart(page, /IOPS over all Disks/), 'Reads', pmvalAt(XZ, 'disk.all.read', off, 10));
    await page.screenshot({ path: test.info().outputPath('dropped-on-default.png') });
  });

  test('two archives of one host made by pmlogextract open as one source whose values across the seam are pmval -a DIR\'s', async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'pmdash-seam-'));
    try {
      // Two consecutive archives of host bozo, as pmlogger's rotation leaves them.
      execFileSync('pmlogextract', ['-T', '+300', `${QA}/20180102`, join(dir, 'a')]);
      execFileSync('pmlogextract', ['-S', '+301', '-T', '+900', `${QA}/20180102`, join(dir, 'b')]);
      // The set starts where its earliest archive does (pmdumplog reads one archive at a time).
      const start = labelStartMs(join(dir, 'a'));
      const seamMs = labelStartMs(join(dir, 'b'));
      await openDemo(page);
      await dropFiles(page, [...files(join(dir, 'b')), ...files(join(dir, 'a'))]);
      const s = page.locator('[data-testid="source"][data-status="ready"]');
      await expect(s).toHaveCount(1, { timeout: 60_000 });
      await expect(s.getByTestId('source-archives')).toHaveAttribute('data-count', '2');
      await expect(s.getByTestId('source-archives')).toHaveText('2 archives');
      await expect(s.getByTestId('source-meta')).toContainText('host bozo');
      await expect(page.getByTestId('chart')).toHaveCount(5);
      // One timeline: the slider spans both archives (the headline shows the set's span).
      await page.getByTestId('zone').selectOption('utc');
      await setIntervalSec(page, 10);
      const load = chart(page, /Average Load/);
      // Before the seam, in the gap between the archives, and after it.
      for (const atMs of [seamMs - 75_000, seamMs - 30_000, seamMs + 20_000, seamMs + 200_000]) {
        await setPosition(page, new Date(atMs).toISOString().replace('T', ' ').slice(0, 19));
        const off = await offsetSec(page, start);
        await expectPmval(load, '1 min', pmvalAt(dir, 'kernel.all.load', off, 10, '1 minute'));
        await expectPmval(load, '# cpus', pmvalAt(dir, 'hinv.ncpu', off, 10));
      }
      await page.screenshot({ path: test.info().outputPath('one-host-two-archives.png') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a live host connected from the default page replaces the demo; an archive dropped next gets its own tab and brings its time', async ({ page }) => {
    await openDemo(page);
    await page.getByTestId('host-input').fill('localhost');
    await page.getByTestId('connect-host').click();
    const live = source(page, 'localhost');
    await expect(live).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await expect(source(page, 'pmdash-demo')).toHaveCount(0);
    await expect(live).toHaveClass(/current/);
    const host = execFileSync('pminfo', ['-h', 'localhost', '-f', 'kernel.uname.nodename'], { encoding: 'utf8' }).match(/value "(.*)"/)?.[1] ?? '';
    expect(await tabLabels(page)).toEqual([`Live ${host}`]);
    await expect.poll(() => legendNumber(chart(page, /Average Load/), '# cpus'), { timeout: 20_000 }).toBeGreaterThan(0);
    // The live dashboard is not the untouched demo: a dropped archive gets a tab of its own.
    await dropFiles(page, files(`${QA}/20180102`));
    await expect(source(page, '20180102')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    expect(await tabLabels(page)).toEqual([`Live ${host}`, '20180102']);
    await expect(page.locator('[data-testid="tab"].active').getByRole('button').first()).toHaveText('20180102');
    await expect(page.getByTestId('headline-host')).toHaveText('bozo');
    expect(await position(page)).toBeGreaterThan(labelStartMs(`${QA}/20180102`));
    await expect.poll(() => legendNumber(chart(page, /Average Load/), '# cpus'), { timeout: 30_000 }).toBeGreaterThan(0);
  });

  test('two hosts stay two sources; selecting one brings its tab; closing one takes its charts away', async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, [...files(`${QA}/20180415.09.16`), ...files(`${QA}/20180102`)]);
    const brolley = source(page, '20180415.09.16');
    const bozo = source(page, '20180102');
    await expect(brolley).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(bozo).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(page.getByTestId('source')).toHaveCount(2);
    await expect(page.getByTestId('source-archives')).toHaveCount(0);
    // The first to open replaced the demo's Overview; the other has a tab named after it.
    const labels = await tabLabels(page);
    expect(labels).toHaveLength(2);
    expect(labels).toContain('Overview');
    expect(labels.some((l) => l === '20180102' || l === '20180415.09.16')).toBe(true);
    // Selecting a source brings its tab, its host in every chart title, its time.
    for (const [s, host, base] of [[bozo, 'bozo', '20180102'], [brolley, 'brolley-t530', '20180415.09.16']] as const) {
      await s.click();
      await expect(s).toHaveClass(/current/);
      await expect(page.locator('[data-testid="tab"].active').getByRole('button').first()).toHaveText(labels.includes(base) ? base : 'Overview');
      await expect(page.getByTestId('headline-host')).toHaveText(host);
      for (const t of await page.getByTestId('chart-title').allTextContents()) expect(t).toContain(`[${host}]`);
      const p = await position(page);
      expect(p).toBeGreaterThan(labelStartMs(`${QA}/${base}`));
      await expect.poll(() => legendNumber(chart(page, /Average Load/), '# cpus'), { timeout: 30_000 }).toBeGreaterThan(0);
    }
    // Closing brolley: its tab and charts go; bozo's stay and keep their values.
    await brolley.getByTitle('Close source').click();
    await expect(brolley).toHaveAttribute('data-status', 'closed');
    await expect(page.getByTestId('tab')).toHaveCount(1);
    await expect(bozo).toHaveClass(/current/);
    await expect(page.getByTestId('headline-host')).toHaveText('bozo');
    for (const t of await page.getByTestId('chart-title').allTextContents()) expect(t).not.toContain('brolley');
    await expect.poll(() => legendNumber(chart(page, /Average Load/), '# cpus'), { timeout: 30_000 }).toBeGreaterThan(0);
    // Closing the last source leaves the empty state, no stale charts.
    await bozo.getByTitle('Close source').click();
    await expect(page.getByTestId('chart')).toHaveCount(0);
    await expect(page.getByTestId('empty-state')).toBeVisible();
  });
});

test.describe('one place for notices', () => {
  test('a corrupt archive dropped beside a good one is one notice naming its volume and offset; the good one keeps working', async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, files(`${QA}/20180102`));
    await expect(source(page, '20180102')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    const load = chart(page, /Average Load/);
    await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 30_000 }).toBeGreaterThan(0);
    // badlen-1: a good label, then a record whose length words do not match; pmval says
    // "pmFetch: Corrupted record in a PCP archive log" and no more.
    const pmval = (() => {
      try {
        return execFileSync('pmval', ['-a', `${BAD}/badlen-1`, '-s', '3', 'sample.bin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (e) {
        return String((e as { stderr?: string }).stderr ?? e);
      }
    })();
    expect(pmval).toContain('Corrupted record in a PCP archive log');
    await dropFiles(page, files(`${BAD}/badlen-1`));
    const bad = source(page, 'badlen-1');
    await expect(bad).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
    const notices = page.getByTestId('notice');
    await expect(notices).toHaveCount(1);
    const n = notices.first();
    await expect(n).toContainText('Corrupted record in a PCP archive log');
    // The file, the volume and the byte offset of the record (after the 132-byte V2 label).
    await expect(n).toContainText(/badlen-1\.0 at offset \d+/);
    const offset = Number(/badlen-1\.0 at offset (\d+)/.exec((await n.textContent()) ?? '')?.[1]);
    expect(offset).toBeGreaterThanOrEqual(132);
    // Details on demand: the code.
    await n.getByText('details').click();
    await expect(n.getByTestId('notice-details')).toContainText('PM_ERR_LOGREC');
    // The panel does not repeat it; no chart shows it.
    await expect(bad).not.toContainText('Corrupted');
    await expect(page.getByTestId('chart-problems')).toHaveCount(0);
    // The good archive keeps working. It opened on its first hour, the window's left edge at
    // its start, where a step back has nowhere to go: step forward.
    const p0 = await position(page);
    await page.getByTestId('vcr-step-forward').click();
    await expect.poll(() => position(page)).toBeGreaterThan(p0);
    await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 30_000 }).toBeGreaterThan(0);
    // The area collapses to one line and opens again.
    await page.getByTestId('notices-toggle').click();
    await expect(notices).toHaveCount(0);
    await expect(page.getByTestId('notices')).toContainText('1 notice');
    await page.getByTestId('notices-toggle').click();
    await expect(notices).toHaveCount(1);
    await page.screenshot({ path: test.info().outputPath('corrupt-notice.png') });
  });

  test('a URL that cannot be opened is one notice naming the URL', async ({ page }) => {
    await openDemo(page);
    const url = 'http://127.0.0.1:9/archives/nowhere';
    await page.getByTestId('url-input').fill(url);
    await page.getByTestId('url-input').press('Enter');
    await expect(source(page, 'nowhere')).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
    await expect(page.getByTestId('notice')).toHaveCount(1);
    await expect(page.getByTestId('notice')).toContainText(`Could not open ${url}`);
    await expect(source(page, 'pmdash-demo')).toHaveAttribute('data-status', 'ready');
  });
});

test.describe('discoverable', () => {
  test('? opens a sheet of every shortcut, the same list as the README', async ({ page }) => {
    await openDemo(page);
    await page.keyboard.press('?');
    const sheet = page.getByTestId('shortcut-sheet');
    await expect(sheet).toBeVisible();
    const rows = await sheet.getByTestId('shortcut').allTextContents();
    expect(rows.length).toBeGreaterThanOrEqual(12);
    for (const k of ['Space', 'Home', 'End', 'F2', '?']) await expect(sheet.locator('kbd', { hasText: k }).first()).toBeVisible();
    // The README lists every one of them.
    const readme = readFileSync('README.md', 'utf8');
    const actions = await sheet.getByTestId('shortcut').locator('td:nth-child(2)').allTextContents();
    for (const a of actions) expect(readme).toContain(a);
    await page.screenshot({ path: test.info().outputPath('shortcut-sheet.png') });
    await page.keyboard.press('Escape');
    await expect(sheet).toHaveCount(0);
    // Typing ? in a field types it; it opens nothing.
    await page.getByTestId('url-input').fill('');
    await page.getByTestId('url-input').press('?');
    await expect(sheet).toHaveCount(0);
  });

  test('with nothing open the page says what to drop and where PCP keeps archives', async ({ page }) => {
    await openApp(page);
    const demo = source(page, 'pmdash-demo');
    await expect(demo).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await demo.getByTitle('Close source').click();
    const empty = page.getByTestId('empty-state');
    await expect(empty).toBeVisible();
    await expect(empty).toContainText('.meta');
    await expect(empty.getByTestId('pmlogger-dir')).toHaveText('/var/log/pcp/pmlogger/HOST');
    await expect(page.getByTestId('chart')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('empty-state.png') });
    // A drop from here opens as from the default page.
    await dropFiles(page, files(`${QA}/20180415.09.16`));
    await expect(source(page, '20180415.09.16')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(empty).toHaveCount(0);
    await expect(page.getByTestId('chart')).toHaveCount(5);
  });
});
