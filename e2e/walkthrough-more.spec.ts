// More defects met walking the newcomer walkthrough (shared docs), one test each, from the
// default page exactly as `npm start` opens it, with real drops of real QA archives.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { BAD, chartMetric, dropFiles, labelStartMs, legendNumber, pmvalAt, position, setIntervalSec, source } from './dash';
import { openDemo } from './menus';

/** Every file of a QA badarchive. */
const badFiles = (base: string): string[] => readdirSync(BAD).filter((f) => f.startsWith(`${base}.`) && /\.(index|meta|\d+)$/.test(f)).map((f) => `${BAD}/${f}`);

/** pmlogcheck's warnings about the metric descriptors of a badarchive, run there (file names as it gives them). */
function pmlogcheckDescWarnings(base: string): string[] {
  const run = spawnSync('pmlogcheck', [base], { cwd: BAD, encoding: 'utf8' });
  return run.stderr.split('\n').filter((l) => / in pmDesc$|: domain of pmid \(/.test(l));
}

test.describe('archives libpcp opens that pmlogcheck warns of', () => {
  for (const base of ['badmeta-2', 'archive-20141125-000009']) {
    test(`${base}: its pmDesc warnings are one notice in pmlogcheck's words, all of them in its details`, async ({ page }) => {
      const theirs = pmlogcheckDescWarnings(base);
      expect(theirs.length).toBeGreaterThan(0);
      await openDemo(page);
      await dropFiles(page, badFiles(base));
      const src = source(page, base);
      await expect(src).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
      const n = page.getByTestId('notice');
      await expect(n).toHaveCount(1);
      await expect(n).toHaveAttribute('data-kind', 'warning');
      await expect(n.locator('.notice-text')).toHaveText(`${base} opened with ${theirs.length === 1 ? 'a warning' : `${theirs.length} warnings`}, as pmlogcheck reports them: ${theirs[0]}${theirs.length > 1 ? ` (and ${theirs.length - 1} more)` : ''}`);
      await n.getByText('details').click();
      await expect(n.getByTestId('notice-details')).toHaveText(theirs.join('\n'));
      // The sources panel says nothing a second time.
      await expect(src).not.toContainText('pmDesc');
    });
  }

  test("badmeta-2's good metric charts pmval's values beside the warned-of ones", async ({ page }) => {
    await openDemo(page);
    await dropFiles(page, badFiles('badmeta-2'));
    await expect(source(page, 'badmeta-2')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await setIntervalSec(page, 1);
    // sample.seconds has a sound pmDesc (a counter of seconds: pmval shows its rate, 1).
    const c = await chartMetric(page, 'sample.seconds');
    const label = (await c.getByTestId('legend-item').first().getAttribute('data-label')) ?? '';
    const offset = (await position(page)) / 1000 - labelStartMs(`${BAD}/badmeta-2`) / 1000;
    const want = pmvalAt(`${BAD}/badmeta-2`, 'sample.seconds', offset, 1);
    expect(want).toBeGreaterThan(0);
    await expect.poll(() => legendNumber(c, label), { timeout: 30_000 }).toBeCloseTo(want, 6);
  });
});
