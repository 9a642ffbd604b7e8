// Process glue for the CLI bundle: real stdout/stderr, .xz volumes decoded by the system's xz
// when it has one, and a last-resort report for an error nothing else handled (one line
// naming it, never a silent exit).
import { once } from 'node:events';
import { main } from './main';
import { isPmError } from '../pcp-core/errors';
import { useSystemXz } from '../node/xz-process';

export async function runCli(argv: readonly string[]): Promise<number> {
  const io = {
    stdout: (text: string): void => void process.stdout.write(text),
    stderr: (text: string): void => void process.stderr.write(text),
    drain: async (): Promise<void> => {
      if (process.stdout.writableNeedDrain) await once(process.stdout, 'drain');
    },
  };
  // A reader that goes away (`pmdash dump | head`) ends the output quietly, as for C tools.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    process.stderr.write(`pmdash: stdout: ${e.message}\n`);
    process.exit(1);
  });
  useSystemXz((text) => io.stderr(`pmdash: Warning: ${text}\n`));
  try {
    return await main(argv, io);
  } catch (e) {
    const text = isPmError(e) ? e.describe() : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    io.stderr(`pmdash: ${text}\n`);
    return 1;
  }
}
