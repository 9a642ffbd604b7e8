// Global setup of the conformance project: the oracle must be present. A missing PCP is a
// failed run with a clear message, never a silently skipped suite.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { QA_ARCHIVES, PYTHON } from './oracle';

export default function requirePcp(): void {
  const problems: string[] = [];
  const tryRun = (cmd: string, args: string[], what: string): void => {
    try {
      execFileSync(cmd, args, { stdio: 'pipe', timeout: 20_000 });
    } catch (e) {
      problems.push(`${what}: ${(e as Error).message.split('\n')[0]}`);
    }
  };
  tryRun('pminfo', ['--version'], 'pminfo (package pcp)');
  tryRun(PYTHON, ['-c', 'from pcp import pmapi'], 'python3-pcp');
  tryRun('pminfo', ['-h', 'localhost', 'hinv.ncpu'], 'pmcd on localhost:44321');
  if (!existsSync(QA_ARCHIVES)) problems.push(`QA archives (package pcp-testsuite): ${QA_ARCHIVES} is missing`);
  if (problems.length > 0) {
    throw new Error(`conformance tests need PCP; run 'npm run setup' (scripts/setup.sh) first:\n  ${problems.join('\n  ')}`);
  }
}
