// CSV export against pmval: the engine (EngineApi in-process, the same code the worker runs)
// fetches a chart's window from a QA archive, src/ui/export/csv.ts writes the CSV, and every
// cell must equal what `pmval -f 6` prints for that metric, instance and time (rates for
// counters, "No values available" as an empty cell), with times in UTC.
import { openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineApi } from '../src/workers/engine-api';
import type { PlotRequest, SeriesBlock, SourceSummary } from '../src/workers/engine-types';
import { chartColumns, formatCsv } from '../src/ui/export/csv';
import type { ChartSpec } from '../src/ui/state/model';
import { UTC_ZONE } from '../src/ui/time/zone';
import { PYTHON, QA_ARCHIVES, runTool } from './oracle';
import { readdirSync } from 'node:fs';
import { ctime, pmvalTable } from './pmval-table';

async function openQa(api: EngineApi, base: string): Promise<SourceSummary> {
  const files = await Promise.all(['meta', 'index', '0'].map(async (s) => ({ path: `${base}.${s}`, file: await openAsBlob(join(QA_ARCHIVES, `${base}.${s}`)) })));
  return api.open({ kind: 'files', files });
}

/** Parses our CSV into header → (HH:MM:SS.mmm → cell). */
function parseCsv(text: string): Map<string, Map<string, string>> {
  const [head = '', ...rows] = text.trimEnd().split('\r\n');
  const headers = head.split(',').slice(1).map((h) => h.replace(/^"|"$/g, '').replace(/""/g, '"'));
  const out = new Map(headers.map((h) => [h, new Map<string, string>()] as const));
  for (const row of rows) {
    const [time = '', ...cells] = row.split(',');
    const clock = /T(\d\d:\d\d:\d\d\.\d{3})/.exec(time)?.[1] ?? '';
    headers.forEach((h, i) => out.get(h)?.set(clock, cells[i] ?? ''));
  }
  return out;
}

interface Case {
  readonly archive: string;
  readonly metrics: readonly string[];
  /** Offsets from the archive start, seconds: window start and end; and the step. */
  readonly fromSec: number;
  readonly toSec: number;
  readonly stepSec: number;
}

const CASES: readonly Case[] = [
  { archive: 'interpmark', metrics: ['disk.all.total', 'mem.util.kernelStack', 'kernel.all.uptime'], fromSec: 3, toSec: 55, stepSec: 4 },
  { archive: 'omnibus_v3', metrics: ['sample.ulong.bin_ctr', 'sample.double.bin_ctr', 'sample.colour', 'sample.long.million', 'sample.proc.time'], fromSec: 0.5, toSec: 9, stepSec: 0.5 },
];

describe('CSV export equals pmval', () => {
  it.each(CASES.map((c) => [c.archive, c] as const))('%s', async (_name, c) => {
    const api = new EngineApi();
    const src = await openQa(api, c.archive);
    // Whole milliseconds, so pmval's -S (printed to the millisecond) starts on the same grid.
    const t0Ms = Math.ceil(src.startMs) + c.fromSec * 1000;
    const t1Ms = Math.ceil(src.startMs) + c.toSec * 1000;
    const plots: PlotRequest[] = c.metrics.map((metric) => ({ metric, instances: { kind: 'all' } }));
    const block: SeriesBlock = await api.fetchSeries({ handle: src.handle, plots, t0Ms, t1Ms, stepMs: c.stepSec * 1000, rate: true });
    const chart: ChartSpec = {
      id: 'c1', title: 'export', style: 'line', yScale: { mode: 'auto' }, legend: true, rate: true, hidden: [],
      plots: c.metrics.map((metric, i) => ({ id: `p${i}`, sourceId: 's1', metric, instances: { kind: 'all' } })),
    };
    const columns = chartColumns(chart, new Map([['s1', block]]), new Map([['s1', src.hostname]]), false);
    const csv = parseCsv(formatCsv(block.timestamps, columns, UTC_ZONE));
    expect(csv.size).toBe(columns.length);
    let compared = 0;
    let empty = 0;
    for (const [plot, metric] of c.metrics.entries()) {
      const table = await pmvalTable(join(QA_ARCHIVES, c.archive), metric, ctime(t0Ms), ctime(t1Ms), c.stepSec);
      const units = block.plots[plot]?.units.text ?? '';
      const counter = block.plots[plot]?.sem === 1;
      for (const col of block.columns.filter((x) => x.plot === plot)) {
        const header = `${metric}${col.instName ? `[${col.instName}]` : ''}${units ? ` (${units})` : ''}`;
        const ours = csv.get(header);
        expect(ours, header).toBeDefined();
        const theirs = table.get(col.instName);
        if (!theirs) {
          // An instance pmval never showed in this window has no value anywhere in ours.
          expect([...(ours?.values() ?? [])].filter((v) => v !== ''), header).toEqual([]);
          continue;
        }
        let first = true;
        for (const [clock, want] of theirs) {
          const got = ours?.get(clock);
          expect(got, `${header} at ${clock}`).toBeDefined();
          // pmval's first row of a counter has no rate yet; ours was primed one step earlier.
          if (first && counter) {
            first = false;
            continue;
          }
          first = false;
          if (want === '') {
            expect(got, `${header} at ${clock}: pmval has no value`).toBe('');
            empty++;
          } else {
            const g = Number(got);
            expect(Math.abs(g - Number(want)), `${header} at ${clock}: ours ${got}, pmval ${want}`).toBeLessThanOrEqual(5e-7 + Math.abs(g) * 1e-12);
            compared++;
          }
        }
      }
      // Every instance pmval printed is a column of ours.
      for (const name of table.keys()) expect(block.columns.some((x) => x.plot === plot && x.instName === name), `${metric}[${name}]`).toBe(true);
    }
    expect(compared).toBeGreaterThan(20);
    // interpmark's marks leave rows without values: those must stay empty cells.
    if (c.archive === 'interpmark') expect(empty).toBeGreaterThan(5);
    await api.close(src.handle);
  });
});

describe('CSV export of a FLOAT metric', () => {
  it('prints each value in float32 precision: exactly libpcp\'s value, shortest text (0.32, not 0.3199999928474426)', async () => {
    const base = '20180416.10.00';
    const api = new EngineApi();
    const names = readdirSync(QA_ARCHIVES).filter((f) => f.startsWith(`${base}.`));
    const src = await api.open({ kind: 'files', files: await Promise.all(names.map(async (f) => ({ path: f, file: await openAsBlob(join(QA_ARCHIVES, f)) }))) });
    const n = 30;
    // The label start (whole µs) + 600 s, every 10 s: the oracle's -S +600 grid.
    const t0Ms = src.startMs + 600_000;
    const block = await api.fetchSeries({ handle: src.handle, plots: [{ metric: 'kernel.all.load', instances: { kind: 'all' } }], t0Ms, t1Ms: t0Ms + (n - 1) * 10_000, stepMs: 10_000, rate: true });
    await api.close(src.handle);
    expect(block.plots[0]?.float32).toBe(true);
    const chart: ChartSpec = { id: 'c1', title: 'load', style: 'line', yScale: { mode: 'auto' }, legend: true, rate: true, hidden: [], plots: [{ id: 'p0', sourceId: 's1', metric: 'kernel.all.load', instances: { kind: 'all' } }] };
    const columns = chartColumns(chart, new Map([['s1', block]]), new Map([['s1', src.hostname]]), false);
    const [head = '', ...rows] = formatCsv(block.timestamps, columns, UTC_ZONE).trimEnd().split('\r\n');
    const headers = head.split(',').slice(1);
    // libpcp's values (pmExtractValue to FLOAT, widened to a Python float = a double).
    const req = { archive: join(QA_ARCHIVES, base), metrics: ['kernel.all.load'], start: '+600sec', finish: null, interval: '10sec', samples: n, raw: false, instances: null };
    const run = await runTool(PYTHON, [join(import.meta.dirname, 'oracle', 'values-interp.py'), JSON.stringify(req)], { timeoutMs: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    const samples = run.stdout.trimEnd().split('\n').slice(1).map((l) => (JSON.parse(l) as { values: Record<string, Record<string, number | null>> }).values['kernel.all.load'] ?? {});
    expect(samples).toHaveLength(n);
    let compared = 0;
    rows.forEach((row, r) => {
      const cells = row.split(',').slice(1);
      headers.forEach((h, i) => {
        const inst = /\[(.*)\]/.exec(h)?.[1] ?? '';
        const want = samples[r]?.[inst];
        const got = cells[i] ?? '';
        if (typeof want !== 'number') return expect(got, `${h} row ${r}`).toBe('');
        // Reads back as libpcp's float exactly, in at most 9 significant digits, none to spare.
        expect(Math.fround(Number(got)), `${h} row ${r}: ${got} vs ${want}`).toBe(want);
        const digits = got.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').length;
        expect(digits).toBeLessThanOrEqual(9);
        if (digits > 1) expect(Math.fround(Number(want.toPrecision(digits - 1)))).not.toBe(want);
        compared++;
      });
    });
    expect(compared).toBeGreaterThan(60);
    // The case from the issue: no float noise in the text.
    expect(rows.join('\n')).not.toMatch(/\d{10,}/);
  });
});

