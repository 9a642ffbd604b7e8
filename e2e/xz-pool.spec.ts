// The engine decodes .xz volumes in its pool of nested workers (src/workers/xz-pool.ts): the
// pool's workers run for a dropped xz archive, no fallback is told, and the values drawn from
// every volume (each decoded in the pool, in pieces, some ahead of the reads) equal pmval's.
import { expect, test } from '@playwright/test';
import { chart, dropFiles, legendNumber, pmvalAt, QA, setIntervalSec, setPosition, source } from './dash';
import { openDemo } from './menus';

const ARCH = `${QA}/20180416.10.00`;
const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${ARCH}.${s}`);

test('a dropped xz archive decodes in the pool and every volume gives pmval\'s values', async ({ page }) => {
  const poolWorkers: string[] = [];
  page.on('worker', (w) => {
    if (w.url().includes('xz-pool-worker')) poolWorkers.push(w.url());
  });
  await openDemo(page);
  await dropFiles(page, ARCH_FILES);
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  expect(poolWorkers.length).toBeGreaterThanOrEqual(1);
  await setIntervalSec(page, 10);
  await page.getByTestId('window').selectOption('60');
  const iops = chart(page, /IOPS over all Disks/);
  const load = chart(page, /Average Load/);
  // Seconds after the label start (10:01:25.325 EDT): one position in each of the 4 volumes.
  const positions: Array<[number, string]> = [
    [600, '2018-04-16 10:11:25.325'],
    [6000, '2018-04-16 11:41:25.325'],
    [10000, '2018-04-16 12:48:05.325'],
    [15600, '2018-04-16 14:21:25.325'],
  ];
  for (const [offset, at] of positions) {
    await setPosition(page, at);
    const reads = pmvalAt(ARCH, 'disk.all.read', offset, 10);
    const load1 = pmvalAt(ARCH, 'kernel.all.load', offset, 10, '1 minute');
    expect(Number.isFinite(reads) && Number.isFinite(load1), `pmval at +${offset}s`).toBe(true);
    await expect.poll(() => legendNumber(iops, 'Reads'), { timeout: 60_000, message: `Reads at +${offset}s` }).toBeCloseTo(reads, 4);
    await expect.poll(() => legendNumber(load, '1 min'), { message: `1 min load at +${offset}s` }).toBeCloseTo(load1, 4);
  }
  // The pool never gave up (it would say so in the notification area).
  await expect(page.getByText(/xz decoding worker/)).toHaveCount(0);
});
