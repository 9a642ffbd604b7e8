// `ui: live Overview CPU`: what watching the local pmcd live costs the machine. pmdash: the
// built app in Debian's chromium opened on the local host (`?host=localhost`: its live
// Overview, 1 s interval), through `pmdash serve`'s bridge; native: pmchart with the Overview
// view of the same host at 1 s under Xvfb, and the pmtime it starts. Each side settles, then
// the CPU time (/proc/PID/stat utime + stime, every thread) of its processes is read over the
// same 60 s: for pmdash every Chromium process (browser, renderer, GPU, utility) plus the
// `pmdash serve` process; for pmchart, pmchart and pmtime (Xvfb, the X server standing in for
// a display, is reported beside them). The sides run one after the other, not at once, so
// neither takes the other's core. The ratio is pmdash's CPU over pmchart + pmtime's.
import { chromium } from '@playwright/test';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { MeasuredResult } from './harness';
import { startBridge } from './live-bench';

export const LIVE_UI_NAME = 'ui: live Overview CPU';
const SECONDS = 60;
const SETTLE_MS = 8000;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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

/** pmdash's side: CPU seconds of Chromium's processes and of the server over SECONDS. */
async function pmdashCpu(): Promise<{ chromium: number; bridge: number; charts: number; detail: string }> {
  const { origin, proc } = await startBridge();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    // Tall enough for the whole Overview on screen, as pmchart's window shows all of it.
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    await page.goto(`${origin}/?host=localhost`);
    await page.locator('[data-testid="chart"] [data-testid="legend-value"][data-value]:not([data-value=""])').first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(SETTLE_MS);
    const charts = await page.getByTestId('chart').count();
    // Chromium's processes are this process's descendants; the server is its own child.
    const serverPid = proc.pid ?? -1;
    const pick = (): ProcStat[] => {
      const server = tree(serverPid);
      const skip = new Set([process.pid, ...server.map((p) => p.pid)]);
      return tree(process.pid).filter((p) => !skip.has(p.pid)).concat(server);
    };
    const roles = (): { pid: number; role: string }[] => pick().map((p) => ({ pid: p.pid, role: p.pid === serverPid ? 'bridge' : processKind(p.pid) }));
    const threadsBefore = threadTicks(roles());
    const cpu = await cpuOver(pick, SECONDS);
    const threadsAfter = threadTicks(roles());
    const bridge = sum(cpu, (k) => k.endsWith(`:${serverPid}`));
    const byKind = new Map<string, number>();
    for (const [k, v] of cpu) {
      if (k.endsWith(`:${serverPid}`)) continue;
      const kind = processKind(Number(k.split(':').at(-1)));
      byKind.set(kind, (byKind.get(kind) ?? 0) + v);
    }
    // Threads using at least 0.02% of a core, busiest first (threads new meanwhile count from 0).
    const threads = [...threadsAfter]
      .map(([k, v]): [string, number] => [k, (v - (threadsBefore.get(k) ?? 0)) / HZ])
      .filter(([, v]) => (v * 100) / SECONDS >= 0.02)
      .sort((a, b) => b[1] - a[1]);
    await page.close();
    const pctOf = (v: number): string => `${((v * 100) / SECONDS).toFixed(2)}%`;
    return { chromium: sum(cpu) - bridge, bridge, charts, detail: [...byKind].map(([k, v]) => `${k} ${pctOf(v)}`).join(', ') + `; by thread: ${threads.map(([k, v]) => `${k} ${pctOf(v)}`).join(', ')}` };
  } finally {
    await browser.close();
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
  process.stderr.write(`bench: ${LIVE_UI_NAME} (2 × ${SECONDS} s)…\n`);
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
        `CPU ms per second over ${SECONDS} s watching the local pmcd at 1 s: pmdash's live Overview (${ours.charts} charts) in Chromium ${pct(ours.chromium)} of a core (${ours.detail}) + the bridge ${pct(ours.bridge)}` +
        (native ? `, vs pmchart + pmtime (Overview view under Xvfb) ${pct(native.native)} (Xvfb ${pct(native.xvfb)} besides)` : ', pmchart or xvfb-run missing') +
        `; load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
      pmdashMs,
      nativeMs,
      ratio: nativeMs === undefined || nativeMs === 0 ? undefined : pmdashMs / nativeMs,
    },
  ];
}
