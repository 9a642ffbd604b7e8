// Test support for the dump conformance tests: libpcp's record-by-record read of archives
// (test/oracle/archive-dump.py, one long-lived python3-pcp process fed archive names) and
// ours (the same JSON lines from `pmdash dump --json`'s formatter, in-process), compared line
// by line as both are produced, so even a 400 MB archive never sits in memory as text.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DirFileSet } from '../node/dir-file-set';
import { openStored } from '../pcp-core/io/open-stored';
import { openArchiveSet } from '../pcp-core/archive/open-archive-set';
import { archiveRecords } from './archive-cli';
import { PM_ERR_EOL, PmError } from '../pcp-core/errors';
import { DumpJsonFormatter } from './dump-json';

/** The line the oracle closes an archive with, as ours writes it. */
function endLine(name: string, stage: 'open' | 'fetch' | null, code = 0): string {
  const archive = JSON.stringify(name);
  return stage === null ? `{"kind":"end","archive":${archive}}` : `{"kind":"error","archive":${archive},"stage":"${stage}","code":${code}}`;
}

/** Our dump of `name` as JSON lines (no newlines), closed by the end or error line. */
export async function* ourDumpLines(name: string): AsyncGenerator<string> {
  const fs = new DirFileSet();
  let set;
  try {
    set = await openArchiveSet(fs, name, { open: (p) => openStored(fs, p) });
  } catch (e) {
    if (!(e instanceof PmError)) throw e;
    yield endLine(name, 'open', e.code);
    return;
  }
  try {
    const format = new DumpJsonFormatter((p) => set.metadata.desc(p)?.type);
    const records = await archiveRecords(set);
    for (;;) {
      let line: string;
      try {
        line = format.formatRaw(await records.fetchArchiveRecord());
      } catch (e) {
        if (!(e instanceof PmError)) throw e;
        yield e.code === PM_ERR_EOL ? endLine(name, null) : endLine(name, 'fetch', e.code);
        return;
      }
      yield line.slice(0, -1);
    }
  } finally {
    await set.close();
  }
}

/** A python3-pcp process dumping archives named on its stdin, read line by line. */
export class OracleDump {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: AsyncIterator<string>;
  private stderr = '';

  constructor(python: string, oracleDir: string) {
    this.child = spawn(python, [join(oracleDir, 'archive-dump.py'), '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d: Buffer) => {
      this.stderr += d.toString();
    });
    this.lines = createInterface({ input: this.child.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]();
  }

  /** Queues archives for the oracle to dump, in order. */
  request(names: readonly string[]): void {
    for (const n of names) this.child.stdin.write(`${n}\n`);
  }

  async next(): Promise<string> {
    const r = await this.lines.next();
    if (r.done) throw new Error(`oracle ended early: ${this.stderr.slice(0, 2000)}`);
    return r.value;
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}

export interface DumpComparison {
  /** Lines compared (records, marks and the closing line). */
  readonly lines: number;
  /** The oracle's closing line. */
  readonly last: string;
  /** The first difference, if any: line number and both lines (shortened). */
  readonly mismatch: string | null;
}

const clip = (s: string): string => (s.length > 400 ? `${s.slice(0, 400)}…(${s.length} chars)` : s);
const isLast = (line: string): boolean => line.startsWith('{"kind":"end"') || line.startsWith('{"kind":"error"');

/**
 * Compares our dump of `name` with the oracle's next archive (already requested). After a
 * difference, the rest of the oracle's lines for this archive are skipped, so the stream stays
 * aligned for the next archive.
 */
export async function compareDump(name: string, oracle: OracleDump): Promise<DumpComparison> {
  let n = 0;
  let mismatch: string | null = null;
  let theirs = '';
  let oursDone = false;
  for await (const ours of ourDumpLines(name)) {
    n++;
    // Our side is CPU-bound and otherwise yields only to microtasks: let the event loop read
    // the oracle's pipe now and then, so python keeps working while we do (two cores busy).
    if (n % 8 === 0) await nextTurn();
    theirs = await oracle.next();
    if (ours !== theirs) {
      mismatch = `line ${n}:\n  ours:   ${clip(ours)}\n  libpcp: ${clip(theirs)}`;
      break;
    }
    if (isLast(ours)) {
      oursDone = true;
      break;
    }
  }
  if (!oursDone) while (!isLast(theirs)) theirs = await oracle.next();
  return { lines: n, last: theirs, mismatch };
}
