// Following a folder pmlogger writes in, dropped in Chromium (File System Access API): the page
// keeps the folder's FileSystemDirectoryHandle and reads it again as the archives grow, and a
// second archive pmlogger starts there (pmlogger run again, as pmlogger_daily does each day)
// joins the source; the charts follow it across the join, and values there are pmval -a DIR's.
//
// Playwright can neither drag a folder from the desktop nor answer Chromium's folder picker
// (its file chooser is not raised for showDirectoryPicker, which it aborts). So the folder is a
// real FileSystemDirectoryHandle from the page's origin-private file system (OPFS), into which
// the test copies pmlogger's files as pmlogger writes them, and the drop that carries it is a
// real drop event on the page whose item's getAsFileSystemHandle() answers that handle, as
// Chromium's answers for a dropped folder. From there on it is the page's own path: the drop
// handler, the folder walked through the handle, the engine reading the folder again. Not
// exercised: Chromium making the handle from a desktop drag or the picker (and its permission
// prompt), a folder on the user's disk, and files changing under a File taken earlier (OPFS
// keeps earlier Files readable; folder-file-set.test.ts covers the refused read).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { chart, labelSpanMs, legendNumber, openApp, pmvalAt, position, QA, source } from './dash';
import { startPmlogger, type RunningLogger } from '../test/pmlogger-run';

const FOLDER = 'pmlogs';

/** pmlogger's archive files in `dir` (not its config or log). */
function archiveFiles(dir: string, keep: (f: string) => boolean): string[] {
  return readdirSync(dir).filter((f) => /\.(meta|index|\d+)$/.test(f) && keep(f));
}

/**
 * Copies what pmlogger has written in `dir` into the OPFS folder: files that grew or are new.
 * Read in the order pmlogger makes them consistent (index, then volumes, then metadata: each
 * read later covers what an earlier one refers to) and written in the reverse order.
 */
async function copyGrown(page: Page, dir: string, sizes: Map<string, number>, keep: (f: string) => boolean = () => true): Promise<void> {
  const order = (f: string): number => (f.endsWith('.index') ? 0 : f.endsWith('.meta') ? 2 : 1);
  const read = archiveFiles(dir, keep)
    .sort((a, b) => order(a) - order(b))
    .map((f) => ({ name: f, bytes: readFileSync(join(dir, f)) }))
    .filter((f) => sizes.get(f.name) !== f.bytes.length);
  for (const f of read.reverse()) {
    await page.evaluate(
      async ({ folder, name, b64 }) => {
        const root = await navigator.storage.getDirectory();
        const d = await root.getDirectoryHandle(folder, { create: true });
        const w = await (await d.getFileHandle(name, { create: true })).createWritable();
        await w.write(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
        await w.close();
      },
      { folder: FOLDER, name: f.name, b64: f.bytes.toString('base64') },
    );
    sizes.set(f.name, f.bytes.length);
  }
}

/** Drops the OPFS folder on the page: a drop event whose item is that folder's handle. */
async function dropFolder(page: Page): Promise<void> {
  await page.evaluate(async (folder) => {
    const handle = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
    const dt = new DataTransfer();
    dt.items.add(new File([], folder));
    const proto = DataTransferItem.prototype as DataTransferItem & { getAsFileSystemHandle?: () => Promise<FileSystemHandle | null> };
    const own = Object.getOwnPropertyDescriptor(proto, 'getAsFileSystemHandle');
    // Only while this drop is handled (the page asks during the event).
    Object.defineProperty(proto, 'getAsFileSystemHandle', { configurable: true, value: () => Promise.resolve(handle) });
    try {
      const target = document.querySelector('[data-testid="drop-target"]');
      if (!target) throw new Error('no drop target');
      for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    } finally {
      if (own) Object.defineProperty(proto, 'getAsFileSystemHandle', own);
      else delete proto.getAsFileSystemHandle;
    }
  }, FOLDER);
}

test('a dropped folder pmlogger writes in is followed, into the next archive pmlogger starts there', async ({ page }, info) => {
  test.setTimeout(180_000);
  const first = await startPmlogger({ name: 'first', samplesPerVolume: 6, minSamples: 3 });
  let second: RunningLogger | undefined;
  const dir = first.dir;
  const sizes = new Map<string, number>();
  let copying = true;
  let copier: Promise<void> = Promise.resolve();
  try {
    await openApp(page);
    await copyGrown(page, dir, sizes);
    // The copy keeps up with pmlogger (about twice a second) until the test stops it.
    copier = (async () => {
      while (copying) {
        await copyGrown(page, dir, sizes);
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    await dropFolder(page);
    const s = source(page, 'first');
    await expect(s).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await expect(s.getByTestId('source-follow')).toHaveAttribute('data-state', 'following');
    const load = chart(page, /Average Load/);
    await expect.poll(() => legendNumber(load, '1 min'), { timeout: 30_000 }).not.toBeNaN();
    const opened = await position(page);
    // The window showed the end: it moves as pmlogger writes.
    await expect.poll(() => position(page), { timeout: 30_000 }).toBeGreaterThan(opened + 3000);

    // pmlogger stops and starts again in the same folder: a second archive there.
    await first.stop();
    second = await startPmlogger({ dir, name: 'second', samplesPerVolume: 6, minSamples: 1 });
    const secondStart = labelSpanMs(second.archive).startMs;
    await expect(s.getByTestId('source-archives')).toHaveAttribute('data-count', '2', { timeout: 30_000 });
    // The window follows into the second archive, and the chart has its values.
    await expect.poll(() => position(page), { timeout: 30_000 }).toBeGreaterThan(secondStart + 4000);
    await page.screenshot({ path: info.outputPath('into-second.png') });

    // Both stop; the last of their files reaches the folder, and the end stops growing.
    await second.stop();
    copying = false;
    await copier;
    await copyGrown(page, dir, sizes);
    const end = labelSpanMs(second.archive).endMs;
    await expect.poll(() => position(page), { timeout: 30_000 }).toBeGreaterThan(end - 2000);

    // Values at times in the second archive, across the join and in the first: pmval -a DIR's.
    const interval = Number(await page.getByTestId('time-bar').getAttribute('data-interval')) / 1000;
    const start = labelSpanMs(join(dir, 'first')).startMs;
    await page.getByTestId('time-bar').click({ position: { x: 2, y: 2 } });
    const firstEnd = labelSpanMs(join(dir, 'first')).endMs;
    const checked: number[] = [];
    for (let steps = 0; steps < 200; steps++) {
      const at = await position(page);
      if (at < firstEnd - 3000) break;
      // Every other step back from the end: the second archive, the gap between, the first's end.
      if (steps % 2 === 0) {
        const want = pmvalAt(dir, 'kernel.all.load', (at - start) / 1000, interval, '1 minute');
        const got = expect.poll(() => legendNumber(load, '1 min'), { message: `at ${new Date(at).toISOString()} step ${steps} secondStart ${new Date(secondStart).toISOString()} firstEnd ${new Date(firstEnd).toISOString()} end ${new Date(end).toISOString()}` });
        if (Number.isNaN(want)) await got.toBeNaN();
        else await got.toBeCloseTo(want, 4);
        checked.push(at);
      }
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => position(page)).toBeLessThan(at);
    }
    // Samples of both archives were compared.
    expect(checked.some((t) => t > secondStart)).toBe(true);
    expect(checked.some((t) => t < firstEnd)).toBe(true);
  } finally {
    copying = false;
    // A failed copy has failed the test above (awaited there); here only the processes end.
    await copier.catch(() => undefined);
    await second?.stop();
    await first.remove();
  }
});

test('Open folder… reads the folder Chromium\'s picker gives: an archive there opens, with pmval\'s values', async ({ page }) => {
  // The picker's answer is the OPFS folder (see the top of this file): Playwright aborts the real one.
  await openApp(page);
  const archive = '20180415.09.16';
  // Each test's browser context starts with an empty OPFS.
  const sizes = new Map<string, number>();
  await copyGrown(page, QA, sizes, (f) => f.startsWith(`${archive}.`));
  await page.evaluate(async (folder) => {
    const handle = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
    (window as Window & { showDirectoryPicker?: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = () => Promise.resolve(handle);
  }, FOLDER);
  await page.getByRole('button', { name: 'Open folder…' }).click();
  const s = source(page, archive);
  await expect(s).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(s.getByTestId('source-meta')).toContainText('host brolley-t530');
  // A finished archive: nothing to follow, and nothing said about it.
  await expect(s.getByTestId('source-follow')).toHaveCount(0);
  const load = chart(page, /Average Load/);
  const start = labelSpanMs(`${QA}/${archive}`).startMs;
  await expect.poll(() => legendNumber(load, '1 min'), { timeout: 30_000 }).not.toBeNaN();
  const interval = Number(await page.getByTestId('time-bar').getAttribute('data-interval')) / 1000;
  const at = await position(page);
  await expect.poll(() => legendNumber(load, '1 min')).toBeCloseTo(pmvalAt(`${QA}/${archive}`, 'kernel.all.load', (at - start) / 1000, interval, '1 minute'), 4);
});
