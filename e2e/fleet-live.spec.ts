// Live through pmproxy's /pmapi (issue 15 item 5): from the default page of `pmdash serve
// --pmproxy URL`, the Fleet panel's "Live via pmproxy" opens a host pmproxy reaches — the
// same live Overview, pause and connection state as the bridge's live hosts, with no bridge.
// Two outages: this spec's own throwaway pmproxy (test/throwaway-pmproxy.ts, on ports of
// PMDASH_E2E_PORT's range) between the page and the shared pmcd is stopped and started
// again; and a pmcd of the test's own (test/throwaway-pmcd.ts) behind that pmproxy is
// restarted. The machine's pmcd is shared and never restarted here.
import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { runTool } from '../test/oracle';
import { ThrowawayPmcd } from '../test/throwaway-pmcd';
import { startThrowawayPmproxy, type ThrowawayPmproxy } from '../test/throwaway-pmproxy';
import { chart, chartMetric, legendNumber, source } from './dash';

const base = Number(process.env.PMDASH_E2E_PORT ?? 8145);
const SERVE_PORT = base + 2;
const PMPROXY_PORT = base + 3;
const STORE_PORT = base + 4;
const LABEL = 'localhost via pmproxy';

let px: ThrowawayPmproxy;
let serve: ChildProcess;

test.beforeAll(async () => {
  px = await startThrowawayPmproxy({ port: PMPROXY_PORT, storePort: STORE_PORT });
  serve = spawn(process.execPath, ['bin/pmdash.js', 'serve', '--port', String(SERVE_PORT), '--pmproxy', px.url], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`pmdash serve did not start: ${out}`)), 20_000);
    const read = (d: Buffer): void => {
      out += d.toString();
      if (/Open http/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    serve.stdout?.on('data', read);
    serve.stderr?.on('data', read);
  });
});

test.afterAll(async () => {
  serve?.kill('SIGTERM');
  await px?.stop();
});

test('a live host through pmproxy /pmapi updates, pauses, and is live again after pmproxy goes away and comes back', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://localhost:${SERVE_PORT}/`);
  await expect(page.getByTestId('time-bar')).toBeVisible();
  await expect(page.getByTestId('fleet-panel')).toBeVisible();
  await page.getByTestId('pmapi-host').fill('localhost');
  await page.getByTestId('pmapi-connect').click();
  const src = source(page, LABEL);
  await expect(src).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  // It replaces the untouched demo: its live Overview is on screen, with the live controls.
  await expect(src).toHaveClass(/current/, { timeout: 30_000 });
  await expect(page.getByTestId('live-controls')).toBeVisible();
  const conn = src.getByTestId('connection');
  await expect(conn).toHaveAttribute('data-state', 'connected');

  // Values as pminfo reads them from pmcd: the CPU count; CPU user time (a counter) as a rate that keeps changing.
  const ncpu = /value (\d+)/.exec((await runTool('pminfo', ['-h', 'localhost', '-f', 'hinv.ncpu'])).stdout)?.[1];
  const load = chart(page, /Average Load/);
  await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 20_000 }).toBe(Number(ncpu));
  const cpu = chart(page, /CPU Utilization/);
  const seen = new Set<number>();
  await expect.poll(async () => {
    seen.add(await legendNumber(cpu, 'User'));
    return [...seen].filter((v) => !Number.isNaN(v)).length;
  }, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  await page.screenshot({ path: test.info().outputPath('pmapi-live.png') });

  // Pause: the window stops moving; resume: it moves again.
  const end = async (): Promise<number> => Number(await load.getAttribute('data-window-end'));
  await page.getByTestId('live-pause').click();
  await page.waitForTimeout(500);
  const frozen = await end();
  await page.waitForTimeout(2500);
  expect(await end()).toBe(frozen);
  await page.getByTestId('live-pause').click();
  await expect.poll(end, { timeout: 10_000 }).toBeGreaterThan(frozen);

  // pmproxy goes away: the source says it is reconnecting; it comes back: live again.
  await px.stopProxy();
  await expect(conn).toHaveAttribute('data-state', 'reconnecting', { timeout: 10_000 });
  await page.waitForTimeout(3000);
  await page.screenshot({ path: test.info().outputPath('pmapi-reconnecting.png') });
  await px.restart();
  const back = Date.now();
  await expect.poll(end, { timeout: 15_000, intervals: [100] }).toBeGreaterThan(back);
  await expect(conn).toHaveAttribute('data-state', 'connected');
  // Rates start afresh on the new pmproxy context, and keep coming.
  const after = new Set<number>();
  await expect.poll(async () => {
    after.add(await legendNumber(cpu, 'User'));
    return [...after].filter((v) => !Number.isNaN(v)).length;
  }, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  await expect.poll(() => legendNumber(load, '# cpus'), { timeout: 10_000 }).toBe(Number(ncpu));
  expect(errors).toEqual([]);
});

test('a live host through pmproxy /pmapi is live again after its pmcd restarts', async ({ page }) => {
  const pmcd = await ThrowawayPmcd.start();
  try {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://localhost:${SERVE_PORT}/`);
    await expect(page.getByTestId('fleet-panel')).toBeVisible();
    await page.getByTestId('pmapi-host').fill(pmcd.host);
    await page.getByTestId('pmapi-connect').click();
    const src = source(page, `${pmcd.host} via pmproxy`);
    await expect(src).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    const conn = src.getByTestId('connection');
    await expect(conn).toHaveAttribute('data-state', 'connected');
    // pmcd's own pid tells the old pmcd from the new one.
    const c = await chartMetric(page, 'pmcd.pid');
    const pidShown = async (): Promise<number> => legendNumber(c, (await c.getByTestId('legend-item').first().getAttribute('data-label')) ?? '');
    const pminfoPid = async (): Promise<number> => Number(/value (\d+)/.exec((await runTool('pminfo', ['-h', pmcd.host, '-f', 'pmcd.pid'])).stdout)?.[1]);
    const before = await pminfoPid();
    await expect.poll(pidShown, { timeout: 20_000 }).toBe(before);

    await pmcd.restart();
    const after = await pminfoPid();
    expect(after).not.toBe(before);
    // The chart goes on with the new pmcd's values, and the source says it is connected.
    await expect.poll(pidShown, { timeout: 30_000 }).toBe(after);
    await expect(conn).toHaveAttribute('data-state', 'connected');
    const end = async (): Promise<number> => Number(await c.getAttribute('data-window-end'));
    const t = await end();
    await expect.poll(end, { timeout: 10_000 }).toBeGreaterThan(t);
    await page.screenshot({ path: test.info().outputPath('pmapi-after-pmcd-restart.png') });
    expect(errors).toEqual([]);
  } finally {
    await pmcd.dispose();
  }
});
