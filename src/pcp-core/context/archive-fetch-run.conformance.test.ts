// Context.fetchRun against fetching one by one, on QA archives: a replay that takes every run
// it is offered must give, sample by sample, the same times, value-set shapes and values (a
// run's number equal to the fetch's AtomValue) and end at the same sample, as the same replay
// fetched one by one, which the libpcp comparisons (archive-context.conformance.test.ts)
// establish. Runs of varied lengths, all numeric metrics at once and single ones, deltas
// shorter and longer than the logging interval, PCP_COUNTER_WRAP, a profile changed mid-run.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DirFileSet } from '../../node/dir-file-set';
import { QA_ARCHIVES } from '../../../test/oracle';
import { PM_ERR_EOL, isPmError } from '../errors';
import type { AtomValue, PmId, Result, Timestamp } from '../types';
import { PM_INDOM_NULL, fetchRunTime, isNumericType, newFetchRun } from '../types';
import { openArchiveContext, type ArchiveContext } from './archive-context';
import { PM_MODE_INTERP } from './context';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const Q = (a: string): string => `${QA_ARCHIVES}/${a}`;

function text(v: AtomValue | number): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

function stamp(t: Timestamp): string {
  return `${t.sec}.${String(t.nsec).padStart(9, '0')}`;
}

function resultRow(r: Result): string {
  return `${stamp(r.timestamp)} ${r.sets.map((s) => `${s.pmid}:${s.numval}:${s.valfmt}[${Array.from(s.inst, (inst, i) => `${inst}=${text(s.values[i])}`).join(',')}]`).join(' ')}`;
}

interface Replay {
  readonly rows: string[];
  /** Samples that came from runs. */
  readonly fromRuns: number;
}

/**
 * INTERP from `origin` every `deltaNs`, up to `limit` samples or PM_ERR_EOL; with `runs`, every
 * run offered is taken (of 1 to 97 samples, varied from run to run).
 */
async function replay(ctx: ArchiveContext, ids: readonly PmId[], origin: Timestamp, deltaNs: bigint, limit: number, runs: boolean, midway?: (ctx: ArchiveContext) => void): Promise<Replay> {
  ctx.setMode(PM_MODE_INTERP, origin, deltaNs);
  const rows: string[] = [];
  const run = newFetchRun();
  let fromRuns = 0;
  let k = 0;
  while (rows.length < limit) {
    if (midway && rows.length >= limit / 2) {
      midway(ctx);
      midway = undefined;
    }
    try {
      rows.push(resultRow(await ctx.fetchEager(ids)));
    } catch (e) {
      if (isPmError(e) && e.code === PM_ERR_EOL) {
        rows.push('EOL');
        break;
      }
      throw e;
    }
    if (!runs) continue;
    const max = Math.min(limit - rows.length, 1 + ((k++ * 7919) % 97));
    const n = ctx.fetchRun(ids, max, run);
    expect(n).toBe(run.count);
    for (let j = 0; j < n; j++) {
      let c = j * run.width;
      const sets = run.sets.map((s) => `${s.pmid}:${s.numval}:${s.valfmt}[${Array.from(s.inst, (inst) => `${inst}=${text(run.values[c++])}`).join(',')}]`);
      rows.push(`${stamp(fetchRunTime(run, j))} ${sets.join(' ')}`);
    }
    fromRuns += n;
  }
  return { rows, fromRuns };
}

/** The archive's numeric metrics (one name per pmid), or those named. */
async function numericIds(ctx: ArchiveContext, names?: readonly string[]): Promise<PmId[]> {
  const all = names ?? (await ctx.traverse(''));
  const ids = (await ctx.lookupNames(all)) as PmId[];
  const descs = await ctx.lookupDescs(ids);
  const out: PmId[] = [];
  for (let i = 0; i < ids.length; i++) {
    const d = descs[i];
    if (typeof d === 'object' && isNumericType(d.type) && !out.includes(d.pmid)) out.push(d.pmid);
  }
  return out;
}

interface Case {
  readonly name: string;
  readonly path: string;
  readonly metrics?: readonly string[];
  readonly deltaNs: bigint;
  readonly limit: number;
  readonly counterWrap?: boolean;
  /** Runs must have made at least this share of the samples. */
  readonly minRunShare: number;
  /** Only the metrics with values at the first sample (a metric first logged later makes
   *  every fetch before then search the archive, as libpcp does: no run until it appears). */
  readonly presentAtStart?: boolean;
}

const CASES: Case[] = [
  { name: '20180102: kernel.all.cpu.user every 1 s', path: Q('20180102'), metrics: ['kernel.all.cpu.user'], deltaNs: 1_000_000_000n, limit: 20000, minRunShare: 0.9 },
  { name: '20180102: 5-instance and instantaneous metrics every 1 s', path: Q('20180102'), metrics: ['kernel.percpu.cpu.user', 'kernel.all.load', 'mem.util.used', 'disk.dev.read_bytes'], deltaNs: 1_000_000_000n, limit: 20000, minRunShare: 0.8 },
  // Metrics first logged later: no fetch is at hand before they appear, so runs are declined.
  { name: '20180102: every numeric metric every 7.3 s', path: Q('20180102'), deltaNs: 7_300_000_000n, limit: 400, minRunShare: 0 },
  { name: '20180102: every numeric metric logged from the start, every 7.3 s', path: Q('20180102'), deltaNs: 7_300_000_000n, limit: 1000, minRunShare: 0.25, presentAtStart: true },
  { name: '20180416.10.00 (xz): every numeric metric logged from the start, every 0.9 s', path: Q('20180416.10.00'), deltaNs: 900_000_000n, limit: 200, minRunShare: 0.3, presentAtStart: true },
  { name: '20180416.10.00 (xz): counters with PCP_COUNTER_WRAP', path: Q('20180416.10.00'), metrics: ['disk.dev.read', 'network.interface.in.bytes', 'kernel.all.cpu.sys'], deltaNs: 250_000_000n, limit: 3000, counterWrap: true, minRunShare: 0.5 },
  { name: 'interpmark (<mark>s)', path: Q('interpmark'), deltaNs: 100_000_000n, limit: 3000, minRunShare: 0.3 },
  { name: 'mark-bug', path: Q('mark-bug'), deltaNs: 130_000_000n, limit: 3000, minRunShare: 0.1 },
  { name: 'gap2', path: Q('gap2'), deltaNs: 210_000_000n, limit: 3000, minRunShare: 0.1 },
  { name: 'changeinst', path: Q('changeinst'), deltaNs: 170_000_000n, limit: 3000, minRunShare: 0.1 },
  { name: 'dyninsts', path: Q('dyninsts'), deltaNs: 90_000_000n, limit: 3000, minRunShare: 0.1 },
  { name: 'ok-mv-interp (3 volumes)', path: Q('ok-mv-interp'), deltaNs: 110_000_000n, limit: 3000, minRunShare: 0.1 },
  { name: 'multi (directory of archives)', path: Q('multi'), deltaNs: 330_000_000n, limit: 3000, minRunShare: 0.1 },
  { name: 'omnibus_v3', path: Q('omnibus_v3'), deltaNs: 50_000_000n, limit: 3000, minRunShare: 0.1 },
  { name: 'pmdash demo (V3, xz): every numeric metric', path: join(ROOT, 'public', 'demo', 'pmdash-demo'), deltaNs: 300_000_000n, limit: 3000, minRunShare: 0 },
  { name: 'pmdash demo (V3, xz): metrics logged from the start', path: join(ROOT, 'public', 'demo', 'pmdash-demo'), deltaNs: 300_000_000n, limit: 3000, minRunShare: 0.3, presentAtStart: true },
];

async function compare(c: Case, midway?: (ctx: ArchiveContext) => void): Promise<void> {
  const open = (): Promise<ArchiveContext> => openArchiveContext(new DirFileSet('/'), c.path, { counterWrap: c.counterWrap ?? false });
  const one = await open();
  const both = await open();
  try {
    const origin = one.set.label.start;
    let ids = await numericIds(one, c.metrics);
    if (c.presentAtStart) {
      one.setMode(PM_MODE_INTERP, origin, c.deltaNs);
      const first = await one.fetch(ids);
      ids = ids.filter((_, p) => first.sets[p].numval > 0);
    }
    expect(ids.length).toBeGreaterThan(0);
    const plain = await replay(one, ids, origin, c.deltaNs, c.limit, false, midway);
    const withRuns = await replay(both, ids, origin, c.deltaNs, c.limit, true, midway);
    expect(withRuns.rows.length).toBe(plain.rows.length);
    for (let k = 0; k < plain.rows.length; k++) if (withRuns.rows[k] !== plain.rows[k]) expect({ sample: k, row: withRuns.rows[k] }).toEqual({ sample: k, row: plain.rows[k] });
    expect(withRuns.fromRuns / plain.rows.length).toBeGreaterThanOrEqual(c.minRunShare);
  } finally {
    await one.close();
    await both.close();
  }
}

describe('Context.fetchRun gives what fetching one by one gives', () => {
  for (const c of CASES) it(c.name, () => compare(c), 120_000);

  it('20180102: an instance profile changed half way: the runs after it follow the new profile', async () => {
    const c = CASES[1];
    const probe = await openArchiveContext(new DirFileSet('/'), c.path);
    const [id] = (await probe.lookupNames(['kernel.percpu.cpu.user'])) as PmId[];
    const [desc] = await probe.lookupDescs([id]);
    await probe.close();
    if (typeof desc !== 'object' || desc.indom === PM_INDOM_NULL) throw new Error('kernel.percpu.cpu.user has no instance domain');
    const indom = desc.indom;
    await compare(c, (ctx) => ctx.changeProfile({ op: 'delete', indom, instances: [0] }));
  }, 120_000);
});
