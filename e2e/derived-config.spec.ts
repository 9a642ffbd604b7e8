// A user's own derived metrics (issue 14 item 2): from the default page a user drops an
// archive together with a derived-metric configuration (pmLoadDerivedConfig's format). Its
// metrics join the metric browser, with their help text, and chart pmval's values for the
// same file (PCP_DERIVED_CONFIG); a line libpcp refuses is reported in pminfo -c's words
// with file:line while the rest loads; and the next visit still has the metrics.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { chart, dropFiles, legendNumber, openApp, pmvalAt, QA, setIntervalSec, setPosition, source } from './dash';

const ARCH = `${QA}/20180416.10.00`;
const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${ARCH}.${s}`);
const CONF = ['my.disk.total = disk.all.read + disk.all.write', 'my.disk.total(oneline) = "reads plus writes"', 'my.bad = disk.all.read +', ''].join('\n');

let dir = '';
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pmdash-derived-conf-'));
  writeFileSync(join(dir, 'mine.conf'), CONF);
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What pminfo -c prints for the file (its diagnostics go to stderr), with the directory taken off the file name. */
function pminfoDiagnostics(): string {
  const r = spawnSync('pminfo', ['-c', join(dir, 'mine.conf'), '-a', ARCH, 'my.disk.total'], { encoding: 'utf8' });
  return r.stderr.replaceAll(`${dir}/`, '').trimEnd();
}

async function pickMetric(page: Page, name: string): Promise<void> {
  await page.getByTestId('metric-search').fill(name);
  await page.locator(`[data-testid="pmns-row"][data-path="${name}"]`).click();
}

test('a dropped .conf adds its metrics to the source, with pmval -c values and libpcp diagnostics, and is remembered', async ({ page }) => {
  const diagnostics = pminfoDiagnostics();
  expect(diagnostics).toMatch(/^\[mine\.conf:3\] Error: pmRegisterDerived\(my\.bad, \.\.\.\) syntax error/);

  await openApp(page);
  await dropFiles(page, [...ARCH_FILES, join(dir, 'mine.conf')]);
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });

  // One notice: what loaded, and libpcp's first diagnostic word for word; all of it on demand.
  const notice = page.getByTestId('notice').filter({ hasText: 'mine.conf' });
  await expect(notice).toHaveCount(1);
  await expect(notice).toHaveAttribute('data-kind', 'warning');
  await expect(notice).toContainText('1 derived metric loaded (my.disk.total)');
  await expect(notice).toContainText(diagnostics.split('\n')[0] ?? '');
  await notice.getByRole('button', { name: 'details' }).click();
  expect((await notice.getByTestId('notice-details').textContent())?.trimEnd()).toBe(diagnostics);

  // The metric is in the dropped archive's PMNS, with its oneline help, and charts pmval's values.
  await pickMetric(page, 'my.disk.total');
  const details = page.getByTestId('metric-details');
  await expect(details).toContainText('reads plus writes');
  await expect(details).toContainText('counter');
  await details.getByTestId('add-new-chart').click();
  const c = chart(page, 'my.disk.total');
  await expect(c).toBeVisible();
  await setIntervalSec(page, 10);
  await setPosition(page, '2018-04-16 10:41:25.325');
  // The archive's label start, 14:01:25.325401 UTC (pmdumplog -L); the time bar shows EDT (UTC−4).
  const startMs = Date.UTC(2018, 3, 16, 14, 1, 25, 325) + 0.401;
  const shownAt = /^(\d+)-(\d+)-(\d+) (\d+):(\d+):(\d+)\.(\d+)$/.exec(await page.getByTestId('position').inputValue());
  expect(shownAt).not.toBeNull();
  const [y, mo, d, h, mi, sec, ms] = (shownAt ?? []).slice(1).map(Number);
  const atMs = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 0, (h ?? 0) + 4, mi ?? 0, sec ?? 0, ms ?? 0);
  const want = pmvalAt(ARCH, 'my.disk.total', (atMs - startMs) / 1000, 10, undefined, { PCP_DERIVED_CONFIG: join(dir, 'mine.conf') });
  expect(Number.isFinite(want), 'pmval has a value').toBe(true);
  // The position is known to the millisecond the time bar prints: a counter's rate moves in the fifth digit.
  await expect.poll(async () => Math.abs((await legendNumber(c, 'my.disk.total')) - want), { timeout: 30_000 }).toBeLessThanOrEqual(1e-3 * Math.abs(want));
  await page.screenshot({ path: 'test-results/derived-config.png' });

  // The next visit: the configuration is loaded again before anything opens, without a notice.
  await page.reload();
  await expect(page.getByTestId('time-bar')).toBeVisible();
  await dropFiles(page, ARCH_FILES);
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await pickMetric(page, 'my.disk.total');
  await expect(page.getByTestId('metric-details')).toContainText('reads plus writes');
  await expect(page.getByTestId('notice').filter({ hasText: 'mine.conf' })).toHaveCount(0);

  // Forgetting it from the Views menu: the visit after that has no such metric.
  await page.getByTestId('views-menu').click();
  await page.getByTestId('forget-derived').click();
  await page.reload();
  await expect(page.getByTestId('time-bar')).toBeVisible();
  await dropFiles(page, ARCH_FILES);
  await expect(source(page, '20180416.10.00')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await page.getByTestId('metric-search').fill('my.disk.total');
  await expect(page.locator('[data-testid="pmns-row"][data-path="my.disk.total"]')).toHaveCount(0);
});

test('a .conf picked from the Views menu with nothing loadable says why, in libpcp words', async ({ page }) => {
  await openApp(page);
  await expect(page.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
  writeFileSync(join(dir, 'broken.conf'), 'no.such = 1 +\n');
  const want = spawnSync('pminfo', ['-c', join(dir, 'broken.conf'), '-a', ARCH, 'kernel.all.load'], { encoding: 'utf8' }).stderr.replaceAll(`${dir}/`, '').split('\n')[0] ?? '';
  expect(want).toMatch(/^\[broken\.conf:1\] Error:/);
  await page.getByTestId('derived-config-input').setInputFiles(join(dir, 'broken.conf'));
  const notice = page.getByTestId('notice').filter({ hasText: 'broken.conf' });
  await expect(notice).toHaveAttribute('data-kind', 'error');
  await expect(notice).toContainText(`broken.conf: no derived metrics loaded: ${want}`);
});
