// pmdash side of the xz decode benchmark (bench/xz-decode-bench.ts), run as its own process
// (dist/node/xz-decode-loop.js) so it can be profiled alone (node --cpu-prof): every block of
// one .xz file decoded on this thread by the core's decoder (xz-block.ts decodeXzBlock with no
// off-thread decoder: the framing, the LZMA2 decoder and the CRC64 check, as a pool worker
// runs them), pass after pass, each pass timed. The first pass is cold (interpreter, then
// the JIT), as a volume decoded by a fresh worker is; the pool's workers warm up first
// (xz-pool-job.ts warmUpXzDecoder), and so does this loop when asked.
//
// usage: node dist/node/xz-decode-loop.js FILE.xz PASSES [warm]
// stdout: {"bytes": decoded bytes per pass, "pass_ms": [...], "pass_cpu_ms": [...], "pass_sys_ms": [...]}
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { MemorySource } from '../src/pcp-core/io/memory-source';
import { readXzLayout } from '../src/pcp-core/io/xz-layout';
import { decodeXzBlock } from '../src/pcp-core/io/xz-block';
import { warmUpXzDecoder } from '../src/workers/xz-pool-job';

async function main(argv: readonly string[]): Promise<void> {
  const [file, passesText, warm] = argv;
  if (file === undefined || passesText === undefined) throw new Error('usage: xz-decode-loop FILE.xz PASSES [warm]');
  const passes = Number(passesText);
  const src = new MemorySource(basename(file), readFileSync(file));
  const layout = await readXzLayout(src);
  if (warm === 'warm') warmUpXzDecoder();
  const passMs: number[] = [];
  const passCpuMs: number[] = [];
  // System time: mostly the kernel zeroing the fresh pages of each 100 MB output.
  const passSysMs: number[] = [];
  let bytes = 0;
  for (let p = 0; p < passes; p++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let n = 0;
    for (const block of layout.blocks) n += (await decodeXzBlock(src, block)).length;
    const c = process.cpuUsage(c0);
    passMs.push(performance.now() - t0);
    passCpuMs.push((c.user + c.system) / 1000);
    passSysMs.push(c.system / 1000);
    bytes = n;
  }
  process.stdout.write(JSON.stringify({ bytes, pass_ms: passMs, pass_cpu_ms: passCpuMs, pass_sys_ms: passSysMs }) + '\n');
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`xz-decode-loop: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
