// Process glue for the CLI bundle: real stdout/stderr, .xz volumes decoded by the system's xz
// when it has one, and a last-resort report for an error nothing else handled (one line
// naming it, never a silent exit), V8's settings for a short-lived process (v8-tuning.ts).
// Modules load when needed (main.ts says why).
import { once } from 'node:events';
import { main } from './main';
import { tuneHeapFor } from './v8-tuning';

export async function runCli(argv: readonly string[]): Promise<number> {
  tuneHeapFor(argv[0]);
  const io = {
    stdout: (text: string): void => void process.stdout.write(text),
    stdoutBytes: (bytes: Uint8Array): void => void process.stdout.write(bytes),
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
  const useSystemXz = async (): Promise<void> => {
    (await import('../node/xz-process')).useSystemXz((text) => io.stderr(`pmdash: Warning: ${text}\n`));
  };
  try {
    return await main(argv, io, useSystemXz);
  } catch (e) {
    const { isPmError } = await import('../pcp-core/errors');
    const text = isPmError(e) ? e.describe() : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    io.stderr(`pmdash: ${text}\n`);
    return 1;
  }
}
