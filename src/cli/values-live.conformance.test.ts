// `pmdash values -h` against the live pmcd 6.0.3: direct TCP, through pmproxy's relay and
// through the pmdash bridge give the same JSON shape as for archives (a header, then one line
// per sample every -t); discrete values equal pminfo's; the header equals what the archive
// path prints for the same metrics' descriptors (pminfo -d / -m agree); counters come out as
// rates from the second sample on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../test/oracle';
import { bridgeUrl } from '../pcp-core/pdu/target-spec';
import { startTestServer, type TestServer } from '../../server/testing/serve';
import { main } from './main';

interface Line {
  readonly kind: string;
  readonly metrics?: Record<string, { pmid: string; type: string; sem: string; indom: string | null; units: string }>;
  readonly time?: string;
  readonly values?: Record<string, Record<string, number | string | null>>;
}

async function values(argv: string[]): Promise<Line[]> {
  let out = '';
  let err = '';
  const status = await main(['values', ...argv], { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  expect(status, err).toBe(0);
  return out.trim().split('\n').map((l) => JSON.parse(l) as Line);
}

async function pminfo(args: string[]): Promise<string> {
  const run = await runTool('pminfo', ['-h', 'localhost', ...args]);
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

const METRICS = ['hinv.ncpu', 'kernel.uname.sysname', 'kernel.all.load', 'kernel.all.cpu.user'];

describe('pmdash values -h (live)', () => {
  let server: TestServer;
  let origin: string;
  beforeAll(async () => {
    server = await startTestServer();
    origin = server.origin;
  });
  afterAll(() => server.stop());

  it.each([
    ['TCP', () => 'localhost'],
    ['pmproxy relay', () => 'localhost@localhost'],
    ['the bridge', () => bridgeUrl(origin)],
  ])('samples every -t over %s with the archive JSON format', async (_how, host) => {
    const t0 = Date.now();
    const lines = await values(['-h', host(), '-t', '300msec', '-s', '3', '--json', ...METRICS]);
    const elapsed = Date.now() - t0;
    const [header, ...samples] = lines;
    expect(header?.kind).toBe('header');
    expect(Object.keys(header?.metrics ?? {})).toEqual(METRICS);
    // The header's pmid and semantics are pminfo's.
    const ids = await pminfo(['-m', ...METRICS]);
    for (const m of METRICS) expect(ids).toContain(`${m} PMID: ${header?.metrics?.[m]?.pmid}`);
    expect(header?.metrics?.['kernel.all.cpu.user']).toEqual({ pmid: '60.0.20', type: 'U64', sem: 'counter', indom: null, units: 'millisec' });
    expect(samples.map((s) => s.kind)).toEqual(['sample', 'sample', 'sample']);
    expect(elapsed).toBeGreaterThanOrEqual(600);
    const ncpu = Number(/value (\d+)/.exec(await pminfo(['-f', 'hinv.ncpu']))?.[1]);
    const sysname = /value "(.*)"/.exec(await pminfo(['-f', 'kernel.uname.sysname']))?.[1];
    for (const [k, s] of samples.entries()) {
      expect(s.values?.['hinv.ncpu']).toEqual({ '': ncpu });
      expect(s.values?.['kernel.uname.sysname']).toEqual({ '': sysname });
      expect(Object.keys(s.values?.['kernel.all.load'] ?? {})).toEqual(['1 minute', '5 minute', '15 minute']);
      const rate = s.values?.['kernel.all.cpu.user']?.[''];
      // No rate without a previous sample; then a utilisation between 0 and ncpu.
      if (k === 0) {
        expect(rate).toBeNull();
      } else {
        expect(Number(rate)).toBeGreaterThanOrEqual(0);
        expect(Number(rate)).toBeLessThanOrEqual(ncpu * 1.05);
      }
    }
    const [first, , last] = samples.map((s) => Date.parse(s.time ?? ''));
    expect((last ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(550);
  });

  it('reports a host it cannot reach, and refuses -a with -h', async () => {
    let err = '';
    const io = { stdout: () => undefined, stderr: (t: string) => void (err += t) };
    expect(await main(['values', '-h', 'localhost:1', '-s', '1', 'hinv.ncpu'], io)).toBe(1);
    expect(err).toBe('pmdash values: localhost:1: Connection refused (is pmcd running?)\n');
    err = '';
    expect(await main(['values', '-h', 'localhost', '-a', 'x', 'hinv.ncpu'], io)).toBe(1);
    expect(err).toMatch(/^pmdash values: -a and -h are mutually exclusive/);
  });
});
