// ArchiveContext against libpcp on the QA archives: the same pmSetMode / pmFetch /
// pmFetchArchive / pmGetArchiveEnd scripts through python3-pcp and through the context.
import { describe, expect, it } from 'vitest';
import { DirFileSet } from '../../node/dir-file-set';
import { QA_ARCHIVES } from '../../../test/oracle';
import { canonical, libpcpTranscript, pmdashTranscript, type ReplayDriver, type ReplayStep } from '../../../test/replay-compare';
import type { PmId } from '../types';
import { PM_TYPE_DOUBLE, PM_TYPE_FLOAT } from '../types';
import { openArchiveContext, type ArchiveContext } from './archive-context';

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

export async function compareOnArchive(archive: string, metrics: readonly string[], steps: readonly ReplayStep[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  const path = archive.split(',').map((a) => `${QA_ARCHIVES}/${a}`).join(',');
  const theirs = await libpcpTranscript(path, metrics, steps, env);
  const ctx = await openArchiveContext(new DirFileSet('/'), path, { counterWrap: env.PCP_COUNTER_WRAP !== undefined });
  try {
    const ours = await pmdashTranscript(driver(ctx), theirs.pmids as PmId[], steps);
    expect(canonical(ours)).toEqual(canonical(theirs));
  } finally {
    await ctx.close();
  }
}

describe('ArchiveContext replays QA archives as libpcp does', () => {
  it('interpmark, 4 s steps from before the start', () =>
    compareOnArchive('interpmark', ['disk.all.total', 'mem.util.kernelStack', 'kernel.all.uptime'], [
      { setMode: { mode: 'interp', origin: [1323894716, 0], delta: [4, 0] } },
      { fetch: 40 },
    ]));
});

describe('scratch', () => {
  it('omnibus_v3 all', () =>
    compareOnArchive('omnibus_v3', ['sample.long.million', 'sample.string.hullo', 'sample.colour', 'sample.float.bin_ctr', 'sampledso.event.records', 'sample.proc.time', 'sample.double.bin_ctr', 'pmcd.pid', 'pmcd.pmlogger.host', 'sample.ulonglong.bin_ctr'], [
      { setMode: { mode: 'interp', origin: [1648968655, 0], delta: [0, 350000000] } },
      { fetch: 40 },
      { setMode: { mode: 'forw', origin: [1648968655, 0] } },
      { fetch: 40 },
    ]));
  it('multi dir', () =>
    compareOnArchive('multi', ['kernel.all.pswitch', 'swap.used', 'filesys.full', 'pmda.uname', 'kernel.all.cpu.user'], [
      { setMode: { mode: 'interp', origin: [1431049400, 0], delta: [7, 300000000] } },
      { fetch: 200 },
      { fetchArchive: 30 },
    ]));
});
