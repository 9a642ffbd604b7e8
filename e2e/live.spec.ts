// Live mode against the real pmcd on localhost through the app's own bridge: connecting gives
// a live tab whose charts keep receiving new values; pause stops them; two hosts at once each
// get a tab and show their own connection state; the live interval spaces the samples and
// the history sets the span the charts show.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chart, legendNumber, openApp, source } from './dash';

test('a live host through the bridge shows updating values', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('host-input').fill('localhost');
  await page.getByTestId('connect-host').click();
  await expect(source(page, 'localhost')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('live-controls')).toBeVisible();
  const load = chart(page, /Average Load/);
  await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 20_000 }).toBeGreaterThan(0);
  // CPU user time is a counter: a rate appears from the second sample on and keeps changing.
  const cpu = chart(page, /CPU Utilization/);
  await expect.poll(() => legendNumber(cpu, 'User'), { timeout: 20_000 }).toBeGreaterThanOrEqual(0);
  const seen = new Set<number>();
  await expect.poll(async () => {
    seen.add(await legendNumber(cpu, 'User'));
    return seen.size;
  }, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  // Pause: values stop changing.
  await page.getByTestId('live-pause').click();
  await page.waitForTimeout(500);
  const frozen = await legendNumber(cpu, 'User');
  await page.waitForTimeout(2500);
  expect(await legendNumber(cpu, 'User')).toBe(frozen);
  await page.getByTestId('live-pause').click();
  await expect.poll(() => legendNumber(cpu, 'User'), { timeout: 10_000 }).not.toBe(frozen);
});

test('two hosts at once, each with its connection state; closing one leaves the other live', async ({ page }) => {
  // localhost and 127.0.0.1: the same pmcd by two names, both on the bridge's list.
  await openApp(page, '?host=localhost&host=127.0.0.1');
  const a = source(page, 'localhost');
  const b = source(page, '127.0.0.1');
  await expect(a).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(b).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(a.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await expect(a.getByTestId('connection')).toHaveText('connected');
  await expect(b.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  // A live tab per host, each with charts whose values keep coming.
  const tabs = page.getByTestId('tab');
  await expect(tabs).toHaveCount(2);
  for (let i = 0; i < 2; i++) {
    await tabs.nth(i).getByRole('button').first().click();
    const load = chart(page, /Average Load/);
    await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 20_000 }).toBeGreaterThan(0);
    const end = async (): Promise<number> => Number(await load.getAttribute('data-window-end'));
    const e0 = await end();
    await expect.poll(end, { timeout: 10_000 }).toBeGreaterThan(e0);
  }
  // Closing 127.0.0.1 ends its connection; localhost stays connected and keeps sampling.
  await b.getByTitle('Close source').click();
  await expect(b).toHaveAttribute('data-status', 'closed');
  await expect(b.getByTestId('connection')).toHaveAttribute('data-state', 'closed');
  await expect(b.getByTestId('connection')).toHaveText('closed');
  await expect(a.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  // Closing a source takes its tab away (issue 13): one tab is left, and it keeps advancing.
  await expect(tabs).toHaveCount(1);
  const load = chart(page, /Average Load/);
  const end = async (): Promise<number> => Number(await load.getAttribute('data-window-end'));
  const e1 = await end();
  await expect.poll(end, { timeout: 10_000 }).toBeGreaterThan(e1);
});

/**
 * The times of the samples a paused live chart shows, newest first: the tooltip's time as the
 * pointer sweeps leftwards from the right edge of the plot (it snaps to the nearest sample).
 */
async function sampleTimes(page: Page, c: Locator, count: number): Promise<number[]> {
  const box = await c.getByTestId('chart-body').boundingBox();
  if (!box) throw new Error('no chart body');
  const tip = c.getByTestId('chart-tooltip');
  const seen: number[] = [];
  for (let x = box.x + box.width - 2; x > box.x && seen.length < count; x -= 2) {
    await page.mouse.move(x, box.y + box.height / 2);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // No tooltip in the margin right of the plot.
    if ((await tip.count()) === 0) continue;
    const t = Number(await tip.getAttribute('data-time'));
    if (!seen.includes(t)) seen.push(t);
  }
  await page.mouse.move(box.x + box.width / 2, box.y - 40);
  return seen;
}

test('live interval sets the sample spacing and history the visible span', async ({ page }) => {
  await openApp(page, '?host=localhost');
  await expect(source(page, 'localhost')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  const load = chart(page, /Average Load/);
  await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 20_000 }).toBeGreaterThan(0);
  const span = async (): Promise<number> => Number(await load.getAttribute('data-window-end')) - Number(await load.getAttribute('data-window-start'));
  // Two minutes by default; the history choice sets the span every live chart shows.
  await expect(page.getByTestId('live-history')).toHaveValue('120000');
  expect(await span()).toBe(120_000);
  await page.getByTestId('live-history').selectOption({ label: '1 min' });
  await expect.poll(span).toBe(60_000);

  // One sample a second by default.
  await expect(page.getByTestId('live-interval')).toHaveValue('1');
  const spacing = async (): Promise<number[]> => {
    await page.getByTestId('live-pause').click();
    await expect(page.getByTestId('live-pause')).toHaveText('Resume');
    const t = await sampleTimes(page, load, 4);
    await page.getByTestId('live-pause').click();
    expect(t).toHaveLength(4);
    return t.slice(1).map((x, i) => (t[i] ?? 0) - x);
  };
  await page.waitForTimeout(3500);
  for (const gap of await spacing()) expect(Math.abs(gap - 1000)).toBeLessThan(150);
  // Half a second: the chart starts over with samples twice as dense.
  await page.getByTestId('live-interval').fill('0.5');
  await page.waitForTimeout(2500);
  for (const gap of await spacing()) expect(Math.abs(gap - 500)).toBeLessThan(100);

  await page.getByTestId('live-history').selectOption({ label: '5 min' });
  await expect.poll(span).toBe(300_000);
});
