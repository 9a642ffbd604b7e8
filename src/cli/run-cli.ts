// Process glue for the CLI bundle: real stdout/stderr, .xz volumes decoded by the system's xz
// when it has one, and a last-resort report for an error nothing else handled (one line
// naming it, never a silent exit). Modules load when needed (main.ts says why).
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { main } from './main';

/**
 * V8's young generation for a one-shot command. A replay allocates steadily (a value, a time,
 * a table cell per sample; doubles boxed until V8 has compiled the loop) over a heap that the
 * archive's metadata has just filled. Grown ×2 at a time (V8's default), the young generation
 * stays a few MB: each scavenge copies the metadata's young objects again and promotes them,
 * and a whole-heap collection follows mid-replay, its marking on the core V8's compiler needs.
 * Grown ×16 when it first fills, it reaches V8's cap (16 MB semi-spaces) at once and a
 * `values` run of 10^4 samples needs no further collection: ~8 ms less for 20180102 at 1 s,
 * ~3 MB more resident (bench/README.md). A flag V8 reads each time it grows the space, so it
 * takes effect set here. Not for `serve`: a long-lived server keeps V8's default.
 */
function tuneHeapFor(command: string | undefined): void {
  if (command !== 'serve') setFlagsFromString('--semi-space-growth-factor=16');
}

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
