// Live that keeps its data (issue 13): a new live interval keeps the samples already drawn,
// and after pmcd goes away and comes back the charts are live again within 5 s, with a
// "Retry now" meanwhile. pmcd itself is shared with other tests and never restarted: the
// live connection runs through a TCP relay this test starts and stops (its own `pmdash
// serve`, whose bridge lists only the relay), so "pmcd restart" is the relay going away.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chart, legendNumber, source } from './dash';

const RELAY_PORT = 18510;
const SERVE_PORT = 18511;
const HOST = `localhost:${RELAY_PORT}`;

/** A relay to the local pmcd that can be stopped (every connection cut) and started again. */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  start(): Promise<void> {
    const server = createServer((down) => {
      const up = connect(44321, 'localhost');
      for (const s of [down, up]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => (s === up ? down : up).destroy());
      }
      down.pipe(up);
      up.pipe(down);
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(RELAY_PORT, '127.0.0.1', () => resolve());
    });
  }

  stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

let relay: Relay;
let serve: ChildProcess;

test.beforeAll(async () => {
  relay = new Relay();
  await relay.start();
  serve = spawn(process.execPath, ['bin/pmdash.js', 'serve', '--port', String(SERVE_PORT), '--pmcd', HOST], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`pmdash serve did not start: ${out}`)), 20_000);
    serve.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (/Open http/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
});

test.afterAll(async () => {
  serve.kill('SIGTERM');
  await relay.stop();
});

/** The default page of our own server, then a live connection to pmcd through the relay. */
async function openLive(page: Page): Promise<Locator> {
  await page.goto(`http://localhost:${SERVE_PORT}/`);
  await expect(page.getByTestId('time-bar')).toBeVisible();
  await page.getByTestId('host-input').fill(HOST);
  await page.getByTestId('connect-host').click();
  await expect(source(page, HOST)).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  // The live host replaces the untouched demo: its Overview is the tab on screen.
  await expect(source(page, HOST)).toHaveClass(/current/, { timeout: 30_000 });
  await expect(page.getByTestId('source')).toHaveCount(1, { timeout: 30_000 });
  // A live tab shows the live controls only: one Interval field.
  await expect(page.getByTestId('live-controls')).toBeVisible();
  await expect(page.getByTestId('interval')).toHaveCount(0);
  const load = chart(page, /Average Load/);
  await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 20_000 }).toBeGreaterThan(0);
  return load;
}

/** Sample times a paused live chart shows, newest first (the tooltip snaps to samples). */
async function sampleTimes(page: Page, c: Locator, count: number): Promise<number[]> {
  const box = await c.getByTestId('chart-body').boundingBox();
  if (!box) throw new Error('no chart body');
  const seen: number[] = [];
  for (let x = box.x + box.width - 2; x > box.x && seen.length < count; x -= 2) {
    await page.mouse.move(x, box.y + box.height / 2);
    // One round trip a step (two frames, then the tooltip's time): the sweep is long.
    const time = await c.evaluate(
      (chart) => new Promise<string | null>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(chart.querySelector('[data-testid="chart-tooltip"]')?.getAttribute('data-time') ?? null)))),
    );
    if (time === null) continue;
    const t = Number(time);
    if (!seen.includes(t)) seen.push(t);
  }
  await page.mouse.move(box.x + box.width / 2, box.y - 40);
  return seen;
}

test('changing the live interval keeps the samples already collected', async ({ page }) => {
  const load = await openLive(page);
  await page.waitForTimeout(5000);
  await page.getByTestId('live-pause').click();
  const before = await sampleTimes(page, load, 4);
  expect(before).toHaveLength(4);
  await page.getByTestId('live-pause').click();
  await page.getByTestId('live-interval').fill('0.5');
  await page.waitForTimeout(2500);
  await page.getByTestId('live-pause').click();
  const after = await sampleTimes(page, load, 14);
  // The samples from before the change are still drawn, at their 1 s spacing, after the new
  // ones at 0.5 s.
  for (const t of before) expect(after).toContain(t);
  const gaps = after.slice(1).map((x, i) => (after[i] ?? 0) - x);
  expect(gaps.some((g) => Math.abs(g - 500) < 100)).toBe(true);
  expect(gaps.some((g) => Math.abs(g - 1000) < 150)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('live-after-interval.png') });
});

test('after pmcd goes away and comes back the charts are live again within 5 s; "Retry now" meanwhile', async ({ page }) => {
  const load = await openLive(page);
  const conn = source(page, HOST).getByTestId('connection');
  const end = async (): Promise<number> => Number(await load.getAttribute('data-window-end'));
  await relay.stop();
  await expect(conn).toHaveAttribute('data-state', /reconnecting|connecting/, { timeout: 10_000 });
  // Long enough for any back-off to reach its cap.
  await page.waitForTimeout(8000);
  await expect(page.getByTestId('live-retry')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('live-reconnecting.png') });
  await relay.start();
  const back = Date.now();
  await expect.poll(end, { timeout: 10_000, intervals: [100] }).toBeGreaterThan(back);
  expect(Date.now() - back).toBeLessThan(5000);
  await expect(conn).toHaveAttribute('data-state', 'connected');

  // "Retry now" does not wait for the back-off.
  await relay.stop();
  await expect(page.getByTestId('live-retry')).toBeVisible({ timeout: 10_000 });
  await page.waitForTimeout(4000);
  await relay.start();
  const asked = Date.now();
  await page.getByTestId('live-retry').click();
  await expect(conn).toHaveAttribute('data-state', 'connected', { timeout: 5000 });
  expect(Date.now() - asked).toBeLessThan(2000);
  await expect.poll(end, { timeout: 5000, intervals: [100] }).toBeGreaterThan(asked);
});
