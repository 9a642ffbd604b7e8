// LiveContext against the real pmcd 6.0.3 on localhost, with libpcp as the oracle: every PDU
// kind (names, PMIDs, children, traversal, single and bulk descriptors, instances, help text,
// labels of every level, profiles, FETCH and HIGHRES_FETCH), once with the features pmcd
// advertises and once with HIGHRES, DESCS and LABELS hidden from the client so the older
// paths run too; values of hinv.*, kernel.uname.* and pmcd.* equal `pminfo -f` read around
// our fetch; counters rate-convert with rate.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON, runTool } from '../../../test/oracle';
import { openTcpTransport } from '../../node/tcp-transport';
import { PM_ERR_NOLABELS } from '../errors';
import { PDU_FLAG_DESCS, PDU_FLAG_HIGHRES, PDU_FLAG_LABELS } from '../pdu/constants';
import { pmvalDelta, pmvalRate, pmvalTimeScale } from '../rate';
import { encodeUnits, PM_INDOM_NULL, PM_SEM_COUNTER, PM_TYPE_FLOAT, PM_TYPE_DOUBLE, PM_TYPE_STRING, type AtomValue, type Desc, type PmId } from '../types';
import { PM_LABEL_CLUSTER, PM_LABEL_CONTEXT, PM_LABEL_DOMAIN, PM_LABEL_INDOM, PM_LABEL_INSTANCES, PM_LABEL_ITEM } from './context';
import { LiveContext } from './live-context';
import { maskHelloFeatures, parsePminfoValues } from './testing/live-helpers';

const HOST = 'localhost';
const PORT = 44321;

/** libpcp on a host context; derived-metric configs are switched off so names are pmcd's. */
async function oracle(ops: readonly object[]): Promise<unknown[]> {
  const run = await runTool(PYTHON, [`${import.meta.dirname}/../../../test/oracle/live-context.py`], {
    input: JSON.stringify({ host: HOST, ops }),
    env: { PCP_DERIVED_CONFIG: '' },
  });
  if (run.status !== 0) throw new Error(`oracle live-context.py: ${run.stderr}`);
  return JSON.parse(run.stdout) as unknown[];
}

async function openLive(mask = 0): Promise<LiveContext> {
  return LiveContext.open({
    target: `${HOST}:${PORT}`,
    connect: async () => maskHelloFeatures(await openTcpTransport(HOST, PORT), mask),
    reconnectDelaysMs: [],
  });
}

/** Our value as the oracle prints it: integers and strings exact, floats as "f:" + repr. */
function oracleText(v: AtomValue, type: number): string {
  if (type === PM_TYPE_FLOAT || type === PM_TYPE_DOUBLE) return `f:${pyRepr(Number(v))}`;
  return atomText(v);
}

/** Integers, bigints and strings as text; bytes as hex; event arrays are not compared here. */
function atomText(v: AtomValue): string {
  if (v instanceof Uint8Array) return `hex:${Buffer.from(v).toString('hex')}`;
  if (typeof v === 'object') return '<events>';
  return String(v);
}

/** Python's repr of a float: shortest round-trip digits, always with a '.' or exponent. */
function pyRepr(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return `${x}.0`;
  const s = String(x);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

const PREFIXES = ['hinv', 'kernel.uname', 'pmcd'];

describe.each([
  ['all features advertised', 0],
  ['HIGHRES, DESCS and LABELS hidden', PDU_FLAG_HIGHRES | PDU_FLAG_DESCS | PDU_FLAG_LABELS],
])('LiveContext on pmcd 6.0.3 (%s)', (_label, mask) => {
  let ctx: LiveContext;
  beforeAll(async () => {
    ctx = await openLive(mask);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('completes the handshake and reads the host identity', async () => {
    const [host, tz, zone] = await oracle([
      { op: 'fetch', names: ['pmcd.hostname'] },
      { op: 'fetch', names: ['pmcd.timezone'] },
      { op: 'fetch', names: ['pmcd.zoneinfo'] },
    ]) as Array<{ sets: Array<{ values: Array<[number, string]> }> }>;
    expect(ctx.features & mask).toBe(0);
    expect(ctx.source).toEqual({
      kind: 'live',
      target: `${HOST}:${PORT}`,
      hostname: host?.sets[0]?.values[0]?.[1],
      timezone: tz?.sets[0]?.values[0]?.[1],
      zoneinfo: zone?.sets[0]?.values[0]?.[1].replace(/^:/, ''),
    });
  });

  it('answers PMNS questions as libpcp does, including a reply over 64 KiB', async () => {
    const everything = await ctx.traverse('');
    const probe = ['kernel.all.load', 'hinv.ncpu', 'no.such.metric', 'kernel.all', 'pmcd.version', 'kernel'];
    const [traverseAll, traverseHinv, children, childrenRoot, nameAll, names] = await oracle([
      { op: 'traverse', name: '' },
      { op: 'traverse', name: 'hinv' },
      { op: 'children', name: 'kernel' },
      { op: 'children', name: '' },
      { op: 'nameAll', name: 'kernel.all.load' },
      { op: 'names', names: probe },
    ]);
    expect(everything.length).toBeGreaterThan(1000);
    // libpcp adds two names of its own to every PMNS: the anonymous metrics it registers for
    // event records (event.flags, event.missed, domain 511). They are client-side, like
    // derived metrics, and belong to the layer above a Context.
    expect(everything).toEqual((traverseAll as string[]).filter((n) => n !== 'event.flags' && n !== 'event.missed'));
    expect(await ctx.traverse('hinv')).toEqual(traverseHinv);
    expect((await ctx.children('kernel')).map((c) => [c.name, c.leaf])).toEqual(children);
    expect((await ctx.children('')).map((c) => [c.name, c.leaf])).toEqual((childrenRoot as Array<[string, boolean]>).filter(([n]) => n !== 'event'));
    const [load] = await ctx.lookupNames(['kernel.all.load']);
    expect(await ctx.nameAll(load as PmId)).toEqual(nameAll);
    expect(await ctx.lookupNames(probe)).toEqual(names);
    // Every name at once: several PMNS_NAMES PDUs, each under pmcd's 64 KiB limit.
    const ids = await ctx.lookupNames(everything);
    const [oracleIds] = await oracle([{ op: 'names', names: everything }]);
    expect(ids.length).toBe(everything.length);
    expect(ids).toEqual(oracleIds);
  });

  it('gives the descriptors, instance domains and help text libpcp gives', async () => {
    const names = (await Promise.all(PREFIXES.map((p) => ctx.traverse(p)))).flat();
    const ids = (await ctx.lookupNames(names)) as PmId[];
    const descs = (await ctx.lookupDescs(ids)) as Desc[];
    const [want, loadIndom, cpuIndom, oneline, help, indomOneline, indomHelp] = await oracle([
      { op: 'descs', names },
      { op: 'indom', name: 'kernel.all.load' },
      { op: 'indom', name: 'hinv.map.cpu_num' },
      { op: 'text', name: 'kernel.all.load', kind: 'oneline' },
      { op: 'text', name: 'kernel.all.load', kind: 'help' },
      { op: 'text', name: 'kernel.all.load', kind: 'oneline', indom: true },
      { op: 'text', name: 'kernel.all.load', kind: 'help', indom: true },
    ]);
    expect(descs.map((d) => ({ pmid: d.pmid, type: d.type, indom: d.indom, sem: d.sem, units: encodeUnits(d.units) }))).toEqual(want);
    const toPairs = (l: { instances: Int32Array; names: readonly string[] }): Array<[number, string]> => [...l.instances].map((i, k) => [i, l.names[k] ?? '']);
    const load = descs[names.indexOf('hinv.ncpu')];
    expect(load?.indom).toBe(PM_INDOM_NULL);
    const [loadId, cpuId] = (await ctx.lookupNames(['kernel.all.load', 'hinv.map.cpu_num'])) as PmId[];
    const [loadDesc, cpuDesc] = (await ctx.lookupDescs([loadId, cpuId])) as Desc[];
    expect(toPairs(await ctx.getInDom(loadDesc?.indom ?? PM_INDOM_NULL))).toEqual(loadIndom);
    expect(toPairs(await ctx.getInDom(cpuDesc?.indom ?? PM_INDOM_NULL))).toEqual(cpuIndom);
    expect(await ctx.lookupText({ pmid: loadId }, 'oneline')).toBe(oneline);
    expect(await ctx.lookupText({ pmid: loadId }, 'help')).toBe(help);
    expect(await ctx.lookupText({ indom: loadDesc?.indom ?? PM_INDOM_NULL }, 'oneline')).toBe(indomOneline);
    expect(await ctx.lookupText({ indom: loadDesc?.indom ?? PM_INDOM_NULL }, 'help')).toBe(indomHelp);
  });

  it('gives the label sets of every level libpcp gives (or PM_ERR_NOLABELS without LABELS)', async () => {
    const [loadId] = (await ctx.lookupNames(['kernel.all.load'])) as PmId[];
    const [loadDesc] = (await ctx.lookupDescs([loadId])) as Desc[];
    const levels: Array<[number, number]> = [
      [PM_LABEL_CONTEXT, 0],
      [PM_LABEL_DOMAIN, (loadId as number) >>> 22],
      [PM_LABEL_INDOM, loadDesc?.indom ?? 0],
      [PM_LABEL_CLUSTER, loadId],
      [PM_LABEL_ITEM, loadId],
      [PM_LABEL_INSTANCES, loadDesc?.indom ?? 0],
    ];
    if (mask & PDU_FLAG_LABELS) {
      await expect(ctx.lookupLabels(PM_LABEL_CONTEXT, 0)).rejects.toMatchObject({ code: PM_ERR_NOLABELS });
      return;
    }
    const want = await oracle(levels.map(([level]) => ({ op: 'labels', level, name: 'kernel.all.load' })));
    for (const [i, [level, ident]] of levels.entries()) {
      const sets = (await ctx.lookupLabels(level, ident)).map((s) => ({ inst: s.inst, json: s.json, labels: s.labels }));
      expect(sets, `labels of level ${level}`).toEqual(want[i]);
    }
  });

  it('applies instance profiles exactly as libpcp does', async () => {
    const [loadId] = (await ctx.lookupNames(['kernel.all.load'])) as PmId[];
    const [loadDesc] = (await ctx.lookupDescs([loadId])) as Desc[];
    const indom = loadDesc?.indom ?? PM_INDOM_NULL;
    const sequences: Array<Array<{ add: boolean; name: string | null; insts: number[] | null }>> = [
      [{ add: false, name: 'kernel.all.load', insts: [5] }],
      [{ add: true, name: 'kernel.all.load', insts: [15] }],
      [{ add: true, name: 'kernel.all.load', insts: null }, { add: false, name: 'kernel.all.load', insts: [5] }],
      [{ add: false, name: null, insts: null }],
      [{ add: false, name: null, insts: null }, { add: true, name: 'kernel.all.load', insts: [1, 5] }, { add: false, name: 'kernel.all.load', insts: [1] }],
    ];
    for (const seq of sequences) {
      const ops = [...seq.map((s) => ({ op: 'profile', ...s })), { op: 'fetch', names: ['kernel.all.load', 'hinv.ncpu'] }];
      const out = await oracle(ops);
      const want = out[out.length - 1] as { sets: Array<{ numval: number; values: Array<[number, string]> }> };
      ctx.changeProfile({ op: 'add', indom: null });
      for (const s of seq) ctx.changeProfile({ op: s.add ? 'add' : 'delete', indom: s.name ? indom : null, instances: s.insts ?? undefined });
      const [ncpu] = (await ctx.lookupNames(['hinv.ncpu'])) as PmId[];
      const r = await ctx.fetch([loadId, ncpu]);
      expect(r.sets.map((s) => [s.numval, [...s.inst]]), JSON.stringify(seq)).toEqual(want.sets.map((s) => [s.numval, s.values.map((v) => v[0])]));
    }
    ctx.changeProfile({ op: 'add', indom: null });
  });

  it('fetches hinv.*, kernel.uname.* and pmcd.* values equal to pminfo -f read around the fetch', async () => {
    const names = (await Promise.all(PREFIXES.map((p) => ctx.traverse(p)))).flat();
    const ids = (await ctx.lookupNames(names)) as PmId[];
    const descs = (await ctx.lookupDescs(ids)) as Desc[];
    const wanted = names.filter((_, i) => descs[i]?.sem !== PM_SEM_COUNTER);
    const wantedIds = wanted.map((n) => ids[names.indexOf(n)]);
    const pminfo = async (): Promise<Map<string, Map<number, string>>> => parsePminfoValues((await runTool('pminfo', ['-h', HOST, '-f', ...PREFIXES], { env: { PCP_DERIVED_CONFIG: '' } })).stdout);
    const before = await pminfo();
    const ours = await ctx.fetch(wantedIds);
    const after = await pminfo();
    let compared = 0;
    const mismatches: string[] = [];
    wanted.forEach((name, k) => {
      const set = ours.sets[k];
      const desc = descs[names.indexOf(name)];
      if (!set || !desc) return;
      const b = before.get(name);
      const a = after.get(name);
      for (const [inst, bText] of b ?? []) {
        const aText = a?.get(inst);
        if (aText === undefined) continue; // the instance came or went (e.g. a pminfo client)
        const j = [...set.inst].indexOf(inst);
        if (j < 0) {
          mismatches.push(`${name}[${inst}]: pminfo has ${bText}, we have no such instance`);
          continue;
        }
        let v = set.values[j];
        // pminfo's own connection is one of the clients it counts; ours is in both counts.
        if (name === 'pmcd.numclients') v = Number(v) + 1;
        const matches = (text: string): boolean => {
          if (desc.type === PM_TYPE_STRING) return text === JSON.stringify(v).replace(/\\\\/g, '\\');
          if (desc.type === PM_TYPE_FLOAT || desc.type === PM_TYPE_DOUBLE) return Math.abs(Number(text) - Number(v)) <= 5e-7 * Math.max(1, Math.abs(Number(v)));
          return text === atomText(v);
        };
        compared++;
        if (!matches(bText) && !matches(aText)) mismatches.push(`${name}[${inst}]: pminfo ${bText} then ${aText}, ours ${atomText(v)}`);
      }
    });
    // pmcd.cputime.per_pdu_in is pmcd's CPU time divided by the PDUs it has received, so it
    // differs for every request, including ours between the two pminfo runs.
    expect(mismatches.filter((m) => !m.startsWith('pmcd.cputime.per_pdu_in'))).toEqual([]);
    expect(compared).toBeGreaterThan(60);
  });

  it('fetches the discrete hinv.* and kernel.uname.* values libpcp fetches, bit for bit', async () => {
    const names = (await Promise.all(['hinv', 'kernel.uname'].map((p) => ctx.traverse(p)))).flat();
    const ids = (await ctx.lookupNames(names)) as PmId[];
    const descs = (await ctx.lookupDescs(ids)) as Desc[];
    const discrete = names.filter((_, i) => descs[i]?.sem === 4);
    const ours = await ctx.fetch(discrete.map((n) => ids[names.indexOf(n)]));
    const [want] = (await oracle([{ op: 'fetch', names: discrete }])) as Array<{ sets: Array<{ pmid: number; numval: number; values: Array<[number, string]> }> }>;
    const got = ours.sets.map((s, k) => ({
      pmid: s.pmid,
      numval: s.numval,
      values: s.values.map((v, j) => [s.inst[j], oracleText(v, descs[names.indexOf(discrete[k] ?? '')]?.type ?? 0)]),
    }));
    expect(discrete.length).toBeGreaterThan(20);
    expect(got).toEqual(want?.sets);
  });

  it('rate-converts the CPU time counters into utilisations that add up to hinv.ncpu', async () => {
    const names = ['kernel.all.cpu.user', 'kernel.all.cpu.nice', 'kernel.all.cpu.sys', 'kernel.all.cpu.idle', 'kernel.all.cpu.wait.total', 'kernel.all.cpu.intr', 'kernel.all.cpu.steal'];
    const ids = (await ctx.lookupNames([...names, 'hinv.ncpu'])) as PmId[];
    const descs = (await ctx.lookupDescs(ids)) as Desc[];
    const first = await ctx.fetch(ids);
    await new Promise((r) => setTimeout(r, 1000));
    const second = await ctx.fetch(ids);
    const scale = pmvalTimeScale(descs[0]);
    const delta = pmvalDelta(scale, first.timestamp, second.timestamp);
    expect(delta / scale).toBeGreaterThan(0.9);
    const rates = names.map((_, i) => pmvalRate(Number(first.sets[i]?.values[0]), Number(second.sets[i]?.values[0]), delta, descs[i]?.type ?? 0, false));
    const ncpu = Number(second.sets[names.length]?.values[0]);
    const total = rates.reduce((s, r) => s + r, 0);
    // The kernel accounts CPU time in clock ticks; over ~1 s the sum matches within a few %.
    expect(Math.abs(total - ncpu) / ncpu).toBeLessThan(0.05);
    // A plain RESULT carries microseconds.
    if (mask & PDU_FLAG_HIGHRES) expect(second.timestamp.nsec % 1000).toBe(0);
  });
});
