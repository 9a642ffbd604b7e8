// Hosts and dates side by side (issue 14 item 3): from the default page a user drops two
// archives of different hosts and days (20180416.10.00 of brolley-t530, 20180102 of bozo),
// aligns bozo's start with the other's, and charts kernel.all.load from both. The legend and
// tooltip name each series' host; the tooltip gives each series its own time, and the values
// there are pmval's at those times. Exported as an archive, a shifted source's copy holds its
// own records of the window, not those of the drawn (shifted) times.
import { expect, test, type Page } from '@playwright/test';
import { chart, dropFiles, labelStartMs, legendNumber, openApp, pmvalAt, QA, setIntervalSec, source } from './dash';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { download, selectTab, tabLabels } from './menus';
import { scratchDir } from '../test/oracle';

const BROLLEY = `${QA}/20180416.10.00`;
const BOZO = `${QA}/20180102`;
const FILES = [...['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${BROLLEY}.${s}`), ...['meta', 'index', '0'].map((s) => `${BOZO}.${s}`)];
const LOAD1 = (host: string): string => `${host}: kernel.all.load[1 minute]`;

async function addLoad(page: Page, sourceLabel: string, how: 'add-new-chart' | 'add-to-chart'): Promise<void> {
  await source(page, sourceLabel).click();
  await expect(source(page, sourceLabel)).toHaveClass(/current/);
  await page.getByTestId('metric-search').fill('kernel.all.load');
  await page.locator('[data-testid="pmns-row"][data-path="kernel.all.load"]').click();
  const details = page.getByTestId('metric-details');
  await expect(details).toContainText('kernel.all.load');
  await details.getByTestId(how).click();
}

test('two hosts on other days overlay: host-named series, each with its own time and pmval\'s values', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, FILES);
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(source(page, '20180102')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });

  // Align bozo's start with brolley-t530's.
  const brolleyStart = labelStartMs(BROLLEY);
  const bozoStart = labelStartMs(BOZO);
  await source(page, '20180102').getByTestId('shift-source').click();
  await source(page, '20180102').getByTestId('shift-align').selectOption({ label: '20180416.10.00' });
  const shift = source(page, '20180102').getByTestId('source-shift');
  await expect(shift).toBeVisible();
  const offsetMs = Number(await shift.getAttribute('data-offset'));
  expect(offsetMs).toBeCloseTo(brolleyStart - bozoStart, 0);

  await addLoad(page, '20180416.10.00', 'add-new-chart');
  await addLoad(page, '20180102', 'add-to-chart');
  // Picking bozo brought its own tab forward; the chart is on brolley-t530's.
  await selectTab(page, '20180416.10.00');
  const c = chart(page, 'kernel.all.load');
  await expect(c.getByTestId('legend-item')).toHaveCount(6);
  await expect(c.locator(`[data-testid="legend-item"][data-label="${LOAD1('brolley-t530')}"]`)).toHaveCount(1);
  await expect(c.locator(`[data-testid="legend-item"][data-label="${LOAD1('bozo')}"]`)).toHaveCount(1);

  // 10 s steps over a 10 min window from the (common) start.
  await setIntervalSec(page, 10);
  await page.getByTestId('window').selectOption('60');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Home');
  await expect.poll(() => legendNumber(c, LOAD1('bozo')), { timeout: 30_000 }).not.toBeNaN();
  await expect.poll(() => legendNumber(c, LOAD1('brolley-t530')), { timeout: 30_000 }).not.toBeNaN();

  const body = c.getByTestId('chart-body');
  await body.scrollIntoViewIfNeeded();
  const box = await body.boundingBox();
  if (!box) throw new Error('no chart body');
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2);
  const tip = c.getByTestId('chart-tooltip');
  await expect(tip).toBeVisible();
  const t = Number(await tip.getAttribute('data-time'));
  const row = (label: string) => tip.locator(`[data-testid="tooltip-row"][data-series="${label}"]`);
  // Each row's own time: the drawn time for brolley-t530, moved back by the shift for bozo.
  expect(Number(await row(LOAD1('brolley-t530')).getByTestId('tooltip-own-time').getAttribute('data-time'))).toBe(t);
  const bozoOwn = Number(await row(LOAD1('bozo')).getByTestId('tooltip-own-time').getAttribute('data-time'));
  expect(bozoOwn).toBeCloseTo(t - offsetMs, 3);
  await expect(row(LOAD1('bozo')).getByTestId('tooltip-own-time')).toContainText('2018');
  await expect(row(LOAD1('bozo')).getByTestId('tooltip-own-time')).toContainText('Jan');
  await expect(row(LOAD1('brolley-t530')).getByTestId('tooltip-own-time')).toContainText('Apr 16');

  // Values at those times are pmval's (the load is interpolated, so the time must be right).
  const at = (startMs: number, ms: number): number => (ms - startMs) / 1000;
  const tol = (v: number): number => Math.max(1e-3 * Math.abs(v), 1e-3);
  const wantBrolley = pmvalAt(BROLLEY, 'kernel.all.load', at(brolleyStart, t), 10, '1 minute');
  const wantBozo = pmvalAt(BOZO, 'kernel.all.load', at(bozoStart, bozoOwn), 10, '1 minute');
  expect(Math.abs(Number(await row(LOAD1('brolley-t530')).getAttribute('data-value')) - wantBrolley)).toBeLessThanOrEqual(tol(wantBrolley));
  expect(Math.abs(Number(await row(LOAD1('bozo')).getAttribute('data-value')) - wantBozo)).toBeLessThanOrEqual(tol(wantBozo));
  await page.screenshot({ path: 'test-results/overlay.png' });

  // A bad offset is refused in the interval parser's words; "No shift" puts bozo back.
  await source(page, '20180102').getByTestId('shift-source').click();
  await source(page, '20180102').getByTestId('shift-input').fill('+3 fortnights');
  await source(page, '20180102').getByTestId('shift-apply').click();
  await expect(source(page, '20180102').getByTestId('shift-error')).toContainText('^ -- unexpected value');
  await source(page, '20180102').getByTestId('shift-reset').click();
  await expect(source(page, '20180102').getByTestId('source-shift')).toHaveCount(0);
});

test('a shifted source exports its own records of the window (the shift taken back), which pmlogcheck passes', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, FILES);
  await expect(source(page, '20180102')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await source(page, '20180102').getByTestId('shift-source').click();
  await source(page, '20180102').getByTestId('shift-align').selectOption({ label: '20180416.10.00' });
  const shift = source(page, '20180102').getByTestId('source-shift');
  await expect(shift).toBeVisible();
  const offsetMs = Number(await shift.getAttribute('data-offset'));
  // bozo's own Overview (the tab whose charts are bozo's): a 10 min window at its (shifted) start.
  for (const label of await tabLabels(page)) {
    await selectTab(page, label);
    if ((await page.getByTestId('chart-title').first().textContent())?.endsWith('[bozo]')) break;
  }
  await expect(page.getByTestId('chart-title').first()).toHaveText(/\[bozo\]$/);
  await setIntervalSec(page, 10);
  await page.getByTestId('window').selectOption('60');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Home');
  const bar = page.getByTestId('time-bar');
  const positionMs = Number(await bar.getAttribute('data-position'));
  const windowMs = Number(await bar.getAttribute('data-window'));
  const d = await download(page, 'export', 'export-archive');
  const dir = scratchDir('pmdash-e2e-shifted-');
  execFileSync('tar', ['-xf', await d.path(), '-C', dir]);
  const base = join(dir, d.suggestedFilename().replace(/\.tar$/, ''));
  expect(execFileSync('pmlogcheck', [base], { encoding: 'utf8' })).toBe('');
  // The copy's label spans bozo's own window, not the drawn (shifted) one.
  const dump = execFileSync('pmdumplog', ['-Z', 'UTC', base], { encoding: 'utf8' });
  const label = execFileSync('pmdumplog', ['-Z', 'UTC', '-L', base], { encoding: 'utf8' });
  const secs = (m: RegExpExecArray | null): number => (m ? Date.parse(`${m[1]} ${m[2]} UTC`) : NaN);
  const start = secs(/commencing +\w+ (\w+ +\d+ [\d:]+)\.\d+ (\d+)/.exec(label));
  const end = secs(/ending +\w+ (\w+ +\d+ [\d:]+)\.\d+ (\d+)/.exec(label));
  const ownT0 = positionMs - windowMs - offsetMs;
  const ownT1 = positionMs - offsetMs;
  expect(dump.split('\n').length).toBeGreaterThan(5);
  expect(start).toBeGreaterThanOrEqual(ownT0 - 1000);
  expect(end).toBeLessThanOrEqual(ownT1 + 1000);
  expect(end).toBeGreaterThan(start);
});
