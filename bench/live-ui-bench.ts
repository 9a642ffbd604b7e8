// `ui: live Overview CPU`: what watching the local pmcd live costs the machine. pmdash: the
// built app in Debian's chromium opened on the local host (`?host=localhost`: its live
// Overview, 1 s interval), through `pmdash serve`'s bridge; native: pmchart with the Overview
// view of the same host at 1 s under Xvfb, and the pmtime it starts. Each side settles, then
// the CPU time (/proc/PID/stat utime + stime, every thread) of its processes is read over the
// same 60 s: for pmdash every Chromium process (browser, renderer, GPU, utility) plus the
// `pmdash serve` process; for pmchart, pmchart and pmtime. The sides run one after the other,
// not at once, so neither takes the other's core. The ratio is pmdash's CPU over pmchart +
// pmtime's.
// Both draw to a display the same way: Chromium runs headed (a window, as a user has it) on an
// Xvfb of its own, as pmchart does, and each side's X server is reported beside it, not in the
// ratio. Headless Chromium would skip presenting its frames to a display (~0.3-0.4% of a core
// less here), which no user watching the page saves. No GPU flags are given: on a machine
// without a GPU Chromium composites in software whatever they say, and the row names the
// compositing chrome://gpu reports.
import { chromium, type Browser } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chartParts, type ChartParts } from './chart-parts';
import type { MeasuredResult } from './harness';
import { startBridge } from './live-bench';

export const LIVE_UI_NAME = 'ui: live Overview CPU';
const SECONDS = 60;
const SETTLE_MS = 8000;
/** How long the floor page (floorPage) is measured. */
const FLOOR_SECONDS = 30;
// Tall enough for the whole Overview on screen, as pmchart's window shows all of it.
const VIEWPORT = { width: 1280, height: 1400 };
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--window-size=${VIEWPORT.width},${VIEWPORT.height + 150}`];

/** Clock ticks per second of /proc's utime and stime. */
const HZ = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  readonly comm: string;
  /** utime + stime in clock ticks. */
  readonly ticks: number;
}

function readStat(pid: number, path = `/proc/${pid}/stat`): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // Gone between the listing and the read: it no longer uses CPU.
    return undefined;
  }
  // comm is in parentheses and may hold spaces; the fields after it are space-separated.
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const f = text.slice(close + 2).split(' ');
  return { pid, ppid: Number(f[1]), comm, ticks: Number(f[11]) + Number(f[12]) };
}

/** Every process under `root` (itself included), with its CPU ticks so far. */
function tree(root: number): ProcStat[] {
  const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((d) => readStat(Number(d)) ?? []);
  const children = new Map<number, ProcStat[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: ProcStat[] = [];
  const walk = (pid: number): void => {
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      walk(c.pid);
    }
  };
  const self = all.find((p) => p.pid === root);
  if (self) out.push(self);
  walk(root);
  return out;
}

/** CPU seconds each process of `pick()` used over `seconds` (processes new meanwhile count from 0). */
async function cpuOver(pick: () => ProcStat[], seconds: number): Promise<Map<string, number>> {
  const before = new Map(pick().map((p) => [p.pid, p.ticks]));
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const out = new Map<string, number>();
  for (const p of pick()) out.set(`${p.comm}:${p.pid}`, (p.ticks - (before.get(p.pid) ?? 0)) / HZ);
  return out;
}

/**
 * CPU ticks of every thread of `pids`, keyed "role: thread name" (Chromium names its threads:
 * the renderer's main thread keeps the process's name, "Compositor", "ThreadPoolForeg" (raster
 * and V8's background compiles and GC), "DedicatedWorker" (the engine worker), the GPU
 * process's "VizCompositorTh" (software compositing of the page's frames), …).
 */
function threadTicks(pids: readonly { pid: number; role: string }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const { pid, role } of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const s = readStat(Number(tid), `/proc/${pid}/task/${tid}/stat`);
      if (!s) continue;
      const name = s.comm === 'chromium' ? 'main' : s.comm;
      const key = `${role}: ${name}`;
      out.set(key, (out.get(key) ?? 0) + s.ticks);
    }
  }
  return out;
}

/** A Chromium process's role (its --type, or "browser"); read at the end, while it lives. */
function processKind(pid: number): string {
  try {
    // Chromium rewrites its command line as one space-separated string.
    return /--type=(\S+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
  } catch {
    return 'gone';
  }
}

const sum = (m: ReadonlyMap<string, number>, match: (key: string) => boolean = () => true): number => [...m].reduce((s, [k, v]) => s + (match(k) ? v : 0), 0);

/** An Xvfb of its own (the display number it picked); undefined without Xvfb (Chromium then runs headless). */
async function startXvfb(): Promise<{ display: string; proc: ChildProcess } | undefined> {
  if (spawnSync('sh', ['-c', 'command -v Xvfb']).status !== 0) return undefined;
  // -displayfd: Xvfb picks a free display and writes its number on fd 3 once it accepts clients.
  const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${VIEWPORT.width}x${VIEWPORT.height + 200}x24`, '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not say its display within 10 s')), 10_000);
    proc.stdio[3]?.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      resolve(`:${out.trim()}`);
    });
    proc.once('exit', (code) => reject(new Error(`Xvfb exited ${code}`)));
  });
  return { display, proc };
}

/** How Chromium composites, as chrome://gpu says ("Software only. Hardware acceleration disabled", …). */
async function compositing(browser: Browser): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.goto('chrome://gpu');
    // <li><span>Compositing: </span><span class="feature-…">Software only. …</span></li>
    const label = page.getByText(/^Compositing:/).first();
    await label.waitFor({ timeout: 10_000 });
    return (await label.locator('xpath=following-sibling::span[1]').innerText()).trim();
  } finally {
    await page.close();
  }
}

/**
 * The floor: a bare page (no framework, no worker, no socket) that changes what the live
 * Overview changes once a second, where it changes it: the same canvases (backing size, place
 * and clip) cleared and drawn again (an area and a line through 120 points each), half the
 * legend values given new text, the axis labels moved. What any page showing those pixels
 * costs this Chromium, whatever draws them.
 */
function floorPage(parts: ChartParts): string {
  return `<!doctype html><html><body style="margin:0;font:11px 'DejaVu Sans Mono',monospace"><script>
const parts = ${JSON.stringify(parts)};
const box = (r, parent) => { const d = document.createElement('div'); d.style.cssText = 'position:absolute;overflow:hidden;left:' + r.x + 'px;top:' + r.y + 'px;width:' + r.w + 'px;height:' + r.h + 'px'; parent.appendChild(d); return d; };
const strips = parts.canvases.map((c) => {
  const clip = box(c.clip, document.body);
  const el = document.createElement('canvas');
  el.width = c.pw; el.height = c.ph;
  el.style.cssText = 'position:absolute;left:' + (c.x - c.clip.x) + 'px;top:' + (c.y - c.clip.y) + 'px;width:' + c.w + 'px;height:' + c.h + 'px';
  clip.appendChild(el);
  return { c, ctx: el.getContext('2d') };
});
const spans = (list) => list.map((p) => { const s = document.createElement('span'); s.style.cssText = 'position:absolute;left:' + p.x + 'px;top:' + p.y + 'px'; s.textContent = '0.000'; document.body.appendChild(s); return s; });
const values = spans(parts.values);
const labels = spans(parts.labels);
let n = 0;
function draw() {
  n++;
  for (const { c, ctx } of strips) {
    ctx.clearRect(0, 0, c.pw, c.ph);
    const y = (i) => c.ph * (0.5 + 0.4 * Math.sin((i + n) / 7));
    ctx.beginPath();
    ctx.moveTo(0, c.ph);
    for (let i = 0; i <= 120; i++) ctx.lineTo((i * c.pw) / 120, y(i));
    ctx.lineTo(c.pw, c.ph);
    ctx.globalAlpha = 0.35; ctx.fillStyle = '#4060c0'; ctx.fill(); ctx.globalAlpha = 1;
    ctx.beginPath();
    for (let i = 0; i <= 120; i++) ctx.lineTo((i * c.pw) / 120, y(i));
    ctx.lineWidth = 1.5; ctx.strokeStyle = '#2040a0'; ctx.stroke();
  }
  values.forEach((s, i) => { if ((i + n) % 2) s.textContent = (Math.random() * 100).toFixed(3); });
  labels.forEach((s, i) => { s.style.left = (parts.labels[i].x - (n % 30) * 10) + 'px'; });
}
setInterval(() => requestAnimationFrame(draw), 1000);
</script></body></html>`;
}

/** pmdash's side: CPU seconds of Chromium's processes, of the server and of Chromium's X server over SECONDS. */
async function pmdashCpu(): Promise<{ chromium: number; bridge: number; xvfb: number; charts: number; config: string; floor: number; floorText: string; detail: string }> {
  const { origin, proc } = await startBridge();
  const x = await startXvfb();
  try {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: !x, env: x ? { ...process.env, DISPLAY: x.display } : undefined });
    try {
      const config = `Chromium ${browser.version()} ${x ? 'headed on Xvfb' : 'headless (no Xvfb)'}, compositing: ${await compositing(browser)}`;
      const page = await browser.newPage({ viewport: VIEWPORT });
      await page.goto(`${origin}/?host=localhost`);
      await page.locator('[data-testid="chart"] [data-testid="legend-value"][data-value]:not([data-value=""])').first().waitFor({ timeout: 60_000 });
      await page.waitForTimeout(SETTLE_MS);
      const charts = await page.getByTestId('chart').count();
      // Chromium's processes are this process's descendants; the server and Xvfb are its own children.
      const serverPid = proc.pid ?? -1;
      const xPid = x?.proc.pid ?? -1;
      const pick = (): ProcStat[] => {
        const server = tree(serverPid);
        const display = tree(xPid);
        const skip = new Set([process.pid, ...server.map((p) => p.pid), ...display.map((p) => p.pid)]);
        return tree(process.pid).filter((p) => !skip.has(p.pid)).concat(server, display);
      };
      const roles = (): { pid: number; role: string }[] => pick().map((p) => ({ pid: p.pid, role: p.pid === serverPid ? 'bridge' : p.pid === xPid ? 'Xvfb' : processKind(p.pid) }));
      const threadsBefore = threadTicks(roles());
      const cpu = await cpuOver(pick, SECONDS);
      const threadsAfter = threadTicks(roles());
      const bridge = sum(cpu, (k) => k.endsWith(`:${serverPid}`));
      const xvfb = sum(cpu, (k) => k.endsWith(`:${xPid}`));
      const byKind = new Map<string, number>();
      for (const [k, v] of cpu) {
        if (k.endsWith(`:${serverPid}`) || k.endsWith(`:${xPid}`)) continue;
        const kind = processKind(Number(k.split(':').at(-1)));
        byKind.set(kind, (byKind.get(kind) ?? 0) + v);
      }
      // Threads using at least 0.02% of a core, busiest first (threads new meanwhile count from 0).
      const threads = [...threadsAfter]
        .map(([k, v]): [string, number] => [k, (v - (threadsBefore.get(k) ?? 0)) / HZ])
        .filter(([k, v]) => !k.startsWith('Xvfb:') && (v * 100) / SECONDS >= 0.02)
        .sort((a, b) => b[1] - a[1]);
      const parts = await chartParts(page);
      await page.close();
      // The floor, in the same browser and window, the app's page closed.
      const bare = await browser.newPage({ viewport: VIEWPORT });
      await bare.setContent(floorPage(parts));
      await bare.waitForTimeout(3000);
      const chromiumOnly = (): ProcStat[] => pick().filter((p) => p.pid !== serverPid && p.pid !== xPid);
      const floor = sum(await cpuOver(chromiumOnly, FLOOR_SECONDS));
      await bare.close();
      const pctOf = (v: number): string => `${((v * 100) / SECONDS).toFixed(2)}%`;
      const floorText = `${((floor * 100) / FLOOR_SECONDS).toFixed(2)}% (${parts.canvases.length} canvases, ${parts.values.length} legend values, ${parts.labels.length} axis labels)`;
      return { chromium: sum(cpu) - bridge - xvfb, bridge, xvfb, charts, config, floor: floor / FLOOR_SECONDS, floorText, detail: [...byKind].map(([k, v]) => `${k} ${pctOf(v)}`).join(', ') + `; by thread: ${threads.map(([k, v]) => `${k} ${pctOf(v)}`).join(', ')}` };
    } finally {
      await browser.close();
    }
  } finally {
    x?.proc.kill('SIGTERM');
    proc.kill('SIGTERM');
  }
}

/** pmchart's side: pmchart + pmtime (and Xvfb apart) over SECONDS; undefined without pmchart. */
async function pmchartCpu(): Promise<{ native: number; xvfb: number } | undefined> {
  const have = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
  if (!have('pmchart') || !have('xvfb-run')) return undefined;
  // Its own process group, so pmchart, the pmtime it starts and Xvfb all end together.
  const proc = spawn('xvfb-run', ['-a', '-s', '-screen 0 1280x1024x24', 'pmchart', '-h', 'localhost', '-t', '1sec', '-c', 'Overview', '-g', '1100x950'], { stdio: 'ignore', detached: true });
  const root = proc.pid ?? -1;
  try {
    const t0 = Date.now();
    while (!tree(root).some((p) => p.comm === 'pmtime')) {
      if (Date.now() - t0 > 30_000) throw new Error('pmchart did not start pmtime within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const cpu = await cpuOver(() => tree(root), SECONDS);
    return { native: sum(cpu, (k) => k.startsWith('pmchart:') || k.startsWith('pmtime:')), xvfb: sum(cpu, (k) => k.startsWith('Xvfb:')) };
  } finally {
    try {
      process.kill(-root, 'SIGTERM');
    } catch {
      // Already gone with its group.
    }
  }
}

/** The row; pmchart is measured after pmdash, each on an otherwise idle bench. */
export async function runLiveUiBenchmark(wanted: (name: string) => boolean): Promise<MeasuredResult[]> {
  if (!wanted(LIVE_UI_NAME)) return [];
  process.stderr.write(`bench: ${LIVE_UI_NAME} (2 × ${SECONDS} s + ${FLOOR_SECONDS} s)…\n`);
  const loadBefore = loadavg()[0] ?? NaN;
  const ours = await pmdashCpu();
  const native = await pmchartCpu();
  const loadAfter = loadavg()[0] ?? NaN;
  const pmdashMs = ((ours.chromium + ours.bridge) * 1000) / SECONDS;
  const nativeMs = native === undefined ? undefined : (native.native * 1000) / SECONDS;
  const pct = (s: number): string => `${((s * 100) / SECONDS).toFixed(2)}%`;
  return [
    {
      name: LIVE_UI_NAME,
      work:
        `CPU ms per second over ${SECONDS} s watching the local pmcd at 1 s: pmdash's live Overview (${ours.charts} charts; ${ours.config}) in Chromium ${pct(ours.chromium)} of a core (${ours.detail}) + the bridge ${pct(ours.bridge)} (its Xvfb ${pct(ours.xvfb)} besides); the floor, a bare page changing the same pixels once a second in the same Chromium, ${ours.floorText}` +
        (native ? `, vs pmchart + pmtime (Overview view under Xvfb) ${pct(native.native)} (Xvfb ${pct(native.xvfb)} besides)` : ', pmchart or xvfb-run missing') +
        (nativeMs ? `; the floor alone is ${((ours.floor * 1000) / nativeMs).toFixed(2)}× pmchart + pmtime, pmdash ${(pmdashMs / (ours.floor * 1000)).toFixed(2)}× the floor` : '') +
        `; load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
      pmdashMs,
      nativeMs,
      ratio: nativeMs === undefined || nativeMs === 0 ? undefined : pmdashMs / nativeMs,
    },
  ];
}
