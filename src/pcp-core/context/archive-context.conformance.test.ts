// ArchiveContext against libpcp on QA archives: the same pmSetMode / pmFetch /
// pmFetchArchive / pmGetArchiveEnd / profile scripts through python3-pcp
// (test/oracle/replay-fetch.py) and through the context; transcripts must be identical
// (times to the nanosecond, values exactly, error codes). Scripts are generated per archive:
// INTERP forwards and backwards from before the start, odd offsets, near and past the end,
// mode changes mid-replay, FORW/BACK fetches, whole-archive pmFetchArchive both ways,
// instance profiles; damaged archives (badarchives) for the error paths.
import { describe, expect, it } from 'vitest';
import { DirFileSet } from '../../node/dir-file-set';
import { QA_ARCHIVES, QA_BADARCHIVES } from '../../../test/oracle';
import { canonical, libpcpTranscript, pmdashTranscript, type ReplayDriver, type ReplayStep } from '../../../test/replay-compare';
import { isPmError } from '../errors';
import type { PmId, Timestamp } from '../types';
import { PM_INDOM_NULL, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING, isNumericType } from '../types';
import { openArchiveContext, type ArchiveContext } from './archive-context';
import { join } from 'node:path';

function driver(ctx: ArchiveContext): ReplayDriver {
  return {
    setMode: (mode, origin, deltaNs) => {
      ctx.setMode(mode as 1 | 2 | 3, origin, deltaNs);
      return Promise.resolve();
    },
    fetch: (pmids) => ctx.fetch(pmids),
    fetchArchive: () => ctx.fetchArchive(),
    archiveEnd: () => ctx.archiveEnd(),
    profile: async (op, metric, insts) => {
      let indom = null;
      if (metric !== null) {
        const [id] = await ctx.lookupNames([metric]);
        const [d] = await ctx.lookupDescs([id as PmId]);
        indom = typeof d === 'object' ? d.indom : null;
      }
      ctx.changeProfile({ op: op === 'add' ? 'add' : 'delete', indom, instances: insts });
    },
    isFloat: (pmid) => {
      const t = ctx.set.metadata.desc(pmid as PmId)?.type;
      return t === PM_TYPE_FLOAT || t === PM_TYPE_DOUBLE;
    },
  };
}

async function compareOnArchive(path: string, metrics: readonly string[], steps: readonly ReplayStep[], env: NodeJS.ProcessEnv = {}, releaseBeforeFetch = false): Promise<void> {
  const theirs = await libpcpTranscript(path, metrics, steps, env);
  const ctx = await openArchiveContext(new DirFileSet('/'), path, { counterWrap: env.PCP_COUNTER_WRAP !== undefined });
  try {
    const plain = driver(ctx);
    // Context.releaseMemory (the engine calls it when idle) between any two calls changes nothing.
    const d: ReplayDriver = releaseBeforeFetch
      ? {
          ...plain,
          fetch: (pmids) => {
            ctx.releaseMemory();
            return plain.fetch(pmids);
          },
        }
      : plain;
    const ours = await pmdashTranscript(d, theirs.pmids as PmId[], steps);
    expect(canonical(ours)).toEqual(canonical(theirs));
  } finally {
    await ctx.close();
  }
}

interface Survey {
  readonly metrics: string[];
  readonly indomMetric?: { name: string; insts: number[] };
  readonly start: Timestamp;
  readonly end: Timestamp;
}

/** Metrics spread over classes (one name per pmid: libpcp hangs on aliases, see deviations). */
async function survey(path: string, n: number): Promise<Survey> {
  const ctx = await openArchiveContext(new DirFileSet('/'), path);
  try {
    const names = await ctx.traverse('');
    const ids = (await ctx.lookupNames(names)) as PmId[];
    const descs = await ctx.lookupDescs(ids);
    const groups = new Map<string, string[]>();
    const seen = new Set<number>();
    let indomMetric: Survey['indomMetric'];
    for (let i = 0; i < names.length; i++) {
      const d = descs[i];
      if (typeof d !== 'object' || seen.has(d.pmid)) continue;
      if (!(isNumericType(d.type) || d.type === PM_TYPE_STRING)) continue;
      seen.add(d.pmid);
      const key = `${d.sem}/${d.type}/${d.indom === PM_INDOM_NULL ? 's' : 'i'}`;
      groups.set(key, [...(groups.get(key) ?? []), names[i]]);
      if (!indomMetric && d.indom !== PM_INDOM_NULL && isNumericType(d.type)) {
        const list = await ctx.getInDom(d.indom).catch((e: unknown) => {
          if (isPmError(e)) return undefined;
          throw e;
        });
        if (list && list.instances.length >= 3) indomMetric = { name: names[i], insts: [list.instances[0], list.instances[2]] };
      }
    }
    const lists = [...groups.values()];
    const out: string[] = [];
    for (let round = 0; out.length < n && lists.some((l) => l.length > round); round++) {
      for (const l of lists) if (l.length > round && out.length < n) out.push(l[(round * 7919) % l.length]);
    }
    const metrics = [...new Set(out)];
    if (indomMetric && !metrics.includes(indomMetric.name)) metrics.push(indomMetric.name);
    const start = ctx.source.kind === 'archive' ? ctx.source.start : { sec: 0, nsec: 0 };
    return { metrics, indomMetric, start, end: await ctx.archiveEnd() };
  } finally {
    await ctx.close();
  }
}

function at(t: Timestamp, seconds: number): readonly [number, number] {
  const ns = BigInt(t.sec) * 1_000_000_000n + BigInt(t.nsec) + BigInt(Math.round(seconds * 1e9));
  return [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];
}

function delta(seconds: number): readonly [number, number] {
  const ns = BigInt(Math.round(seconds * 1e9));
  const sec = ns / 1_000_000_000n;
  return [Number(sec), Number(ns - sec * 1_000_000_000n)];
}

/** The standard scripts for one archive. */
function scripts(s: Survey, opts: { records: number; big?: boolean; libpcpCorruptsMidBackwards?: boolean }): [string, ReplayStep[]][] {
  const span = (s.end.sec - s.start.sec) + (s.end.nsec - s.start.nsec) / 1e9;
  const few = (interval: number): number => Math.min(opts.big ? 60 : 250, Math.ceil(span / interval) + 3);
  const interp = (origin: readonly [number, number] | null, d: number): ReplayStep => ({ setMode: { mode: 'interp', origin, delta: delta(d) } });
  const out: [string, ReplayStep[]][] = [
    ['INTERP 7.3 s from 3.2 s before the start', [interp(at(s.start, -3.2), 7.3), { fetch: few(7.3) }]],
    ['INTERP 0.35 s from 0.0005 s before the start, then past the end', [interp(at(s.start, -0.0005), 0.35), { fetch: 40 }, interp(at(s.end, -1), 0.35), { fetch: 8 }]],
    ['INTERP 97 s from an odd offset', [interp(at(s.start, 1.123456789), 97), { fetch: few(97) }]],
    ['INTERP backwards 4.1 s from past the end', [interp(at(s.end, 0.0005), -4.1), { fetch: few(4.1) }]],
    ['INTERP backwards 0.7 s from mid-archive', [interp(at(s.start, span * 0.55), -0.7), { fetch: 60 }]],
    ['INTERP span/23, a mode change mid-way, then FORW', [interp(at(s.start, span * 0.1), span / 23), { fetch: 12 }, interp(null, span / 41), { fetch: 10 }, { setMode: { mode: 'forw', origin: null } }, { fetch: 5 }]],
    ['FORW from the start, BACK from the end, FORW from mid-archive', [{ setMode: { mode: 'forw', origin: at(s.start, 0) } }, { fetch: 25 }, { setMode: { mode: 'back', origin: at(s.end, 1) } }, { fetch: 25 }, { setMode: { mode: 'forw', origin: at(s.start, span * 0.43) } }, { fetch: 25 }, { end: true }]],
    ['pmFetchArchive forwards and backwards', [{ fetchArchive: opts.big ? 80 : opts.records }, { setMode: { mode: 'back', origin: at(s.end, 1) } }, { fetchArchive: opts.big ? 80 : opts.records }]],
  ];
  // badlog-3 holds a record stamped years before the label. Replaying backwards across it
  // from mid-archive, libpcp 6.0.3 returns values out of released PDU buffers (instance
  // 10889208, seconds and drift swapping values, a double free with sample.lights): there is
  // no answer to compare with. Our replay gives no values there (the bound before the start
  // counts as undefined, t < 0), as the algorithm says.
  if (opts.libpcpCorruptsMidBackwards) out.splice(out.findIndex(([t]) => t.startsWith('INTERP backwards 0.7')), 1);
  if (s.indomMetric) {
    out.push([
      `profile: two instances of ${s.indomMetric.name}`,
      [
        { profile: { op: 'del', metric: s.indomMetric.name } },
        { profile: { op: 'add', metric: s.indomMetric.name, insts: s.indomMetric.insts } },
        interp(at(s.start, 2.5), 3.3),
        { fetch: 30 },
        { setMode: { mode: 'forw', origin: at(s.start, 0) } },
        { fetch: 10 },
      ],
    ]);
  }
  return out;
}

const Q = (a: string): string => `${QA_ARCHIVES}/${a}`;
const ROOT = join(import.meta.dirname, '..', '..', '..');

const ARCHIVES: { name: string; path: string; metrics: number; records: number; big?: boolean; libpcpCorruptsMidBackwards?: boolean }[] = [
  { name: 'interpmark', path: Q('interpmark'), metrics: 10, records: 290 },
  { name: 'omnibus_v3', path: Q('omnibus_v3'), metrics: 12, records: 45 },
  { name: 'omnibus-nomark_v2', path: Q('omnibus-nomark_v2'), metrics: 10, records: 45 },
  { name: 'pmdash demo (V3, xz)', path: join(ROOT, 'public', 'demo', 'pmdash-demo'), metrics: 10, records: 200, big: true },
  { name: '20130706 (bz2)', path: Q('20130706'), metrics: 8, records: 200, big: true },
  { name: 'ok-mv-interp (3 volumes)', path: Q('ok-mv-interp'), metrics: 6, records: 80 },
  { name: 'ok-mv-bigbin (10 volumes)', path: Q('ok-mv-bigbin'), metrics: 6, records: 100 },
  { name: 'ok-mv-foo (3 volumes)', path: Q('ok-mv-foo'), metrics: 6, records: 60 },
  { name: 'multi (directory)', path: Q('multi'), metrics: 8, records: 40 },
  { name: 'multi-xz (directory)', path: Q('multi-xz'), metrics: 6, records: 40 },
  { name: 'mark-bug', path: Q('mark-bug'), metrics: 6, records: 120 },
  { name: 'changeinst', path: Q('changeinst'), metrics: 6, records: 60 },
  { name: 'dyninsts', path: Q('dyninsts'), metrics: 6, records: 40 },
  { name: 'gap2', path: Q('gap2'), metrics: 6, records: 60 },
  { name: 'pcp-atop (processes)', path: Q('pcp-atop'), metrics: 8, records: 20 },
  { name: 'ok-truncbin (truncated volume)', path: `${QA_BADARCHIVES}/ok-truncbin`, metrics: 6, records: 430 },
  { name: 'badlen-1 (damaged first record)', path: `${QA_BADARCHIVES}/badlen-1`, metrics: 6, records: 15 },
  { name: 'badti-4 (bad index offsets)', path: `${QA_BADARCHIVES}/badti-4`, metrics: 6, records: 15 },
  { name: 'badlog-3 (time goes backwards)', path: `${QA_BADARCHIVES}/badlog-3`, metrics: 6, records: 15, libpcpCorruptsMidBackwards: true },
];

const surveyed = await Promise.all(ARCHIVES.map(async (a) => ({ a, s: await survey(a.path, a.metrics) })));

describe('ArchiveContext replays QA archives as libpcp does', () => {
  for (const { a, s } of surveyed) {
    for (const [title, steps] of scripts(s, a)) {
      it(`${a.name}: ${title}`, () => compareOnArchive(a.path, s.metrics, steps));
    }
  }

  it('20180416.10.00 (4 xz volumes): INTERP across a volume switch and pmFetchArchive across it', () =>
    compareOnArchive(Q('20180416.10.00'), ['kernel.all.load', 'disk.dev.read', 'mem.util.used', 'network.interface.in.bytes'], [
      { setMode: { mode: 'interp', origin: [1523887285 + 5329, 0], delta: [7, 300000000] } },
      { fetch: 30 },
      { setMode: { mode: 'back', origin: [1523887285 + 5345, 0] } },
      { fetchArchive: 12 },
      { setMode: { mode: 'interp', origin: [1523887285 + 5370, 0], delta: [-0, -350000000] } },
      { fetch: 80 },
    ]));

  it('20180416.10.00: the same when every fetch follows a releaseMemory (caches dropped, state kept)', () =>
    compareOnArchive(
      Q('20180416.10.00'),
      ['kernel.all.load', 'disk.dev.read', 'mem.util.used', 'network.interface.in.bytes'],
      [
        { setMode: { mode: 'interp', origin: [1523887285 + 5329, 0], delta: [7, 300000000] } },
        { fetch: 10 },
        { setMode: { mode: 'back', origin: [1523887285 + 5345, 0] } },
        { fetch: 4 },
        { setMode: { mode: 'interp', origin: [1523887285 + 5370, 0], delta: [-0, -350000000] } },
        { fetch: 8 },
      ],
      {},
      true,
    ));
});
