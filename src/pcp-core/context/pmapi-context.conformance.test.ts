// PmapiContext against the machine's pmcd (localhost:44321) through a real pmproxy 6.0.3's
// /pmapi (a throwaway one, test/throwaway-pmproxy.ts, which reaches the local pmcd itself):
// names, descriptors, instance domains, help text and values as pminfo reads them straight
// from pmcd; a context pmproxy has dropped is made again with a new epoch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PM_ERR_NAME, PM_ERR_PMID } from '../errors';
import { FleetTransport } from '../fleet/transport';
import { runTool } from '../../../test/oracle';
import { startThrowawayPmproxy, type ThrowawayPmproxy } from '../../../test/throwaway-pmproxy';
import { PM_INDOM_NULL, type PmId, formatPmId } from '../types';
import { PM_LABEL_CONTEXT } from './context';
import { PmapiContext } from './pmapi-context';

async function pminfo(args: readonly string[]): Promise<string> {
  const r = await runTool('pminfo', ['-h', 'localhost', ...args]);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('PmapiContext: a live pmcd through pmproxy’s /pmapi', () => {
  let px: ThrowawayPmproxy;
  let ctx: PmapiContext;

  beforeAll(async () => {
    px = await startThrowawayPmproxy();
    ctx = await PmapiContext.open(new FleetTransport({ baseUrl: px.url, fetch }), { hostspec: 'localhost' });
  });
  afterAll(async () => {
    await ctx?.close();
    await px?.stop();
  });

  it('names pmcd’s host and zone as pminfo -f pmcd.hostname pmcd.timezone does', async () => {
    const out = await pminfo(['-f', 'pmcd.hostname', 'pmcd.timezone']);
    const values = [...out.matchAll(/value "([^"]*)"/g)].map((m) => m[1]);
    expect(ctx.source.kind === 'live' && [ctx.source.hostname, ctx.source.timezone]).toEqual(values);
  });

  it('looks up names and descriptors as pminfo -d -m does', async () => {
    const names = ['kernel.all.load', 'hinv.ncpu', 'kernel.all.pswitch', 'pmcd.hostname', 'kernel.percpu.cpu.user'];
    const ids = await ctx.lookupNames([...names, 'no.such.metric']);
    expect(ids[names.length]).toBe(PM_ERR_NAME);
    const descs = await ctx.lookupDescs(ids.slice(0, names.length) as PmId[]);
    const out = await pminfo(['-d', '-m', ...names]);
    for (const [i, name] of names.entries()) {
      const block = out.split('\n\n').find((b) => b.trim().startsWith(`${name} `)) ?? '';
      const d = descs[i];
      if (typeof d === 'number') throw new Error(`no descriptor for ${name}: ${d}`);
      expect(block, name).toContain(`PMID: ${formatPmId(d.pmid)}`);
      const pmType = /Data Type: (.+?) {2}InDom: (\S+)/.exec(block);
      expect(pmType?.[2] === 'PM_INDOM_NULL' ? PM_INDOM_NULL : pmType?.[2], name).toBe(d.indom === PM_INDOM_NULL ? PM_INDOM_NULL : `${(d.indom >>> 22) & 0x1ff}.${d.indom & 0x3fffff}`);
      expect(block, name).toMatch(new RegExp(`Semantics: ${['', 'counter', '', 'instant', 'discrete'][d.sem]}`));
    }
    expect(await ctx.lookupDescs([12345 as PmId])).toEqual([PM_ERR_PMID]);
    expect((await ctx.nameAll(ids[0] as PmId))).toEqual(['kernel.all.load']);
  });

  it('walks the namespace in one request as pminfo lists it (every name, every descriptor kept)', async () => {
    const all = (await pminfo([])).split('\n').filter((l) => l !== '').sort();
    expect(await ctx.traverse('')).toEqual(all);
    expect(await ctx.traverse('kernel.all')).toEqual(all.filter((n) => n.startsWith('kernel.all.')));
    expect(await ctx.traverse('kernel.all.load')).toEqual(['kernel.all.load']);
    const ids = await ctx.lookupNames(all);
    expect(ids.filter((id) => typeof id === 'number' && id < 0)).toEqual([]);
  });

  it('reads an instance domain and help text as pminfo -f / -T do', async () => {
    const [id] = await ctx.lookupNames(['kernel.all.load']);
    const [d] = await ctx.lookupDescs([id as PmId]);
    if (typeof d === 'number') throw new Error('no desc');
    const list = await ctx.getInDom(d.indom);
    const out = await pminfo(['-f', 'kernel.all.load']);
    const want = [...out.matchAll(/inst \[(\d+) or "([^"]+)"\]/g)].map((m) => [Number(m[1]), m[2]]).sort();
    expect(Array.from(list.instances, (inst, i) => [inst, list.names[i]]).sort()).toEqual(want);
    const help = await pminfo(['-t', 'kernel.all.load']);
    expect(help).toContain(await ctx.lookupText({ pmid: id as PmId }, 'oneline'));
  });

  it('fetches values: stable ones equal pminfo’s, a 64-bit counter exactly between two pminfo reads', async () => {
    const names = ['hinv.ncpu', 'pmcd.hostname', 'kernel.all.pswitch'];
    const ids = (await ctx.lookupNames(names)) as PmId[];
    const before = BigInt(/value (\d+)/.exec(await pminfo(['-f', 'kernel.all.pswitch']))?.[1] ?? '-1');
    const r = await ctx.fetch(ids);
    const after = BigInt(/value (\d+)/.exec(await pminfo(['-f', 'kernel.all.pswitch']))?.[1] ?? '-1');
    const ncpu = Number(/value (\d+)/.exec(await pminfo(['-f', 'hinv.ncpu']))?.[1]);
    const host = /value "([^"]*)"/.exec(await pminfo(['-f', 'pmcd.hostname']))?.[1];
    expect(r.sets[0].values).toEqual([ncpu]);
    expect(r.sets[1].values).toEqual([host]);
    const pswitch = r.sets[2].values[0];
    if (typeof pswitch !== 'bigint') throw new Error('kernel.all.pswitch is not a bigint');
    expect(pswitch >= before && pswitch <= after, `${before} ≤ ${pswitch} ≤ ${after}`).toBe(true);
    const now = Date.now() / 1000;
    expect(Math.abs(r.timestamp.sec - now)).toBeLessThan(60);
    expect(r.epoch).toBe(1);
    const [ctxLabels] = await ctx.lookupLabels(PM_LABEL_CONTEXT, 0);
    expect(JSON.parse(ctxLabels.json)).toMatchObject({ hostname: host });
  });

  it('applies the instance profile to fetched values', async () => {
    const [id] = (await ctx.lookupNames(['kernel.all.load'])) as PmId[];
    const [d] = await ctx.lookupDescs([id]);
    if (typeof d === 'number') throw new Error('no desc');
    ctx.changeProfile({ op: 'delete', indom: d.indom });
    ctx.changeProfile({ op: 'add', indom: d.indom, instances: [5] });
    const r = await ctx.fetch([id]);
    expect(Array.from(r.sets[0].inst)).toEqual([5]);
    ctx.changeProfile({ op: 'add', indom: d.indom });
    expect((await ctx.fetch([id])).sets[0].inst.length).toBe(3);
  });

  it('makes a context pmproxy dropped again, and says so with a new epoch', async () => {
    const short = await PmapiContext.open(new FleetTransport({ baseUrl: px.url, fetch }), { hostspec: 'localhost', pollTimeoutSec: 1 });
    const ids = (await short.lookupNames(['hinv.ncpu'])) as PmId[];
    expect((await short.fetch(ids)).epoch).toBe(1);
    await new Promise((r) => setTimeout(r, 2500));
    const again = await short.fetch(ids);
    expect(again.epoch).toBe(2);
    expect(again.sets[0].numval).toBe(1);
  });
});
