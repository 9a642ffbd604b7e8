// Exports (issue 8): the tab's visible data as CSV equals pmval's values at every row; the
// visible window as a PCP archive unpacks, passes pmlogcheck and pmdumplog shows the same
// records as the source for that window; a chart and a whole tab as PNG.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { scratchDir } from '../test/oracle';
import { chart, setIntervalSec, setPosition } from './dash';
import { DEMO, download, downloadText, openDemo, settled } from './menus';

test.describe('exports', () => {
  test.beforeEach(async ({ page }) => {
    await openDemo(page);
    // A 60-point window on a 5 s grid ending 300 s after the archive's start.
    await setIntervalSec(page, 5);
    await page.getByTestId('window').selectOption('60');
    await setPosition(page, '2026-11-21 12:09:50.351');
    await settled(page);
  });

  test('the tab’s visible data as CSV equals pmval', async ({ page }) => {
    const csv = await downloadText(await download(page, 'export', 'export-csv-tab'));
    const [head = '', ...rows] = csv.trimEnd().split('\r\n');
    expect(head.startsWith('Time (Etc/UTC),')).toBe(true);
    expect(rows).toHaveLength(61);
    expect(rows[0]?.startsWith('2026-11-21T12:04:50.351+00:00,')).toBe(true);
    expect(rows[60]?.startsWith('2026-11-21T12:09:50.351+00:00,')).toBe(true);
    const headers = head.split(',');
    const column = (h: string): string[] => {
      const i = headers.indexOf(h);
      expect(i, h).toBeGreaterThan(0);
      return rows.map((r) => r.split(',')[i] ?? '');
    };
    // pmval over the same grid: -S the first row, -t 5, 61 samples.
    const pmval = (metric: string, inst?: string): string[] => {
      const args = ['-Z', 'UTC', '-f', '6', '-a', DEMO, '-S', '@Sat Nov 21 12:04:50.351 2026', '-t', '5', '-s', '61'];
      if (inst) args.push('-i', `"${inst}"`);
      const out = execFileSync('pmval', [...args, metric], { encoding: 'utf8' });
      return out.split('\n').filter((l) => /^\d\d:\d\d:\d\d\.\d{3}\s/.test(l)).map((l) => {
        const v = l.trim().split(/\s+/).pop() ?? '';
        return /^[-+0-9.eE]+$/.test(v) ? v : '';
      });
    };
    const checks: [string, string, string?][] = [
      ['kernel.all.load[1 minute]', 'kernel.all.load', '1 minute'],
      ['disk.all.read (count / sec)', 'disk.all.read'],
      ['network.interface.in.bytes[eth0] (byte / sec)', 'network.interface.in.bytes', 'eth0'],
      ['mem.util.free (Kbyte)', 'mem.util.free'],
    ];
    let compared = 0;
    for (const [header, metric, inst] of checks) {
      if (!headers.includes(header)) continue;
      const ours = column(header);
      // For a counter pmval prints one row more than -s asks for (the first has no rate).
      const theirs = pmval(metric, inst).slice(0, 61);
      expect(theirs.length, metric).toBe(61);
      theirs.forEach((v, i) => {
        // pmval's first row of a counter has no rate yet (ours was primed a step earlier).
        if (v === '' && i === 0) return;
        if (v === '') expect(ours[i], `${header} row ${i}`).toBe('');
        else expect(Math.abs(Number(ours[i]) - Number(v)), `${header} row ${i}: ${ours[i]} vs ${v}`).toBeLessThanOrEqual(5e-7 + Math.abs(Number(v)) * 1e-12);
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(150);
  });

  test('the visible window as a PCP archive passes pmlogcheck and dumps like the source', async ({ page }) => {
    const d = await download(page, 'export', 'export-archive');
    expect(d.suggestedFilename()).toMatch(/^pmdash-demo-20261121T12045\dZ\.tar$/);
    const dir = scratchDir('pmdash-e2e-archive-');
    execFileSync('tar', ['-xf', await d.path(), '-C', dir]);
    const base = join(dir, d.suggestedFilename().replace(/\.tar$/, ''));
    expect(execFileSync('pmlogcheck', [base], { encoding: 'utf8' })).toBe('');
    const dump = (args: string[]): string => execFileSync('pmdumplog', ['-Z', 'UTC', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const label = dump(['-L', base]);
    expect(label).toContain('Performance metrics from host vm');
    const start = /commencing (.*)/.exec(label)?.[1] ?? '';
    const end = /ending {5}(.*)/.exec(label)?.[1] ?? '';
    const records = (text: string): string => {
      const lines = text.split('\n').filter((l) => !l.startsWith('Note: timezone'));
      return lines.slice(lines.findIndex((l) => /^\d\d:\d\d:\d\d\.\d+ +(\d+ metrics?|<mark>)/.test(l))).join('\n');
    };
    const ours = records(dump([base]));
    // The source from the copy's first record (-S is read to the microsecond, which is at or
    // before it) to a second after its last: the copy is exactly the start of that dump, and
    // the source's next record lies after the visible window.
    const endSec = /^(\w+ \w+ +\d+ [\d:]+)\.\d+ (\d+)$/.exec(end);
    const later = endSec ? `@${new Date(Date.parse(`${endSec[1]} ${endSec[2]} UTC`) + 2000).toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1 $3 $2 $5 $4')}` : '';
    const theirs = records(dump(['-S', `@${start}`, '-T', later, DEMO]));
    expect(ours.split('\n').length).toBeGreaterThan(1000);
    expect(theirs.startsWith(ours)).toBe(true);
    const next = /^\d\d:\d\d:(\d\d\.\d+) /m.exec(theirs.slice(ours.length))?.[1];
    expect(Number(next)).toBeGreaterThan(50.351762);
  });

  test('a chart and the whole tab as PNG', async ({ page }) => {
    await chart(page, /Average Load/).getByTestId('chart-title').click();
    const one = readFileSync(await (await download(page, 'export', 'export-png-chart')).path());
    const all = readFileSync(await (await download(page, 'export', 'export-png-tab')).path());
    for (const png of [one, all]) expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const size = (png: Buffer): [number, number] => [png.readUInt32BE(16), png.readUInt32BE(20)];
    const [w1, h1] = size(one);
    const [w2, h2] = size(all);
    expect(w1).toBeGreaterThan(600);
    expect(h1).toBeGreaterThan(180);
    expect(w2).toBe(w1);
    expect(h2).toBeGreaterThan(4 * h1);
  });
});
