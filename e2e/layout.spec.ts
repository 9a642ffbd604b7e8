// Layout (issue 13, item 5), from the default page as `npm start` opens it, with a real drop
// of a QA archive: one x range per tab (empty charts too, live tabs in live time), the shared
// time axis exactly under the charts' plot area with its ticks on their grid lines and no
// label cut at the edges, a header that truncates instead of overlapping at 1024 px, a visible
// focus ring on every control in both themes, chart heights set by drag or keys and kept
// across a reload, one colour per instance of a multi-instance plot, and screenshots of the
// whole page at 1024×700 and 1920×1080 in both themes.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chart, dropFiles, labelSpanMs, legendNumber, openApp, QA, setPosition, source } from './dash';

const ARCH = '20180416.10.00';
const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${QA}/${ARCH}.${s}`);
const CPU = /CPU Utilization \[brolley-t530\]/;

type Box = { x: number; y: number; width: number; height: number };

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  if (!b) throw new Error('element not on screen');
  return b;
}

async function settled(page: Page): Promise<void> {
  await expect(page.locator('.spinner')).toHaveCount(0, { timeout: 60_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The default page, the QA archive dropped on it (it replaces the untouched demo with its own
 * Overview and becomes current), and the position typed as 15:00 UTC.
 */
async function droppedOverview(page: Page): Promise<void> {
  await openApp(page);
  // The demo first, then the drop: the order the time controls learn the sources in is fixed.
  await expect(page.locator('[data-testid="source"][data-status="ready"]')).toHaveCount(1, { timeout: 60_000 });
  await dropFiles(page, ARCH_FILES);
  await expect(source(page, ARCH)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(source(page, ARCH)).toHaveClass(/current/);
  await expect(page.getByTestId('tab')).toHaveCount(1);
  await expect(chart(page, CPU)).toBeVisible();
  await page.getByTestId('zone').selectOption('utc');
  await setPosition(page, '2018-04-16 15:00:00');
  await expect.poll(() => legendNumber(chart(page, CPU), 'Idle'), { timeout: 60_000 }).toBeGreaterThan(0);
  await page.mouse.move(0, 0);
  await settled(page);
}

/** Every chart of the tab and the time axis show the same window. */
async function windows(page: Page): Promise<string[]> {
  const charts = await page.getByTestId('chart').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-window-start')}–${e.getAttribute('data-window-end')}`));
  const axis = page.getByTestId('time-axis');
  return [...charts, `${await axis.getAttribute('data-window-start')}–${await axis.getAttribute('data-window-end')}`];
}

for (const [w, h] of [[1024, 700], [1920, 1080]] as const) {
  test(`the time axis lies under the plot area, ticks on the grid lines, no label cut (${w}×${h})`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    await droppedOverview(page);
    const axisBox = await box(page.getByTestId('time-axis'));
    const plot = await box(page.getByTestId('time-axis-plot'));
    // Every chart's plot area spans exactly the axis's plot range.
    const viewports = page.locator('.plot-viewport');
    const n = await viewports.count();
    expect(n).toBeGreaterThanOrEqual(4);
    for (let i = 0; i < n; i++) {
      const v = await box(viewports.nth(i));
      expect(Math.abs(v.x - plot.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(v.x + v.width - (plot.x + plot.width))).toBeLessThanOrEqual(1);
    }
    // The tick marks sit on the first chart's vertical grid lines, one for one (a line or
    // mark within a pixel of the plot's edge may fall either side of it: not compared).
    const first = await box(viewports.first());
    const inside = (x: number): boolean => x >= first.x + 1.5 && x <= first.x + first.width - 1.5;
    const lines = (await viewports.first().locator('.plot-vlines .grid-line').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left))).filter(inside);
    const marks = (await page.locator('.time-axis .tick-mark').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left))).filter(inside);
    expect(marks.length).toBeGreaterThanOrEqual(3);
    expect(lines.length).toBe(marks.length);
    marks.forEach((m, i) => expect(Math.abs(m - (lines[i] ?? NaN))).toBeLessThanOrEqual(1.5));
    // Labels: inside the axis box, none overlapping, each over its tick or moved inward at an edge.
    const labels = await page.getByTestId('axis-tick').evaluateAll((els) => els.map((e) => {
      const r = e.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(e);
      const t = range.getBoundingClientRect();
      return { left: r.left, right: r.right, textLeft: t.left, textRight: t.right };
    }));
    expect(labels.length).toBeGreaterThanOrEqual(marks.length);
    for (const [i, l] of labels.entries()) {
      expect(l.textLeft).toBeGreaterThanOrEqual(axisBox.x);
      expect(l.textRight).toBeLessThanOrEqual(axisBox.x + axisBox.width);
      const next = labels[i + 1];
      if (next) expect(l.textRight).toBeLessThan(next.textLeft);
    }
    // The y labels stay inside their chart.
    const charts = page.getByTestId('chart');
    for (let i = 0; i < (await charts.count()); i++) {
      const c = await box(charts.nth(i));
      for (const y of await charts.nth(i).getByTestId('y-tick').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()))) {
        expect(y.left).toBeGreaterThanOrEqual(c.x);
        expect(y.right).toBeLessThanOrEqual(c.x + c.width);
      }
    }
  });
}

test('one x range per tab, empty charts included; a live tab shows live time', async ({ page }) => {
  await droppedOverview(page);
  await expect(page.getByTestId('time-axis')).toHaveAttribute('data-kind', 'archive');
  await page.getByTestId('add-chart').click();
  await expect(page.getByTestId('chart')).toHaveCount(6);
  const archive = await windows(page);
  expect(new Set(archive).size).toBe(1);
  // The window an opened archive gets: its first hour at most (time-slice.ts), from the label
  // (pmdumplog -L). The typed 15:00 is its right edge, snapped to the archive's samples (within
  // one interval), unless that would put the left edge before the archive's start: then the
  // window starts at the start.
  const label = labelSpanMs(`${QA}/${ARCH}`);
  const w = Math.min(3_600_000, label.endMs - label.startMs);
  const [t0, t1] = (archive[0] ?? '').split('–').map(Number);
  expect(Math.abs((t1 ?? NaN) - Math.max(Date.UTC(2018, 3, 16, 15, 0), label.startMs + w))).toBeLessThan(1000);
  expect((t1 ?? NaN) - (t0 ?? NaN)).toBe(w);

  // A live host gets its own tab: its axis and every chart, an empty one too, show live time.
  await page.getByTestId('connect-host').click();
  await expect(page.getByTestId('time-axis')).toHaveAttribute('data-kind', 'live', { timeout: 30_000 });
  await page.getByTestId('add-chart').click();
  await expect(page.locator('[data-testid="chart"] [data-testid="chart-overlay"]').filter({ hasText: 'No metrics yet' })).toHaveCount(1);
  await expect.poll(async () => new Set(await windows(page)).size, { timeout: 15_000 }).toBe(1);
  const end = Number(await page.getByTestId('time-axis').getAttribute('data-window-end'));
  const now = await page.evaluate(() => Date.now());
  expect(Math.abs(now - end)).toBeLessThan(15_000);
});

test('the header truncates instead of overlapping at 1024×700', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openApp(page);
  await dropFiles(page, ARCH_FILES);
  await expect(source(page, ARCH)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await source(page, ARCH).click();
  const headline = page.getByTestId('headline');
  await expect(headline).toContainText(ARCH);
  const brand = await box(page.locator('.top-bar .brand'));
  const text = await box(headline);
  const menus = await box(page.locator('.menu-bar'));
  const bar = await box(page.locator('.top-bar'));
  expect(brand.x + brand.width).toBeLessThanOrEqual(text.x);
  expect(text.x + text.width).toBeLessThanOrEqual(menus.x);
  expect(menus.x + menus.width).toBeLessThanOrEqual(bar.x + bar.width);
  // One line, the rest of the headline cut with an ellipsis (its full text is still there).
  expect(bar.height).toBeLessThanOrEqual(40);
  expect(await headline.evaluate((e) => e.scrollWidth > e.clientWidth && getComputedStyle(e).textOverflow === 'ellipsis')).toBe(true);
});

for (const theme of ['light', 'dark'] as const) {
  test(`every control shows a focus ring (${theme} theme)`, async ({ page }) => {
    await droppedOverview(page);
    await page.getByTestId('theme').selectOption(theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    // Keyboard focus (what :focus-visible is for), then every visible control in turn.
    await page.keyboard.press('Tab');
    const bad = await page.evaluate(() => {
      const rgb = (c: string): number[] => (/rgba?\(([^)]+)\)/.exec(c)?.[1] ?? '0,0,0,0').split(',').map((x) => Number(x.trim()));
      const lum = ([r = 0, g = 0, b = 0]: number[]): number => {
        const f = (v: number): number => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const bgOf = (e: Element | null): number[] => {
        for (let x = e; x; x = x.parentElement) {
          const c = rgb(getComputedStyle(x).backgroundColor);
          if ((c[3] ?? 1) > 0.5) return c;
        }
        return [255, 255, 255];
      };
      const out: string[] = [];
      const controls = [...document.querySelectorAll<HTMLElement>('button, input, select, [tabindex="0"]')].filter((e) => e.offsetParent !== null && !(e as HTMLButtonElement).disabled);
      for (const e of controls) {
        e.focus();
        const s = getComputedStyle(e);
        const name = `${e.tagName.toLowerCase()} "${e.getAttribute('data-testid') ?? e.getAttribute('aria-label') ?? e.textContent?.trim().slice(0, 20)}"`;
        if (!e.matches(':focus-visible')) {
          out.push(`${name}: not :focus-visible`);
          continue;
        }
        if (s.outlineStyle === 'none' || parseFloat(s.outlineWidth) < 2) {
          out.push(`${name}: outline ${s.outlineStyle} ${s.outlineWidth}`);
          continue;
        }
        // The ring is drawn over the element itself (negative offset) or around it.
        const under = parseFloat(s.outlineOffset) < 0 ? bgOf(e) : bgOf(e.parentElement);
        const a = lum(rgb(s.outlineColor));
        const b = lum(under);
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        if (ratio < 3) out.push(`${name}: ring ${s.outlineColor} on rgb(${under.join(',')}) contrast ${ratio.toFixed(2)}`);
      }
      return { checked: controls.length, out };
    });
    expect(bad.checked).toBeGreaterThan(40);
    expect(bad.out).toEqual([]);
  });
}

test('chart heights: dragged or keyed, and kept across a reload', async ({ page }) => {
  await openApp(page);
  await expect.poll(() => legendNumber(chart(page, /CPU Utilization/), 'Idle'), { timeout: 60_000 }).toBeGreaterThan(0);
  const bodies = page.getByTestId('chart-body');
  const before = (await box(bodies.nth(0))).height;
  // Keyboard: focus the first chart's handle, four steps down.
  const handles = page.getByTestId('chart-resizer');
  await handles.nth(0).focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await expect.poll(async () => (await box(bodies.nth(0))).height).toBe(before + 40);
  await expect(handles.nth(0)).toHaveAttribute('aria-valuenow', String(before + 40));
  // Pointer: drag the second chart's handle 60 px down.
  const h2 = await box(handles.nth(1));
  await page.mouse.move(h2.x + h2.width / 2, h2.y + h2.height / 2);
  await page.mouse.down();
  await page.mouse.move(h2.x + h2.width / 2, h2.y + h2.height / 2 + 30, { steps: 3 });
  await page.mouse.move(h2.x + h2.width / 2, h2.y + h2.height / 2 + 60, { steps: 3 });
  await page.mouse.up();
  await expect.poll(async () => (await box(bodies.nth(1))).height).toBe(before + 60);
  // The plot follows its new height (the y axis spans it).
  await expect.poll(async () => (await box(page.locator('.plot-viewport').nth(1))).height).toBe(before + 60);
  // Saved in the page address (the dashboard link); a reload restores both. The address is
  // written a moment after the change: until it is there, poll again (JSON.parse of nothing
  // would throw, which ends a poll at once).
  await expect.poll(() => page.evaluate(() => {
    const text = new URLSearchParams(location.hash.slice(1)).get('dash');
    if (!text) return undefined;
    const json = JSON.parse(atob(text.replace(/-/g, '+').replace(/_/g, '/'))) as { tabs: { charts: { height?: number }[] }[] };
    return json.tabs[0]?.charts.slice(0, 2).map((c) => c.height);
  })).toEqual([before + 40, before + 60]);
  await page.reload();
  await expect.poll(() => legendNumber(chart(page, /CPU Utilization/), 'Idle'), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect.poll(async () => [(await box(bodies.nth(0))).height, (await box(bodies.nth(1))).height, (await box(bodies.nth(2))).height]).toEqual([before + 40, before + 60, before]);
});

test('each instance of a multi-instance plot has its own colour', async ({ page }) => {
  await droppedOverview(page);
  const net = chart(page, /Network Interface Bytes/);
  const swatches = (): Promise<{ label: string; color: string }[]> =>
    net.getByTestId('legend-item').evaluateAll((els) => els.map((e) => ({ label: e.getAttribute('data-label') ?? '', color: getComputedStyle(e.querySelector('.swatch') as Element).backgroundColor })));
  // Two plots (in, out), each over several interfaces.
  const all = await swatches();
  expect(all.filter((s) => s.label.startsWith('in ')).length).toBeGreaterThanOrEqual(2);
  expect(all.filter((s) => s.label.startsWith('out ')).length).toBeGreaterThanOrEqual(2);
  expect(new Set(all.map((s) => s.color)).size).toBe(all.length);
  // The user gives the "in" plot's first instance a colour (the editor has one swatch per
  // instance): it takes it, the rest stay apart.
  await net.getByTestId('edit-chart').click();
  await page.getByTestId('plot-row').first().getByTestId('instance-colour').first().fill('#123456');
  await expect.poll(async () => (await swatches())[0]?.color).toBe('rgb(18, 52, 86)');
  const fixed = await swatches();
  expect(new Set(fixed.map((s) => s.color)).size).toBe(fixed.length);
});

for (const theme of ['light', 'dark'] as const) {
  for (const [w, h] of [[1024, 700], [1920, 1080]] as const) {
    test(`screenshot: dropped archive's Overview at ${w}×${h}, ${theme}`, async ({ page }) => {
      await page.setViewportSize({ width: w, height: h });
      await droppedOverview(page);
      await page.getByTestId('theme').selectOption(theme);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await page.mouse.move(0, 0);
      await settled(page);
      await expect(page).toHaveScreenshot(`layout-${w}x${h}-${theme}.png`);
    });
  }
}
