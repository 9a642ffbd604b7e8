// Archive windows whose step spans many logging intervals are fetched stepped: a fresh
// position through the temporal index for every row (pcp-core/context/interp-grid.ts). The
// values drawn must then be libpcp's for pmSetMode(PM_MODE_INTERP, t, Δ) before each pmFetch
// (test/oracle/grid-fetch.py, python3-pcp doing exactly that loop), and counters' rates those
// taken between the fetched samples, as pmchart does. Smaller steps replay sequentially and
// must equal libpcp's one-pmSetMode loop. Archives are opened as a drop opens them (the
// engine probes the logging interval), on QA archives: xz multi-volume, a plain v2, a v3.
import { openAsBlob, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QA_ARCHIVES, queryPythonOracle } from '../../test/oracle';
import { STEPPED_MIN_INTERVALS } from '../pcp-core/context/interp-grid';
import { EngineApi } from './engine-api';
import type { DroppedFile, PlotRequest, SeriesBlock, SourceSummary } from './engine-types';

type OracleRow = { readonly error: number } | { readonly t: [number, number]; readonly raw: Record<string, Record<string, number>>; readonly rate: Record<string, Record<string, number | null>> };

const DERIVED_EXPR = 'kernel.all.cpu.user + kernel.all.cpu.sys';
const DERIVED_NAME = 'pmdash.test.cpu_busy';

interface Case {
  readonly name: string;
  readonly path: string;
  readonly plots: readonly PlotRequest[];
  /** Steps in logging intervals: below STEPPED_MIN_INTERVALS sequential, at or above stepped. */
  readonly steps: readonly number[];
  /** Window start after the archive's start, in logging intervals. */
  readonly offset: number;
  readonly rows: number;
}

const all = { kind: 'all' } as const;
const CASES: Case[] = [
  {
    name: '20180416.10.00 (4 xz volumes)',
    path: join(QA_ARCHIVES, '20180416.10.00'),
    plots: [
      { metric: 'kernel.all.cpu.user', instances: all },
      { metric: 'kernel.all.load', instances: { kind: 'list', names: ['1 minute', '15 minute'] } },
      { metric: 'disk.dev.read', instances: all },
      { metric: 'network.interface.in.bytes', instances: all },
      { metric: 'mem.util.free', instances: all },
      { metric: DERIVED_NAME, expr: DERIVED_EXPR, instances: all },
    ],
    steps: [2.5, 4, 9.3, 37],
    offset: 3.7,
    rows: 80,
  },
  {
    name: '20180102 (v2, plain)',
    path: join(QA_ARCHIVES, '20180102'),
    plots: [
      { metric: 'kernel.all.cpu.sys', instances: all },
      { metric: 'kernel.all.load', instances: all },
      { metric: 'disk.all.read', instances: all },
      { metric: 'network.interface.in.bytes', instances: all },
      { metric: DERIVED_NAME, expr: DERIVED_EXPR, instances: all },
    ],
    steps: [1, 5, 11.5],
    offset: 0.4,
    rows: 60,
  },
  {
    name: 'pmdash demo (v3, xz)',
    path: join(import.meta.dirname, '..', '..', 'public', 'demo', 'pmdash-demo'),
    plots: [
      { metric: 'disk.all.read', instances: all },
      { metric: 'disk.dev.read', instances: all },
      { metric: 'network.interface.out.bytes', instances: all },
      { metric: 'mem.util.free', instances: all },
      { metric: DERIVED_NAME, expr: 'disk.all.read + disk.all.write', instances: all },
    ],
    steps: [2, 6, 17],
    offset: 2.2,
    rows: 50,
  },
];

/** Every file of the archive `path` (NAME.*), as a drop hands them over. */
async function dropped(path: string): Promise<DroppedFile[]> {
  const dir = dirname(path);
  const base = basename(path);
  const names = readdirSync(dir).filter((f) => f.startsWith(`${base}.`) && /^\.(meta|index|\d+)(\.\w+)?$/.test(f.slice(base.length)));
  return Promise.all(names.map(async (f) => ({ path: f, file: await openAsBlob(join(dir, f)) })));
}

const toSpec = (ms: number): [number, number] => {
  const ns = BigInt(ms) * 1_000_000n;
  return [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];
};

/** What libpcp gives for the grid rows t0, t0+step, …: per column, NaN where nothing. */
async function expected(c: Case, plots: readonly PlotRequest[], block: SeriesBlock, rate: boolean): Promise<number[][]> {
  const prime = rate ? 1 : 0;
  const metrics = [...new Set(plots.map((p) => (p.expr ? DERIVED_NAME : p.metric)))];
  const exprs = plots.filter((p) => p.expr).map((p) => [DERIVED_NAME, p.expr]);
  const rows = await queryPythonOracle<OracleRow[]>('grid-fetch.py', {
    archive: c.path,
    metrics,
    derived: exprs,
    origin: toSpec(block.t0Ms - prime * block.stepMs),
    delta: toSpec(block.stepMs),
    count: block.timestamps.length + prime,
    stepped: block.replay === 'stepped',
  });
  return block.columns.map((col) => {
    const p = plots[col.plot];
    const name = p?.expr ? DERIVED_NAME : (p?.metric ?? '');
    const out: number[] = [];
    for (let r = 0; r < block.timestamps.length; r++) {
      const row = rows[r + prime];
      if (!row || 'error' in row) {
        out.push(NaN);
        continue;
      }
      const counter = rate && row.rate[name] !== undefined;
      const v = counter ? row.rate[name]?.[col.instName] : row.raw[name]?.[col.instName];
      out.push(v === null || v === undefined ? NaN : v);
    }
    return out;
  });
}

function sameValues(ours: Float64Array, theirs: readonly number[], what: string): void {
  expect(ours.length, what).toBe(theirs.length);
  theirs.forEach((v, r) => {
    const o = ours[r] ?? NaN;
    if (Number.isNaN(v)) expect(o, `${what} row ${r}`).toBeNaN();
    // Raw values are equal; rates divide by time differences that both sides take between epoch
    // times held as doubles (pmval: seconds, ~2.4e-7 s resolution today; pmdash: milliseconds),
    // so over steps of a second or more they agree to 1e-6 relative.
    else expect(Math.abs(o - v), `${what} row ${r}: ${o} vs ${v}`).toBeLessThanOrEqual(Math.abs(v) * 1e-6);
  });
}

describe('archive windows on a grid equal libpcp fetching at each grid time', () => {
  for (const c of CASES) {
    describe(c.name, () => {
      let api: EngineApi | undefined;
      let summary: SourceSummary | undefined;
      afterAll(async () => {
        if (api && summary) await api.close(summary.handle);
      });
      const open = async (): Promise<{ api: EngineApi; summary: SourceSummary }> => {
        if (!api || !summary) {
          api = new EngineApi();
          summary = await api.open({ kind: 'files', files: await dropped(c.path) });
        }
        return { api, summary };
      };
      for (const intervals of c.steps) {
        const replay = intervals >= STEPPED_MIN_INTERVALS ? 'stepped' : 'sequential';
        for (const rate of [true, false]) {
          it(`step ${intervals} logging intervals (${replay}), ${rate ? 'counters as rates' : 'raw values'}`, async () => {
            const { api: engine, summary: s } = await open();
            expect(s.intervalMs).toBeGreaterThan(0);
            const stepMs = Math.ceil(intervals * s.intervalMs);
            const t0Ms = Math.round(s.startMs + c.offset * s.intervalMs);
            const block = await engine.fetchSeries({ handle: s.handle, plots: c.plots, t0Ms, t1Ms: t0Ms + (c.rows - 1) * stepMs, stepMs, rate });
            expect(block.replay).toBe(replay);
            const theirs = await expected(c, c.plots, block, rate);
            // Every plot drew something: the comparison is not over empty columns.
            for (let p = 0; p < c.plots.length; p++) {
              expect(block.columns.some((col) => col.plot === p && col.values.some((v) => Number.isFinite(v))), `plot ${c.plots[p]?.metric}`).toBe(true);
            }
            block.columns.forEach((col, i) => sameValues(col.values, theirs[i] ?? [], `${c.plots[col.plot]?.metric}[${col.instName}]`));
          });
        }
      }
    });
  }
});
