// pmdash's shipped statement of PCP's default derived metrics (standard.ts) against libpcp
// with the configuration PCP installed ($PCP_VAR_DIR/config/derived): the same names, the
// same expressions (parsed), and on QA archives the same descriptors and values, libpcp
// looking the names up in its own default configuration and pmdash in the shipped set. Help
// texts differ by design (pmdash's own words, docs/deviations.md).
import { describe, expect, it } from 'vitest';
import { runDerivedOracle } from '../../../test/derived/oracle';
import { runOurs, type Reply, type Request } from '../../../test/derived/ours';
import { QA_ARCHIVES } from '../../../test/oracle';
import { nodeDerivedConfigFs, pcpVarDir } from '../../node/derived-config-fs';
import { loadDerivedConfig } from './config';
import { parseExpression } from './parser';
import { DerivedRegistry } from './registry';
import { STANDARD_DERIVED, standardDerivedRegistry } from './standard';

const installed = `${pcpVarDir(process.env)}/config/derived`;
const names = STANDARD_DERIVED.map((s) => s.name);

/** An expression's tree without source positions: what it means, not how it was spelled. */
function meaning(text: string): string {
  const r = parseExpression(text);
  if (!r.ok) throw new Error(`${text}: ${r.error.message ?? 'syntax error'}`);
  return JSON.stringify(r.expr, (k, v: unknown) => (k === 'span' || k === 'text' ? undefined : v));
}

/** Values as numbers (libpcp's doubles arrive as repr() text, 64-bit integers as text). */
function sameSamples(ours: Reply['samples'], theirs: Reply['samples'], where: string): string[] {
  const out: string[] = [];
  if (ours.length !== theirs.length) out.push(`${where}: ${ours.length} samples vs ${theirs.length}`);
  theirs.forEach((t, s) => {
    const o = ours[s];
    if (o === undefined) return;
    if (o.sec !== t.sec || o.usec !== t.usec) out.push(`${where}: sample ${s} at ${o.sec}.${o.usec} vs ${t.sec}.${t.usec}`);
    t.sets.forEach((ts, k) => {
      const os = o.sets[k];
      const same =
        os !== undefined &&
        os.numval === ts.numval &&
        os.inst.join() === ts.inst.join() &&
        os.values.every((v, j) => {
          const a = Number(v);
          const b = Number(ts.values[j]);
          return a === b || (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
        });
      if (!same) out.push(`${where}: sample ${s} metric #${k} ${JSON.stringify(os)} vs ${JSON.stringify(ts)}`);
    });
  });
  return out;
}

interface Run {
  readonly archive: string;
  readonly mode: 'forw' | 'interp';
  readonly deltaMs: number;
  readonly samples: number;
}

// Archives with disks (dev, dm, md), per-process metrics and CPU counters; none of the QA
// archives has disk.wwid, discard or flush counters, bcc or mssql metrics: those are
// checked by their expressions only (first test).
const RUNS: readonly Run[] = [
  { archive: '20180416.10.00', mode: 'forw', deltaMs: 0, samples: 40 },
  { archive: '20180416.10.00', mode: 'interp', deltaMs: 1000, samples: 30 },
  { archive: 'bozo-disk', mode: 'forw', deltaMs: 0, samples: 20 },
  { archive: 'pcp-zeroconf', mode: 'interp', deltaMs: 10000, samples: 20 },
  { archive: 'proc', mode: 'forw', deltaMs: 0, samples: 10 },
  { archive: 'zero_disk_activity', mode: 'forw', deltaMs: 0, samples: 20 },
  { archive: 'dm-io', mode: 'forw', deltaMs: 0, samples: 20 },
  { archive: 'pcp-atop', mode: 'forw', deltaMs: 0, samples: 10 },
];

describe("the shipped standard derived metrics equal PCP's default configuration", () => {
  it('has the same names and expressions as the installed files', () => {
    const registry = new DerivedRegistry();
    const load = loadDerivedConfig(registry, installed, nodeDerivedConfigFs);
    expect(load.messages).toBe('');
    const theirs = registry.definitions.filter((d) => !d.anon);
    expect([...names].sort()).toEqual(theirs.map((d) => d.name).sort());
    for (const d of theirs) {
      const ours = STANDARD_DERIVED.find((s) => s.name === d.name);
      expect(ours && meaning(ours.expr), d.name).toBe(meaning(d.text));
      // Every metric explains itself (libpcp's files give each at least a one-line text).
      expect(ours?.oneline, d.name).toMatch(/\S/);
    }
  });

  for (const run of RUNS) {
    it(`${run.archive} (${run.mode}): descriptors and values`, async () => {
      const req: Request = { archive: `${QA_ARCHIVES}/${run.archive}`, mode: run.mode, deltaMs: run.deltaMs, samples: run.samples, metrics: names.map((n) => [n, '']), lookupOnly: true };
      const theirs = await runDerivedOracle<Reply>('derived-values.py', req, [], { PCP_DERIVED_CONFIG: installed });
      const ours = await runOurs(req, standardDerivedRegistry());
      const bound = theirs.bind.filter((b) => b.desc !== null).length;
      // Descriptors (type, semantics, indom, units) and failures alike; PMIDs follow the order
      // the files were read in, which is the file system's, so they are left out.
      const strip = (b: Reply['bind'][number]): unknown => ({ ...b, pmid: b.pmid === null ? null : 'derived' });
      expect(ours.bind.map(strip)).toEqual(theirs.bind.map(strip));
      expect(bound).toBeGreaterThan(5);
      expect(sameSamples(ours.samples, theirs.samples, run.archive)).toEqual([]);
      const values = theirs.samples.reduce((n, s) => n + s.sets.reduce((m, x) => m + Math.max(0, x.numval), 0), 0);
      expect(values).toBeGreaterThan(bound);
    });
  }

  it('a live pmcd: the same descriptors', async () => {
    const req: Request = { host: 'localhost', mode: 'live', deltaMs: 0, samples: 0, metrics: names.map((n) => [n, '']), lookupOnly: true };
    const theirs = await runDerivedOracle<Reply>('derived-values.py', req, [], { PCP_DERIVED_CONFIG: installed });
    const ours = await runOurs(req, standardDerivedRegistry());
    const strip = (b: Reply['bind'][number]): unknown => ({ ...b, pmid: b.pmid === null ? null : 'derived' });
    expect(ours.bind.map(strip)).toEqual(theirs.bind.map(strip));
    expect(theirs.bind.filter((b) => b.desc !== null).length).toBeGreaterThan(10);
  });
});
