// Chromium-driven UI benchmarks: the built app served by `pmdash serve`, driven by Playwright
// with Debian's chromium. Times are taken inside the page (performance.now) so they measure
// the app, not the driver:
//   - drop → first chart: a real drop of a ≥ 200 MB uncompressed multi-volume archive (made at
//     bench time from the QA archive 20180416.10.00 into a temporary directory) until the
//     first chart's legend shows a value; native: `pmchart -o` exporting the Overview view of
//     the same archive under Xvfb, when pmchart and xvfb-run are installed; and the same for
//     the QA archive as shipped (xz volumes), whose opening decompresses;
//   - frame times while playing 16 charts × 8 series (no native equivalent: pmchart cannot
//     be timed per frame);
//   - the whole archive in the Overview: the QA archive's 4.5 h drawn by the range picker's
//     "Whole archive" until every chart has its values; native: `pmchart -o` exporting the
//     Overview over the same span at the same interval (as many visible points) under Xvfb.
//     Three archives: the QA archive as shipped (xz), decompressed (328 MB), and 1.3 GB made
//     from it (time-shifted copies joined), in a temporary directory removed afterwards.
import { chromium, type Browser, type Page } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decompressedQaArchive, joinedShiftedArchive, totalBytes } from '../test/big-archives';
import type { MeasuredResult } from './harness';
import { blobReadPlans } from './blob-read-plans';
import { chartParts } from './chart-parts';
import { playFloorFrames } from './play-floor';

const QA_ARCHIVE = '/var/lib/pcp/testsuite/archives/20180416.10.00';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
}

/** Starts `pmdash serve` on a free port; resolves with its URL and process. */
async function startServer(): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['bin/pmdash.js', 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`pmdash serve did not start: ${out}`)), 20_000);
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Open (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.once('exit', (code) => reject(new Error(`pmdash serve exited ${code}: ${out}`)));
  });
  return { url, proc };
}

/** Stages files in a detached input, then times a real drop until the first legend value. */
async function timeDrop(page: Page, files: readonly string[]): Promise<number> {
  const input = await page.evaluateHandle(() => {
    const el = document.createElement('input');
    el.type = 'file';
    el.multiple = true;
    el.id = 'bench-staging';
    el.style.display = 'none';
    document.body.appendChild(el);
    return el;
  });
  await input.asElement()?.setInputFiles([...files]);
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const el = document.getElementById('bench-staging') as HTMLInputElement;
        const dt = new DataTransfer();
        for (const f of Array.from(el.files ?? [])) dt.items.add(f);
        const target = document.querySelector('[data-testid="drop-target"]');
        if (!target) return reject(new Error('no drop target'));
        const t0 = performance.now();
        target.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
        const poll = (): void => {
          const v = document.querySelector('[data-testid="chart"] [data-testid="legend-value"][data-value]:not([data-value=""])');
          if (v) {
            // One more frame so the canvas has painted.
            requestAnimationFrame(() => resolve(performance.now() - t0));
            return;
          }
          const err = document.querySelector('[data-testid="source-error"]');
          if (err) return reject(new Error(err.textContent ?? 'open failed'));
          if (performance.now() - t0 > 300_000) return reject(new Error('no chart after 300 s'));
          requestAnimationFrame(poll);
        };
        poll();
      }),
  );
}

/** pmchart -o exporting the Overview view of `archive` under Xvfb; undefined when unavailable. */
function nativeExportMs(archive: string, dir: string): number | undefined {
  const have = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
  if (!have('pmchart') || !have('xvfb-run')) return undefined;
  const out = join(dir, 'overview.png');
  const run = (): number => {
    const t0 = process.hrtime.bigint();
    // -O +1h: without an origin pmchart 6.0.3 exports empty charts (docs/pmchart-reference.md D9).
    const r = spawnSync('xvfb-run', ['-a', 'pmchart', '-a', archive, '-z', '-t', '10sec', '-O', '+1h', '-c', 'Overview', '-o', out, '-g', '1100x950'], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`pmchart -o: ${r.stderr.toString().slice(0, 400)}`);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  run();
  return median([run(), run(), run()]);
}

/** Times `files` dropped on a fresh `?empty` page until the first legend value, 3 times; the median. */
async function medianDropMs(browser: Browser, url: string, files: readonly string[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(`${url}?empty`);
    await page.getByTestId('time-bar').waitFor();
    times.push(await timeDrop(page, files));
    await page.close();
  }
  return median(times);
}

const DROP_PLAIN = 'ui: drop → first chart';
const DROP_XZ = 'ui: drop → first chart 20180416.10.00 (xz)';

/** The drop → first chart rows that pass `wanted`: the QA archive decompressed, and as shipped (xz). */
async function dropToFirstChartRows(browser: Browser, url: string, wanted: (name: string) => boolean): Promise<MeasuredResult[]> {
  const out: MeasuredResult[] = [];
  const native = 'native: pmchart -o of the Overview view under Xvfb';
  if (wanted(DROP_PLAIN)) {
    process.stderr.write(`bench: ${DROP_PLAIN}…\n`);
    const dir = mkdtempSync(join(tmpdir(), 'pmdash-bench-'));
    try {
      const files = decompressedQaArchive(dir);
      const sizeMb = totalBytes(files) / 1048576;
      const pmdashMs = await medianDropMs(browser, url, files);
      const nativeMs = nativeExportMs(join(dir, '20180416.10.00'), dir);
      out.push({
        name: DROP_PLAIN,
        work: `drop a ${sizeMb.toFixed(0)} MB 4-volume archive, until the first chart shows values (${native})`,
        pmdashMs,
        nativeMs,
        ratio: nativeMs === undefined ? undefined : pmdashMs / nativeMs,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (wanted(DROP_XZ)) {
    process.stderr.write(`bench: ${DROP_XZ}…\n`);
    const files = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${QA_ARCHIVE}.${s}`);
    const pmdashMs = await medianDropMs(browser, url, files);
    const dir = mkdtempSync(join(tmpdir(), 'pmdash-bench-'));
    let nativeMs: number | undefined;
    try {
      nativeMs = nativeExportMs(QA_ARCHIVE, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    out.push({
      name: DROP_XZ,
      work: `drop the QA archive as shipped (${(totalBytes(files) / 1048576).toFixed(0)} MB, 4 xz volumes and an xz .meta), until the first chart shows values (${native})`,
      pmdashMs,
      nativeMs,
      ratio: nativeMs === undefined ? undefined : pmdashMs / nativeMs,
    });
  }
  return out;
}

/** Builds 16 charts of kernel.percpu.cpu.{user,sys} (8 series each) through the metric browser. */
async function sixteenCharts(page: Page): Promise<void> {
  const row = (path: string) => page.locator(`[data-testid="pmns-row"][data-path="${path}"]`);
  const details = page.getByTestId('metric-details');
  for (let i = 0; i < 16; i++) {
    await page.getByTestId('metric-search').fill('kernel.percpu.cpu.user');
    await row('kernel.percpu.cpu.user').click();
    // Wait for this metric's details, or the button would add the previous one.
    await details.locator('.details-name', { hasText: 'kernel.percpu.cpu.user' }).waitFor();
    await page.getByTestId('add-new-chart').click();
    await page.getByTestId('metric-search').fill('kernel.percpu.cpu.sys');
    await row('kernel.percpu.cpu.sys').click();
    await details.locator('.details-name', { hasText: 'kernel.percpu.cpu.sys' }).waitFor();
    await page.getByTestId('add-to-chart').click();
  }
}

const PLAY_VIEWPORT = { width: 1280, height: 860 };

async function playFrames(browser: Browser, url: string): Promise<MeasuredResult> {
  const page = await browser.newPage({ viewport: PLAY_VIEWPORT });
  // The QA archive has 4 CPUs: user + sys per CPU make 8 series per chart.
  await page.goto(`${url}?empty`);
  await page.getByTestId('time-bar').waitFor();
  await timeDrop(page, ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${QA_ARCHIVE}.${s}`));
  // Only the 16 benchmark charts: close the Overview.
  while ((await page.getByTestId('close-chart').count()) > 0) await page.getByTestId('close-chart').first().click();
  await sixteenCharts(page);
  await page.locator('[data-testid="legend-value"][data-value]:not([data-value=""])').first().waitFor({ timeout: 120_000 });
  // Legends fill as each chart's data arrives: wait for all 16 × 8.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="legend-item"]').length >= 128, undefined, { timeout: 120_000 });
  const series = await page.getByTestId('legend-item').count();
  // From the start of the archive, play at one step per frame (Fast).
  await page.locator('body').press('Home');
  const frames = await page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        const deltas: number[] = [];
        let last = performance.now();
        const end = last + 5000;
        (document.querySelector('[data-testid="vcr-fast-forward"]') as HTMLButtonElement).click();
        const tick = (now: number): void => {
          deltas.push(now - last);
          last = now;
          if (now < end) requestAnimationFrame(tick);
          else {
            (document.querySelector('[data-testid="vcr-stop"]') as HTMLButtonElement).click();
            resolve(deltas);
          }
        };
        requestAnimationFrame(tick);
      }),
  );
  const parts = await chartParts(page);
  await page.close();
  // The floor: the least any page playing these charts changes each frame (play-floor.ts).
  const floor = await playFloorFrames(browser, PLAY_VIEWPORT, parts, 5000);
  const med = median(frames);
  return {
    name: 'ui: play 16 charts × 8 series',
    work:
      `median frame time while playing (${series} series in 16 charts, one step per frame); p95 ${percentile(frames, 0.95).toFixed(1)} ms over ${frames.length} frames; no native equivalent; ` +
      `the floor, a bare page sliding the same ${parts.canvases.length} strip canvases a pixel and giving the ${parts.values.length} legend values new text every frame: median ${median(floor).toFixed(1)} ms, p95 ${percentile(floor, 0.95).toFixed(1)} ms over ${floor.length} frames`,
    pmdashMs: med,
    nativeMs: undefined,
    ratio: undefined,
  };
}

/** Where a Chromium thread's CPU is counted (threadGroup). */
const THREAD_GROUPS = ['workers', 'page main', 'renderer other', 'browser I/O', 'other'] as const;
type ThreadGroup = (typeof THREAD_GROUPS)[number];

/**
 * The group of a thread named `comm` in a process started with `cmdline`: the page's dedicated
 * workers (engine, xz pool), the renderer's main thread (React, ECharts, layout, paint), the
 * renderer's other threads (V8's JIT and GC helpers, its IPC thread, the compositor), the
 * browser process's IPC thread and thread pool (which serve every Blob read), and the rest.
 */
function threadGroup(cmdline: string, comm: string): ThreadGroup {
  if (cmdline.includes('--type=renderer')) {
    if (comm.startsWith('DedicatedWorker')) return 'workers';
    if (comm === 'chromium' || comm === 'CrRendererMain') return 'page main';
    return 'renderer other';
  }
  if (!cmdline.includes('--type=') && (comm === 'Chrome_IOThread' || comm.startsWith('ThreadPool'))) return 'browser I/O';
  return 'other';
}

/** Every process's children, by parent pid, as /proc lists them now. */
function childrenByParent(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      continue; // the process ended while being listed
    }
  }
  return children;
}

/**
 * CPU time (user + system, ms) used so far by every descendant of this process (Chromium's
 * browser, renderer, GPU and utility processes; the idle `pmdash serve`), per thread group
 * (threadGroup): under a load that stretches wall times, what the work itself cost, and where.
 */
function descendantsCpu(): Map<ThreadGroup, number> {
  const children = childrenByParent();
  const out = new Map<ThreadGroup, number>(THREAD_GROUPS.map((g) => [g, 0]));
  const count = (pid: number): void => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      for (const t of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const g = threadGroup(cmdline, comm);
        // USER_HZ is 100 on Linux.
        out.set(g, (out.get(g) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
      }
    } catch {
      return; // the process or thread ended while being read: its time is no longer ours to count
    }
  };
  const walk = (pid: number): void => {
    for (const c of children.get(pid) ?? []) {
      count(c);
      walk(c);
    }
  };
  walk(process.pid);
  return out;
}

/** Every thread group's CPU in `b` less that in `a`. */
function cpuSince(a: Map<ThreadGroup, number>, b: Map<ThreadGroup, number>): Map<ThreadGroup, number> {
  return new Map(THREAD_GROUPS.map((g) => [g, (b.get(g) ?? 0) - (a.get(g) ?? 0)]));
}

function sumCpu(m: Map<ThreadGroup, number>): number {
  let n = 0;
  for (const v of m.values()) n += v;
  return n;
}

/** pmchart's CPU time (user + system, ms; GNU time) exporting the view `args` name, median of 3; undefined when unavailable. */
function nativeCpuMs(args: readonly string[], dir: string): number | undefined {
  if (!existsSync('/usr/bin/time')) return undefined;
  const out = join(dir, 'cpu');
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    // time wraps pmchart alone, inside xvfb-run, so the X server is not counted.
    const r = spawnSync('xvfb-run', ['-a', '/usr/bin/time', '-f', '%U %S', '-o', out, 'pmchart', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`pmchart -o: ${r.stderr.toString().slice(0, 400)}`);
    const [user, sys] = readFileSync(out, 'utf8').trim().split(/\s+/).map(Number);
    runs.push(((user ?? NaN) + (sys ?? NaN)) * 1000);
  }
  return median(runs);
}

/** pmchart's arguments exporting the Overview over `points` samples `intervalSec` apart ending at `originSec` after the start, into `out`. */
function wholeArgs(archive: string, points: number, intervalSec: number, originSec: number, out: string): string[] {
  // -O is the right edge of the window (docs/pmchart-reference.md D9); -s/-v as many points.
  return ['-a', archive, '-z', '-t', `${intervalSec}sec`, '-s', String(points), '-v', String(points), '-O', `+${originSec}sec`, '-c', 'Overview', '-o', out, '-g', '1100x950'];
}

/** pmchart -o of the Overview over `points` samples `intervalSec` apart ending at `originSec` after the start: wall ms and CPU ms. */
function nativeWholeMs(archive: string, points: number, intervalSec: number, originSec: number, dir: string): { ms: number; cpuMs: number | undefined } | undefined {
  const have = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
  if (!have('pmchart') || !have('xvfb-run')) return undefined;
  const args = wholeArgs(archive, points, intervalSec, originSec, join(dir, 'whole.png'));
  const run = (): number => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync('xvfb-run', ['-a', 'pmchart', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`pmchart -o: ${r.stderr.toString().slice(0, 400)}`);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  run();
  return { ms: median([run(), run(), run()]), cpuMs: nativeCpuMs(args, dir) };
}

/** An archive for the whole-archive rows: the files a drop hands over and the base pmchart opens. */
interface BenchArchive {
  readonly name: string;
  readonly files: readonly string[];
  readonly base: string;
  /** How it was made, for the row's description. */
  readonly what: string;
}

/**
 * On a fresh `?empty` page: drops `files`, waits for the open, then clicks "Whole archive" and
 * returns the ms until every Overview chart shows the new window with values.
 */
async function drawWholeArchive(page: Page, url: string, files: readonly string[]): Promise<number> {
  return (await drawWholeArchiveCpu(page, url, files)).ms;
}

/** drawWholeArchive, and the CPU time every Chromium process used meanwhile, in all and per thread group (descendantsCpu). */
async function drawWholeArchiveCpu(page: Page, url: string, files: readonly string[]): Promise<{ ms: number; cpuMs: number; byGroup: Map<ThreadGroup, number> }> {
  await page.goto(`${url}?empty`);
  await page.getByTestId('time-bar').waitFor();
  await timeDrop(page, files);
  await page.waitForFunction(() => document.querySelectorAll('.spinner').length === 0, undefined, { timeout: 120_000 });
  await page.getByTestId('range-picker').click();
  const cpu0 = descendantsCpu();
  const ms = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const bar = document.querySelector('[data-testid="time-bar"]');
        const before = bar?.getAttribute('data-window');
        const t0 = performance.now();
        (document.querySelector('[data-testid="range-whole"]') as HTMLButtonElement).click();
        const poll = (): void => {
          const charts = Array.from(document.querySelectorAll('[data-testid="chart"]'));
          const start = charts[0]?.getAttribute('data-window-start');
          const done =
            bar?.getAttribute('data-window') !== before &&
            document.querySelectorAll('.spinner').length === 0 &&
            charts.length > 0 &&
            charts.every((c) => c.getAttribute('data-window-start') === start && c.querySelector('[data-testid="legend-value"][data-value]:not([data-value=""])'));
          if (done) return void requestAnimationFrame(() => resolve(performance.now() - t0));
          if (performance.now() - t0 > 300_000) return reject(new Error('whole archive not drawn after 300 s'));
          requestAnimationFrame(poll);
        };
        poll();
      }),
  );
  const byGroup = cpuSince(cpu0, descendantsCpu());
  return { ms, cpuMs: sumCpu(byGroup), byGroup };
}

/** An archive's label start in epoch ms (pmdumplog -L), which places pmchart's -O. */
function labelStartMs(base: string): number {
  const label = spawnSync('pmdumplog', ['-L', '-Z', 'UTC', base], { encoding: 'utf8' }).stdout;
  const m = /commencing \w+ (\w+) +(\d+) (\d+):(\d+):(\d+)\.(\d+) (\d+)/.exec(label);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return m ? Date.UTC(Number(m[7]), months.indexOf(m[1] ?? ''), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])) + Number(`0.${m[6] ?? '0'}`) * 1000 : NaN;
}

/** Drops `archive`, then times "Whole archive" until every Overview chart shows values. */
async function wholeArchive(browser: Browser, url: string, archive: BenchArchive): Promise<MeasuredResult> {
  const times: number[] = [];
  const cpus: number[] = [];
  const groups = new Map<ThreadGroup, number[]>(THREAD_GROUPS.map((g) => [g, []]));
  let shape = { interval: NaN, window: NaN, position: NaN, start: NaN, charts: 0 };
  for (let i = 0; i < 3; i++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const { ms, cpuMs, byGroup } = await drawWholeArchiveCpu(page, url, archive.files);
    times.push(ms);
    cpus.push(cpuMs);
    for (const [g, v] of byGroup) groups.get(g)?.push(v);
    const attr = async (n: string): Promise<number> => Number(await page.getByTestId('time-bar').getAttribute(n));
    shape = { interval: await attr('data-interval'), window: await attr('data-window'), position: await attr('data-position'), start: NaN, charts: await page.getByTestId('chart').count() };
    await page.close();
  }
  const pmdashMs = median(times);
  // The archive's label start (pmdumplog -L) locates the window for pmchart's -O.
  shape.start = labelStartMs(archive.base);
  const points = Math.round(shape.window / shape.interval);
  const originSec = (shape.position - shape.start) / 1000;
  const dir = mkdtempSync(join(tmpdir(), 'pmdash-bench-'));
  let native: { ms: number; cpuMs: number | undefined } | undefined;
  try {
    native = nativeWholeMs(archive.base, points, shape.interval / 1000, Math.round(originSec), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const nativeMs = native?.ms;
  // CPU time is what the work cost whatever the load: on a shared machine wall times stretch.
  const perGroup = THREAD_GROUPS.map((g) => `${g} ${median(groups.get(g) ?? []).toFixed(0)}`).join(', ');
  const cpu = `CPU: pmdash ${median(cpus).toFixed(0)} ms (every Chromium process, median; per thread group, medians: ${perGroup}), pmchart ${native?.cpuMs?.toFixed(0) ?? '?'} ms (user + system, median of 3); load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?'}`;
  return {
    name: archive.name,
    work: `"Whole archive" on ${archive.what}: ${shape.charts} Overview charts over ${(shape.window / 3_600_000).toFixed(2)} h at ${shape.interval / 1000} s (${points} points), until every chart shows values (native: pmchart -o of the Overview, same span and interval, -s/-v ${points}, under Xvfb). ${cpu}`,
    pmdashMs,
    nativeMs,
    ratio: nativeMs === undefined ? undefined : pmdashMs / nativeMs,
  };
}

const WHOLE_XZ = 'ui: whole archive Overview 20180416.10.00';
const WHOLE_PLAIN = 'ui: whole archive Overview 20180416.10.00 uncompressed (328 MB)';
const WHOLE_HUGE = 'ui: whole archive Overview 1.3 GB (4 time-shifted copies joined)';
const MEMORY = 'ui: memory after whole-archive view';
const READ_PLANS = 'ui: Blob reads per stepped sample';

/** The whole-archive rows that pass `wanted`; the big archives live in one temporary directory. */
async function wholeArchiveRows(browser: Browser, url: string, wanted: (name: string) => boolean): Promise<MeasuredResult[]> {
  const out: MeasuredResult[] = [];
  if (wanted(WHOLE_XZ)) {
    process.stderr.write(`bench: ${WHOLE_XZ}…\n`);
    const files = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => `${QA_ARCHIVE}.${s}`);
    out.push(await wholeArchive(browser, url, { name: WHOLE_XZ, files, base: QA_ARCHIVE, what: 'the dropped QA archive (4 xz volumes)' }));
  }
  if (!wanted(WHOLE_PLAIN) && !wanted(WHOLE_HUGE)) return out;
  const dir = mkdtempSync(join(tmpdir(), 'pmdash-bench-'));
  try {
    const plain = decompressedQaArchive(dir);
    const base = join(dir, '20180416.10.00');
    if (wanted(WHOLE_PLAIN)) {
      process.stderr.write(`bench: ${WHOLE_PLAIN}…\n`);
      const mb = plain.reduce((n, f) => n + statSync(f).size, 0) / 1048576;
      out.push(await wholeArchive(browser, url, { name: WHOLE_PLAIN, files: plain, base, what: `the QA archive decompressed (${mb.toFixed(0)} MB, 4 volumes)` }));
    }
    if (wanted(WHOLE_HUGE)) {
      process.stderr.write(`bench: ${WHOLE_HUGE}… (making the archive)\n`);
      const files = joinedShiftedArchive(dir);
      const mb = files.reduce((n, f) => n + statSync(f).size, 0) / 1048576;
      out.push(await wholeArchive(browser, url, { name: WHOLE_HUGE, files, base: join(dir, 'joined'), what: `a ${mb.toFixed(0)} MB archive (the QA archive and 3 copies shifted by pmlogrewrite, joined by pmlogextract)` }));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/**
 * RSS and peak RSS (VmHWM), in MB, of the renderer process(es) under `browserPid` that run a
 * dedicated worker: the page's renderer, whose process holds the page and its engine worker
 * (Chromium's spare and blank-page renderers are left out).
 */
function rendererMemory(browserPid: number): { rssMb: number; peakMb: number; pssMb: number; privateMb: number; processes: number } {
  const children = new Map<number, number[]>();
  const renderers: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The parent pid follows the command name in parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const threads = readdirSync(`/proc/${entry}/task`).map((t) => readFileSync(`/proc/${entry}/task/${t}/comm`, 'utf8'));
      if (threads.some((name) => name.startsWith('DedicatedWorker'))) renderers.push(Number(entry));
    } catch {
      continue; // the process ended while being listed: it is not ours to count
    }
  }
  const ours = new Set<number>();
  const walk = (pid: number): void => {
    for (const c of children.get(pid) ?? []) {
      ours.add(c);
      walk(c);
    }
  };
  walk(browserPid);
  let rssKb = 0;
  let peakKb = 0;
  let pssKb = 0;
  let privateKb = 0;
  let processes = 0;
  for (const pid of renderers.filter((p) => ours.has(p))) {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    rssKb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peakKb += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const shares = sharedAccounting(pid);
    pssKb += shares.pssKb;
    privateKb += shares.privateKb;
    processes++;
  }
  return { rssMb: rssKb / 1024, peakMb: peakKb / 1024, pssMb: pssKb / 1024, privateMb: privateKb / 1024, processes };
}

/**
 * A process's PSS and private (unshared) memory in kB, from /proc/PID/smaps_rollup. RSS counts
 * every shared page whole: ~120 MB of a Chromium renderer's are the chromium binary's code,
 * mapped by its browser, GPU and utility processes too (pmchart's RSS counts Qt's the same
 * way, but nothing else maps them).
 */
function sharedAccounting(pid: number): { pssKb: number; privateKb: number } {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
  return { pssKb: kb('Pss'), privateKb: kb('Private_Clean') + kb('Private_Dirty') };
}

/** The pid of the first process named `comm` among `root`'s descendants, if any. */
function descendantNamed(root: number, comm: string): number | undefined {
  const children = childrenByParent();
  const queue = [...(children.get(root) ?? [])];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === comm) return pid;
    } catch {
      continue; // ended meanwhile
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return undefined;
}

/** pmchart's peak RSS (MB, GNU time's %M) exporting the Overview of `archive` over `points` samples; undefined when unavailable. */
async function nativeWholePeakMb(archive: string, points: number, intervalSec: number, originSec: number, dir: string): Promise<{ peakMb: number; pssMb: number; privateMb: number } | undefined> {
  const have = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
  if (!have('pmchart') || !have('xvfb-run') || !existsSync('/usr/bin/time')) return undefined;
  const out = join(dir, 'whole.png');
  const peaks = join(dir, 'peak-kb');
  // time wraps pmchart alone, inside xvfb-run, so the X server is not counted.
  const args = ['-a', '/usr/bin/time', '-f', '%M', '-o', peaks, 'pmchart', '-a', archive, '-z', '-t', `${intervalSec}sec`, '-s', String(points), '-v', String(points), '-O', `+${originSec}sec`, '-c', 'Overview', '-o', out, '-g', '1100x950'];
  const runs: number[] = [];
  const shares = { pssMb: 0, privateMb: 0 };
  for (let i = 0; i < 3; i++) {
    const proc = spawn('xvfb-run', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    // PSS and private memory are sampled while it runs (every 20 ms): their peaks, measured
    // as the renderer's are.
    const sampler = setInterval(() => {
      const pid = proc.pid === undefined ? undefined : descendantNamed(proc.pid, 'pmchart');
      if (pid === undefined) return;
      try {
        const s = sharedAccounting(pid);
        shares.pssMb = Math.max(shares.pssMb, s.pssKb / 1024);
        shares.privateMb = Math.max(shares.privateMb, s.privateKb / 1024);
      } catch {
        return; // it ended between the look-up and the read
      }
    }, 20);
    const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
    clearInterval(sampler);
    if (code !== 0) throw new Error(`pmchart -o: ${stderr.slice(0, 400)}`);
    runs.push(Number(readFileSync(peaks, 'utf8').trim()) / 1024);
  }
  return { peakMb: Math.max(...runs), ...shares };
}

/**
 * Drops the plain 20180416.10.00 (test/big-archives.ts) into a browser of its own, draws
 * "Whole archive" in the Overview, and reports the renderer processes' memory (/proc VmRSS
 * summed over Chromium's --type=renderer processes: the page and its workers run there)
 * against pmchart's peak RSS exporting the same view under Xvfb.
 */
async function wholeArchiveMemory(url: string): Promise<MeasuredResult> {
  const dir = mkdtempSync(join(tmpdir(), 'pmdash-bench-'));
  // A server, not launch(): its process id roots the renderer processes to measure.
  const server = await chromium.launchServer({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const browserPid = server.process().pid;
  const browser = await chromium.connect(server.wsEndpoint());
  try {
    const files = decompressedQaArchive(dir);
    const base = join(dir, '20180416.10.00');
    const bytes = totalBytes(files);
    if (browserPid === undefined) throw new Error('no Chromium process to measure');
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const drawMs = await drawWholeArchive(page, url, files);
    // Settle: what stays held, not what a collection is about to free.
    await page.waitForTimeout(2000);
    const mem = rendererMemory(browserPid);
    // Beside the row: what the renderer holds once Chromium has returned the pages freed after
    // the draw's peak (its allocators purge over seconds; 240 → 220 MB measured).
    await page.waitForTimeout(10_000);
    const later = rendererMemory(browserPid);
    const attr = async (n: string): Promise<number> => Number(await page.getByTestId('time-bar').getAttribute(n));
    const [interval, window, position] = [await attr('data-interval'), await attr('data-window'), await attr('data-position')];
    const start = labelStartMs(base);
    const points = Math.round(window / interval);
    const native = await nativeWholePeakMb(base, points, interval / 1000, Math.round((position - start) / 1000), dir);
    const nativeMb = native?.peakMb;
    const shares = `PSS ${mem.pssMb.toFixed(0)} MB and private ${mem.privateMb.toFixed(0)} MB (smaps_rollup; ${later.pssMb.toFixed(0)} and ${later.privateMb.toFixed(0)} MB 10 s later) against pmchart's peak PSS ${native?.pssMb.toFixed(0) ?? '?'} and private ${native?.privateMb.toFixed(0) ?? '?'} MB (sampled every 20 ms)`;
    return {
      name: 'ui: memory after whole-archive view',
      work: `RSS of the page's Chromium renderer (/proc VmRSS of the ${mem.processes} renderer process(es) running the engine worker: page + worker) 2 s after "Whole archive" drew the Overview of the plain ${(bytes / 1048576).toFixed(0)} MB 20180416.10.00 (${points} points, drawn in ${drawMs.toFixed(0)} ms; renderer peak VmHWM ${mem.peakMb.toFixed(0)} MB, ${later.rssMb.toFixed(0)} MB 10 s later); native: pmchart's peak RSS (GNU time %M, max of 3) exporting the same view under Xvfb. RSS counts shared code whole (the chromium binary's ~120 MB, shared with Chromium's other processes): ${shares}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?'}`,
      pmdashMs: mem.rssMb,
      nativeMs: nativeMb,
      ratio: nativeMb === undefined ? undefined : mem.rssMb / nativeMb,
      unit: 'MB',
    };
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the browser benchmarks whose names pass `wanted`. */
export async function runBrowserBenchmarks(wanted: (name: string) => boolean): Promise<MeasuredResult[]> {
  const names = [DROP_PLAIN, DROP_XZ, 'ui: play 16 charts × 8 series', WHOLE_XZ, WHOLE_PLAIN, WHOLE_HUGE, MEMORY, READ_PLANS];
  if (!names.some(wanted)) return [];
  const { url, proc } = await startServer();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const out: MeasuredResult[] = [];
    out.push(...(await dropToFirstChartRows(browser, url, wanted)));
    if (wanted(names[2] ?? '')) {
      process.stderr.write(`bench: ${names[2]}…\n`);
      out.push(await playFrames(browser, url));
    }
    out.push(...(await wholeArchiveRows(browser, url, wanted)));
    if (wanted(MEMORY)) {
      process.stderr.write(`bench: ${MEMORY}…\n`);
      out.push(await wholeArchiveMemory(url));
    }
    if (wanted(READ_PLANS)) {
      process.stderr.write(`bench: ${READ_PLANS}…\n`);
      const dir = mkdtempSync(join(tmpdir(), 'pmdash-bench-'));
      try {
        const volume = decompressedQaArchive(dir).find((f) => f.endsWith('.0'));
        if (volume) out.push(await blobReadPlans(browser, url, volume, () => sumCpu(descendantsCpu())));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return out;
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
  }
}
