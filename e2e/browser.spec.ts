// The metric browser: search the PMNS, read a metric's details, build a chart from it; and a
// derived-metric expression validated as it is typed.
import { expect, test } from '@playwright/test';
import { chart, legendNumber, openApp } from './dash';

test.beforeEach(async ({ page }) => {
  await openApp(page);
  await expect(page.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
});

test('a chart built from the metric browser shows the metric per instance', async ({ page }) => {
  await page.getByTestId('metric-search').fill('kernel.all.load');
  await page.locator('[data-testid="pmns-row"][data-path="kernel.all.load"]').click();
  const details = page.getByTestId('metric-details');
  await expect(details).toContainText('instant');
  await expect(details.getByTestId('instances')).toContainText('1 minute');
  await details.getByTestId('add-new-chart').click();
  const c = chart(page, 'kernel.all.load');
  await expect(c).toBeVisible();
  await expect(c.getByTestId('legend-item')).toHaveCount(3);
  await expect.poll(() => legendNumber(c, 'kernel.all.load[1 minute]'), { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
});

test('the tree expands level by level', async ({ page }) => {
  await page.locator('[data-testid="pmns-row"][data-path="kernel"]').click();
  await page.locator('[data-testid="pmns-row"][data-path="kernel.all"]').click();
  await expect(page.locator('[data-testid="pmns-row"][data-path="kernel.all.load"]')).toBeVisible();
});

test('a derived expression is validated as it is typed', async ({ page }) => {
  await page.getByTestId('add-chart').click();
  const editor = page.getByTestId('chart-editor');
  await editor.getByTestId('derived-expr').fill('kernel.all.load + ');
  await expect(editor.getByTestId('derived-error')).toContainText('^');
  await editor.getByTestId('derived-expr').fill('kernel.all.load * 2 + no.such.metric');
  await expect(editor.getByTestId('derived-error')).toContainText('no.such.metric');
  await editor.getByTestId('derived-expr').fill('kernel.all.load * 2');
  await expect(editor.getByTestId('derived-ok')).toBeVisible();
});
