// `pmdash serve`: serves the built app on one port and prints the URL to open.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { optString, parseArgs, UsageError, type OptionSpec } from './args';
import type { Command } from './command';
import { serve } from '../../server/serve';

const options: readonly OptionSpec[] = [
  { short: 'p', long: 'port', value: true, arg: 'N', help: 'port to listen on (default 8044; 0 picks a free one)' },
  { long: 'host', value: true, arg: 'ADDR', help: 'address to listen on (default localhost)' },
];

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the dashboard (and the pmcd bridge) on one port',
  usage: '[--port N] [--host ADDR]',
  options,
  async run(argv, io) {
    const args = parseArgs(argv, options);
    const portText = optString(args, 'port') ?? process.env.PMDASH_PORT ?? '8044';
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`bad port '${portText}'`);
    const host = optString(args, 'host') ?? 'localhost';
    const root = fileURLToPath(new URL('../app', import.meta.url));
    if (!existsSync(root)) {
      io.stderr(`pmdash serve: ${root} is missing; run 'npm run build' first\n`);
      return 1;
    }
    const server = await serve({ port, host, root, log: (line) => io.stderr(`${new Date().toISOString()} ${line}\n`) });
    const address = server.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    io.stdout(`pmdash is serving ${root}\nOpen http://${host}:${actual}/ in a browser (Ctrl-C stops).\n`);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        server.close(() => resolve());
        server.closeAllConnections();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
