// `pmdash values -o csv` against `pmrep -o csv` (run by python3-pcp's interpreter) on QA
// archives: header, times, rates, precision, strings, instance columns, empty fields —
// stdout byte for byte, for several intervals, windows, -r, -z and -i.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PYTHON, QA_ARCHIVES, runTool } from '../../test/oracle';
import { main } from './main';

const ENV = { PCP_DERIVED_CONFIG: '', TZ: 'UTC' };
const PMREP = '/usr/bin/pmrep';

async function pmdash(argv: readonly string[], env: Record<string, string>): Promise<{ stdout: string; status: number; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const status = await main(['values', '-o', 'csv', ...argv], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
    return { stdout, status, stderr };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

const A = (n: string): string => join(QA_ARCHIVES, n);
const CASES: Array<{ args: readonly string[]; env?: Record<string, string> }> = [
  { args: ['-a', A('20180606'), '-s', '30', '-t', '7', 'kernel.all.load', 'hinv.ncpu', 'kernel.all.cpu.user', 'disk.dev.read', 'kernel.uname.release', 'mem.util.free'] },
  { args: ['-a', A('20180606'), '-t', '10min', 'kernel.all.cpu.sys', 'kernel.all.cpu.idle', 'network.interface.in.bytes'] },
  { args: ['-a', A('20180606'), '-r', '-s', '12', '-t', '90', 'kernel.all.cpu.user', 'disk.dev.write'] },
  { args: ['-a', A('20180606'), '-S', '+1hour', '-T', '+2hour', '-t', '5min', 'mem.util.cached', 'mem.util.bufmem', 'swap.used'] },
  { args: ['-a', A('20180416.10.00'), '-s', '50', '-t', '13', 'disk.dev.read_bytes', 'kernel.all.pswitch', 'mem.util.used'] },
  { args: ['-a', A('20180416.10.00'), '-s', '20', '-t', '1min', '-z', 'kernel.percpu.cpu.sys', 'proc.nprocs'] },
  { args: ['-a', A('omnibus_v3'), '-t', '0.25', 'sample.colour', 'sample.double.million', 'sample.float.bin_ctr', 'sample.string.bin', 'sample.ulonglong.bin_ctr', 'sample.long.write_me', 'sample.proc.time'] },
  { args: ['-a', A('pcp-pidstat-process-args'), '-s', '4', '-t', '5', 'proc.psinfo.utime', 'proc.psinfo.rss'] },
  { args: ['-a', A('20180606'), '-s', '8', '-t', '30', 'kernel.all.load'], env: { TZ: 'Australia/Melbourne' } },
];

describe('pmdash values -o csv matches pmrep -o csv', () => {
  it.each(CASES.map((c) => [c.args.slice(1).join(' '), c] as const))('%s', async (_label, c) => {
    const env = { ...ENV, ...c.env };
    const theirs = await runTool(PYTHON, [PMREP, '-o', 'csv', ...c.args], { env });
    expect(theirs.status, theirs.stderr).toBe(0);
    const ours = await pmdash(c.args, env);
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.stdout).toBe(theirs.stdout);
  });
});

describe('pmdash values -o csv matches pmrep -o csv on the live pmcd', () => {
  it('stable metrics: header and values (the times are each tool\'s own)', async () => {
    const args = ['-h', 'localhost', '-s', '3', '-t', '0.2', 'hinv.ncpu', 'pmcd.version', 'kernel.uname.sysname', 'hinv.physmem', 'kernel.all.nprocs'];
    const strip = (text: string): string[] => text.trim().split('\n').map((l, i) => (i === 0 ? l : l.replace(/^[^,]*,/, '')));
    const theirs = await runTool(PYTHON, [PMREP, '-o', 'csv', ...args.filter((a) => a !== 'kernel.all.nprocs')], { env: ENV });
    expect(theirs.status, theirs.stderr).toBe(0);
    const ours = await pmdash(args.filter((a) => a !== 'kernel.all.nprocs'), ENV);
    expect(ours.status, ours.stderr).toBe(0);
    expect(strip(ours.stdout)).toEqual(strip(theirs.stdout));
    expect(ours.stdout).toMatch(/^Time,.*\n(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,.*\n){3}$/);
  });
});
