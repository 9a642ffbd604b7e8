// Bundles the Node entry points (CLI, server) with esbuild. Dependencies stay external and
// load from node_modules at run time.
import { build } from 'esbuild';

await build({
  entryPoints: { cli: 'src/cli/run-cli.ts', bench: 'bench/run.ts' },
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
