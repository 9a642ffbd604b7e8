// `pmdash values --json` against the libpcp oracle's JSON lines (test/oracle/values-interp.py):
// the header line equal, as many samples, every number within 1e-9 relative (libpcp's and
// ours are both doubles, printed by different code), everything else equal.
import { expect } from 'vitest';

type Json = null | number | string | { [k: string]: Json };

function close(a: Json, b: Json, path: string): void {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Math.abs(a - b) > 1e-9 * Math.max(Math.abs(a), Math.abs(b))) expect.fail(`${path}: ${a} vs libpcp ${b}`);
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    expect(a, path).toEqual(b);
    return;
  }
  expect(Object.keys(a), path).toEqual(Object.keys(b));
  for (const k of Object.keys(a)) close(a[k] ?? null, b[k] ?? null, `${path}.${k}`);
}

/** Compares two JSON-lines outputs; returns the number of lines. */
export function compareJsonLines(ours: string, theirs: string): number {
  const a = ours.trimEnd().split('\n').map((l) => JSON.parse(l) as Json);
  const b = theirs.trimEnd().split('\n').map((l) => JSON.parse(l) as Json);
  expect(a[0]).toEqual(b[0]);
  expect(a.length, 'number of samples').toBe(b.length);
  for (let i = 1; i < a.length; i++) close(a[i] ?? null, b[i] ?? null, `line ${i + 1}`);
  return a.length;
}
