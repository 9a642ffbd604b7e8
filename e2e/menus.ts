// e2e vocabulary for issue 8 (views, sharing, export, themes), beside dash.ts: open the
// header menus, load and save views, export files and read them back as downloads, take the
// share link, and describe what a dashboard shows (tabs, charts, legends) to compare two.
import { expect, type Download, type Page } from '@playwright/test';
import { chart, dropFiles, legendNumber, openApp, source } from './dash';

export const SYSTEM_VIEWS = '/var/lib/pcp/config/pmchart';
export const DEMO = 'public/demo/pmdash-demo';

/** Opens the app on the bundled demo archive and waits for its Overview to have data. */
export async function openDemo(page: Page, query = ''): Promise<void> {
  await openApp(page, query);
  await expect(page.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
  await expect.poll(() => legendNumber(chart(page, /CPU Utilization/), 'Idle'), { timeout: 60_000 }).toBeGreaterThan(0);
}

export async function menu(page: Page, name: 'views' | 'export' | 'share'): Promise<void> {
  const button = page.getByTestId(`${name}-menu`);
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
}

export async function loadStandardView(page: Page, name: string): Promise<void> {
  await menu(page, 'views');
  await page.getByTestId(`standard-view-${name}`).click();
}

/** Picks a view file through Views → Open view file (a path on disk, or bytes). */
export async function openViewFile(page: Page, file: string | { name: string; text: string }): Promise<void> {
  const input = page.getByTestId('view-file-input');
  await input.setInputFiles(typeof file === 'string' ? file : { name: file.name, mimeType: 'text/plain', buffer: Buffer.from(file.text) });
}

/** Clicks a menu item that downloads a file; returns the download. */
export async function download(page: Page, menuName: 'views' | 'export', item: string): Promise<Download> {
  await menu(page, menuName);
  const [d] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId(item).click()]);
  return d;
}

export async function downloadText(d: Download): Promise<string> {
  const path = await d.path();
  const { readFileSync } = await import('node:fs');
  return readFileSync(path, 'utf8');
}

/** Share → the link that reopens this dashboard. */
export async function shareLink(page: Page): Promise<string> {
  await menu(page, 'share');
  const v = await page.getByTestId('share-link').inputValue();
  await page.keyboard.press('Escape');
  return v;
}

export async function tabLabels(page: Page): Promise<string[]> {
  return page.getByTestId('tab').evaluateAll((els) => els.map((e) => e.querySelector('button')?.textContent ?? ''));
}

/** Closes every chart of the active tab. */
export async function closeAllCharts(page: Page): Promise<void> {
  const close = page.getByTestId('close-chart');
  while ((await close.count()) > 0) await close.first().click();
}

export async function selectTab(page: Page, label: string): Promise<void> {
  await page.getByTestId('tab').filter({ hasText: label }).getByRole('button', { name: label, exact: true }).click();
}

/** The charts of the active tab: title and legend labels, in order. */
export async function chartsShown(page: Page): Promise<{ title: string; legend: string[] }[]> {
  const out: { title: string; legend: string[] }[] = [];
  for (const c of await page.getByTestId('chart').all()) {
    const title = (await c.getByTestId('chart-title').innerText()).trim();
    const legend = await c.locator('[data-testid="legend-item"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-label') ?? ''));
    out.push({ title, legend });
  }
  return out;
}

/** Every legend value of the active tab (full precision), by chart title and label. */
export async function legendValues(page: Page): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const c of await page.getByTestId('chart').all()) {
    const title = (await c.getByTestId('chart-title').innerText()).trim();
    for (const li of await c.locator('[data-testid="legend-item"]').all()) {
      out[`${title} / ${await li.getAttribute('data-label')}`] = (await li.getByTestId('legend-value').getAttribute('data-value')) ?? '';
    }
  }
  return out;
}

/** Waits until no chart is loading and two frames have painted. */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator('.spinner')).toHaveCount(0, { timeout: 60_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * From the default page (demo open): drops an archive's files, makes the source `label`
 * current and shows its Overview (pmchart's standard view), as a user would.
 */
export async function dropAndShowOverview(page: Page, files: readonly string[], label: string, openTimeoutMs = 60_000): Promise<void> {
  await openApp(page);
  await expect(page.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
  await dropFiles(page, files);
  const src = source(page, label);
  await expect(src).toHaveAttribute('data-status', 'ready', { timeout: openTimeoutMs });
  await src.click();
  await loadStandardView(page, 'Overview');
  await expect(chart(page, 'CPU Utilization [brolley-t530]')).toBeVisible();
}
