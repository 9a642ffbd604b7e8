// Charts as a user shapes them: every style chosen in the chart editor (and drawn), the
// legend hiding, showing and isolating series, a fixed y scale, instance selection by list,
// by regex and by the editor's pick list, drag-to-zoom and its reset, adding a metric to an
// existing chart, and the metric browser over an archive of a thousand metrics. Values are
// checked against pmval.
import { execFileSync } from 'node:child_process';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chart, dropFiles, legendNumber, openApp, pmvalAt, position, QA, setIntervalSec, setPosition, source } from './dash';

const ARCH = `${QA}/20180416.10.00`;
const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${ARCH}.${s}`);
/** The position every test starts at: 2400 s after the label start (EDT+4), interval 10 s. */
const OFFSET = 2400;

test.beforeEach(async ({ page }) => {
  await openApp(page);
  await dropFiles(page, ARCH_FILES);
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await setIntervalSec(page, 10);
  // A 10 min window (60 points): the window cannot leave the data, so the first hour it opens
  // on would keep the right edge at least an hour in.
  await page.getByTestId('window').selectOption('60');
  await setPosition(page, '2018-04-16 10:41:25.325');
});

const labels = (c: Locator): Promise<string[]> => c.getByTestId('legend-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-label') ?? ''));

/** Points at a chart's body and reads which series its tooltip lists. */
async function tooltipSeries(page: Page, c: Locator): Promise<string[]> {
  const body = c.getByTestId('chart-body');
  await body.scrollIntoViewIfNeeded();
  const box = await body.boundingBox();
  if (!box) throw new Error('no chart body');
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
  await expect(c.getByTestId('chart-tooltip')).toBeVisible();
  return c.getByTestId('tooltip-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-series') ?? ''));
}

async function editChart(c: Locator): Promise<Locator> {
  await c.getByTestId('edit-chart').click();
  const editor = c.page().getByTestId('chart-editor');
  await expect(editor).toBeVisible();
  return editor;
}

const yAxis = (c: Locator): Locator => c.locator('.plot-y');
const yTicks = (c: Locator): Promise<number[]> => c.getByTestId('y-tick').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));

test('every chart style chosen in the editor is drawn, with legend values equal to pmval', async ({ page }) => {
  const iops = chart(page, /IOPS over all Disks/);
  const reads = pmvalAt(ARCH, 'disk.all.read', OFFSET, 10);
  const writes = pmvalAt(ARCH, 'disk.all.write', OFFSET, 10);
  expect(reads + writes).toBeGreaterThan(0);
  await expect.poll(() => legendNumber(iops, 'Reads'), { timeout: 30_000 }).toBeCloseTo(reads, 4);
  const editor = await editChart(iops);
  const canvas = iops.getByTestId('chart-canvas');
  const pictures = new Map<string, string>();
  for (const style of ['line', 'area', 'stacked-area', 'bar', 'stacked-bar', 'utilization']) {
    await editor.getByTestId('editor-style').selectOption(style);
    await expect(iops).toHaveAttribute('data-style', style);
    // The canvas was redrawn in this style, with both series.
    await expect(canvas).toHaveAttribute('data-drawn-style', style);
    await expect(canvas).toHaveAttribute('data-drawn-series', '2');
    if (style === 'utilization') {
      // Each series' share of the total, on a 0–100 axis.
      await expect.poll(() => legendNumber(iops, 'Reads')).toBeCloseTo((100 * reads) / (reads + writes), 4);
      expect(await legendNumber(iops, 'Writes')).toBeCloseTo((100 * writes) / (reads + writes), 4);
      await expect(yAxis(iops)).toHaveAttribute('data-min', '0');
      await expect(yAxis(iops)).toHaveAttribute('data-max', '100');
      const ticks = await yTicks(iops);
      expect(ticks[0]).toBe(0);
      expect(ticks[ticks.length - 1]).toBe(100);
      await expect(iops.getByTestId('y-units')).toHaveText('% utilization');
      // Its y axis is not the user's to set.
      await expect(editor.getByTestId('editor-fixed')).toBeDisabled();
    } else {
      await expect.poll(() => legendNumber(iops, 'Reads')).toBeCloseTo(reads, 4);
      expect(await legendNumber(iops, 'Writes')).toBeCloseTo(writes, 4);
      await expect(iops.getByTestId('y-units')).not.toHaveText('% utilization');
    }
    pictures.set(style, (await canvas.screenshot()).toString('base64'));
  }
  // Six styles, six different pictures of the same data.
  expect(new Set(pictures.values()).size).toBe(6);
  // Stacking draws the sum: its axis reaches at least as high as the unstacked one.
  await editor.getByTestId('editor-style').selectOption('area');
  await expect(canvas).toHaveAttribute('data-drawn-style', 'area');
  const unstacked = Number(await yAxis(iops).getAttribute('data-max'));
  await editor.getByTestId('editor-style').selectOption('stacked-area');
  await expect(canvas).toHaveAttribute('data-drawn-style', 'stacked-area');
  expect(Number(await yAxis(iops).getAttribute('data-max'))).toBeGreaterThanOrEqual(unstacked);
});

test('the legend hides and shows a series on click, isolates it on double-click and shows all again', async ({ page }) => {
  const mem = chart(page, /Real Memory Usage/);
  await expect.poll(() => legendNumber(mem, 'mem.util.free'), { timeout: 30_000 }).toBeGreaterThan(0);
  // pmchart's Overview gives these plots no legend: each is labelled by its metric.
  const all = ['mem.util.cached', 'mem.util.bufmem', 'mem.util.other', 'mem.util.free'];
  expect(await labels(mem)).toEqual(all);
  const button = (label: string): Locator => mem.locator(`[data-testid="legend-item"][data-label="${label}"] button`);
  const canvas = mem.getByTestId('chart-canvas');
  expect(await tooltipSeries(page, mem)).toEqual(all);

  await button('mem.util.bufmem').click();
  await expect(button('mem.util.bufmem')).toHaveAttribute('aria-pressed', 'false');
  await expect(canvas).toHaveAttribute('data-drawn-series', '3');
  expect(await tooltipSeries(page, mem)).toEqual(['mem.util.cached', 'mem.util.other', 'mem.util.free']);

  await button('mem.util.bufmem').click();
  await expect(button('mem.util.bufmem')).toHaveAttribute('aria-pressed', 'true');
  await expect(canvas).toHaveAttribute('data-drawn-series', '4');
  expect(await tooltipSeries(page, mem)).toEqual(all);

  await button('mem.util.other').dblclick();
  for (const l of all) await expect(button(l)).toHaveAttribute('aria-pressed', l === 'mem.util.other' ? 'true' : 'false');
  await expect(canvas).toHaveAttribute('data-drawn-series', '1');
  expect(await tooltipSeries(page, mem)).toEqual(['mem.util.other']);

  // Double-clicking the one left alone brings the others back.
  await button('mem.util.other').dblclick();
  for (const l of all) await expect(button(l)).toHaveAttribute('aria-pressed', 'true');
  await expect(canvas).toHaveAttribute('data-drawn-series', '4');
  expect(await tooltipSeries(page, mem)).toEqual(all);
});

test('a fixed y scale typed in the editor is where the y ticks end; auto brings the autoscale back', async ({ page }) => {
  const iops = chart(page, /IOPS over all Disks/);
  await expect.poll(() => legendNumber(iops, 'Reads'), { timeout: 30_000 }).not.toBeNaN();
  const axis = yAxis(iops);
  await expect(axis).toHaveAttribute('data-max', /\d/);
  const auto = { min: await axis.getAttribute('data-min'), max: await axis.getAttribute('data-max') };
  const editor = await editChart(iops);
  await editor.getByTestId('editor-fixed').check();
  await editor.getByTestId('editor-min').fill('12.5');
  await editor.getByTestId('editor-max').fill('87');
  await expect(axis).toHaveAttribute('data-min', '12.5');
  await expect(axis).toHaveAttribute('data-max', '87');
  const ticks = await yTicks(iops);
  expect(ticks[0]).toBe(12.5);
  expect(ticks[ticks.length - 1]).toBe(87);
  expect(ticks.length).toBeGreaterThan(2);
  for (let i = 1; i < ticks.length; i++) expect(ticks[i]).toBeGreaterThan(ticks[i - 1] ?? Infinity);
  // The end ticks sit at the bottom and the top of the plot area.
  const tops = await iops.getByTestId('y-tick').evaluateAll((els) => els.map((e) => parseFloat((e as HTMLElement).style.top)));
  const canvasHeight = (await iops.getByTestId('chart-canvas').boundingBox())?.height ?? NaN;
  expect(tops[tops.length - 1]).toBeCloseTo(10, 3);
  expect(tops[0]).toBeCloseTo(canvasHeight - 4, 0);
  // The legend still reads pmval: the scale only changes the axis.
  expect(await legendNumber(iops, 'Reads')).toBeCloseTo(pmvalAt(ARCH, 'disk.all.read', OFFSET, 10), 4);

  await editor.getByRole('radio', { name: 'Auto' }).check();
  await expect(axis).toHaveAttribute('data-min', auto.min ?? '');
  await expect(axis).toHaveAttribute('data-max', auto.max ?? '');
});

test('instances picked in the browser, then listed, filtered by regex and picked in the editor, are exactly the legend', async ({ page }) => {
  await page.getByTestId('metric-search').fill('disk.dev.read');
  await page.locator('[data-testid="pmns-row"][data-path="disk.dev.read"]').click();
  const details = page.getByTestId('metric-details');
  await expect(details.getByTestId('instances')).toContainText('sr0');
  await details.getByLabel('sda').check();
  await details.getByLabel('sr0').check();
  await details.getByTestId('add-new-chart').click();
  const c = chart(page, 'disk.dev.read');
  await expect.poll(() => labels(c)).toEqual(['disk.dev.read[sda]', 'disk.dev.read[sr0]']);
  await expect.poll(() => legendNumber(c, 'disk.dev.read[sda]'), { timeout: 30_000 }).toBeCloseTo(pmvalAt(ARCH, 'disk.dev.read', OFFSET, 10, 'sda'), 4);
  expect(await legendNumber(c, 'disk.dev.read[sr0]')).toBeCloseTo(pmvalAt(ARCH, 'disk.dev.read', OFFSET, 10, 'sr0'), 4);

  const editor = await editChart(c);
  const row = editor.getByTestId('plot-row');
  const kind = row.getByLabel('instances', { exact: true });
  const text = row.getByLabel('instance names or regex');
  await expect(kind).toHaveValue('list');
  await expect(text).toHaveValue('sda, sr0');
  await text.fill('sdb');
  await expect.poll(() => labels(c)).toEqual(['disk.dev.read[sdb]']);
  await expect.poll(() => legendNumber(c, 'disk.dev.read[sdb]')).toBeCloseTo(pmvalAt(ARCH, 'disk.dev.read', OFFSET, 10, 'sdb'), 4);

  await kind.selectOption('matching');
  await text.fill('^sd[ab]$');
  await expect.poll(() => labels(c)).toEqual(['disk.dev.read[sda]', 'disk.dev.read[sdb]']);
  await kind.selectOption('not-matching');
  await expect.poll(() => labels(c)).toEqual(['disk.dev.read[sr0]']);
  await kind.selectOption('all');
  await expect.poll(() => labels(c)).toEqual(['disk.dev.read[sda]', 'disk.dev.read[sdb]', 'disk.dev.read[sr0]']);

  // The pick list: the metric's instances as labelled checkboxes, ticked as the selection takes them.
  const picks = row.getByRole('group', { name: 'pick instances of disk.dev.read' });
  const box = (n: string): Locator => picks.getByRole('checkbox', { name: n, exact: true });
  const ticked = (): Promise<string[]> => picks.locator('label').evaluateAll((els) => els.filter((e) => e.querySelector('input')?.checked).map((e) => e.textContent ?? ''));
  await expect(picks.getByRole('checkbox')).toHaveCount(3);
  expect(await ticked()).toEqual(['sda', 'sdb', 'sr0']);
  // Unticking one of all leaves the list of the others, in the typed list too.
  await box('sdb').uncheck();
  await expect(kind).toHaveValue('list');
  await expect(text).toHaveValue('sda, sr0');
  await expect.poll(() => labels(c)).toEqual(['disk.dev.read[sda]', 'disk.dev.read[sr0]']);
  await box('sda').uncheck();
  await box('sr0').uncheck();
  await expect(text).toHaveValue('');
  await expect.poll(() => labels(c)).toEqual([]);
  // Ticked from the keyboard (Tab from the typed list, Space) and by click: exactly those.
  await text.focus();
  await page.keyboard.press('Tab');
  await expect(box('sda')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(box('sdb')).toBeFocused();
  await page.keyboard.press('Space');
  await box('sr0').check();
  await expect(text).toHaveValue('sdb, sr0');
  await expect.poll(() => labels(c)).toEqual(['disk.dev.read[sdb]', 'disk.dev.read[sr0]']);
  await expect.poll(() => legendNumber(c, 'disk.dev.read[sdb]')).toBeCloseTo(pmvalAt(ARCH, 'disk.dev.read', OFFSET, 10, 'sdb'), 4);
  expect(await legendNumber(c, 'disk.dev.read[sr0]')).toBeCloseTo(pmvalAt(ARCH, 'disk.dev.read', OFFSET, 10, 'sr0'), 4);
  // A typed list ticks its names; a regex ticks what it matches.
  await text.fill('sda');
  await expect.poll(ticked).toEqual(['sda']);
  await expect.poll(() => labels(c)).toEqual(['disk.dev.read[sda]']);
  await expect.poll(() => legendNumber(c, 'disk.dev.read[sda]')).toBeCloseTo(pmvalAt(ARCH, 'disk.dev.read', OFFSET, 10, 'sda'), 4);
  await kind.selectOption('not-matching');
  await text.fill('^sd');
  await expect.poll(ticked).toEqual(['sr0']);
  await expect.poll(() => labels(c)).toEqual(['disk.dev.read[sr0]']);
  // Ticking under a regex makes the list of what it matched plus the one ticked.
  await box('sda').check();
  await expect(kind).toHaveValue('list');
  await expect(text).toHaveValue('sda, sr0');
  await expect.poll(() => labels(c)).toEqual(['disk.dev.read[sda]', 'disk.dev.read[sr0]']);
});

test('dragging across a chart zooms the window to the dragged range; "reset zoom" widens it again', async ({ page }) => {
  const iops = chart(page, /IOPS over all Disks/);
  await expect.poll(() => legendNumber(iops, 'Reads'), { timeout: 30_000 }).not.toBeNaN();
  const bar = page.getByTestId('time-bar');
  const p0 = await position(page);
  const w0 = Number(await bar.getAttribute('data-window'));
  expect(w0).toBeGreaterThan(0);
  const shown0 = await page.getByTestId('window').locator('option').first().textContent();
  const canvas = await iops.getByTestId('chart-canvas').boundingBox();
  if (!canvas) throw new Error('no chart canvas');
  // The plot area: the canvas minus the y axis gutter (64 px) and right margin (18 px).
  const left = canvas.x + 64;
  const width = canvas.width - 64 - 18;
  const xa = Math.round(left + width * 0.25);
  const xb = Math.round(left + width * 0.75);
  const y = Math.round(canvas.y + canvas.height / 2);
  const timeAt = (x: number): number => p0 - w0 + ((x - left) / width) * w0;
  await page.mouse.move(xa, y);
  await page.mouse.down();
  await page.mouse.move(xb, y, { steps: 8 });
  await expect(iops.getByTestId('zoom-band')).toBeVisible();
  await page.mouse.up();
  await expect(iops.getByTestId('zoom-band')).toHaveCount(0);

  const msPerPx = w0 / width;
  await expect.poll(async () => Number(await bar.getAttribute('data-window'))).toBeLessThan(w0);
  const w1 = Number(await bar.getAttribute('data-window'));
  const p1 = await position(page);
  // The time under the pointer belonged to the old window: it goes, and comes back on a move.
  await expect(page.getByTestId('hover-time')).toHaveText('');
  await page.mouse.move(xa, y);
  await expect(page.getByTestId('hover-time')).not.toHaveText('');
  // Off the chart again: the legend reads the window's right edge, not the pointer's time.
  await page.mouse.move(0, 0);
  await expect(page.getByTestId('hover-time')).toHaveText('');
  expect(Math.abs(w1 - (timeAt(xb) - timeAt(xa)))).toBeLessThanOrEqual(2 * msPerPx);
  // The window ends at the drag's right end, snapped to the 10 s sampling grid.
  expect(Math.abs(p1 - timeAt(xb))).toBeLessThanOrEqual(5000 + 2 * msPerPx);
  expect(Math.abs((p1 - p0) / 10_000 - Math.round((p1 - p0) / 10_000))).toBeLessThan(1e-6);
  await expect(page.getByTestId('window').locator('option').first()).not.toHaveText(shown0 ?? '');
  // The time axis covers the new window; the legend reads pmval at the new position.
  const offset = OFFSET + Math.round((p1 - p0) / 1000);
  await expect.poll(() => legendNumber(iops, 'Reads')).toBeCloseTo(pmvalAt(ARCH, 'disk.all.read', offset, 10), 4);

  await page.getByTestId('window').selectOption('all');
  await expect.poll(async () => Number(await bar.getAttribute('data-window'))).toBeGreaterThanOrEqual(w0);
});

test('a metric from the browser is added to the chart last clicked', async ({ page }) => {
  const iops = chart(page, /IOPS over all Disks/);
  await expect.poll(() => legendNumber(iops, 'Reads'), { timeout: 30_000 }).not.toBeNaN();
  await expect(page.getByTestId('chart')).toHaveCount(5);
  await iops.getByTestId('chart-title').click();
  await page.getByTestId('metric-search').fill('disk.all.total');
  await page.locator('[data-testid="pmns-row"][data-path="disk.all.total"]').click();
  const add = page.getByTestId('metric-details').getByTestId('add-to-chart');
  await expect(add).toHaveAttribute('title', /IOPS over all Disks/);
  await add.click();
  await expect.poll(() => labels(iops)).toEqual(['Reads', 'Writes', 'disk.all.total']);
  await expect.poll(() => legendNumber(iops, 'disk.all.total'), { timeout: 30_000 }).toBeCloseTo(pmvalAt(ARCH, 'disk.all.total', OFFSET, 10), 4);
  expect(await legendNumber(iops, 'Reads')).toBeCloseTo(pmvalAt(ARCH, 'disk.all.read', OFFSET, 10), 4);
  await expect(iops.getByTestId('chart-canvas')).toHaveAttribute('data-drawn-series', '3');
  await expect(page.getByTestId('chart')).toHaveCount(5);
});

test('the browser over a thousand metrics: search narrows to matching names at once, and only rows in view are in the page', async ({ page }) => {
  // The archive's names and the derived metrics libpcp adds from its default config, as pmdash does.
  const names = execFileSync('pminfo', ['-a', ARCH], { encoding: 'utf8' }).split('\n').filter(Boolean);
  expect(names.length).toBeGreaterThan(1000);
  const browser = page.getByTestId('metric-browser');
  await expect(browser.locator('.panel-title')).toContainText(`(${names.length})`);
  const rows = page.getByTestId('pmns-row');
  const paths = (): Promise<string[]> => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));

  // Every name matches '.': over a thousand rows in the list, a screenful in the page.
  const search = page.getByTestId('metric-search');
  await search.fill('.');
  const list = page.getByTestId('pmns-tree');
  await expect.poll(() => list.evaluate((el) => el.scrollHeight)).toBeGreaterThan(1000 * 20);
  expect(await rows.count()).toBeLessThan(50);
  const top = await paths();
  // Scrolled to the end: other rows replace those, still only a screenful.
  await list.evaluate((el) => { el.scrollTop = el.scrollHeight; });
  await expect.poll(paths).not.toContain(top[0]);
  const bottom = await paths();
  expect(bottom.length).toBeLessThan(50);
  for (const p of bottom) expect(names).toContain(p);

  // Two terms, both must appear in a name; the rows are exactly pminfo's matching names.
  const want = names.filter((n) => n.includes('percpu') && n.includes('idle'));
  expect(want.length).toBeGreaterThan(0);
  expect(want.length).toBeLessThan(20);
  const t0 = Date.now();
  await search.fill('percpu idle');
  await expect.poll(async () => (await paths()).sort(), { intervals: [20, 50, 100] }).toEqual(want.sort());
  expect(Date.now() - t0).toBeLessThan(2000);
});
