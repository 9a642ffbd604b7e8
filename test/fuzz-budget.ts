// How long a fuzz test runs and what it reports. `npm test` (the unit project) runs each fuzz
// test for a fixed, small number of inputs (deterministic, a few seconds each); `npm run fuzz`
// (scripts/fuzz.mjs) gives each test a time budget instead (PMDASH_FUZZ_SECONDS) and sums the
// counts each one appends to PMDASH_FUZZ_REPORT into the total it prints.
import { appendFileSync } from 'node:fs';

export interface FuzzBudget {
  /** Whether to take another input after `done` of them. */
  more(done: number): boolean;
  /** Prints (and, under `npm run fuzz`, records) how many inputs ran. */
  report(done: number, detail?: string): void;
}

/** A test timeout that covers a fuzz test's budget (or PMDASH_FUZZ_ITERATIONS inputs of up
 *  to `msPerInput` each, on a busy machine). */
export function fuzzTimeoutMs(msPerInput = 1): number {
  const seconds = Number(process.env.PMDASH_FUZZ_SECONDS ?? 0);
  const iterations = Number(process.env.PMDASH_FUZZ_ITERATIONS ?? 0);
  return seconds > 0 ? seconds * 1000 + 120_000 : Math.max(120_000, iterations * msPerInput);
}

export function fuzzBudget(name: string, iterations: number): FuzzBudget {
  const seconds = Number(process.env.PMDASH_FUZZ_SECONDS ?? 0);
  const count = Number(process.env.PMDASH_FUZZ_ITERATIONS ?? iterations);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  return {
    more: seconds > 0 ? () => performance.now() < deadline : (done) => done < count,
    report(done, detail) {
      const s = (performance.now() - started) / 1000;
      console.log(`fuzz ${name}: ${done} inputs in ${s.toFixed(1)} s (${Math.round(done / s)}/s)${detail ? `; ${detail}` : ''}`);
      const file = process.env.PMDASH_FUZZ_REPORT;
      if (file) appendFileSync(file, JSON.stringify({ name, inputs: done, seconds: s }) + '\n');
    },
  };
}
