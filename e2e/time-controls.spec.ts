// The time bar on the demo archive (10 minutes, shown 1 min at a time on a typed 1 s grid):
// fast forward and rewind, the Bounds that confine the position and stop play, the position
// slider, the keyboard shortcuts, and play paced at the set speed. Every position is checked
// on the grid whose origin is the archive's start; the window never leaves the data, so Home
// puts its left edge there and End its right edge on the last grid point inside the end.
import { expect, test, type Page } from '@playwright/test';
import { position, setIntervalSec } from './dash';
import { openDemo } from './menus';

const bar = (page: Page) => page.getByTestId('time-bar');
const windowMs = async (page: Page): Promise<number> => Number(await bar(page).getAttribute('data-window'));

/** Presses keys with the focus on the page itself (no field, no button). */
async function keys(page: Page, ...names: string[]): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (const k of names) await page.keyboard.press(k);
}

/**
 * Clicks `button` and records every position the time bar shows for `ms` after, with the
 * page's own clock (performance.now) at each change.
 */
async function recordPlay(page: Page, button: string, ms: number): Promise<{ t: number; p: number }[]> {
  const recording = page.evaluate((ms) => new Promise<{ t: number; p: number }[]>((resolve) => {
    const el = document.querySelector('[data-testid="time-bar"]');
    if (!el) throw new Error('no time bar');
    const out: { t: number; p: number }[] = [];
    const obs = new MutationObserver(() => out.push({ t: performance.now(), p: Number(el.getAttribute('data-position')) }));
    obs.observe(el, { attributes: true, attributeFilter: ['data-position'] });
    setTimeout(() => {
      obs.disconnect();
      resolve(out);
    }, ms);
  }), ms);
  await page.getByTestId(button).click();
  return recording;
}

/** Expects `p` on the grid home + k × interval; returns k. */
function gridIndex(p: number, home: number, interval: number): number {
  const k = (p - home) / interval;
  expect(Math.abs(k - Math.round(k)), `${p} on the ${interval} ms grid from ${home}`).toBeLessThan(1e-6);
  return Math.round(k);
}

test.describe('time controls on an archive', () => {
  let home = NaN;
  const I = 1000;
  const W = 60 * I;
  /** The archive's start, the grid's origin (the label says 12:04:50.351762 UTC). */
  const START = Date.UTC(2026, 10, 21, 12, 4, 50) + 351.762;

  test.beforeEach(async ({ page }) => {
    await openDemo(page);
    await setIntervalSec(page, 1);
    await expect(page.getByTestId('interval')).toHaveValue('1');
    await expect(page.getByLabel('interval unit')).toHaveValue('sec');
    await page.getByTestId('window').selectOption('60');
    expect(await windowMs(page)).toBe(W);
    // Home: the window's left edge at the archive's start.
    await keys(page, 'Home');
    home = await position(page);
    expect(Math.abs(home - W - START)).toBeLessThan(1);
  });

  test('keyboard: arrows step one and ten intervals, Home/End reach the bounds, space plays and stops, r reverses', async ({ page }) => {
    // The archive spans 600.0003 s: End is the last grid point at least half an interval
    // inside, 599 intervals from the start.
    await keys(page, 'End');
    expect(await position(page)).toBeCloseTo(home - W + 599 * I, 3);
    await keys(page, 'Home', 'ArrowRight');
    expect(await position(page)).toBeCloseTo(home + I, 3);
    await keys(page, 'Shift+ArrowRight');
    expect(await position(page)).toBeCloseTo(home + 11 * I, 3);
    await keys(page, 'ArrowLeft');
    expect(await position(page)).toBeCloseTo(home + 10 * I, 3);
    await keys(page, 'Shift+ArrowLeft');
    expect(await position(page)).toBeCloseTo(home, 3);
    // Nothing before the start.
    await keys(page, 'Shift+ArrowLeft', 'ArrowLeft');
    expect(await position(page)).toBeCloseTo(home, 3);

    await keys(page, 'Space');
    await expect(bar(page)).toHaveAttribute('data-state', 'forward');
    await expect(page.getByTestId('vcr-play')).toHaveClass(/active/);
    await expect.poll(() => position(page)).toBeGreaterThanOrEqual(home + 2 * I);
    await keys(page, 'Space');
    await expect(bar(page)).toHaveAttribute('data-state', 'stopped');
    const played = await position(page);
    expect(gridIndex(played, home, I)).toBeGreaterThanOrEqual(2);
    await keys(page, 'r');
    await expect(bar(page)).toHaveAttribute('data-state', 'backward');
    await expect(page.getByTestId('vcr-reverse')).toHaveClass(/active/);
    await expect.poll(() => position(page)).toBeLessThan(played);
    await keys(page, 'Space');
    await expect(bar(page)).toHaveAttribute('data-state', 'stopped');
    gridIndex(await position(page), home, I);
  });

  test('keyboard: ] and [ double and halve the speed, + and - halve and double the window', async ({ page }) => {
    const speed = page.getByTestId('speed');
    // The default speed: two intervals per second.
    await expect(speed).toHaveValue('2');
    await keys(page, ']');
    await expect(speed).toHaveValue('4');
    await keys(page, ']', ']');
    await expect(speed).toHaveValue('16');
    await keys(page, '[', '[', '[', '[');
    await expect(speed).toHaveValue('1');
    // Speed stops at a tenth of an interval per second.
    await keys(page, '[', '[', '[', '[', '[');
    await expect(speed).toHaveValue('0.1');

    // The typed interval stays while the window changes.
    expect(await windowMs(page)).toBe(60 * I);
    await keys(page, '+');
    expect(await windowMs(page)).toBe(30 * I);
    await expect(page.getByTestId('window').locator('option').first()).toHaveText('30 sec');
    await keys(page, '+', '+');
    expect(await windowMs(page)).toBe(7.5 * I);
    await keys(page, '-');
    expect(await windowMs(page)).toBe(15 * I);
    await expect(page.getByTestId('window').locator('option').first()).toHaveText('15 sec');
    // Never longer than the data: from the start to the last sample half an interval inside
    // the 600 s archive's end (libpcp has no value at the very end), as "reset zoom" shows it.
    for (let i = 0; i < 10; i++) await keys(page, '-');
    expect(await windowMs(page)).toBe(599 * I);
    await expect(page.getByTestId('interval')).toHaveValue('1');
    // The window never shrinks below two intervals.
    for (let i = 0; i < 10; i++) await keys(page, '+');
    expect(await windowMs(page)).toBe(2 * I);
  });

  test('the position slider moves the position on the grid; its keys step one interval', async ({ page }) => {
    const slider = page.getByTestId('position-slider');
    expect(Number(await slider.getAttribute('min'))).toBeCloseTo(START, 3);
    expect(Number(await slider.getAttribute('step'))).toBe(I);
    const box = await slider.boundingBox();
    if (!box) throw new Error('no slider');
    // A click a quarter of the way along lands about a quarter of the way through the archive.
    await slider.click({ position: { x: box.width / 4, y: box.height / 2 } });
    const k = gridIndex(await position(page), START, I);
    expect(k).toBeGreaterThanOrEqual(130);
    expect(k).toBeLessThanOrEqual(170);
    home = START;
    await expect(slider).toBeFocused();
    await slider.press('ArrowRight');
    expect(await position(page)).toBeCloseTo(home + (k + 1) * I, 3);
    await slider.press('ArrowLeft');
    await slider.press('ArrowLeft');
    expect(await position(page)).toBeCloseTo(home + (k - 1) * I, 3);
    await slider.press('End');
    expect(await position(page)).toBeCloseTo(START + 599 * I, 3);
    // The position field follows: the last grid point inside, 12:14:49.351 UTC.
    await expect(page.getByTestId('position')).toHaveValue('2026-11-21 12:14:49.351');
  });

  test('Bounds confine the position, the slider and Home/End; play and fast forward stop at the end bound, rewind at the start', async ({ page }) => {
    await page.getByTestId('bounds').click();
    await page.getByTestId('bound-start').fill('2026-11-21 12:06:00');
    await page.getByTestId('bound-end').fill('2026-11-21 12:08:00');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('bounds')).toHaveText('Bounds *');
    // The grid points inside: 12:06:00.351… to 12:07:59.351…
    const b0 = Date.UTC(2026, 10, 21, 12, 6, 0);
    const b1 = Date.UTC(2026, 10, 21, 12, 8, 0);
    // The window's left edge cannot go before the start bound: the first right edge is W on.
    const first = START + Math.ceil((b0 + W - START) / I) * I;
    const last = START + Math.floor((b1 - START) / I - 0.5) * I;
    expect((last - first) / I).toBe(59);
    // The position was near the start, before the bounds: it moved to the first point inside.
    expect(await position(page)).toBeCloseTo(first, 3);
    const slider = page.getByTestId('position-slider');
    expect(Number(await slider.getAttribute('min'))).toBe(b0);
    expect(Number(await slider.getAttribute('max'))).toBe(b1);
    await keys(page, 'End');
    expect(await position(page)).toBeCloseTo(last, 3);
    await keys(page, 'ArrowRight');
    expect(await position(page)).toBeCloseTo(last, 3);
    await keys(page, 'Home');
    expect(await position(page)).toBeCloseTo(first, 3);
    await keys(page, 'ArrowLeft');
    expect(await position(page)).toBeCloseTo(first, 3);

    // Play five steps before the end bound at 10 intervals per second: it stops on the bound.
    await keys(page, 'End', 'Shift+ArrowLeft');
    await page.getByTestId('speed').fill('10');
    await page.getByTestId('vcr-play').click();
    await expect(bar(page)).toHaveAttribute('data-state', 'stopped', { timeout: 10_000 });
    expect(await position(page)).toBeCloseTo(last, 3);

    // Rewind (fast, a step every frame) runs back to the start bound and stops there…
    const back = await recordPlay(page, 'vcr-rewind', 250);
    await expect(page.getByTestId('vcr-rewind')).toHaveClass(/active/);
    await expect(bar(page)).toHaveAttribute('data-state', 'stopped', { timeout: 15_000 });
    await expect(page.getByTestId('vcr-rewind')).not.toHaveClass(/active/);
    expect(await position(page)).toBeCloseTo(first, 3);
    // …one interval at a time, much faster than the normal 10 per second.
    expect(back.length).toBeGreaterThan(4);
    back.forEach((s, i) => i > 0 && expect(s.p - (back[i - 1]?.p ?? 0)).toBeCloseTo(-I, 3));
    const rate = (back.length - 1) / (((back[back.length - 1]?.t ?? 0) - (back[0]?.t ?? 0)) / 1000);
    expect(rate).toBeGreaterThan(20);

    // Fast forward runs to the end bound and stops there.
    const fwd = await recordPlay(page, 'vcr-fast-forward', 250);
    await expect(bar(page)).toHaveAttribute('data-state', 'stopped', { timeout: 15_000 });
    expect(await position(page)).toBeCloseTo(last, 3);
    expect(fwd.length).toBeGreaterThan(4);
    fwd.forEach((s, i) => i > 0 && expect(s.p - (fwd[i - 1]?.p ?? 0)).toBeCloseTo(I, 3));

    // Reset gives the whole archive back.
    await page.getByTestId('bounds').click();
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(page.getByTestId('bounds')).toHaveText('Bounds');
    await keys(page, 'End');
    expect(await position(page)).toBeCloseTo(START + 599 * I, 3);
  });

  test('play advances speed × elapsed time, one interval per tick', async ({ page }) => {
    // Room to play: the start of the archive.
    for (const speed of [4, 20]) {
      await keys(page, 'Home');
      await page.getByTestId('speed').fill(String(speed));
      const seen = await recordPlay(page, 'vcr-play', 2500);
      await page.getByTestId('vcr-stop').click();
      await expect(bar(page)).toHaveAttribute('data-state', 'stopped');
      const a = seen[0];
      const b = seen[seen.length - 1];
      if (!a || !b) throw new Error('play did not move');
      seen.forEach((s, i) => i > 0 && expect(s.p - (seen[i - 1]?.p ?? 0)).toBeCloseTo(I, 3));
      gridIndex(b.p, home, I);
      // Archive ms per page ms is the speed (archive seconds per wall second), within 10 %.
      const rate = (b.p - a.p) / (b.t - a.t);
      expect(rate, `speed ${speed}: ${seen.length} steps`).toBeGreaterThan(speed * 0.9);
      expect(rate, `speed ${speed}: ${seen.length} steps`).toBeLessThan(speed * 1.1);
    }
  });
});
