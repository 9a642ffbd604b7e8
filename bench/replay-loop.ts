// pmdash side of the warm replay benchmark (bench/replay-bench.ts), run as its own process
// (dist/node/replay-loop.js) so it can be profiled alone (node --cpu-prof): the loop of
// libpcp-interp-loop.c over an ArchiveContext — pmSetMode(PM_MODE_INTERP, archive start, Δ),
// then pmFetch until PM_ERR_EOL — pass after pass in one process, each pass timed.
//
// usage: node dist/node/replay-loop.js ARCHIVE DELTA_MS PASSES METRIC...
// stdout: {"samples": n, "values": v, "pass_ms": [...], "pass_cpu_ms": [...]}, as the C loop
// prints (CPU: the whole process, so the GC's and compiler's threads too).
import { DirFileSet } from '../src/node/dir-file-set';
import { openArchiveContext } from '../src/pcp-core/context/archive-context';
import { PM_MODE_INTERP } from '../src/pcp-core/context/context';
import { PM_ERR_EOL, isPmError } from '../src/pcp-core/errors';
import type { PmId, Timestamp } from '../src/pcp-core/types';

async function main(argv: readonly string[]): Promise<void> {
  const [archive, deltaText, passesText, ...names] = argv;
  if (archive === undefined || deltaText === undefined || passesText === undefined || names.length === 0) {
    throw new Error('usage: replay-loop ARCHIVE DELTA_MS PASSES METRIC...');
  }
  const deltaNs = BigInt(deltaText) * 1_000_000n;
  const passes = Number(passesText);
  const ctx = await openArchiveContext(new DirFileSet(), archive);
  try {
    const ids = await ctx.lookupNames(names);
    ids.forEach((id, i) => {
      if (id < 0) throw new Error(`${names[i]}: unknown metric (${id})`);
    });
    const pmids = ids as PmId[];
    const source = ctx.source;
    if (source.kind !== 'archive') throw new Error('not an archive');
    // The label's start as a timeval (whole microseconds), as the C loop passes ll_start.
    const start: Timestamp = { sec: source.start.sec, nsec: Math.floor(source.start.nsec / 1000) * 1000 };
    const passMs: number[] = [];
    const passCpuMs: number[] = [];
    let samples = -1;
    let values = 0;
    for (let p = 0; p < passes; p++) {
      let n = 0;
      let v = 0;
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      ctx.setMode(PM_MODE_INTERP, start, deltaNs);
      for (;;) {
        try {
          const r = await ctx.fetch(pmids);
          for (const set of r.sets) if (set.numval > 0) v += set.numval;
          n++;
        } catch (e) {
          if (isPmError(e) && e.code === PM_ERR_EOL) break;
          throw e;
        }
      }
      passMs.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      passCpuMs.push((c.user + c.system) / 1000);
      if (samples >= 0 && (n !== samples || v !== values)) throw new Error(`pass ${p} differs: ${n} samples, ${v} values`);
      samples = n;
      values = v;
    }
    process.stdout.write(JSON.stringify({ samples, values, pass_ms: passMs, pass_cpu_ms: passCpuMs }) + '\n');
  } finally {
    await ctx.close();
  }
}

await main(process.argv.slice(2));
