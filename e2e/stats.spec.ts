// Statistics (issue 14 item 4): from the default page a user drops 20180416.10.00, charts
// network.interface.in.packets (5 interfaces, a counter drawn as a rate) and turns its legend
// into a table: min, max, avg and last over the visible window equal those computed from
// pmval's output for the same grid; the table sorts; the top-3-by-avg filter keeps pmval's
// three busiest interfaces.
import { execFileSync } from 'node:child_process';
import { expect, test, type Locator } from '@playwright/test';
import { dropAndChart, labelStartMs, QA, setIntervalSec, setPosition } from './dash';

const ARCH = `${QA}/20180416.10.00`;
const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${ARCH}.${s}`);
const METRIC = 'network.interface.in.packets';
const STEP_S = 10;

/** pmval's rows for `n` samples from `fromMs` at STEP_S, per instance (the rate needs one sample before). */
function pmvalRows(fromMs: number, n: number): Map<string, number[]> {
  const offset = (fromMs - labelStartMs(ARCH)) / 1000 - STEP_S;
  const out = execFileSync('pmval', ['-z', '-f', '6', '-a', ARCH, '-S', `+${offset}`, '-t', String(STEP_S), '-s', String(n + 1), METRIC], { encoding: 'utf8' });
  const lines = out.split('\n');
  const header = lines.find((l) => /^\s{6,}\S/.test(l) && !/^\d/.test(l.trim()));
  if (!header) throw new Error(`no instance header:\n${out}`);
  const insts = header.trim().split(/\s+/);
  // pmval fetches the sample before the grid silently (the rate's first reading) and prints
  // from the next one: the first n rows are the grid's.
  const rows = lines.filter((l) => /^\d\d:\d\d:\d\d\.\d{3}\s+[-0-9?]/.test(l)).map((l) => l.trim().split(/\s+/).slice(1).map(Number)).slice(0, n);
  expect(rows.length).toBe(n);
  return new Map(insts.map((name, i) => [name, rows.map((r) => r[i] ?? NaN)]));
}

const stat = async (row: Locator, id: string): Promise<number> => Number(await row.getByTestId(id).getAttribute('data-value'));

test('the legend as a table: min/max/avg/last over the window are pmval\'s, sortable, with a top-N filter', async ({ page }) => {
  const c = await dropAndChart(page, ARCH_FILES, '20180416.10.00', METRIC);
  // Every instance the archive ever lists (pmGetInDomArchive): more than pmval shows at any one time.
  await expect.poll(() => c.getByTestId('legend-item').count()).toBeGreaterThanOrEqual(5);
  await setIntervalSec(page, STEP_S);
  await page.getByTestId('window').selectOption('60');
  await setPosition(page, '2018-04-16 10:41:25.325');
  await c.getByTestId('legend-table-toggle').click();
  const table = c.getByTestId('legend-table');
  await expect(table).toBeVisible();
  await c.scrollIntoViewIfNeeded();

  // The grid in the window: the position and every step back to the window's start.
  const pos = Number(await page.getByTestId('time-bar').getAttribute('data-position'));
  const t0 = Number(await c.getAttribute('data-window-start'));
  const t1 = Number(await c.getAttribute('data-window-end'));
  expect(t1).toBe(pos);
  const n = Math.floor((pos - t0) / (STEP_S * 1000) + 1e-9) + 1;
  const want = pmvalRows(pos - (n - 1) * STEP_S * 1000, n);
  expect(want.size).toBeGreaterThanOrEqual(5);
  const total = await table.getByTestId('legend-item').count();
  const rowOf = (inst: string): Locator => table.locator(`[data-testid="legend-item"][data-label="${METRIC}[${inst}]"]`);
  const close = (a: number, b: number): boolean => Math.abs(a - b) <= Math.max(1e-3 * Math.abs(b), 2e-6);
  for (const [inst, values] of want) {
    const row = rowOf(inst);
    const finite = values.filter((v) => Number.isFinite(v));
    const expected = {
      'stat-min': Math.min(...finite),
      'stat-max': Math.max(...finite),
      // Rates on a regular grid: the time-weighted average is the mean.
      'stat-avg': finite.reduce((a, b) => a + b, 0) / finite.length,
      'stat-last': finite[finite.length - 1] ?? NaN,
      'legend-value': values[values.length - 1] ?? NaN,
    };
    for (const [id, v] of Object.entries(expected)) {
      await expect.poll(async () => close(await stat(row, id), v), { message: `${inst} ${id}: want ${v}`, timeout: 30_000 }).toBe(true).catch(async (e: unknown) => {
        throw new Error(`${String(e)}; shown ${await stat(row, id)}; pmval ${JSON.stringify(values)}`);
      });
    }
  }

  // Sorted by avg, largest first: pmval's busiest interface heads the table.
  const avg = (inst: string): number => {
    const v = (want.get(inst) ?? []).filter((x) => Number.isFinite(x));
    return v.reduce((a, b) => a + b, 0) / v.length;
  };
  const byAvg = [...want.keys()].sort((a, b) => avg(b) - avg(a));
  await table.getByTestId('sort-avg').click();
  await expect(table.getByTestId('legend-item').first()).toHaveAttribute('data-label', `${METRIC}[${byAvg[0]}]`);
  await expect(table.locator('th[aria-sort="descending"]')).toContainText('Avg');
  await page.screenshot({ path: 'test-results/stats-table.png' });

  // Top 3 by avg over the window: pmval's three busiest, the others counted.
  await table.getByTestId('top-n').selectOption('3:avg');
  await expect(table.getByTestId('legend-item')).toHaveCount(3);
  for (const inst of byAvg.slice(0, 3)) await expect(rowOf(inst)).toHaveCount(1);
  await expect(c.getByTestId('legend-filtered')).toContainText(`${total - 3} more instances`);
});
