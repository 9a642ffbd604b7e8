// Derived metrics against libpcp 6.0.3 on real QA archives. For each archive the metrics are
// read from the archive itself, bucketed by type, semantics and instance domain, and a seeded
// sample of each bucket is put through templates covering every operator and function
// (numeric and string operands, singular and instanced, pairs with matching and mismatching
// metadata, so that semantic errors are exercised as much as values). Every expression is then
// registered, bound and fetched both by python3-pcp (test/oracle/derived-values.py) and by
// pmdash (DerivedContext over ArchiveContext), and compared: registration messages, PMIDs,
// descriptors (type, semantics, indom, units text), semantic-error text, and every value of
// every sample (integers exactly, floating point to 1e-9 relative).
//
// Documented deviations (docs/deviations.md) are not generated here except max()/min() over a
// sample without instances, where libpcp's stale or uninitialised value is accepted against
// our "no value" when the operand itself has no values; they have their own tests.
import { describe, expect, it } from 'vitest';
import { runDerivedOracle, seededRandom } from '../../../test/derived/oracle';
import { QA_ARCHIVES } from '../../../test/oracle';
import { DirFileSet } from '../../node/dir-file-set';
import { openArchiveContext } from '../context/archive-context';
import { PM_MODE_FORW, PM_MODE_INTERP } from '../context/context';
import { DerivedContext } from './derived-context';
import { metricNames } from './ast';
import { parseExpression } from './parser';
import { DerivedRegistry } from './registry';
import { loadDerivedConfig } from './config';
import { nodeDerivedConfigFs } from '../../node/derived-config-fs';
import { unitsText } from './units-port';
import { isNumericType, PM_INDOM_NULL, PM_SEM_COUNTER, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING } from '../types';
import type { AtomValue, Desc, PmId, Units } from '../types';

interface ArchiveRun {
  readonly archive: string;
  readonly mode: 'forw' | 'interp';
  readonly deltaMs: number;
  readonly samples: number;
  /** Metrics taken per (type, semantics, indom kind) bucket. */
  readonly perBucket: number;
  readonly pairs: number;
}

const RUNS: readonly ArchiveRun[] = [
  { archive: 'bozo-disk', mode: 'forw', deltaMs: 0, samples: 6, perBucket: 2, pairs: 14 },
  { archive: 'bozo-disk', mode: 'interp', deltaMs: 10000, samples: 5, perBucket: 2, pairs: 6 },
  { archive: 'sample_expr', mode: 'forw', deltaMs: 0, samples: 12, perBucket: 4, pairs: 16 },
  { archive: 'kenj-pc-1', mode: 'forw', deltaMs: 0, samples: 12, perBucket: 2, pairs: 8 },
  { archive: 'pyapi', mode: 'forw', deltaMs: 0, samples: 4, perBucket: 2, pairs: 10 },
  { archive: 'cputime', mode: 'interp', deltaMs: 1000, samples: 6, perBucket: 2, pairs: 8 },
  { archive: 'wrap', mode: 'forw', deltaMs: 0, samples: 11, perBucket: 2, pairs: 4 },
  { archive: 'uwrap', mode: 'forw', deltaMs: 0, samples: 8, perBucket: 2, pairs: 4 },
  { archive: 'dyninsts', mode: 'forw', deltaMs: 0, samples: 20, perBucket: 3, pairs: 6 },
  { archive: 'omnibus_v3', mode: 'forw', deltaMs: 0, samples: 12, perBucket: 2, pairs: 8 },
  { archive: '20201109', mode: 'forw', deltaMs: 0, samples: 6, perBucket: 1, pairs: 8 },
];

interface MetricInfo {
  readonly name: string;
  readonly desc: Desc;
  readonly instances: readonly string[];
}

interface OracleReply {
  readonly register: ReadonlyArray<{ status: number; message: string | null }>;
  readonly bind: ReadonlyArray<{ pmid: number | null; desc: { type: number; sem: number; indom: number; units: string } | null; error: number | null; stderr: string }>;
  readonly samples: ReadonlyArray<{ sec: number; usec: number; sets: ReadonlyArray<{ numval: number; inst: number[]; values: Array<number | string | null> }> }>;
}

function shuffle<T>(xs: readonly T[], rnd: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** A units string with the same dimensions as `u` and other scales (for rescale()). */
function otherScale(u: Units): string {
  const parts: Array<[number, string]> = [];
  if (u.dimSpace !== 0) parts.push([u.dimSpace, u.scaleSpace === 2 ? 'Kbyte' : 'Mbyte']);
  if (u.dimTime !== 0) parts.push([u.dimTime, u.scaleTime === 3 ? 'millisec' : 'sec']);
  if (u.dimCount !== 0) parts.push([u.dimCount, u.scaleCount === 3 ? 'count' : 'count x 10^3']);
  if (parts.length === 0) return 'count x 10^3';
  const term = ([d, n]: [number, string]): string => (Math.abs(d) === 1 ? n : `${n}^${Math.abs(d)}`);
  const num = parts.filter(([d]) => d > 0).map(term);
  const den = parts.filter(([d]) => d < 0).map(term);
  return den.length === 0 ? num.join(' ') : `${num.join(' ')} / ${den.join(' ')}`;
}

/** 6.0.3 inverts a left operand's scale factor on time/space for opposite-signed dimensions. */
function hitsScaleInversion(op: string, l: Units, r: Units): boolean {
  if (op !== '*' && op !== '/') return false;
  const axis = (ld: number, rd: number, ls: number, rs: number): boolean => ld !== 0 && rd !== 0 && ls < rs && Math.sign(ld) !== Math.sign(rd);
  return axis(l.dimTime, r.dimTime, l.scaleTime, r.scaleTime) || axis(l.dimSpace, r.dimSpace, l.scaleSpace, r.scaleSpace);
}

const escInst = (s: string): string => s.replace(/[\\\]]/g, (c) => `\\${c}`);

function generate(run: ArchiveRun, metrics: readonly MetricInfo[], seed: number): string[] {
  const rnd = seededRandom(seed);
  const buckets = new Map<string, MetricInfo[]>();
  for (const m of metrics) {
    const key = `${m.desc.type}:${m.desc.sem}:${m.desc.indom === PM_INDOM_NULL ? 's' : 'i'}`;
    buckets.set(key, [...(buckets.get(key) ?? []), m]);
  }
  const chosen: MetricInfo[] = [];
  for (const key of [...buckets.keys()].sort()) chosen.push(...shuffle(buckets.get(key) as MetricInfo[], rnd).slice(0, run.perBucket));
  const out = new Set<string>();
  for (const m of chosen) {
    const n = m.name;
    out.add(n);
    if (isNumericType(m.desc.type)) {
      for (const t of ['instant(%)', 'delta(%)', 'rate(%)', 'count(%)', 'sum(%)', 'avg(%)', 'max(%)', 'min(%)', '-%', '% > 0', '% * 2', '2 * %', '% + %', '% - %', '% / %', '% * %', 'scalar(%)', '!(% > 1)', '% >= 1 && % < 100000', '% == 0 || % != 1', '% > 0 ? % : %', 'defined(%)', '3.5 - %', 'mkconst(7, type=64) + %', '% <= 2.5']) {
        out.add(t.replaceAll('%', n));
      }
      out.add(`rescale(${n}, "${otherScale(m.desc.units)}")`);
      if (m.desc.sem === PM_SEM_COUNTER) out.add(`rescale(rate(${n}), "${otherScale({ ...m.desc.units, dimTime: m.desc.units.dimTime - 1, scaleTime: 3 })}")`);
      const first = m.instances[0];
      if (m.desc.indom !== PM_INDOM_NULL && first !== undefined) {
        out.add(`${n}[${escInst(first)}]`);
        out.add(`scalar(${n}[${escInst(first)}]) * 2`);
        out.add(`sum(${n}) - ${n}`);
        const prefix = (/^[A-Za-z0-9]+/.exec(first)?.[0] ?? '').slice(0, 2);
        if (prefix !== '') {
          out.add(`matchinst(/^${prefix}/, ${n})`);
          out.add(`matchinst(!/^${prefix}/, ${n} + ${n})`);
        }
      }
    } else {
      for (const t of ['count(%)', 'instant(%)', 'scalar(%)', '% + 1', 'sum(%)', '-%', '% ? 1 : 2', '1 - %', 'rate(%)']) out.add(t.replaceAll('%', n));
    }
  }
  // Pairs of metrics: same or different indoms, semantics, units.
  const numeric = chosen.filter((m) => isNumericType(m.desc.type));
  for (let k = 0; k < run.pairs && numeric.length > 1; k++) {
    const a = numeric[Math.floor(rnd() * numeric.length)];
    const b = numeric[Math.floor(rnd() * numeric.length)];
    for (const op of ['+', '-', '*', '/', '>', '&&']) {
      if (hitsScaleInversion(op, a.desc.units, b.desc.units)) continue;
      out.add(`${a.name} ${op} ${b.name}`);
    }
    out.add(`${a.name} > 0 ? ${b.name} : ${b.name} * 2`);
    out.add(`delta(${a.name}) == 0 ? 0 : delta(${b.name}) / delta(${a.name})`);
  }
  return [...out];
}

function metricNamesOf(expr: string): string[] {
  const r = parseExpression(expr);
  return r.ok ? metricNames(r.expr) : [];
}

const numberOf = (v: number | string | null): number => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : Number(v));

function sameValue(type: number, ours: AtomValue | undefined, theirs: number | string | null): boolean {
  if (type === PM_TYPE_FLOAT || type === PM_TYPE_DOUBLE) {
    const a = ours as number;
    const b = numberOf(theirs);
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
    if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
    return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }
  if (typeof ours === 'bigint') return ours.toString() === theirs;
  if (type === PM_TYPE_STRING) return ours === theirs;
  // Aggregates and event records pass through unchanged; the oracle reports only their count.
  if (!isNumericType(type)) return theirs === null;
  return ours === theirs;
}

async function archiveMetrics(path: string): Promise<MetricInfo[]> {
  const probe = await openArchiveContext(new DirFileSet('/'), path);
  const names = (await probe.traverse('')).filter((n) => !n.startsWith('event.'));
  const ids = await probe.lookupNames(names);
  const descs = await probe.lookupDescs(ids.filter((i) => i >= 0) as PmId[]);
  const metrics: MetricInfo[] = [];
  let d = 0;
  for (let i = 0; i < names.length; i++) {
    if ((ids[i]) < 0) continue;
    const desc = descs[d++];
    if (desc === undefined || typeof desc === 'number') continue;
    let instances: readonly string[] = [];
    if (desc.indom !== PM_INDOM_NULL) instances = (await probe.getInDom(desc.indom).catch(() => ({ names: [] as string[] }))).names;
    metrics.push({ name: names[i], desc, instances });
  }
  await probe.close();
  return metrics;
}

interface Batch {
  readonly exprs: readonly string[];
  readonly reply: OracleReply;
}

/**
 * Runs the oracle on a list of expressions. libpcp 6.0.3 can crash (a NULL dereference) on
 * some expressions: a crashing batch is split in halves until the crashing expressions are
 * alone; those are returned apart.
 */
async function oracleBatches(run: ArchiveRun, path: string, exprs: readonly string[], crashed: string[]): Promise<Batch[]> {
  const request = { archive: path, mode: run.mode, deltaMs: run.deltaMs, samples: run.samples, metrics: exprs.map((e, i) => [`cf.m${i}`, e]) };
  try {
    return [{ exprs, reply: await runDerivedOracle<OracleReply>('derived-values.py', request) }];
  } catch (e) {
    if (!/died/.test((e as Error).message)) throw e;
    if (exprs.length === 1) {
      crashed.push(exprs[0]);
      return [];
    }
    const h = exprs.length >> 1;
    return [...(await oracleBatches(run, path, exprs.slice(0, h), crashed)), ...(await oracleBatches(run, path, exprs.slice(h), crashed))];
  }
}

/** Our side of one batch, compared with libpcp's reply. */
interface Stats {
  bound: number;
  semanticErrors: number;
  values: number;
}

async function compareBatch(run: ArchiveRun, path: string, batch: Batch, mismatches: string[], stats: Stats): Promise<void> {
  const { exprs, reply: theirs } = batch;
  const defs = exprs.map((e, i) => [`cf.m${i}`, e] as const);
  const registry = new DerivedRegistry();
  const registered = defs.map(([n, e]) => registry.registerMetric(n, e));
  const inner = await openArchiveContext(new DirFileSet('/'), path);
  const messages: string[] = [];
  const ctx = new DerivedContext(inner, { registry, onMessage: (m) => messages.push(m) });
  const where = (i: number): string => `${run.archive}/${run.mode}: ${exprs[i]}`;

  const fetchIds: PmId[] = [];
  const fetchTypes: number[] = [];
  const fetchIndex: number[] = [];
  for (let i = 0; i < defs.length; i++) {
    const reg = registered[i];
    const t = theirs.register[i];
    const ourReg = reg?.status === 0 ? { status: 0, message: null } : { status: -1, message: reg && 'message' in reg ? reg.message : null };
    if (ourReg.status !== t?.status || ourReg.message !== t.message) mismatches.push(`${where(i)}: register ${JSON.stringify(ourReg)} vs ${JSON.stringify(t)}`);
    const before = messages.length;
    const [id] = await ctx.lookupNames([defs[i]?.[0]]);
    const [desc] = typeof id === 'number' && id >= 0 ? await ctx.lookupDescs([id as PmId]) : [id];
    const stderr = messages.slice(before).join('');
    const tb = theirs.bind[i];
    const ours = {
      pmid: typeof id === 'number' && id >= 0 ? id : null,
      desc: typeof desc === 'object' ? { type: desc.type, sem: desc.sem, indom: desc.indom, units: unitsText(desc.units) } : null,
      error: typeof desc === 'number' ? desc : null,
      stderr,
    };
    if (JSON.stringify(ours) !== JSON.stringify(tb)) mismatches.push(`${where(i)}: bind ${JSON.stringify(ours)} vs ${JSON.stringify(tb)}`);
    if (stderr !== '') stats.semanticErrors++;
    if (typeof desc === 'object') {
      stats.bound++;
      fetchIds.push(id as PmId);
      fetchTypes.push(desc.type);
      fetchIndex.push(i);
    }
  }

  if (fetchIds.length > 0) {
    // For max()/min(), also fetch the operand itself (already an operand, so the records
    // read do not change) to recognise samples where it has no instances.
    const extremes = new Map<number, number>();
    for (const [k, i] of fetchIndex.entries()) {
      const m = /^(max|min)\((.+)\)$/.exec(exprs[i]);
      if (!m) continue;
      const [op] = await inner.lookupNames([m[2]]);
      if (typeof op === 'number' && op >= 0) extremes.set(k, fetchIds.push(op as PmId) - 1);
    }
    ctx.setMode(run.mode === 'interp' ? PM_MODE_INTERP : PM_MODE_FORW, inner.source.kind === 'archive' ? inner.source.start : undefined, BigInt(run.deltaMs) * 1_000_000n);
    for (let s = 0; s < theirs.samples.length; s++) {
      const ts = theirs.samples[s];
      const r = await ctx.fetch(fetchIds);
      if (ts === undefined) break;
      if (r.timestamp.sec !== ts.sec || Math.floor(r.timestamp.nsec / 1000) !== ts.usec) mismatches.push(`${run.archive}: sample ${s} at ${JSON.stringify(r.timestamp)} vs ${ts.sec}.${ts.usec}`);
      fetchIndex.forEach((i, k) => {
        const set = r.sets[k];
        const t = ts.sets[k];
        const type = fetchTypes[k];
        if (t === undefined || set === undefined) return;
        const oursVals = set.values;
        stats.values += Math.max(0, t.numval);
        let same = set.numval === t.numval && [...set.inst].every((x, j) => x === t.inst[j]) && oursVals.every((v, j) => sameValue(type, v, t.values[j] ?? null));
        // max()/min() of no instances: libpcp gives a stale or uninitialised value.
        const e = extremes.get(k);
        if (!same && e !== undefined && set.numval === 0 && t.numval === 1 && r.sets[e]?.numval === 0) same = true;
        if (!same) {
          const show = { numval: set.numval, inst: [...set.inst], values: oursVals.map((v) => (typeof v === 'bigint' ? v.toString() : v)) };
          mismatches.push(`${where(i)}: sample ${s} ${JSON.stringify(show, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))} vs ${JSON.stringify(t)}`);
        }
      });
    }
  }
  await ctx.close();
}

/** scalar(X) crashes libpcp 6.0.3 when X has no values: keep it only where X always has some. */
function scalarOperand(expr: string): string | undefined {
  return /^scalar\((.+)\)( \* 2)?$/.exec(expr)?.[1];
}

async function compare(run: ArchiveRun, seed: number): Promise<{ expressions: number; mismatches: string[]; crashed: string[]; stats: Stats }> {
  const path = `${QA_ARCHIVES}/${run.archive}`;
  const exprs = generate(run, await archiveMetrics(path), seed);
  const crashed: string[] = [];
  const first = exprs.filter((e) => scalarOperand(e) === undefined);
  const screen = await oracleBatches(run, path, first, crashed);
  const alwaysValued = new Set<string>();
  for (const b of screen) {
    let k = 0;
    b.exprs.forEach((e, i) => {
      if (b.reply.bind[i]?.desc == null) return;
      const col = k++;
      if (b.reply.samples.length > 0 && b.reply.samples.every((smp) => (smp.sets[col]?.numval ?? 0) > 0)) alwaysValued.add(e);
    });
  }
  const chosen = exprs.filter((e) => {
    const x = scalarOperand(e);
    return x === undefined || alwaysValued.has(x);
  });
  const batches = await oracleBatches(run, path, chosen, crashed);
  const mismatches: string[] = [];
  const stats: Stats = { bound: 0, semanticErrors: 0, values: 0 };
  for (const b of batches) await compareBatch(run, path, b, mismatches, stats);
  return { expressions: batches.reduce((n, b) => n + b.exprs.length, 0), mismatches, crashed, stats };
}

/** The expressions of the derived-metric configurations PCP ships (iostat, cpu-util, proc, mssql). */
function shippedExpressions(): string[] {
  const registry = new DerivedRegistry();
  loadDerivedConfig(registry, '/var/lib/pcp/config/derived', nodeDerivedConfigFs);
  return registry.definitions.filter((d) => !d.anon).map((d) => d.text.trim());
}

describe('PCP\'s shipped derived metrics match libpcp', () => {
  it.each([
    ['bozo-disk', 'forw', 0, 6],
    ['20201109', 'forw', 0, 8],
    ['20201109', 'interp', 60000, 6],
  ] as const)('%s %s', async (archive, mode, deltaMs, samples) => {
    const exprs = shippedExpressions();
    expect(exprs.length).toBeGreaterThan(50);
    const run: ArchiveRun = { archive, mode, deltaMs, samples, perBucket: 0, pairs: 0 };
    const path = `${QA_ARCHIVES}/${archive}`;
    const crashed: string[] = [];
    const batches = await oracleBatches(run, path, exprs, crashed);
    const mismatches: string[] = [];
    const stats: Stats = { bound: 0, semanticErrors: 0, values: 0 };
    for (const b of batches) await compareBatch(run, path, b, mismatches, stats);
    console.info(`shipped configs on ${archive}: ${exprs.length} expressions, ${stats.bound} bound, ${stats.values} values; crashes ${JSON.stringify(crashed)}`);
    expect(mismatches).toEqual([]);
    expect(crashed).toEqual([]);
  });
});

describe('derived metrics match libpcp on QA archives', () => {
  let total = 0;
  it.each(RUNS.map((r, i) => [`${r.archive} ${r.mode}`, r, i] as const))('%s', async (_label, run, i) => {
    const { expressions, mismatches, crashed, stats } = await compare(run, 1000 + i);
    total += expressions;
    console.info(
      `${run.archive} ${run.mode}: ${expressions} expressions (${stats.bound} bound, ${stats.semanticErrors} semantic errors, ${stats.values} values); left out as 6.0.3 crashes: ${JSON.stringify(crashed)}`,
    );
    expect(stats.bound).toBeGreaterThan(10);
    expect(stats.values).toBeGreaterThan(50);
    expect(mismatches).toEqual([]);
    // Only the 6.0.3 crashes we know (and do not reproduce) may be left out.
    expect(crashed.filter((e) => scalarOperand(e) === undefined && metricNamesOf(e).length > 0)).toEqual([]);
    expect(expressions).toBeGreaterThan(20);
  });
  it('ran at least 150 expressions in all', () => {
    expect(total).toBeGreaterThanOrEqual(150);
  });
});

// anon(T) has no operands, so the generated templates above never produce it. It is checked
// on its own for every type anon() accepts, alone and as an operand next to real metrics
// (singular and instanced), so that its descriptor, the descriptors it gives to expressions
// and its "no values" are all compared with libpcp. A real metric is in every batch so that
// each fetch reads a record.
const ANON_TYPES = ['PM_TYPE_32', 'PM_TYPE_U32', 'PM_TYPE_64', 'PM_TYPE_U64', 'PM_TYPE_FLOAT', 'PM_TYPE_DOUBLE'] as const;

function anonExpressions(): string[] {
  const out = ['disk.dev.read', 'hinv.ncpu'];
  for (const t of ANON_TYPES) {
    const a = `anon(${t})`;
    out.push(a, `${a} + 1`, `${a} * 2.5`, `-${a}`, `count(${a})`, `sum(${a})`, `max(${a})`, `defined(${a})`, `rate(${a})`, `delta(${a})`);
    out.push(`${a} + hinv.ncpu`, `disk.dev.read + ${a}`, `${a} > 0 ? hinv.ncpu : 2`, `${a} + anon(PM_TYPE_U32)`);
  }
  return out;
}

describe('anon() derived metrics match libpcp', () => {
  it.each([
    ['bozo-disk', 'forw', 0, 4],
    ['bozo-disk', 'interp', 10000, 4],
  ] as const)('%s %s', async (archive, mode, deltaMs, samples) => {
    const run: ArchiveRun = { archive, mode, deltaMs, samples, perBucket: 0, pairs: 0 };
    const path = `${QA_ARCHIVES}/${archive}`;
    const exprs = anonExpressions();
    const crashed: string[] = [];
    const batches = await oracleBatches(run, path, exprs, crashed);
    const mismatches: string[] = [];
    const stats: Stats = { bound: 0, semanticErrors: 0, values: 0 };
    for (const b of batches) await compareBatch(run, path, b, mismatches, stats);
    // Each anon(T) itself bound with libpcp's descriptor, and was fetched alongside values.
    const anonBound = batches.flatMap((b) => b.exprs.map((e, i) => [e, b.reply.bind[i]?.desc] as const)).filter(([e, d]) => /^anon\(\w+\)$/.test(e) && d != null);
    console.info(`anon() on ${archive} ${mode}: ${exprs.length} expressions, ${stats.bound} bound, ${stats.semanticErrors} semantic errors, ${stats.values} values; crashes ${JSON.stringify(crashed)}`);
    expect(mismatches).toEqual([]);
    expect(crashed).toEqual([]);
    expect(anonBound.map(([, d]) => d?.type).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(stats.values).toBeGreaterThan(0);
  });
});
