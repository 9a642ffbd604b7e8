// `pmdash values --json` against the libpcp oracle's JSON lines (test/oracle/values-interp.py):
// the header line equal, as many samples, every number within 1e-9 relative (libpcp's and
// ours are both doubles, printed by different code), everything else equal.
import { expect } from 'vitest';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Equal JSON, every number within 1e-9 relative (ours against libpcp's), at `path`. */
export function expectJsonClose(a: Json, b: Json, path: string): void {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Math.abs(a - b) > 1e-9 * Math.max(Math.abs(a), Math.abs(b))) expect.fail(`${path}: ${a} vs libpcp ${b}`);
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    expect(a, path).toEqual(b);
    return;
  }
  expect(Object.keys(a), path).toEqual(Object.keys(b));
  for (const k of Object.keys(a)) expectJsonClose((a as Record<string, Json>)[k] ?? null, (b as Record<string, Json>)[k] ?? null, `${path}.${k}`);
}

/** Compares two JSON-lines outputs; returns the number of lines. */
export function compareJsonLines(ours: string, theirs: string): number {
  const a = ours.trimEnd().split('\n').map((l) => JSON.parse(l) as Json);
  const b = theirs.trimEnd().split('\n').map((l) => JSON.parse(l) as Json);
  expect(a[0]).toEqual(b[0]);
  expect(a.length, 'number of samples').toBe(b.length);
  for (let i = 1; i < a.length; i++) expectJsonClose(a[i] ?? null, b[i] ?? null, `line ${i + 1}`);
  return a.length;
}
