// `pmdash` CLI entry: dispatches to a subcommand. Built by scripts/build-node.mjs into
// dist/node/cli.js, which bin/pmdash.js loads. Nothing here is imported statically but the
// version: start-up time is every command's, so `--version` loads this file alone and a
// command loads what it needs (bench/run.ts measures the start-up above Node's own).
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
  ['fleet', async () => (await import('./fleet')).fleetCommand],
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

export async function commandHelp(c: Command): Promise<string> {
  const { formatOptions } = await import('./args');
  return [`Usage: pmdash ${c.name} ${c.usage}`, ``, c.summary, ``, `Options:`, formatOptions(c.options)].join('\n');
}

/**
 * Runs the command `argv` names. `prepare`, if given, runs once a command is chosen (not for
 * --help or --version), while its module loads: set-up only commands need.
 */
export async function main(argv: readonly string[], io: CommandIo, prepare?: () => Promise<void>): Promise<number> {
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
  if (rest.includes('--help')) {
    io.stdout((await commandHelp(await loader[1]())) + '\n');
    return 0;
  }
  const [command] = await Promise.all([loader[1](), prepare?.()]);
  try {
    return await command.run(rest, io);
  } catch (e) {
    // The command has loaded the argument parser, so this costs nothing.
    const { UsageError } = await import('./args');
    if (e instanceof UsageError) {
      io.stderr(`pmdash ${command.name}: ${e.message}\nUsage: pmdash ${command.name} ${command.usage}\n`);
      return 1;
    }
    throw e;
  }
}
