// Access to the oracle: the real PCP 6.0.3 tools and python3-pcp, run as child processes.
// Conformance tests compare pcp-core with what these print; nothing here computes values.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const QA_ARCHIVES = '/var/lib/pcp/testsuite/archives';
export const QA_BADARCHIVES = '/var/lib/pcp/testsuite/badarchives';
export const PYTHON = '/usr/bin/python3';

export interface ToolRun {
  stdout: string;
  stderr: string;
  status: number;
}

/** Runs a command, never throwing on a non-zero exit: the status is part of the verdict. */
export function runTool(cmd: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      { env: { ...process.env, ...options.env }, maxBuffer: 1 << 30, timeout: options.timeoutMs ?? 120_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error(`${cmd} ${args.join(' ')}: ${error.message}`));
          return;
        }
        resolve({ stdout, stderr, status: error ? Number(error.code) : 0 });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Runs a python3-pcp script (a file under test/oracle/) and returns its stdout. */
export async function runPythonOracle(script: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const run = await runTool(PYTHON, [join(import.meta.dirname, 'oracle', script), ...args], { env });
  if (run.status !== 0) throw new Error(`oracle ${script} ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

/** Runs a test/oracle/ script with a JSON request on stdin and returns its parsed JSON reply. */
export async function queryPythonOracle<T>(script: string, request: unknown, env?: NodeJS.ProcessEnv): Promise<T> {
  const run = await runTool(PYTHON, [join(import.meta.dirname, 'oracle', script)], { env, input: JSON.stringify(request), timeoutMs: 280_000 });
  if (run.status !== 0) throw new Error(`oracle ${script} exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

/** A fresh temporary directory for one test's outputs. */
export function scratchDir(prefix = 'pmdash-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

async function pmcdUp(): Promise<boolean> {
  return (await runTool('pminfo', ['-h', 'localhost', 'hinv.ncpu'], { timeoutMs: 20_000 })).status === 0;
}

/**
 * For the restart tests (the `restart` project restarts the machine's pmcd): waits until pmcd
 * answers on localhost again, starting it if a restart left it down.
 */
export async function ensurePmcd(): Promise<void> {
  for (let i = 0; i < 30; i++) {
    if (await pmcdUp()) return;
    if (i === 10) await runTool('/etc/init.d/pmcd', ['start']);
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('pmcd is not answering on localhost:44321 after the restart test');
}
