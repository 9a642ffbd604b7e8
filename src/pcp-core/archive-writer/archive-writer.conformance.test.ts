// The synthetic archive of testing/synthetic.ts through PCP 6.0.3's own tools: pmlogcheck
// finds nothing to report, and pmdumplog prints every value of every type as written
// (64-bit extremes, UTF-8 strings, aggregates, both kinds of event records, error codes,
// instance names before and after the rename), the labels and the help text.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runTool, scratchDir } from '../../../test/oracle';
import { build } from './testing/synthetic';

it('pmlogcheck and pmdumplog read the synthetic archive as written', async () => {
  const img = build();
  const base = join(scratchDir('pmdash-writer-'), 'syn');
  writeFileSync(`${base}.meta`, img.meta);
  writeFileSync(`${base}.index`, img.index);
  writeFileSync(`${base}.0`, img.volume);
  const check = await runTool('pmlogcheck', ['-v', base]);
  expect(check.status, check.stdout + check.stderr).toBe(0);
  // -v narrates its passes; anything beyond that would be a complaint.
  const said = (check.stdout + check.stderr).split('\n').filter((l) => l !== '' && !/Scanning for components|start pass|^Processed /.test(l));
  expect(said).toEqual([]);
  expect(check.stdout + check.stderr).toMatch(/Processed 5 pmResult records\nProcessed 1 <mark> records/);
  const dump = await runTool('pmdumplog', ['-Z', 'UTC', '-a', '-e', '-h', base]);
  expect(dump.status, dump.stderr).toBe(0);
  const out = dump.stdout;
  for (const line of [
    'Performance metrics from host synthetic.example',
    'PMID: 29.0.4 (syn.u64)',
    '29.0.1 (syn.i32): value -2147483648',
    '29.0.2 (syn.u32 or syn.alias.u32): value 4294967295',
    '29.0.3 (syn.i64): value -9223372036854775808',
    'inst [1 or "one"] value 18446744073709551615',
    'inst [5 or "five"] value 9007199254740993',
    '29.0.5 (syn.flt): value 1.5',
    '29.0.7 (syn.str): value "héllo wörld"',
    '29.0.8 (syn.agg): value [0102030405]',
    '29.0.7 (syn.str): Metric not supported by this version of monitored application',
    '29.0.5 (syn.flt): No values returned!',
    'inst [1 or "uno"] value 2.25',
    '<mark>',
    '--- event record [1] timestamp',
    '==> 7 missed event records',
    '"hostname":"synthetic.example"',
    'longer help',
  ]) expect(out, line).toContain(line);
  expect(out).toMatch(/29\.0\.10 \(syn\.hev\): 2 \(and 7 missed\) event records\n\s+--- event record \[0\] timestamp \d\d:\d\d:\d\d\.123456789/);
  expect(out).toMatch(/29\.0\.9 \(syn\.evt\): 2 \(and 7 missed\) event records\n\s+--- event record \[0\] timestamp \d\d:\d\d:\d\d\.123456 /);
});
