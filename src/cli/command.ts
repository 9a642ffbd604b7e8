// The shape of one `pmdash` subcommand. Each lives in its own module under src/cli/ and is
// listed in main.ts; `io` lets tests run a command in-process and capture its output.
import type { OptionSpec } from './args';

export interface CommandIo {
  readonly stdout: (text: string) => void;
  /** UTF-8 output as bytes, where the process can take them so (a long table is built as
   *  bytes: no string to make of them and encode again); absent in tests. */
  readonly stdoutBytes?: (bytes: Uint8Array) => void;
  readonly stderr: (text: string) => void;
  /** Resolves when stdout can take more (backpressure for long outputs); absent in tests. */
  readonly drain?: () => Promise<void>;
}

export interface Command {
  readonly name: string;
  /** One line for `pmdash --help`. */
  readonly summary: string;
  /** Usage line after `pmdash NAME`, e.g. "-a ARCHIVE [--json]". */
  readonly usage: string;
  readonly options: readonly OptionSpec[];
  /** Runs the command; resolves to the process exit status. */
  run(argv: readonly string[], io: CommandIo): Promise<number>;
}
