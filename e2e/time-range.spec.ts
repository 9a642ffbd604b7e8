// A window that cannot leave the data (issue 13), from the default page with the demo open
// and a real drop of the QA archive 20180416.10.00 (4 xz volumes, 4.5 h, 10 s logging):
// Home and End put the window's edges at the archive's start and end with every chart
// showing data; "whole archive" draws every chart across the full span; a typed `@ HH:MM`
// start (the core's pmParseTimeWindow) opens there, a bad one shows libpcp's message; zoom
// back and reset; the interval follows the window and a unit change keeps the interval.
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { chart, position, QA } from './dash';
import { dropAndShowOverview } from './menus';

const ARCH = `${QA}/20180416.10.00`;
const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${ARCH}.${s}`);

/** The archive's label start and end in epoch ms, as pmdumplog -L prints them (UTC). */
function labelSpan(archive: string): { startMs: number; endMs: number } {
  const out = execFileSync('pmdumplog', ['-L', '-Z', 'UTC', archive], { encoding: 'utf8' });
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const at = (what: string): number => {
    const m = new RegExp(`^\\s+${what}\\s+\\w+ (\\w+) +(\\d+) (\\d+):(\\d+):(\\d+)\\.(\\d+) (\\d+)$`, 'm').exec(out);
    if (!m) throw new Error(`unexpected pmdumplog -L output:\n${out}`);
    const [, mon, day, h, min, sec, frac, year] = m;
    return Date.UTC(Number(year), months.indexOf(mon ?? ''), Number(day), Number(h), Number(min), Number(sec)) + Number(`0.${frac ?? '0'}`) * 1000;
  };
  return { startMs: at('commencing'), endMs: at('ending') };
}

const bar = (page: Page) => page.getByTestId('time-bar');
const attr = async (page: Page, name: string): Promise<number> => Number(await bar(page).getAttribute(name));

async function keys(page: Page, ...names: string[]): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (const k of names) await page.keyboard.press(k);
}

/** Every chart of the active tab: its legend shows a value at the position. */
async function everyChartHasData(page: Page): Promise<void> {
  const charts = page.getByTestId('chart');
  const n = await charts.count();
  expect(n).toBeGreaterThanOrEqual(5);
  for (let i = 0; i < n; i++) {
    const c = charts.nth(i);
    const title = await c.getAttribute('data-title');
    await expect.poll(async () => c.locator('[data-testid="legend-value"][data-value]:not([data-value=""])').count(), { message: `${title} shows values`, timeout: 60_000 }).toBeGreaterThan(0);
  }
}

test.describe('the time window on a dropped archive', () => {
  const span = labelSpan(ARCH);

  test('Home puts the left edge at the start and End the right edge at the end, every chart with data', async ({ page }) => {
    await dropAndShowOverview(page, ARCH_FILES, '20180416.10.00');
    await keys(page, 'End');
    // The right edge is the last point of the grid from the start at least half an interval
    // inside the archive (libpcp interpolates nothing at its very end).
    const I = await attr(page, 'data-interval');
    let p = await position(page);
    expect(p).toBeLessThanOrEqual(span.endMs - I / 2);
    expect(p).toBeGreaterThan(span.endMs - 1.5 * I);
    // The charts draw End's window (while it is read they keep the one they showed), then their
    // legends show its values.
    await expect(chart(page, 'CPU Utilization [brolley-t530]')).toHaveAttribute('data-window-start', String(p - (await attr(page, 'data-window'))), { timeout: 60_000 });
    await everyChartHasData(page);
    await page.screenshot({ path: test.info().outputPath('end.png') });
    await keys(page, 'Home');
    p = await position(page);
    const w = await attr(page, 'data-window');
    expect(p - w).toBeCloseTo(span.startMs, 3);
    await everyChartHasData(page);
    await expect(chart(page, 'CPU Utilization [brolley-t530]')).toHaveAttribute('data-window-start', String(p - w));
    await page.screenshot({ path: test.info().outputPath('home.png') });
    // Stepping back or a typed position before the start cannot leave the data.
    await keys(page, 'ArrowLeft');
    expect(await position(page)).toBe(p);
  });

  test('"Whole archive" draws every chart across the full 4.5 h, at an interval that follows the window', async ({ page }) => {
    await dropAndShowOverview(page, ARCH_FILES, '20180416.10.00');
    await page.getByTestId('range-picker').click();
    await page.getByTestId('range-whole').click();
    const I = await attr(page, 'data-interval');
    const p = await position(page);
    const w = await attr(page, 'data-window');
    // From the start to the last point of the grid within the archive.
    expect(p - w).toBeCloseTo(span.startMs, 3);
    expect(p).toBeLessThanOrEqual(span.endMs);
    expect(span.endMs - p).toBeLessThan(1.5 * I);
    // About one sample per 2 px of chart, never finer than the 10 s logging interval.
    const plotPx = await page.getByTestId('chart-grid').evaluate((e) => e.clientWidth);
    expect(I).toBeGreaterThanOrEqual(10_000);
    expect(w / I).toBeGreaterThan(plotPx / 2 / 2);
    expect(w / I).toBeLessThanOrEqual(plotPx / 2);
    await everyChartHasData(page);
    // Every chart draws from the start to the end: the tooltip near both edges has values.
    const charts = page.getByTestId('chart');
    for (let i = 0; i < (await charts.count()); i++) {
      const c = charts.nth(i);
      await c.scrollIntoViewIfNeeded();
      const body = c.getByTestId('chart-body');
      const box = await body.boundingBox();
      if (!box) throw new Error('no chart body');
      const tip = c.getByTestId('chart-tooltip');
      for (const fromLeft of [true, false]) {
        // Sweep in from the edge until the pointer is over the plot (the y axis has no tooltip).
        let t = NaN;
        for (let k = 0; k < 60 && Number.isNaN(t); k++) {
          await page.mouse.move(fromLeft ? box.x + 2 + 4 * k : box.x + box.width - 2 - 4 * k, box.y + box.height / 2);
          if ((await tip.count()) > 0) t = Number(await tip.getAttribute('data-time'));
        }
        expect(fromLeft ? t - span.startMs : span.endMs - t, `${fromLeft ? 'first' : 'last'} sample drawn in chart ${i}`).toBeLessThan(0.02 * w);
        // At the right edge every chart has values (at the left a rate has no previous sample yet).
        if (!fromLeft) await expect(tip.locator('[data-value]:not([data-value=""])').first()).toBeAttached();
      }
    }
    await page.mouse.move(0, 0);
    await page.screenshot({ path: test.info().outputPath('whole.png') });
  });

  test('a typed "@ HH:MM" start opens there; a bad one shows the parser\'s message', async ({ page }) => {
    await dropAndShowOverview(page, ARCH_FILES, '20180416.10.00');
    await page.getByTestId('range-picker').click();
    // The archive's zone (EDT+4): 11:30 local is 15:30 UTC.
    await page.getByTestId('range-from').fill('@ 11:30');
    await page.getByTestId('range-to').fill('@ 12:00');
    await page.getByTestId('range-apply').click();
    await expect(page.getByTestId('range-menu')).toBeHidden();
    const t0 = Date.UTC(2018, 3, 16, 15, 30);
    const t1 = Date.UTC(2018, 3, 16, 16, 0);
    const I = await attr(page, 'data-interval');
    expect(Math.abs((await position(page)) - t1)).toBeLessThan(I);
    expect(await attr(page, 'data-window')).toBe(t1 - t0);
    await everyChartHasData(page);
    // Relative forms as -S/-T take them: -T +2h counts from the -S start (pmParseTimeWindow).
    await page.getByTestId('range-picker').click();
    await page.getByTestId('range-from').fill('+1h');
    await page.getByTestId('range-to').fill('+2h');
    await page.getByTestId('range-apply').click();
    await expect(page.getByTestId('range-menu')).toBeHidden();
    await expect.poll(() => attr(page, 'data-window')).toBe(7_200_000);
    expect(Math.abs((await position(page)) - (span.startMs + 3 * 3_600_000))).toBeLessThan(await attr(page, 'data-interval'));
    // A bad start: pmParseTimeWindow's own message, with its caret line.
    await page.getByTestId('range-picker').click();
    await page.getByTestId('range-from').fill('@ 25:99');
    await page.getByTestId('range-apply').click();
    const err = page.getByTestId('range-error');
    await expect(err).toBeVisible();
    const oracle = pmvalError(['-S', '@ 25:99']);
    expect(oracle).toContain('^ -- ');
    await expect(err).toContainText(oracle.split('\n').find((l) => l.includes('^ -- ')) ?? '');
    await page.screenshot({ path: test.info().outputPath('bad-start.png') });
  });

  test('zoom back and reset return to the ranges before', async ({ page }) => {
    await dropAndShowOverview(page, ARCH_FILES, '20180416.10.00');
    const before = [await position(page), await attr(page, 'data-window')];
    await page.getByTestId('range-picker').click();
    await page.getByTestId('range-last-15min').click();
    const last15 = [await position(page), await attr(page, 'data-window')];
    expect(last15[1]).toBe(900_000);
    await page.getByTestId('range-picker').click();
    await page.getByTestId('range-first-1h').click();
    expect(await attr(page, 'data-window')).toBe(3_600_000);
    await page.getByTestId('zoom-back').click();
    expect([await position(page), await attr(page, 'data-window')]).toEqual(last15);
    await page.getByTestId('range-picker').click();
    await page.getByTestId('range-first-6h').click();
    // 6 h is longer than the archive: the whole of it.
    expect(await position(page) - (await attr(page, 'data-window'))).toBeCloseTo(span.startMs, 3);
    await keys(page, 'Backspace');
    expect([await position(page), await attr(page, 'data-window')]).toEqual(last15);
    await page.getByTestId('zoom-reset').click();
    expect([await position(page), await attr(page, 'data-window')]).toEqual(before);
    await expect(page.getByTestId('zoom-back')).toBeDisabled();
  });

  test('a typed interval is kept; changing its unit keeps the interval and the window', async ({ page }) => {
    await dropAndShowOverview(page, ARCH_FILES, '20180416.10.00');
    const w = await attr(page, 'data-window');
    await page.getByLabel('interval unit').selectOption('msec');
    await page.getByTestId('interval').fill('500');
    await expect(page.getByTestId('interval-auto')).not.toBeChecked();
    expect(await attr(page, 'data-interval')).toBe(500);
    expect(await attr(page, 'data-window')).toBe(w);
    await page.getByLabel('interval unit').selectOption('hour');
    expect(await attr(page, 'data-interval')).toBe(500);
    expect(await attr(page, 'data-window')).toBe(w);
    await expect(page.getByTestId('interval')).toHaveValue(String(Number((500 / 3_600_000).toPrecision(6))));
    await page.getByTestId('interval-auto').check();
    expect(await attr(page, 'data-interval')).toBeGreaterThanOrEqual(10_000);
  });
});

/** pmval's complaint about a bad -S on the same archive (stderr). */
function pmvalError(args: string[]): string {
  try {
    execFileSync('pmval', ['-z', '-a', ARCH, ...args, 'kernel.all.load'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    return String((e as { stderr?: string }).stderr ?? '');
  }
  throw new Error('pmval accepted the time');
}
