// A derived-metric chart: an expression typed in the chart editor, validated as it is typed,
// charted, and its value checked against pmval evaluating the same expression through libpcp
// (PCP_DERIVED_CONFIG).
import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chart, dropFiles, legendNumber, openApp, pmvalAt, QA, setIntervalSec, setPosition, source } from './dash';

const ARCH = `${QA}/20180416.10.00`;

test('a derived-metric chart shows libpcp\'s values for the expression', async ({ page }) => {
  await openApp(page);
  await dropFiles(page, ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${ARCH}.${s}`));
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await setIntervalSec(page, 10);
  // A 10 min window: the window cannot leave the data (it opens on the first hour).
  await page.getByTestId('window').selectOption('60');
  await setPosition(page, '2018-04-16 10:11:25.325');

  await page.getByTestId('add-chart').click();
  const editor = page.getByTestId('chart-editor');
  await editor.getByTestId('editor-title').fill('Twice the load');
  await editor.getByLabel('derived name').fill('twice.load');
  await editor.getByTestId('derived-expr').fill('2 * kernel.all.load +');
  await expect(editor.getByTestId('derived-error')).toContainText('^');
  await editor.getByTestId('derived-expr').fill('2 * kernel.all.load');
  await expect(editor.getByTestId('derived-ok')).toContainText('instant');
  await editor.getByTestId('add-derived').click();
  await editor.getByTestId('editor-close').click();

  const c = chart(page, 'Twice the load');
  const dir = mkdtempSync(join(tmpdir(), 'pmdash-e2e-'));
  try {
    writeFileSync(join(dir, 'derived.conf'), 'twice.load = 2 * kernel.all.load\n');
    const want = pmvalAt(ARCH, 'twice.load', 600, 10, '1 minute', { PCP_DERIVED_CONFIG: join(dir, 'derived.conf') });
    expect(want).toBeGreaterThan(0);
    await expect.poll(() => legendNumber(c, 'twice.load[1 minute]'), { timeout: 30_000 }).toBeCloseTo(want, 5);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
