// The oracle for pmchart view files: runs PCP 6.0.3's own parser, `pmchart -C -c FILE`
// (-C -C also plots every metric against the local pmcd), headless. Qt's offscreen platform
// needs no X server; PCP_STDERR sends pmchart's messages to stderr instead of pmquery pop-ups
// (which would wait for a click). One pmchart per file: pmchart's word reader keeps state
// between the views of one run.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTool, scratchDir } from './oracle';

export interface PmchartCheck {
  /** pmchart's exit status: 0 when the view was accepted. */
  readonly status: number;
  /** What pmchart printed (its "Error: file[line] …" lines), with Qt's own chatter removed. */
  readonly messages: string;
}

const runtimeDir = scratchDir('pmdash-qt-');

/** Checks one view file with pmchart (`level` 2 adds the metric checks of -C -C). */
export async function pmchartCheck(path: string, level: 1 | 2 = 1): Promise<PmchartCheck> {
  const flags = level === 2 ? ['-C', '-C'] : ['-C'];
  // pmprintf appends to the file named by PCP_STDERR (it cannot open a pipe's /dev/stderr).
  const log = join(scratchDir('pmdash-pmchart-'), 'messages');
  writeFileSync(log, '');
  const run = await runTool('pmchart', [...flags, '-c', path], {
    env: { QT_QPA_PLATFORM: 'offscreen', PCP_STDERR: log, XDG_RUNTIME_DIR: runtimeDir },
    timeoutMs: 60_000,
  });
  const noise = run.stderr.split('\n').filter((l) => l !== '' && !/^(QStandardPaths|QColor::|qt\.qpa)/.test(l));
  if (noise.length > 0) throw new Error(`pmchart -C -c ${path} wrote to stderr: ${noise.join('\n')}`);
  return { status: run.status, messages: readFileSync(log, 'utf8') };
}

/** Writes `text` to a fresh file named `name` and checks it. */
export async function pmchartCheckText(name: string, text: string, level: 1 | 2 = 1): Promise<PmchartCheck & { path: string }> {
  const path = join(scratchDir('pmdash-view-'), name);
  writeFileSync(path, text);
  return { ...(await pmchartCheck(path, level)), path };
}

/** Runs `jobs` with at most `limit` at a time (the machine has two cores). */
export async function inBatches<T, R>(items: readonly T[], limit: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await job(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
