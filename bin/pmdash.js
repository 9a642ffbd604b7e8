#!/usr/bin/env node
// The pmdash command. The TypeScript sources are bundled into dist/node/cli.js by
// `npm run build`; this file only loads that bundle and maps its result to an exit status.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/node/cli.js', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write(`pmdash: ${bundle} is missing; run 'npm run build' first\n`);
  process.exit(1);
}
const { runCli } = await import(bundle);
process.exitCode = await runCli(process.argv.slice(2));
