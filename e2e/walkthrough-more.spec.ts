// More defects met walking the newcomer walkthrough (shared docs), one test each, from the
// default page exactly as `npm start` opens it, with real drops of real QA archives.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { BAD, QA, chartMetric, dropFiles, labelSpanMs, labelStartMs, legendNumber, pmvalAt, position, setIntervalSec, source } from './dash';
import { openDemo, selectTab, settled, tabLabels } from './menus';

/** Every file of a QA badarchive. */
const badFiles = (base: string): string[] => readdirSync(BAD).filter((f) => f.startsWith(`${base}.`) && /\.(index|meta|\d+)$/.test(f)).map((f) => `${BAD}/${f}`);

/**
 * pmlogcheck's warnings about a badarchive's .meta and .index (record types, index entries,
 * metric descriptors), run there (file names as it gives them): those an opening reports.
 */
function pmlogcheckWarnings(base: string): string[] {
  const run = spawnSync('pmlogcheck', [base], { cwd: BAD, encoding: 'utf8' });
  return run.stderr.split('\n').filter((l) => / in pmDesc$|: domain of pmid \(|\.index\[(entry|record) \d+\]: |\.meta\[record \d+\]: unexpected record type|: file missing for log volume /.test(l));
}

test.describe('archives libpcp opens that pmlogcheck warns of', () => {
  // Descriptors (badmeta-2, archive-20141125-000009), temporal index entries (badti-2) and
  // metadata record types of the other version (badmeta-7).
  for (const base of ['badmeta-2', 'archive-20141125-000009', 'badti-2', 'badmeta-7']) {
    test(`${base}: its pmlogcheck warnings are one notice in pmlogcheck's words, all of them in its details`, async ({ page }) => {
      const theirs = pmlogcheckWarnings(base);
      expect(theirs.length).toBeGreaterThan(0);
      await openDemo(page);
      await dropFiles(page, badFiles(base));
      const src = source(page, base);
      await expect(src).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
      const n = page.getByTestId('notice');
      await expect(n).toHaveCount(1);
      await expect(n).toHaveAttribute('data-kind', 'warning');
      await expect(n.locator('.notice-text')).toHaveText(`${base} opened with ${theirs.length === 1 ? 'a warning' : `${theirs.length} warnings`}, as pmlogcheck reports them: ${theirs[0]}${theirs.length > 1 ? ` (and ${theirs.length - 1} more)` : ''}`);
      await n.getByText('details').click();
      await expect(n.getByTestId('notice-details')).toHaveText(theirs.join('\n'));
      // The sources panel says nothing a second time.
      await expect(src).not.toContainText('pmlogcheck');
    });
  }

  test("badmeta-2's good metric charts pmval's values beside the warned-of ones", async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, badFiles('badmeta-2'));
    await expect(source(page, 'badmeta-2')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await setIntervalSec(page, 1);
    // sample.seconds has a sound pmDesc (a counter of seconds: pmval shows its rate, 1).
    const c = await chartMetric(page, 'sample.seconds');
    const label = (await c.getByTestId('legend-item').first().getAttribute('data-label')) ?? '';
    const offset = (await position(page)) / 1000 - labelStartMs(`${BAD}/badmeta-2`) / 1000;
    const want = pmvalAt(`${BAD}/badmeta-2`, 'sample.seconds', offset, 1);
    expect(want).toBeGreaterThan(0);
    await expect.poll(() => legendNumber(c, label), { timeout: 30_000 }).toBeCloseTo(want, 6);
  });
});

/** Every volume, meta and index file of a QA archive (compressed or not). */
const archive = (base: string): string[] => readdirSync(QA).filter((f) => f.startsWith(`${base}.`) && /\.(index|meta|\d+)(\.xz)?$/.test(f)).map((f) => `${QA}/${f}`);

/** The range picker's "Whole archive", then the window it gave: its end `p` and length `w` (ms). */
async function showWholeArchive(page: Page): Promise<{ p: number; w: number }> {
  await page.getByTestId('range-picker').click();
  await page.getByTestId('range-whole').click();
  await settled(page);
  const bar = page.getByTestId('time-bar');
  return { p: Number(await bar.getAttribute('data-position')), w: Number(await bar.getAttribute('data-window')) };
}

/** What an empty chart draws: y tick labels, units, horizontal and vertical grid lines; where its hint sits against its plot body. */
async function emptyChartLooks(c: Locator): Promise<{ yTicks: number; units: string; hLines: number; vLines: number; hintOffsetPx: number }> {
  return c.evaluate((el) => {
    const body = el.querySelector('[data-testid="chart-body"]')?.getBoundingClientRect();
    const hint = el.querySelector('.chart-overlay-text')?.getBoundingClientRect();
    return {
      yTicks: el.querySelectorAll('[data-testid="y-tick"]').length,
      units: el.querySelector('[data-testid="y-units"]')?.textContent ?? '',
      hLines: el.querySelectorAll('.plot-grid .grid-line').length,
      vLines: el.querySelectorAll('.plot-vlines .grid-line').length,
      hintOffsetPx: body && hint ? Math.abs(hint.left + hint.width / 2 - (body.left + body.width / 2)) + Math.abs(hint.top + hint.height / 2 - (body.top + body.height / 2)) : NaN,
    };
  });
}

test.describe('an empty chart', () => {
  test('"+ Chart" and a new tab\'s chart: the tab\'s x range, no made-up y scale or grid, the hint centred', async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, archive('20180416.10.00'));
    await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(page.getByTestId('chart')).toHaveCount(5);
    await page.getByTestId('add-chart').click();
    await page.getByTestId('editor-close').click();
    await settled(page);
    const charts = page.getByTestId('chart');
    const empty = charts.last();
    await expect(empty.getByTestId('chart-overlay')).toHaveText('No metrics yet: add some from the metric browser');
    // The tab's one x range, with its time grid.
    const win = async (c: Locator): Promise<string> => `${await c.getAttribute('data-window-start')}–${await c.getAttribute('data-window-end')}`;
    expect(await win(empty)).toBe(await win(charts.first()));
    const looks = await emptyChartLooks(empty);
    expect(looks).toMatchObject({ yTicks: 0, units: '', hLines: 0 });
    expect(looks.vLines).toBeGreaterThan(0);
    expect(looks.hintOffsetPx).toBeLessThan(2);
    // A chart with metrics keeps its y axis.
    expect((await emptyChartLooks(charts.first())).yTicks).toBeGreaterThan(1);

    await page.getByTestId('add-tab').click();
    await page.getByTestId('add-chart').click();
    await page.getByTestId('editor-close').click();
    await expect(charts).toHaveCount(1);
    await expect(charts.first().getByTestId('chart-overlay')).toHaveText(/No metrics yet/);
    await expect(page.getByTestId('time-axis')).toHaveAttribute('data-window-end', (await charts.first().getAttribute('data-window-end')) ?? '');
    expect(await emptyChartLooks(charts.first())).toMatchObject({ yTicks: 0, units: '', hLines: 0 });
  });
});

/**
 * Watches the active tab from now on: whether any legend said "no value", any chart showed
 * an overlay ("Loading…", "No data"), a loading bar showed, and which windows the first
 * chart showed.
 */
async function watchCharts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen = { noValue: 0, overlay: 0, loading: 0, windows: new Set<string>() };
    (window as unknown as { seen: typeof seen }).seen = seen;
    const look = (): void => {
      const grid = document.querySelector('[data-testid="chart-grid"]');
      if (!grid) return;
      for (const v of grid.querySelectorAll('[data-testid="legend-value"]')) if (v.textContent === 'no value') seen.noValue++;
      seen.overlay += grid.querySelectorAll('[data-testid="chart-overlay"]').length;
      seen.loading += grid.querySelectorAll('[data-testid="chart-loading"]').length > 0 ? 1 : 0;
      const c = grid.querySelector('[data-testid="chart"]');
      if (c) seen.windows.add(`${c.getAttribute('data-window-start')}–${c.getAttribute('data-window-end')}`);
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    const frame = (): void => {
      look();
      requestAnimationFrame(frame);
    };
    frame();
  });
}

async function seenCharts(page: Page): Promise<{ noValue: number; overlay: number; loading: number; windows: string[] }> {
  return page.evaluate(() => {
    const s = (window as unknown as { seen: { noValue: number; overlay: number; loading: number; windows: Set<string> } }).seen;
    return { noValue: s.noValue, overlay: s.overlay, loading: s.loading, windows: [...s.windows] };
  });
}

test('"Whole archive" on two joined archives keeps the charts drawn, with values, until the whole span arrives', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'pmdash-whole-'));
  try {
    // Two consecutive archives of one host, as pmlogger's rotation leaves them.
    execFileSync('pmlogextract', ['-T', '+2h', `${QA}/20180416.10.00`, join(dir, 'a')]);
    execFileSync('pmlogextract', ['-S', '+2h', `${QA}/20180416.10.00`, join(dir, 'b')]);
    await openDemo(page);
    await dropFiles(page, ['a', 'b'].flatMap((n) => ['meta', 'index', '0'].map((s) => join(dir, `${n}.${s}`))));
    await expect(page.locator('[data-testid="source"][data-status="ready"][data-label="a … b"]')).toHaveCount(1, { timeout: 60_000 });
    await expect(page.getByTestId('chart')).toHaveCount(5);
    await settled(page);
    const first = page.getByTestId('chart').first();
    const before = `${await first.getAttribute('data-window-start')}–${await first.getAttribute('data-window-end')}`;
    await watchCharts(page);
    const { p, w } = await showWholeArchive(page);
    const after = `${p - w}–${p}`;
    await expect(first).toHaveAttribute('data-window-start', String(p - w));
    const seen = await seenCharts(page);
    // Read meanwhile (the loading bar), the old window stayed drawn with its values, then the new one came.
    expect(seen.loading).toBeGreaterThan(0);
    expect(seen.noValue).toBe(0);
    expect(seen.overlay).toBe(0);
    expect(seen.windows.every((x) => x === before || x === after)).toBe(true);
    expect(seen.windows).toContain(after);
    // The legends then show libpcp's values at the new position and step.
    const span = labelSpanMs(join(dir, 'a'));
    const load = page.getByTestId('chart').filter({ hasText: 'Average Load' });
    await expect.poll(() => legendNumber(load, '1 min'), { timeout: 30_000 }).toBeCloseTo(pmvalAt(`${join(dir, 'a')},${join(dir, 'b')}`, 'kernel.all.load', (p - span.startMs) / 1000, Number(await page.getByTestId('time-bar').getAttribute('data-interval')) / 1000, '1 minute'), 4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.describe('two archives of one host on two days', () => {
  const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const day = (ms: number): string => {
    const d = new Date(ms);
    return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, '0')}`;
  };

  test('the time range names the end\'s day when it is not the start\'s; a window in the gap between them draws no made-up y scale', async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, [...archive('20180415.09.16'), ...archive('20180416.10.00')]);
    await expect(page.locator('[data-testid="source"][data-status="ready"][data-label^="20180415.09.16"]')).toHaveCount(1, { timeout: 60_000 });
    await page.getByTestId('zone').selectOption('utc');
    const { p, w } = await showWholeArchive(page);
    expect(day(p - w)).not.toBe(day(p));
    const label = (await page.getByTestId('range-picker').innerText()).trim();
    const [from, to] = label.split(' – ');
    expect(from?.startsWith(day(p - w))).toBe(true);
    expect(to?.startsWith(day(p))).toBe(true);

    // Two hours in the night between the archives (pmdumplog -L: the first ends on the 15th, the next starts on the 16th).
    const first = labelSpanMs(`${QA}/20180415.09.16`);
    const next = labelSpanMs(`${QA}/20180416.10.00`);
    const t0 = first.endMs + 3_600_000;
    expect(t0 + 2 * 3_600_000).toBeLessThan(next.startMs);
    const iso = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
    await page.getByTestId('range-picker').click();
    await page.getByTestId('range-from').fill(iso(t0));
    await page.getByTestId('range-to').fill(iso(t0 + 2 * 3_600_000));
    await page.getByTestId('range-apply').click();
    await settled(page);
    // The range is on one day: the end's day is left out.
    await expect(page.getByTestId('range-picker')).toHaveText(new RegExp(`^${day(t0)} [0-9:]+ 2018 – [0-9:]+ 2018$`));
    const load = page.getByTestId('chart').filter({ hasText: 'Average Load' });
    await expect(load.getByTestId('chart-overlay')).toHaveText('No data in this time window');
    expect(await emptyChartLooks(load)).toMatchObject({ yTicks: 0, units: '', hLines: 0 });
    // A percent chart keeps its 0–100 scale: it is not made up.
    const cpu = page.getByTestId('chart').filter({ hasText: 'CPU Utilization' });
    await expect(cpu.getByTestId('chart-overlay')).toHaveText('No data in this time window');
    expect((await emptyChartLooks(cpu)).yTicks).toBeGreaterThan(1);
    // Back where there is data, the load's scale comes back.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('End');
    await settled(page);
    await expect(load.getByTestId('chart-overlay')).toHaveCount(0);
    await expect.poll(async () => (await emptyChartLooks(load)).yTicks).toBeGreaterThan(1);
  });
});

test.describe('a set of archives in the sources panel', () => {
  test.use({ viewport: { width: 1400, height: 900 } });

  test('its "FIRST … LAST" name keeps the first name whole and cuts the last, never "……"', async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, [...archive('20180415.09.16'), ...archive('20180416.10.00')]);
    const set = page.locator('[data-testid="source"][data-status="ready"][data-label^="20180415.09.16"]');
    await expect(set).toHaveCount(1, { timeout: 60_000 });
    const name = set.locator('.source-name');
    await expect(name).toHaveAttribute('title', '20180415.09.16 … 20180416.10.00');
    const cut = await name.evaluate((el) => {
      const first = el.querySelector('.source-name-first');
      const last = el.querySelector('.source-name-last');
      return { first: first ? first.scrollWidth - first.clientWidth : NaN, last: last ? last.scrollWidth - last.clientWidth : NaN, text: el.textContent };
    });
    expect(cut.text).toBe('20180415.09.16 … 20180416.10.00');
    // The panel is too narrow for the whole name: the last name is cut, the first is not.
    expect(cut.first).toBe(0);
    expect(cut.last).toBeGreaterThan(0);
  });
});

test.describe('a chart the user makes', () => {
  test.use({ viewport: { width: 1400, height: 900 } });

  test('"+ Chart" and the browser\'s New chart bring the new chart into view instead of adding it below the fold', async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, archive('20180416.10.00'));
    await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(page.getByTestId('chart')).toHaveCount(5);
    const grid = page.getByTestId('chart-grid');
    // The Overview is taller than the grid: a chart added last is out of sight unless scrolled to.
    expect(await grid.evaluate((g) => g.scrollHeight > g.clientHeight)).toBe(true);
    const inView = (c: Locator): Promise<boolean> =>
      c.evaluate((el) => {
        const g = el.closest('[data-testid="chart-grid"]')?.getBoundingClientRect();
        const r = el.getBoundingClientRect();
        // Its title and plot on screen (its legend may grow below as values come).
        const body = el.querySelector('[data-testid="chart-body"]')?.getBoundingClientRect();
        return g !== undefined && body !== undefined && r.top >= g.top - 1 && body.bottom <= g.bottom + 1;
      });
    const c = await chartMetric(page, 'disk.dev.read');
    await expect.poll(() => inView(c)).toBe(true);
    await grid.evaluate((g) => g.scrollTo({ top: 0 }));
    await page.getByTestId('add-chart').click();
    await expect.poll(() => inView(page.getByTestId('chart').last())).toBe(true);
    await expect(page.getByTestId('chart').last().getByTestId('chart-overlay')).toHaveText(/No metrics yet/);
  });
});

test('picking a tab makes a source it charts current: the header names the host whose charts are on screen, the window moves into its time', async ({ page }) => {
  await openDemo(page);
  await dropFiles(page, [...archive('20180416.10.00'), ...archive('20180102')]);
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(source(page, '20180102')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  const labels = await tabLabels(page);
  expect(labels).toHaveLength(2);
  const archiveOf: Record<string, string> = { bozo: '20180102', 'brolley-t530': '20180416.10.00' };
  for (const label of [labels[0] ?? '', labels[1] ?? '', labels[0] ?? '']) {
    await selectTab(page, label);
    // The host the tab's charts are of, from their titles ("CPU Utilization [bozo]").
    const title = (await page.getByTestId('chart-title').first().textContent()) ?? '';
    const host = /\[([^\]]+)\]$/.exec(title)?.[1] ?? '';
    const name = archiveOf[host];
    expect(name, title).toBeDefined();
    await expect(page.getByTestId('headline-host')).toHaveText(host);
    await expect(source(page, name ?? '')).toHaveClass(/current/);
    // Its own time (the two archives are months apart).
    const span = labelSpanMs(`${QA}/${name}`);
    await expect.poll(() => position(page)).toBeGreaterThan(span.startMs);
    expect(await position(page)).toBeLessThanOrEqual(span.endMs + 1000);
  }
});
