// `pmdash` CLI entry: dispatches to a subcommand. Built by scripts/build-node.mjs into
// dist/node/cli.js, which bin/pmdash.js loads.
import { formatOptions, UsageError } from './args';
import type { Command, CommandIo } from './command';
import { version } from '../../package.json';

/**
 * Subcommands, in the order `--help` lists them. Each loads on demand (esbuild splits them
 * into chunks), so `pmdash dump` never pays for the server or the PDU client, and
 * `--version` for nothing at all.
 */
const commandLoaders: ReadonlyArray<readonly [name: string, load: () => Promise<Command>]> = [
  ['serve', async () => (await import('./serve')).serveCommand],
  ['info', async () => (await import('./info')).infoCommand],
  ['metrics', async () => (await import('./metrics')).metricsCommand],
  ['dump', async () => (await import('./dump')).dumpCommand],
  ['values', async () => (await import('./values')).valuesCommand],
];

function usage(commands: readonly Command[]): string {
  const width = Math.max(0, ...commands.map((c) => c.name.length));
  return [
    `Usage: pmdash COMMAND [OPTIONS]`,
    ``,
    `A dashboard and command-line tools for Performance Co-Pilot metrics.`,
    ``,
    `Commands:`,
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    ``,
    `Options:`,
    `  -h, --help     show this help (or a command's, after its name)`,
    `  -V, --version  show the version`,
    ``,
    `Run 'pmdash COMMAND --help' for a command's options.`,
  ].join('\n');
}

export function commandHelp(c: Command): string {
  return [`Usage: pmdash ${c.name} ${c.usage}`, ``, c.summary, ``, `Options:`, formatOptions(c.options)].join('\n');
}

export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  const allCommands = (): Promise<Command[]> => Promise.all(commandLoaders.map(([, load]) => load()));
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout(usage(await allCommands()) + '\n');
    return first === undefined ? 1 : 0;
  }
  if (first === '--version' || first === '-V') {
    io.stdout(`pmdash ${version}\n`);
    return 0;
  }
  const loader = commandLoaders.find(([name]) => name === first);
  if (!loader) {
    io.stderr(`pmdash: unknown command '${first}'\n${usage(await allCommands())}\n`);
    return 1;
  }
  const command = await loader[1]();
  if (rest.includes('--help')) {
    io.stdout(commandHelp(command) + '\n');
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`pmdash ${command.name}: ${e.message}\nUsage: pmdash ${command.name} ${command.usage}\n`);
      return 1;
    }
    throw e;
  }
}
