// The chart of a counter and `pmdash values` of it give identical numbers: the worker's
// series (EngineApi.fetchSeries, what a chart draws) and the CLI run the core's one rate and
// units code (pcp-core/rate.ts, units.ts) over the same INTERP grid. Checked on QA archives
// with a byte counter, a millisecond counter (a time utilization) and a U32 counter that
// wraps, without and with PCP_COUNTER_WRAP — and the CLI's numbers against pmval's.
import { execFileSync } from 'node:child_process';
import { openAsBlob, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pmvalColumn } from '../../test/pmval-table';
import { QA_ARCHIVES } from '../../test/oracle';
import { main } from '../cli/main';
import { EngineApi } from './engine-api';
import type { DroppedFile, SeriesBlock } from './engine-types';

interface Case {
  readonly archive: string;
  readonly metric: string;
  /** One instance, or undefined for a singular metric. */
  readonly inst?: string;
  readonly intervalSec: number;
  readonly samples: number;
  readonly wrap: boolean;
}

async function dropOf(archive: string): Promise<DroppedFile[]> {
  const dir = dirname(archive);
  const base = basename(archive);
  // The archive's own files, compressed volumes included, as a drop of them gives them.
  const names = readdirSync(dir).filter((f) => f.startsWith(`${base}.`) && /^\.(meta|index|\d+)(\.xz)?$/.test(f.slice(base.length)));
  return Promise.all(names.map(async (f) => ({ path: f, file: await openAsBlob(join(dir, f)) })));
}

/** The chart's numbers: the worker's series of the plot, one per grid row (NaN = no value). */
async function chart(c: Case): Promise<{ values: number[]; units: string }> {
  const api = new EngineApi(undefined, undefined, { counterWrap: c.wrap });
  const base = c.archive.split('/').pop() ?? c.archive;
  const summary = await api.open({ kind: 'files', files: await dropOf(c.archive), archives: [base] });
  const stepMs = c.intervalSec * 1000;
  const block: SeriesBlock = await api.fetchSeries({
    handle: summary.handle,
    plots: [{ metric: c.metric, instances: c.inst === undefined ? { kind: 'all' } : { kind: 'list', names: [c.inst] } }],
    t0Ms: summary.startMs,
    t1Ms: summary.startMs + (c.samples - 1) * stepMs,
    stepMs,
    rate: true,
  });
  await api.close(summary.handle);
  const col = block.columns.find((x) => c.inst === undefined || x.instName === c.inst);
  if (!col) throw new Error(`no column for ${c.metric}`);
  return { values: [...col.values], units: block.plots[0]?.units.text ?? '' };
}

/** `pmdash values --json` of the same metric: one number (or NaN for no value) per sample. */
async function values(c: Case): Promise<number[]> {
  const argv = ['values', '--json', '-a', c.archive, '-t', `${c.intervalSec}sec`, '-s', String(c.samples), ...(c.inst === undefined ? [] : ['-i', `"${c.inst}"`]), c.metric];
  let out = '';
  let err = '';
  const had = process.env.PCP_COUNTER_WRAP;
  if (c.wrap) process.env.PCP_COUNTER_WRAP = '1';
  else delete process.env.PCP_COUNTER_WRAP;
  try {
    const status = await main(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
    if (status !== 0) throw new Error(`pmdash ${argv.join(' ')} exited ${status}: ${err}`);
  } finally {
    if (had === undefined) delete process.env.PCP_COUNTER_WRAP;
    else process.env.PCP_COUNTER_WRAP = had;
  }
  const lines = out.trimEnd().split('\n').slice(1);
  return lines.map((l) => {
    const row = JSON.parse(l) as { values: Record<string, Record<string, number | null>> };
    const per = row.values[c.metric] ?? {};
    const v = c.inst === undefined ? Object.values(per)[0] : per[c.inst];
    return typeof v === 'number' ? v : NaN;
  });
}


/** The environment with PCP_COUNTER_WRAP set or removed. */
function counterWrapEnv(wrap: boolean): NodeJS.ProcessEnv {
  const env = { ...process.env };
  if (wrap) env.PCP_COUNTER_WRAP = '1';
  else delete env.PCP_COUNTER_WRAP;
  return env;
}

const CASES: readonly Case[] = [
  { archive: join(QA_ARCHIVES, '20180416.10.00'), metric: 'disk.dev.read_bytes', inst: 'sda', intervalSec: 10, samples: 60, wrap: false },
  { archive: join(QA_ARCHIVES, '20180416.10.00'), metric: 'kernel.all.cpu.user', intervalSec: 7.5, samples: 60, wrap: false },
  { archive: join(QA_ARCHIVES, 'uwrap'), metric: 'sample.wrap.ulong', intervalSec: 0.5, samples: 240, wrap: false },
  { archive: join(QA_ARCHIVES, 'uwrap'), metric: 'sample.wrap.ulong', intervalSec: 0.5, samples: 240, wrap: true },
];

describe('a chart of a counter equals `pmdash values` of it', () => {
  for (const c of CASES) {
    it(`${c.archive.split('/').pop()} ${c.metric}${c.inst ? `[${c.inst}]` : ''} every ${c.intervalSec} s${c.wrap ? ' with PCP_COUNTER_WRAP' : ''}`, async () => {
      const [drawn, cli] = await Promise.all([chart(c), values(c)]);
      // Identical, not close: one code computes both.
      expect(drawn.values).toEqual(cli);
      expect(drawn.values.filter((v) => !Number.isNaN(v)).length, 'rows with a value').toBeGreaterThan(c.samples / 3);
      // And the CLI is pmval's (6 decimals as printed). pmval may print one sample more
      // than -s asks when -t is not whole seconds; the first -s are compared.
      const theirs = pmvalColumn({ archive: c.archive, metric: c.metric, inst: c.inst, stepSec: c.intervalSec, samples: c.samples, env: counterWrapEnv(c.wrap) }).slice(0, c.samples);
      expect(theirs).toHaveLength(cli.length);
      cli.forEach((v, i) => {
        const p = theirs[i] ?? NaN;
        if (Number.isNaN(p) || Number.isNaN(v)) expect([i, Number.isNaN(v)]).toEqual([i, Number.isNaN(p)]);
        else expect(Math.abs(v - p), `row ${i}: ${v} vs pmval ${p}`).toBeLessThanOrEqual(Math.abs(p) * 1e-9 + 5e-7);
      });
    });
  }

  it('labels the chart with the units pmval converts to', async () => {
    const c = CASES[0];
    if (!c) throw new Error('no case');
    expect((await chart(c)).units).toBe('Kbyte / sec');
    const header = execFileSync('pmval', ['-z', '-a', c.archive, '-s', '1', '-i', c.inst ?? '', c.metric], { encoding: 'utf8' });
    expect(header).toContain('(converting to Kbyte / sec)');
  });

  it('shows that wrapping differs: the same U32 counter has values only with PCP_COUNTER_WRAP', async () => {
    const [off, on] = [CASES[2], CASES[3]];
    if (!off || !on) throw new Error('no case');
    const [a, b] = await Promise.all([chart(off), chart(on)]);
    const lost = a.values.filter((v, i) => Number.isNaN(v) && !Number.isNaN(b.values[i] ?? NaN)).length;
    expect(lost).toBeGreaterThan(0);
  });

  it('plotUnits answers the units a chart draws each plot in: pmval\'s converted units for counters', async () => {
    const archive = join(QA_ARCHIVES, '20180416.10.00');
    const api = new EngineApi();
    const summary = await api.open({ kind: 'files', files: await dropOf(archive), archives: ['20180416.10.00'] });
    const metrics = ['disk.dev.read', 'disk.dev.read_bytes', 'kernel.all.cpu.user', 'kernel.all.load'];
    const answers = await api.plotUnits(summary.handle, [...metrics.map((metric) => ({ metric, instances: { kind: 'all' as const } })), { metric: 'per', expr: 'rate(disk.dev.read_bytes) / rate(disk.dev.read)', instances: { kind: 'all' } }, { metric: 'no.such.metric', instances: { kind: 'all' } }], true);
    await api.close(summary.handle);
    const text = answers.map((a) => (a.ok ? (a.units.utilization ? 'time utilization' : a.units.text || 'none') : a.error.code));
    // pmval's "units:" line: "<units> (converting to <rate units>)" for counters.
    const pmvalUnits = metrics.map((m) => {
      const out = execFileSync('pmval', ['-z', '-a', archive, '-s', '1', m], { encoding: 'utf8' });
      const line = /^units:\s+(.*)$/m.exec(out)?.[1] ?? '';
      return /\(converting to (.*)\)$/.exec(line)?.[1] ?? line;
    });
    expect(text.slice(0, metrics.length)).toEqual(pmvalUnits);
    expect(text.slice(metrics.length)).toEqual(['Kbyte / count', 'PM_ERR_NAME']);
  });
});
