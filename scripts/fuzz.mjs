// `npm run fuzz`: every fuzz test of the unit project (files named *fuzz*) on a time budget
// instead of its small fixed count, one file at a time (the machine may be shared), then the
// inputs each ran and the total. The budget is PMDASH_FUZZ_TOTAL_SECONDS (default 3000, 50
// minutes) shared equally by the tests that use test/fuzz-budget.ts; fuzz tests that do not
// use it run PMDASH_FUZZ_ITERATIONS (default 20000) inputs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const total = Number(process.env.PMDASH_FUZZ_TOTAL_SECONDS ?? 3000);

/** Files under `dir` whose name says fuzz and test. */
function fuzzFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /fuzz.*\.test\.ts$/.test(e.name) && !/\.(conformance|restart)\.test\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}
const files = ['src', 'server'].flatMap(fuzzFiles);
// Budgeted tests: one fuzzBudget(...) call per test.
const budgeted = files.reduce((n, f) => n + (readFileSync(f, 'utf8').match(/fuzzBudget\(/g) ?? []).length, 0);
const seconds = Math.max(1, Math.floor(total / Math.max(1, budgeted)));
const dir = mkdtempSync(join(tmpdir(), 'pmdash-fuzz-'));
const report = join(dir, 'report.jsonl');
console.log(`fuzz: ${files.length} files, ${budgeted} budgeted tests, ${seconds} s each`);
const started = Date.now();
const run = spawnSync('npx', ['vitest', 'run', '--project', 'unit', '--no-file-parallelism', 'fuzz'], {
  stdio: 'inherit',
  env: { ...process.env, PMDASH_FUZZ_SECONDS: String(seconds), PMDASH_FUZZ_REPORT: report, PMDASH_FUZZ_ITERATIONS: process.env.PMDASH_FUZZ_ITERATIONS ?? '20000' },
});
let lines = [];
try {
  lines = readFileSync(report, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
} catch {
  console.error('fuzz: no counts were reported');
}
rmSync(dir, { recursive: true, force: true });
let inputs = 0;
for (const l of lines) {
  inputs += l.inputs;
  console.log(`fuzz ${l.name}: ${l.inputs} inputs in ${l.seconds.toFixed(0)} s (${Math.round(l.inputs / l.seconds)}/s)`);
}
const wall = (Date.now() - started) / 1000;
console.log(`fuzz total: ${inputs} inputs in ${wall.toFixed(0)} s (budgeted tests only; others ran their fixed counts)`);
process.exit(run.status ?? 1);
