// The in-page pmtime: step, play, reverse and speed move the position by whole intervals in
// the right direction and at the right pace; switching the zone relabels the time axis.
import { expect, test } from '@playwright/test';
import { chart, dropFiles, legendNumber, openApp, position, QA, source } from './dash';

test.describe('time controls', () => {
  test.beforeEach(async ({ page }) => {
    await openApp(page);
    await expect(page.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
    await expect.poll(() => position(page)).toBeGreaterThan(0);
    // The demo opens on all of its 10 min and the window cannot leave the data: a 60-point
    // window leaves room to move.
    await page.getByTestId('window').selectOption('60');
  });

  test('step forward and back move exactly one interval; keys do the same', async ({ page }) => {
    const p0 = await position(page);
    const interval = Number(await page.getByTestId('interval').inputValue()) * 1000;
    await page.getByTestId('vcr-step-back').click();
    expect(await position(page)).toBeCloseTo(p0 - interval, 3);
    await page.getByTestId('vcr-step-back').click();
    await page.getByTestId('vcr-step-forward').click();
    expect(await position(page)).toBeCloseTo(p0 - interval, 3);
    await page.locator('body').press('ArrowLeft');
    expect(await position(page)).toBeCloseTo(p0 - 2 * interval, 3);
  });

  test('play moves forward, reverse moves back, on the interval grid, at the set speed', async ({ page }) => {
    const interval = Number(await page.getByTestId('interval').inputValue()) * 1000;
    // Start in the middle of the archive so both directions have room.
    await page.getByTestId('position-slider').evaluate((el: HTMLInputElement) => {
      // React tracks the value through the prototype setter.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(el, String((Number(el.min) + Number(el.max)) / 2));
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const p0 = await position(page);
    await page.getByTestId('speed').fill(String((20 * interval) / 1000));
    const t0 = Date.now();
    await page.getByTestId('vcr-play').click();
    await expect.poll(() => position(page)).toBeGreaterThanOrEqual(p0 + 10 * interval);
    await page.getByTestId('vcr-stop').click();
    const elapsed = (Date.now() - t0) / 1000;
    const p1 = await position(page);
    const steps = (p1 - p0) / interval;
    expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-6);
    // 20 steps per second: at most 20 per elapsed second (plus one tick of slack).
    expect(steps).toBeLessThanOrEqual(20 * elapsed + 1);
    await expect(page.getByTestId('time-bar')).toHaveAttribute('data-state', 'stopped');

    await page.getByTestId('vcr-reverse').click();
    await expect.poll(() => position(page)).toBeLessThanOrEqual(p1 - 5 * interval);
    await page.getByTestId('vcr-stop').click();
    const p2 = await position(page);
    expect(Math.abs((p1 - p2) / interval - Math.round((p1 - p2) / interval))).toBeLessThan(1e-6);

    // A slower speed advances fewer steps in the same wall time.
    await page.getByTestId('speed').fill(String((2 * interval) / 1000));
    const p3 = await position(page);
    await page.getByTestId('vcr-play').click();
    await page.waitForTimeout(1500);
    await page.getByTestId('vcr-stop').click();
    const slow = ((await position(page)) - p3) / interval;
    expect(slow).toBeGreaterThanOrEqual(1);
    expect(slow).toBeLessThanOrEqual(5);
  });

  test('charts follow the position', async ({ page }) => {
    const cpu = chart(page, /CPU Utilization/);
    await expect.poll(() => legendNumber(cpu, 'Idle'), { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
    const tick = page.getByTestId('axis-tick').first();
    const before = `${await tick.textContent()} ${await tick.getAttribute('style')}`;
    const idle = await legendNumber(cpu, 'Idle');
    for (let i = 0; i < 30; i++) await page.getByTestId('vcr-step-back').click();
    // The shared axis slides (same labels move right) and the legend reads the new position.
    await expect.poll(async () => `${await tick.textContent()} ${await tick.getAttribute('style')}`).not.toBe(before);
    await expect.poll(() => legendNumber(cpu, 'Idle')).not.toBe(idle);
  });
});

test('switching the timezone relabels the axis', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${QA}/20180416.10.00.${s}`));
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('zone-label')).toHaveText('EDT');
  const ticks = page.getByTestId('axis-tick');
  const edt = await ticks.allTextContents();
  const pos = await page.getByTestId('position').inputValue();
  await page.getByTestId('zone').selectOption('utc');
  await expect(page.getByTestId('zone-label')).toHaveText('UTC');
  const utc = await ticks.allTextContents();
  expect(utc).not.toEqual(edt);
  // The same instants, 4 hours apart on the wall clock (EDT+4).
  const hour = (s: string | undefined): number => Number(/(\d\d):\d\d/.exec(s ?? '')?.[1]);
  expect((hour(utc[0]) - hour(edt[0]) + 24) % 24).toBe(4);
  expect(await page.getByTestId('position').inputValue()).not.toBe(pos);
});
