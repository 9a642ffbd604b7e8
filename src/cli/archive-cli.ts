// What the archive subcommands (info, metrics, dump) share: the -a option, opening the
// archive set through the Node file set (decompressing transparently), reporting a failure as
// one line in the PCP tools' style, and buffered output with backpressure.
import type { OptionSpec, ParsedArgs } from './args';
import { optList, UsageError } from './args';
import type { CommandIo } from './command';
import { DirFileSet } from '../node/dir-file-set';
import { openStored } from '../pcp-core/io/open-stored';
import { openArchiveSet } from '../pcp-core/archive/open-archive-set';
import type { ArchiveSet } from '../pcp-core/archive/archive-set';
import { isPmError } from '../pcp-core/errors';
import { ArchiveContext } from '../pcp-core/context/archive-context';
import type { ReplaySession } from '../pcp-core/replay/replay-session';

export const archiveOption: OptionSpec = {
  short: 'a',
  long: 'archive',
  value: true,
  repeat: true,
  arg: 'ARCHIVE',
  help: 'archive: base name, any one file, a directory, or a comma-separated list (repeatable)',
};

/** The archive name(s) given with -a, joined as one context name. */
export function archiveSpec(args: ParsedArgs): string {
  const list = optList(args, 'archive');
  if (list.length === 0) throw new UsageError('an archive is required (-a ARCHIVE)');
  return list.join(',');
}

/** One line for a failure: the error's context (file, offset) and libpcp's text. */
export function describeError(e: unknown): string {
  if (isPmError(e)) return e.describe();
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/**
 * The set's replay session, positioned at its start in PM_MODE_FORW: records as
 * pmFetchArchive returns them (fetchArchiveRecord) and pmGetArchiveEnd, by the one reader of
 * data volumes every context uses.
 */
export async function archiveRecords(set: ArchiveSet): Promise<ReplaySession> {
  return (await ArchiveContext.fromSet(set)).session;
}

/** Opens the archive set for a command; on failure prints one line and returns null. */
export async function openForCommand(command: string, spec: string, io: CommandIo): Promise<ArchiveSet | null> {
  // Blocking reads, as libpcp's: nothing else runs meanwhile (file-source.ts).
  const fs = new DirFileSet('.', { blocking: true });
  try {
    return await openArchiveSet(fs, spec, { open: (path) => openStored(fs, path) });
  } catch (e) {
    if (!isPmError(e)) throw e;
    io.stderr(`pmdash ${command}: Cannot open archive "${spec}": ${describeError(e)}\n`);
    return null;
  }
}

/** Collects output and hands it to stdout in large pieces, waiting when stdout is full. */
export class BufferedOut {
  private parts: string[] = [];
  private size = 0;

  constructor(
    private readonly io: CommandIo,
    private readonly limit = 1 << 16,
  ) {}

  /** Adds text; resolves at once unless a full buffer had to wait for stdout. */
  async write(text: string): Promise<void> {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= this.limit) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    this.io.stdout(this.parts.join(''));
    this.parts = [];
    this.size = 0;
    if (this.io.drain) await this.io.drain();
  }
}
