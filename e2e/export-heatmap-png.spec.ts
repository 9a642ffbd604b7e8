// Export → "Selected chart as PNG" of a heatmap chart (issue 14 item 5 and 8): from the default
// page a user drops 20180416.10.00, charts network.interface.in.packets, switches the chart to
// "heatmap" and exports it. The PNG holds the heatmap as the screen shows it — every cell's
// colour at its place (read back from the PNG in the page, against the on-screen cells), the
// row labels and the scale — not lines.
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { dropAndHeatmap, QA } from './dash';
import { download } from './menus';

const ARCH = `${QA}/20180416.10.00`;
const ARCH_FILES = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${ARCH}.${s}`);

test('a heatmap chart exports as a PNG of its cells, row labels and scale', async ({ page }) => {
  const c = await dropAndHeatmap(page, ARCH_FILES, '20180416.10.00', 'network.interface.in.packets', 10, '2018-04-16 10:41:25.325');
  const heat = c.getByTestId('heatmap');
  await expect(heat).toBeVisible();
  await expect(c.getByTestId('heatmap-scale')).toHaveAttribute('data-hi', /\d/);
  const rows = await c.getByTestId('heatmap-row').count();
  const columns = Number(await heat.getAttribute('data-columns'));
  expect(rows).toBeGreaterThanOrEqual(5);

  const png = readFileSync(await (await download(page, 'export', 'export-png-chart')).path());
  writeFileSync(test.info().outputPath('heatmap-export.png'), png);
  // Each cell's centre on screen (the heatmap's own canvas) and at the same place in the PNG,
  // whose chart canvas starts under the 22 px title.
  const compared = await page.evaluate(
    async ({ b64, rows, columns }) => {
      const chartEl = document.querySelector('[data-testid="heatmap"]')?.closest('[data-testid="chart"]');
      const origin = chartEl?.querySelector('.chart-canvas')?.getBoundingClientRect();
      const screen = chartEl?.querySelector<HTMLCanvasElement>('.heatmap-canvas');
      if (!origin || !screen) throw new Error('no heatmap on screen');
      const cells = screen.getBoundingClientRect();
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const out = document.createElement('canvas');
      out.width = img.width;
      out.height = img.height;
      const g = out.getContext('2d');
      const s = screen.getContext('2d');
      if (!g || !s) throw new Error('no 2d context');
      g.drawImage(img, 0, 0);
      const result: { screen: number[]; png: number[] }[] = [];
      for (let r = 0; r < rows; r++) {
        for (let k = 0; k < columns; k += Math.max(1, Math.floor(columns / 12))) {
          const x = ((k + 0.5) / columns) * cells.width;
          const y = ((r + 0.5) / rows) * cells.height;
          const a = Array.from(s.getImageData(Math.floor(x), Math.floor(y), 1, 1).data);
          const b = Array.from(g.getImageData(Math.floor(cells.left - origin.left + x), Math.floor(22 + cells.top - origin.top + y), 1, 1).data);
          result.push({ screen: a, png: b });
        }
      }
      return result;
    },
    { b64: png.toString('base64'), rows, columns },
  );
  // Every cell with a value on screen has that colour in the PNG (an empty cell shows the panel).
  const painted = compared.filter((p) => (p.screen[3] ?? 0) === 255);
  expect(painted.length).toBeGreaterThan(rows * 6);
  for (const p of painted) for (let i = 0; i < 3; i++) expect(Math.abs((p.png[i] ?? 0) - (p.screen[i] ?? 0)), `${p.png.join()} vs ${p.screen.join()}`).toBeLessThanOrEqual(2);
  // Not a single colour: the scale spans light to dark blue.
  expect(new Set(painted.map((p) => p.screen.join())).size).toBeGreaterThan(3);
});
