// Following an archive pmlogger is still writing: a real pmlogger (test/pmlogger-run.ts) logs
// a few kernel/pmcd metrics every second into a temp dir served over HTTP with Range
// requests; the default page opens its URL; the source's end grows with the archive and the
// charts advance with it, as a live source's do; moving the position back still works there.
import { expect, test } from '@playwright/test';
import { archiveServer } from './archive-server';
import { chart, labelSpanMs, legendNumber, openApp, pmvalAt, position, source } from './dash';
import { startPmlogger } from '../test/pmlogger-run';

test('an archive opened by URL while pmlogger writes it advances; the position can move back', async ({ page }, info) => {
  test.setTimeout(120_000);
  const logger = await startPmlogger({ samplesPerVolume: 6, minSamples: 4 });
  const srv = await archiveServer(logger.dir);
  try {
    await openApp(page);
    await page.getByTestId('url-input').fill(`${srv.url}/growing`);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(source(page, 'growing')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    const load = chart(page, /Average Load/);
    await expect.poll(() => legendNumber(load, '1 min'), { timeout: 30_000 }).not.toBeNaN();
    const opened = await position(page);

    // The window showed the end: it moves as pmlogger writes (several seconds on).
    await expect.poll(() => position(page), { timeout: 30_000 }).toBeGreaterThan(opened + 4000);
    // New volumes were started meanwhile, and the chart has values at the new end.
    await expect.poll(() => legendNumber(load, '1 min'), { timeout: 10_000 }).not.toBeNaN();
    const advanced = await position(page);
    await page.screenshot({ path: info.outputPath('advanced.png') });

    // Back to the start: the position stays there while the archive keeps growing, and the
    // legend is libpcp's value there.
    await page.getByTestId('time-bar').click({ position: { x: 2, y: 2 } });
    await page.keyboard.press('Home');
    const back = await position(page);
    expect(back).toBeLessThan(advanced);
    // A few follow rounds later (about one a second) it is still there.
    await page.waitForTimeout(3000);
    expect(await position(page)).toBe(back);
    const interval = Number(await page.getByTestId('time-bar').getAttribute('data-interval')) / 1000;
    const start = labelSpanMs(logger.archive).startMs;
    const off = (back - start) / 1000;
    await expect.poll(() => legendNumber(load, '1 min'), { timeout: 10_000 }).toBeCloseTo(pmvalAt(logger.archive, 'kernel.all.load', off, interval, '1 minute'), 4);
    await page.screenshot({ path: info.outputPath('moved-back.png') });
  } finally {
    await srv.close();
    await logger.remove();
  }
});
