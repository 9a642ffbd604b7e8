// Helpers for the derived-metric conformance tests: run one of the python3-pcp oracle scripts
// (test/oracle/derived-*.py) with a JSON request on stdin and parse its JSON reply.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { PYTHON, runTool, scratchDir } from '../oracle';

export async function runDerivedOracle<T>(script: string, request: unknown, args: readonly string[] = [], env?: NodeJS.ProcessEnv): Promise<T> {
  const path = join(import.meta.dirname, '..', 'oracle', script);
  const input = JSON.stringify(request);
  let run;
  try {
    run = await runTool(PYTHON, [path, ...args], { input, env: { PCP_DERIVED_CONFIG: '', ...env } });
  } catch (e) {
    // A crash (signal) of the oracle: keep the request so the case can be replayed by hand.
    const keep = join(scratchDir('pmdash-derived-oracle-'), 'request.json');
    writeFileSync(keep, input);
    throw new Error(`oracle ${script} died (request in ${keep}): ${(e as Error).message}`, { cause: e });
  }
  if (run.status !== 0) throw new Error(`oracle ${script} exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

/** A deterministic pseudo-random generator (mulberry32), so generated cases are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
