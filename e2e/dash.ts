// The e2e vocabulary (Excalidraw's API/UI helpers): open the app, drop real files from disk
// with a real drop event, find charts and legend values, drive the time bar, and ask the
// oracle (pmval) what libpcp says. Specs read as what a user does.
import { execFileSync } from 'node:child_process';
import { expect, type Locator, type Page } from '@playwright/test';

export const QA = '/var/lib/pcp/testsuite/archives';
export const BAD = '/var/lib/pcp/testsuite/badarchives';

/** Opens the app: the default page as `npm start` opens it (the demo), or with a query such as '?archive=…'. */
export async function openApp(page: Page, query = ''): Promise<void> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`/${query}`);
  await expect(page.getByTestId('time-bar')).toBeVisible();
}

/**
 * Drops files from disk on the drop target: Playwright puts real File objects (read from
 * disk by the browser) into a detached staging input, and the page dispatches a real
 * `drop` DragEvent whose DataTransfer holds them. No test hook in the app is involved.
 */
export async function dropFiles(page: Page, paths: readonly string[]): Promise<void> {
  const handle = await page.evaluateHandle(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.style.display = 'none';
    input.id = 'e2e-staging';
    document.body.appendChild(input);
    return input;
  });
  await handle.asElement()?.setInputFiles([...paths]);
  await page.evaluate(() => {
    const input = document.getElementById('e2e-staging') as HTMLInputElement;
    const dt = new DataTransfer();
    for (const f of Array.from(input.files ?? [])) dt.items.add(f);
    const target = document.querySelector('[data-testid="drop-target"]');
    if (!target) throw new Error('no drop target');
    target.dispatchEvent(new DragEvent('dragenter', { bubbles: true, cancelable: true, dataTransfer: dt }));
    target.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: dt }));
    target.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
    input.remove();
  });
}

export function source(page: Page, label: string): Locator {
  return page.locator(`[data-testid="source"][data-label="${label}"]`);
}

export function chart(page: Page, title: string | RegExp): Locator {
  return page.getByTestId('chart').filter({ has: page.getByTestId('chart-title').filter({ hasText: title }) });
}

export function legendValue(c: Locator, label: string): Locator {
  return c.locator(`[data-testid="legend-item"][data-label="${label}"] [data-testid="legend-value"]`);
}

/** The numeric value a legend shows (full precision), or NaN when it shows none. */
export async function legendNumber(c: Locator, label: string): Promise<number> {
  const v = await legendValue(c, label).getAttribute('data-value');
  return v === null || v === '' ? NaN : Number(v);
}

/** The time bar's position in epoch ms. */
export async function position(page: Page): Promise<number> {
  return Number(await page.getByTestId('time-bar').getAttribute('data-position'));
}

/** Types a position ("YYYY-MM-DD hh:mm:ss") in the display zone and presses Enter. */
export async function setPosition(page: Page, text: string): Promise<void> {
  const f = page.getByTestId('position');
  await f.click();
  await f.fill(text);
  await f.press('Enter');
}

/** Sets the interval in seconds. */
export async function setIntervalSec(page: Page, sec: number): Promise<void> {
  await page.getByLabel('interval unit').selectOption('sec');
  await page.getByTestId('interval').fill(String(sec));
}

/**
 * pmval's value of `metric` (instance `inst`) at `offsetSec` after the archive's start,
 * with the given interval: pmval starts one interval earlier so a counter has its rate.
 */
export function pmvalAt(archive: string, metric: string, offsetSec: number, intervalSec: number, inst?: string, env?: NodeJS.ProcessEnv): number {
  const args = ['-z', '-f', '6', '-a', archive, '-S', `+${offsetSec - intervalSec}`, '-t', String(intervalSec), '-s', '2'];
  // pmval splits -i on spaces and commas unless the name is double-quoted.
  if (inst) args.push('-i', `"${inst}"`);
  args.push(metric);
  const out = execFileSync('pmval', args, { encoding: 'utf8', env: { ...process.env, ...env } });
  // The time is fixed width; with -f 6 a wide value follows it without a space.
  const rows = out.split('\n').filter((l) => /^\d\d:\d\d:\d\d\.\d{3}/.test(l)).map((l) => l.slice(12));
  // Rows are at -S + k × interval; a rate needs a previous sample, so pmval prints a counter
  // from the second sample on: the wanted time is then the first row, otherwise the last.
  const row = /converting to rate/.test(out) ? rows[0] : rows[rows.length - 1];
  if (!row) throw new Error(`pmval printed no samples:\n${out}`);
  const cells = row.trim().split(/\s+/);
  const v = cells[cells.length - 1] ?? '';
  return /^[-+0-9.eE]+$/.test(v) ? Number(v) : NaN;
}

/** The bundled demo archive's host and ctime-style start/end (whole seconds) as pmdumplog -L prints them. */
export function demoLabel(): { host: string; start: string; end: string } {
  const out = execFileSync('pmdumplog', ['-L', '-Z', 'UTC', 'public/demo/pmdash-demo'], { encoding: 'utf8' });
  const host = /^Performance metrics from host (.*)$/m.exec(out)?.[1];
  const start = /^\s+commencing (.*)$/m.exec(out)?.[1];
  const end = /^\s+ending\s+(.*)$/m.exec(out)?.[1];
  if (!host || !start || !end) throw new Error(`unexpected pmdumplog -L output:\n${out}`);
  const whole = (t: string): string => t.replace(/\.\d+/, '');
  return { host, start: whole(start), end: whole(end) };
}

/** An archive's label start and end in epoch ms, from pmdumplog -L. */
export function labelSpanMs(archive: string): { startMs: number; endMs: number } {
  const out = execFileSync('pmdumplog', ['-L', '-Z', 'UTC', archive], { encoding: 'utf8' });
  const at = (word: string): number => {
    const m = new RegExp(`${word}\\s+\\w{3} (\\w{3})\\s+(\\d+) (\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d+) (\\d{4})`).exec(out);
    if (!m) throw new Error(`unexpected pmdumplog -L output:\n${out}`);
    const month = 'JanFebMarAprMayJunJulAugSepOctNovDec'.indexOf(m[1] ?? '') / 3;
    return Date.UTC(Number(m[7]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])) + Number(`0.${m[6]}`) * 1000;
  };
  return { startMs: at('commencing'), endMs: at('ending') };
}

/** The label start of an archive in epoch ms, from pmdumplog -L. */
export function labelStartMs(archive: string): number {
  return labelSpanMs(archive).startMs;
}

/**
 * From the default page: drops an archive's files, waits for the source, and charts `metric`
 * in a new chart from the metric browser; returns that chart.
 */
export async function dropAndChart(page: Page, files: readonly string[], sourceLabel: string, metric: string): Promise<Locator> {
  await openApp(page);
  await dropFiles(page, files);
  await expect(source(page, sourceLabel)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  return chartMetric(page, metric);
}

/** Charts one metric of the current source in a new chart, as the metric browser does it. */
export async function chartMetric(page: Page, metric: string): Promise<Locator> {
  await page.getByTestId('metric-search').fill(metric);
  await page.locator(`[data-testid="pmns-row"][data-path="${metric}"]`).click();
  await page.getByTestId('metric-details').getByTestId('add-new-chart').click();
  const c = chart(page, metric);
  await expect(c).toBeVisible();
  return c;
}

/**
 * A multi-instance metric of a dropped archive as a heatmap chart: charted (at least five
 * instances in its legend), at `stepSec`, over a 60-interval window ending at `at`, then
 * switched to the heatmap style in the chart editor.
 */
export async function dropAndHeatmap(page: Page, files: readonly string[], sourceLabel: string, metric: string, stepSec: number, at: string): Promise<Locator> {
  const c = await dropAndChart(page, files, sourceLabel, metric);
  await expect.poll(() => c.getByTestId('legend-item').count()).toBeGreaterThanOrEqual(5);
  await setIntervalSec(page, stepSec);
  await page.getByTestId('window').selectOption('60');
  await setPosition(page, at);
  await c.getByTestId('edit-chart').click();
  await page.getByTestId('editor-style').selectOption('heatmap');
  await page.getByTestId('editor-close').click();
  return c;
}
