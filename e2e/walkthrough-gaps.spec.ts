// Defects met walking the newcomer walkthrough (shared docs), one test each, from the default
// page exactly as `npm start` opens it, with real drops of real QA archives.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { QA, dropFiles, source } from './dash';
import { download, loadStandardView, openDemo } from './menus';

/** Every volume, meta and index file of a QA archive (compressed or not). */
const archive = (base: string): string[] =>
  readdirSync(QA).filter((f) => f.startsWith(`${base}.`) && /\.(index|meta|\d+)(\.xz)?$/.test(f)).map((f) => `${QA}/${f}`);

async function dropReady(page: Page, label: string, paths: string[]): Promise<void> {
  await dropFiles(page, paths);
  await expect(source(page, label)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

test.describe('tab strip', () => {
  test.use({ viewport: { width: 1024, height: 700 } });

  test('with several archives open and the editor beside the charts, every tab and the + Tab / + Chart buttons stay one line high', async ({ page }) => {
    await openDemo(page);
    const oneLine = (await page.getByTestId('add-tab').boundingBox())?.height ?? 0;
    expect(oneLine).toBeGreaterThan(0);
    await dropReady(page, '20180416.10.00', archive('20180416.10.00'));
    // Two consecutive archives of one host: one source whose tab label names both.
    await dropFiles(page, [...archive('20180415.09.16'), ...archive('20180416.10.00')]);
    await expect(page.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(2, { timeout: 60_000 });
    await dropReady(page, '20180102', archive('20180102'));
    await page.getByTestId('add-chart').click();
    await expect(page.getByTestId('chart-editor')).toBeVisible();
    const tabs = page.getByTestId('tab');
    await expect(tabs).toHaveCount(3);
    for (const el of [...(await tabs.all()), page.getByTestId('add-tab'), page.getByTestId('add-chart')]) {
      const box = await el.boundingBox();
      expect(box?.height ?? Infinity).toBeLessThanOrEqual(oneLine + 2);
    }
    // A shortened label still says the whole name when pointed at.
    await expect(tabs.nth(1).getByRole('button').first()).toHaveAttribute('title', /20180415\.09\.16 … 20180416\.10\.00/);
    // More tabs than the strip holds: it scrolls, and the active tab (the newest) is in view.
    for (const view of ['CPU', 'vCPU', 'Loadavg', 'Disk']) await loadStandardView(page, view);
    await expect(tabs).toHaveCount(7);
    const strip = await page.getByTestId('tabs').boundingBox();
    const last = tabs.last();
    await expect(last).toHaveClass(/active/);
    const box = await last.boundingBox();
    expect((box?.x ?? Infinity) + (box?.width ?? 0)).toBeLessThanOrEqual((strip?.x ?? 0) + (strip?.width ?? 0) + 1);
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(strip?.x ?? 0);
    // The strip fades at the end that hides tabs, a hint that it scrolls.
    await expect(page.getByTestId('tabs')).toHaveAttribute('data-more-left', 'true');
    await page.getByTestId('tabs').evaluate((n) => n.scrollTo({ left: 0 }));
    await expect(page.getByTestId('tabs')).toHaveAttribute('data-more-right', 'true');
    await expect(page.getByTestId('tabs')).toHaveAttribute('data-more-left', 'false');
  });
});

test.describe('chart editor', () => {
  test('switching to a tab that does not hold the edited chart closes the editor instead of editing a chart out of sight', async ({ page }) => {
    await openDemo(page);
    // The first archive dropped takes the demo's place; the next one gets a tab of its own.
    await dropReady(page, '20180416.10.00', archive('20180416.10.00'));
    await page.getByTestId('add-chart').click();
    const editor = page.getByTestId('chart-editor');
    await expect(editor).toBeVisible();
    await expect(editor.getByTestId('editor-title')).toHaveValue('New chart');
    await dropReady(page, '20180102', archive('20180102'));
    await expect(page.getByTestId('tab')).toHaveCount(2);
    await expect(editor).toHaveCount(0);
    // Back on the first tab the chart is there, and Edit opens the editor on it again.
    await page.getByTestId('tab').first().getByRole('button').first().click();
    await page.getByTestId('chart').last().getByTestId('edit-chart').click();
    await expect(editor.getByTestId('editor-title')).toHaveValue('New chart');
    await page.getByTestId('add-tab').click();
    await expect(editor).toHaveCount(0);
  });
});

test.describe('derived metric in the editor', () => {
  test("a broken derived expression's message is readable whole in the editor, below the caret", async ({ page }) => {
    await openDemo(page);
    await page.getByTestId('add-chart').click();
    const editor = page.getByTestId('chart-editor');
    await editor.getByTestId('derived-expr').fill('kernel.all.load + ');
    const err = editor.getByTestId('derived-error');
    await expect(err).toContainText('^');
    const panel = await editor.boundingBox();
    const message = err.getByTestId('derived-error-message');
    await expect(message).not.toHaveText('');
    const box = await message.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual((panel?.x ?? 0) + (panel?.width ?? 0));
    // Nothing of it hides behind a scroll bar.
    expect(await message.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });
});

test('after dragging the position slider, ? still opens the shortcut sheet', async ({ page }) => {
  await openDemo(page);
  const slider = page.getByTestId('position-slider');
  const box = await slider.boundingBox();
  if (!box) throw new Error('no slider');
  await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
  await expect(slider).toBeFocused();
  await page.keyboard.press('?');
  await expect(page.getByTestId('shortcut-sheet')).toBeVisible();
});

test('the time range menu closes on Escape and on a click elsewhere, instead of staying over the charts', async ({ page }) => {
  await openDemo(page);
  const menu = page.getByTestId('range-menu');
  await page.getByTestId('range-picker').click();
  await page.getByTestId('range-from').fill('@ 25:99');
  await page.getByTestId('range-apply').click();
  await expect(page.getByTestId('range-error')).toContainText('unexpected value');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(page.getByTestId('range-picker')).toBeFocused();
  await page.getByTestId('range-picker').click();
  await expect(menu).toBeVisible();
  await page.getByTestId('chart-title').first().click();
  await expect(menu).toHaveCount(0);
});

test('a legend without a value at the position says "no value" alone, without units after it', async ({ page }) => {
  await openDemo(page);
  // The joined archives' first hour holds only the first archive's two minutes: at its end no plot has a value.
  await dropFiles(page, [...archive('20180415.09.16'), ...archive('20180416.10.00')]);
  await expect(page.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
  const reads = page.getByTestId('chart').filter({ hasText: 'IOPS' }).locator('[data-testid="legend-item"][data-label="Reads"]');
  await expect(reads.getByTestId('legend-value')).toHaveText('no value', { timeout: 30_000 });
  await expect(reads.getByTestId('legend-units')).toHaveCount(0);
  // With a value at the position the units are back.
  await page.keyboard.press('End');
  await expect(reads.getByTestId('legend-value')).not.toHaveText('no value', { timeout: 30_000 });
  await expect(reads.getByTestId('legend-units')).toHaveText('count / sec');
});

test("the archive exported from two joined archives has a file name the PCP tools take unquoted, and pmlogcheck passes it", async ({ page }) => {
  await openDemo(page);
  await dropFiles(page, [...archive('20180415.09.16'), ...archive('20180416.10.00')]);
  // The demo is ready at once: wait for the dropped set itself, which then replaces it.
  await expect(page.locator('[data-testid="source"][data-status="ready"][data-label^="20180415.09.16"]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
  await page.getByTestId('range-picker').click();
  await page.getByTestId('range-last-15min').click();
  const d = await download(page, 'export', 'export-archive');
  expect(d.suggestedFilename()).toMatch(/^20180415\.09\.16_20180416\.10\.00-\d{8}T\d{6}Z\.tar$/);
  const dir = mkdtempSync(join(tmpdir(), 'pmdash-walk-'));
  try {
    const tar = join(dir, d.suggestedFilename());
    await d.saveAs(tar);
    execFileSync('tar', ['xf', tar, '-C', dir]);
    const base = tar.replace(/\.tar$/, '');
    // pmlogcheck exits non-zero on any problem; pmdumplog names the archive's host.
    execFileSync('pmlogcheck', [base], { encoding: 'utf8' });
    expect(execFileSync('pmdumplog', ['-L', base], { encoding: 'utf8' })).toContain('Performance metrics from host brolley-t530');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('connecting to a pmcd already live under another spelling ("localhost" for localhost:44321) shows that source instead of a second identical one', async ({ page }) => {
  await openDemo(page);
  await page.getByTestId('host-input').fill('localhost:44321');
  await page.getByTestId('connect-host').click();
  await expect(source(page, 'localhost:44321')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('source')).toHaveCount(1, { timeout: 30_000 });
  const tabs = await page.getByTestId('tab').count();
  await page.getByTestId('host-input').fill('localhost');
  await page.getByTestId('connect-host').click();
  await expect(source(page, 'localhost:44321')).toHaveClass(/current/);
  // Give a second open the time it would take to show up.
  await page.waitForTimeout(3000);
  await expect(page.getByTestId('source')).toHaveCount(1);
  await expect(page.getByTestId('tab')).toHaveCount(tabs);
});

test('a standard view opened again, or for a second host, gets a tab name of its own', async ({ page }) => {
  await openDemo(page);
  await dropReady(page, '20180416.10.00', archive('20180416.10.00'));
  await loadStandardView(page, 'CPU');
  await loadStandardView(page, 'CPU');
  await dropReady(page, '20180102', archive('20180102'));
  await loadStandardView(page, 'CPU');
  const tabNames = (): Promise<string[]> => page.getByTestId('tab').evaluateAll((tabs) => tabs.map((t) => t.querySelector('button')?.textContent ?? ''));
  // The view is parsed in the engine: its tab comes once that answers.
  await expect.poll(async () => (await tabNames()).filter((n) => n.startsWith('CPU')).length).toBe(3);
  const names = await tabNames();
  // Every tab can be told apart; the view's later tabs name the source's host.
  expect(new Set(names).size).toBe(names.length);
  const cpu = names.filter((n) => n.startsWith('CPU'));
  const hosts = [execFileSync('pmdumplog', ['-L', `${QA}/20180416.10.00`], { encoding: 'utf8' }), execFileSync('pmdumplog', ['-L', `${QA}/20180102`], { encoding: 'utf8' })].map((l) => /host (\S+)/.exec(l)?.[1] ?? '?');
  expect(cpu.slice(1).every((n) => hosts.some((h) => n.includes(`· ${h}`)))).toBe(true);
});

test('"+ Chart", then "New chart" in the metric browser: the empty chart takes the metric instead of staying behind empty', async ({ page }) => {
  await openDemo(page);
  await dropReady(page, '20180416.10.00', archive('20180416.10.00'));
  const charts = page.getByTestId('chart');
  await expect.poll(() => charts.count()).toBeGreaterThan(0);
  const before = await charts.count();
  await page.getByTestId('add-chart').click();
  await expect(charts).toHaveCount(before + 1);
  await page.getByTestId('metric-search').fill('kernel.all.load');
  await page.locator('[data-testid="pmns-row"][data-path="kernel.all.load"]').click();
  await page.getByTestId('metric-details').getByTestId('add-new-chart').click();
  await expect(charts.filter({ hasText: 'kernel.all.load' })).toHaveCount(1);
  await expect(charts).toHaveCount(before + 1);
  await expect(charts.filter({ hasText: 'No metrics yet' })).toHaveCount(0);
  await expect(charts.filter({ hasText: 'kernel.all.load' }).getByTestId('legend-value').first()).toHaveAttribute('data-value', /\d/, { timeout: 30_000 });
});
