// Bundles the Node entry points (CLI, server) with esbuild. Dependencies stay external and
// load from node_modules at run time.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunk names carry content hashes: without a clean start, old ones pile up.
rmSync('dist/node', { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/run-cli.ts', bench: 'bench/run.ts', 'replay-loop': 'bench/replay-loop.ts', 'xz-pool-node-worker': 'bench/xz-pool-node-worker.ts', 'xz-decode-loop': 'bench/xz-decode-loop.ts', 'export-engine': 'bench/export-engine.ts', 'thread-cpu': 'bench/thread-cpu.ts' },
  outdir: 'dist/node',
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Subcommands are dynamic imports: splitting puts each in its own chunk, loaded on demand.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
