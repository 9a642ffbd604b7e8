// Issue 13's remaining first-contact gaps, from the default page exactly as `npm start` opens
// it, with real drops of real QA archives: a corrupt record met while reading an open archive
// is one notice naming file, volume and offset; the chart editor's swatches show the colours
// drawn, and each instance of a multi-instance plot has its own editable colour (pmchart's
// Plots tab); the PNG export carries the time axis, legend and title; the position field fits
// at 1024 px; the Overview is the core's standard view.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { BAD, QA, chart, dropFiles, legendNumber, source } from './dash';
import { download, openDemo } from './menus';

const files = (base: string): string[] => ['meta', 'index', '0'].map((s) => `${base}.${s}`);

/** pmval's stderr and stdout together (it exits non-zero on a corrupt record). */
function pmvalAll(args: string[]): string {
  try {
    return execFileSync('pmval', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const x = e as { stdout?: string; stderr?: string };
    return `${x.stdout ?? ''}${x.stderr ?? ''}`;
  }
}

test.describe('corrupt records', () => {
  test('an archive whose end is a cut record (badlen-2) is one notice naming its volume and the offset of that record', async ({ page }) => {
    await openDemo(page);
    // libpcp cannot find the end either: pmdumplog stops at the same record.
    expect(pmvalAll(['-a', `${BAD}/badlen-2`, '-t', '1', 'sample.bin'])).toContain('Corrupted record in a PCP archive log');
    await dropFiles(page, files(`${BAD}/badlen-2`));
    await expect(source(page, 'badlen-2')).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
    const n = page.getByTestId('notice');
    await expect(n).toHaveCount(1);
    await expect(n).toContainText('Corrupted record in a PCP archive log');
    const m = /badlen-2\.0 at offset (\d+)/.exec((await n.textContent()) ?? '');
    expect(m).not.toBeNull();
    // The named record starts after the label and its length word runs past the file's end.
    const bytes = readFileSync(`${BAD}/badlen-2.0`);
    const at = Number(m?.[1]);
    expect(at).toBeGreaterThanOrEqual(132);
    expect(at + bytes.readUInt32BE(at)).toBeGreaterThan(bytes.length);
  });

  test('a corrupt record met by interpolation in an open archive is one notice naming volume and offset, not an error under every chart', async ({ page }) => {
    // A copy of a QA archive with one record's trailer damaged, 45 min into its first hour, past the records the open reads to learn the logging interval
    // (the window a drop opens on), where the Overview's interpolation must read it.
    const dir = mkdtempSync(join(tmpdir(), 'pmdash-corrupt-'));
    try {
      for (const s of ['meta', 'index', '0']) copyFileSync(`${QA}/20180102.${s}`, join(dir, `cut.${s}`));
      const index = execFileSync('pmdumplog', ['-t', join(dir, 'cut')], { encoding: 'utf8' });
      const entries = [...index.matchAll(/^(\d\d:\d\d:\d\d)\.\d+\s+0\s+\d+\s+(\d+)$/gm)].map((x) => ({ time: x[1] ?? '', offset: Number(x[2]) }));
      const hit = entries.find((e) => e.time >= '13:55:00');
      if (!hit) throw new Error(`no index entry after 13:55 in\n${index}`);
      const vol = readFileSync(join(dir, 'cut.0'));
      const len = vol.readUInt32BE(hit.offset);
      vol.writeUInt32BE(len + 8, hit.offset + len - 4);
      writeFileSync(join(dir, 'cut.0'), vol);
      // libpcp meets it too, interpolating across that time.
      expect(pmvalAll(['-a', join(dir, 'cut'), '-t', '10', '-S', '@13:45:00', '-T', '@14:05:00', 'kernel.all.load'])).toContain('Corrupted record in a PCP archive log');

      await openDemo(page);
      await dropFiles(page, files(join(dir, 'cut')));
      await expect(source(page, 'cut')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
      const n = page.getByTestId('notice');
      await expect(n).toHaveCount(1, { timeout: 30_000 });
      await expect(n).toContainText(/^Reading cut/);
      await expect(n).toContainText('Corrupted record in a PCP archive log');
      const m = /cut\.0 at offset (\d+)/.exec((await n.textContent()) ?? '');
      expect(m).not.toBeNull();
      // The offset is inside the damaged record (read forwards: its start; backwards, the
      // bad trailer makes the record seem to start just before it).
      const at = Number(m?.[1]);
      expect(at).toBeGreaterThanOrEqual(hit.offset - 8);
      expect(at).toBeLessThan(hit.offset + len);
      await n.getByText('details').click();
      await expect(n.getByTestId('notice-details')).toContainText('PM_ERR_LOGREC');
      // Told once: no chart repeats it.
      await expect(page.getByTestId('chart-problems')).toHaveCount(0);
      await page.screenshot({ path: test.info().outputPath('corrupt-interp.png') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Each legend entry's label and swatch colour as #rrggbb. */
async function legendColors(c: Locator): Promise<Record<string, string>> {
  const pairs = await c.getByTestId('legend-item').evaluateAll((els) =>
    els.map((e) => {
      const rgb = getComputedStyle(e.querySelector('.swatch') as Element).backgroundColor.match(/\d+/g) ?? [];
      return [e.getAttribute('data-label') ?? '', `#${rgb.slice(0, 3).map((x) => Number(x).toString(16).padStart(2, '0')).join('')}`] as const;
    }),
  );
  return Object.fromEntries(pairs);
}

async function editChart(c: Locator): Promise<Locator> {
  await c.getByTestId('edit-chart').click();
  const editor = c.page().getByTestId('chart-editor');
  await expect(editor).toBeVisible();
  return editor;
}

/** The default page, then a drop of 20180102 (one volume): its Overview on screen. */
async function dropped20180102(page: Page): Promise<void> {
  await openDemo(page);
  await dropFiles(page, files(`${QA}/20180102`));
  await expect(source(page, '20180102')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect.poll(() => legendNumber(chart(page, /Average Load/), '# cpus'), { timeout: 30_000 }).toBeGreaterThan(0);
}

test.describe('colours in the chart editor', () => {
  test('swatches show the colours drawn; every instance of a multi-instance plot has its own, and a colour given to one leaves the others distinct', async ({ page }) => {
    await dropped20180102(page);
    // An uncoloured singular plot: the swatch is the scheme colour the legend shows, not grey.
    const load = chart(page, /Average Load/);
    const loadColors = await legendColors(load);
    let editor = await editChart(load);
    const rows = editor.getByTestId('plot-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1).getByTestId('plot-colour')).toHaveValue(loadColors['# cpus'] ?? 'missing');
    await expect(rows.nth(0).getByTestId('plot-colour')).toHaveValue(loadColors['1 min'] ?? 'missing');
    expect(loadColors['# cpus']).not.toBe('#808080');
    await editor.getByTestId('editor-close').click();

    // The network chart: two plots (in, out), each over several interfaces, none coloured.
    const net = chart(page, /Network Interface Bytes/);
    await expect.poll(async () => Object.keys(await legendColors(net)).length, { timeout: 30_000 }).toBeGreaterThan(2);
    const before = await legendColors(net);
    // pmchart's #-cycle hands each instance its own colour.
    expect(new Set(Object.values(before)).size).toBe(Object.keys(before).length);
    editor = await editChart(net);
    const inPlot = editor.getByTestId('plot-row').first();
    const swatches = inPlot.getByTestId('instance-colour');
    const insts = await swatches.evaluateAll((els) => els.map((e) => e.getAttribute('data-instance') ?? ''));
    expect(insts.length).toBeGreaterThan(1);
    for (const inst of insts) await expect(inPlot.locator(`[data-testid="instance-colour"][data-instance="${inst}"]`)).toHaveValue(before[`in ${inst}`] ?? 'missing');

    // The user colours the second instance: only it changes; the rest keep their distinct colours.
    const target = insts[1] ?? '';
    await inPlot.locator(`[data-testid="instance-colour"][data-instance="${target}"]`).fill('#ff00ff');
    await expect.poll(async () => (await legendColors(net))[`in ${target}`]).toBe('#ff00ff');
    const after = await legendColors(net);
    for (const [label, color] of Object.entries(before)) if (label !== `in ${target}`) expect(after[label]).toBe(color);
    expect(new Set(Object.values(after)).size).toBe(Object.keys(after).length);
    // And the first instance, given a colour too, keeps the second's.
    const first = insts[0] ?? '';
    await inPlot.locator(`[data-testid="instance-colour"][data-instance="${first}"]`).fill('#00aa00');
    await expect.poll(async () => (await legendColors(net))[`in ${first}`]).toBe('#00aa00');
    expect((await legendColors(net))[`in ${target}`]).toBe('#ff00ff');
    await page.screenshot({ path: test.info().outputPath('instance-colours.png') });
  });
});

/**
 * The columns of a PNG's row band [y0, y1) that hold ink (differ from the band's first
 * pixel), grouped into runs split by gaps of 6 px or more: their centres.
 */
async function inkRuns(page: Page, png: Buffer, y0: number, y1: number): Promise<number[]> {
  return page.evaluate(async ({ b64, y0, y1 }) => {
    const img = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
    const c = new OffscreenCanvas(img.width, img.height);
    const g = c.getContext('2d');
    if (!g) throw new Error('no 2d context');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, y0, img.width, y1 - y0).data;
    const bg = [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0];
    const ink: boolean[] = [];
    for (let x = 0; x < img.width; x++) {
      let hit = false;
      for (let r = 0; r < y1 - y0 && !hit; r++) {
        const i = (r * img.width + x) * 4;
        hit = Math.abs((d[i] ?? 0) - (bg[0] ?? 0)) + Math.abs((d[i + 1] ?? 0) - (bg[1] ?? 0)) + Math.abs((d[i + 2] ?? 0) - (bg[2] ?? 0)) > 120;
      }
      ink.push(hit);
    }
    const runs: number[] = [];
    let start = -1;
    let last = -100;
    for (let x = 0; x <= ink.length; x++) {
      if (x < ink.length && ink[x]) {
        if (x - last >= 6) {
          if (start >= 0) runs.push((start + last) / 2);
          start = x;
        }
        last = x;
      }
    }
    if (start >= 0) runs.push((start + last) / 2);
    return runs;
  }, { b64: png.toString('base64'), y0, y1 });
}

test.describe('PNG export', () => {
  test('a chart and the whole tab as PNG carry the tab\'s time axis: the labels the page shows, where it shows them', async ({ page }) => {
    await dropped20180102(page);
    const load = chart(page, /Average Load/);
    await load.getByTestId('chart-title').click();
    // The page's axis: each label's centre from the left of the plot area.
    const inner = await page.getByTestId('time-axis-plot').boundingBox();
    const ticks = await page.getByTestId('axis-tick').evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); return r.x + r.width / 2; }));
    expect(ticks.length).toBeGreaterThan(2);
    const want = ticks.map((x) => x - (inner?.x ?? 0));
    const plotLeft = await load.getByTestId('chart-canvas').evaluate((c) => {
      const y = c.parentElement?.querySelector('.plot-y');
      return y ? y.getBoundingClientRect().width : 64;
    });
    for (const item of ['export-png-chart', 'export-png-tab']) {
      const png = readFileSync(await (await download(page, 'export', item)).path());
      await test.info().attach(`${item}.png`, { body: png, contentType: 'image/png' });
      writeFileSync(test.info().outputPath(`${item}.png`), png);
      const h = png.readUInt32BE(20);
      // The axis strip is the 24 px above the 24 px footer; its labels are the lower 14 px.
      const runs = await inkRuns(page, png, h - 48 + 7, h - 48 + 21);
      expect(runs.length).toBe(want.length);
      // Each label where the page has it; the edge ones are moved inward by the image's own
      // margins, which are narrower than the page's.
      runs.forEach((x, i) => expect(Math.abs(x - plotLeft - (want[i] ?? NaN))).toBeLessThan(i === 0 || i === runs.length - 1 ? 12 : 3));
    }
  });
});

test.describe('the time bar at 1024 and 1920 px', () => {
  for (const [w, h] of [[1024, 700], [1920, 1080]] as const) {
    for (const theme of ['light', 'dark'] as const) {
      test(`the position field shows every digit at ${w}×${h}, ${theme}`, async ({ page }) => {
        await page.setViewportSize({ width: w, height: h });
        await page.emulateMedia({ colorScheme: theme });
        await dropped20180102(page);
        const pos = page.getByTestId('position');
        await expect(pos).toHaveValue(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
        const fit = await pos.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
        expect(fit.scroll).toBeLessThanOrEqual(fit.client);
        await page.getByTestId('time-bar').screenshot({ path: test.info().outputPath(`time-bar-${w}-${theme}.png`) });
      });
    }
  }
});
