// Process glue for the CLI bundle: real stdout/stderr, and a last-resort report for an error
// nothing else handled (one line naming it, never a silent exit).
import { main } from './main';
import { isPmError } from '../pcp-core/errors';

export async function runCli(argv: readonly string[]): Promise<number> {
  const io = {
    stdout: (text: string): void => void process.stdout.write(text),
    stderr: (text: string): void => void process.stderr.write(text),
  };
  try {
    return await main(argv, io);
  } catch (e) {
    const text = isPmError(e) ? e.describe() : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    io.stderr(`pmdash: ${text}\n`);
    return 1;
  }
}
