// A real pmlogger writing an archive while a test reads it (a growing archive to follow):
// a few pmcd/kernel metrics from the local pmcd every second, a new volume every few
// samples (so new volumes appear while the reader follows), in a temp dir made here.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool } from './oracle';

/** Never per-process data: small, and nothing of other users' processes is recorded. */
export const FOLLOW_METRICS = ['kernel.all.load', 'kernel.all.cpu.user', 'mem.util.free', 'pmcd.numclients'];

export interface RunningLogger {
  /** The temp dir holding the archive. */
  readonly dir: string;
  /** The archive's base path. */
  readonly archive: string;
  /** Samples (records) the archive holds now, as pmval counts them at 1 s. */
  samplesNow(): Promise<number>;
  /** Stops pmlogger (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Stops pmlogger if running and removes the temp dir. */
  remove(): Promise<void>;
}

export interface PmloggerOptions {
  readonly samplesPerVolume?: number;
  readonly minSamples?: number;
  /** A dir an earlier run wrote in (a second archive there: pmlogger started again); default a new temp dir. */
  readonly dir?: string;
  /** The archive's base name (default `growing`). */
  readonly name?: string;
}

/** Starts pmlogger against localhost:44321; resolves once the archive has `minSamples` samples. */
export async function startPmlogger(options: PmloggerOptions = {}): Promise<RunningLogger> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'pmdash-follow-'));
  const name = options.name ?? 'growing';
  writeFileSync(join(dir, 'config'), `log mandatory on 1 sec {\n${FOLLOW_METRICS.map((m) => `  ${m}\n`).join('')}}\n`);
  const archive = join(dir, name);
  const child: ChildProcess = spawn('pmlogger', ['-c', 'config', '-t', '1', '-v', String(options.samplesPerVolume ?? 4), '-l', `${name}.log`, '-h', 'localhost:44321', name], { cwd: dir, stdio: 'ignore' });
  let exited = false;
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void done.then(() => (exited = true));
  const samplesNow = async (): Promise<number> => {
    if (!existsSync(`${archive}.meta`) || !existsSync(`${archive}.0`)) return 0;
    const run = await runTool('pmval', ['-t', '1', '-a', archive, 'kernel.all.load']);
    return run.status === 0 ? run.stdout.split('\n').filter((l) => /^\d\d:\d\d:\d\d\.\d{3}\s/.test(l)).length : 0;
  };
  const stop = async (): Promise<void> => {
    if (!exited) child.kill('SIGTERM');
    await done;
  };
  const want = options.minSamples ?? 2;
  for (let waited = 0; (await samplesNow()) < want; waited += 200) {
    if (exited || waited > 20_000) {
      await stop();
      // The dir is left for its log to say why.
      throw new Error(`pmlogger did not log ${want} samples into ${dir} (its ${name}.log says why)`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    dir,
    archive,
    samplesNow,
    stop,
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
