// The first thing a newcomer sees: `npm start` opens the bundled demo archive, names its host
// and time span (read here from the archive by pmdumplog, the oracle) and shows the Overview
// charts with data in them.
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { chart, legendNumber, openApp, source } from './dash';

const DEMO = 'public/demo/pmdash-demo';

/** Host and ctime-style start/end (whole seconds) as pmdumplog -L prints them. */
function demoLabel(): { host: string; start: string; end: string } {
  const out = execFileSync('pmdumplog', ['-L', '-Z', 'UTC', DEMO], { encoding: 'utf8' });
  const host = /^Performance metrics from host (.*)$/m.exec(out)?.[1];
  const start = /^\s+commencing (.*)$/m.exec(out)?.[1];
  const end = /^\s+ending\s+(.*)$/m.exec(out)?.[1];
  if (!host || !start || !end) throw new Error(`unexpected pmdumplog -L output:\n${out}`);
  const whole = (t: string): string => t.replace(/\.\d+/, '');
  return { host, start: whole(start), end: whole(end) };
}

test('the app opens the bundled demo archive with its host, time span and Overview charts', async ({ page }) => {
  const label = demoLabel();
  await openApp(page);
  await expect(source(page, 'pmdash-demo')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('headline-host')).toHaveText(label.host);
  await expect(page.getByTestId('headline-span')).toHaveText(`${label.start} – ${label.end}`);
  await expect(page.getByTestId('chart')).toHaveCount(5);
  const cpu = chart(page, /CPU Utilization/);
  await expect.poll(() => legendNumber(cpu, 'Idle'), { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
});
