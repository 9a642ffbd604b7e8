// Derived metrics through a fetchgroup, against python3-pcp's pmapi.fetchgroup with the same
// metrics registered by pmRegisterDerivedMetric (test/oracle/fetchgroup.py, "derived"). Ours is
// a FetchGroup over a DerivedContext over an ArchiveContext. Item and indom registrations of
// derived metrics cover: a derived counter the fetchgroup itself converts to a rate (and the
// same one "instant", unconverted), rate() and delta() computed by the expression, aggregates,
// matchinst(), a ratio with divisions by zero, instance names on derived indoms, output types
// and scales, a semantic error and an unknown instance. Every extend status and every fetch
// (statuses, values, instance codes and names, timestamps) must be identical.
import { describe, expect, it } from 'vitest';
import { DirFileSet } from '../../node/dir-file-set';
import { QA_ARCHIVES } from '../../../test/oracle';
import { comparable, runOracle, runOurs, type FetchGroupReg, type FetchGroupScenario, type FetchGroupTranscript } from '../../../test/fetchgroup-compare';
import { openArchiveContext } from '../context/archive-context';
import { DerivedContext } from '../derived/derived-context';
import { DerivedRegistry } from '../derived/registry';
import { PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import { FetchGroup } from './fetch-group';

type Reg = FetchGroupReg;
type Scenario = FetchGroupScenario & { readonly derived: Array<[string, string]> };

async function ours(sc: Scenario): Promise<FetchGroupTranscript & { register: number[] }> {
  const registry = new DerivedRegistry();
  const register = sc.derived.map(([n, e]) => registry.registerMetric(n, e).status);
  const ctx = new DerivedContext(await openArchiveContext(new DirFileSet('/'), sc.archive), { registry });
  return { ...(await runOurs(sc, ctx, new FetchGroup(ctx))), register };
}

const BOZO = `${QA_ARCHIVES}/bozo-disk`;
const BOZO_START: [number, number] = [1489620673, 870437000];
const PC = `${QA_ARCHIVES}/20180416.10.00`;
const PC_START: [number, number] = [1523901685, 325401000];

const DISK_DERIVED: Array<[string, string]> = [
  // A counter (sum of two counters): the fetchgroup converts it to a rate itself.
  ['fg.rw', 'disk.dev.read + disk.dev.write'],
  ['fg.rrate', 'rate(disk.dev.read)'],
  ['fg.kdelta', 'delta(disk.dev.read_bytes)'],
  ['fg.allread', 'sum(disk.dev.read)'],
  ['fg.sdab', 'matchinst(/^sd[ab]$/, disk.dev.total_bytes)'],
  // Divisions by zero where a disk is idle between samples.
  ['fg.kperio', 'delta(disk.dev.read_bytes) / delta(disk.dev.read)'],
  ['fg.busy', '100 * rate(disk.dev.avactive)'],
  ['fg.bad', 'disk.dev.read + hinv.ncpu'],
  ['fg.syntax', 'disk.dev.read +'],
];

const DISK_REGS: Reg[] = [
  { kind: 'timestamp' },
  { kind: 'item', metric: 'fg.rw', type: PM_TYPE_DOUBLE, instance: 'sda' },
  { kind: 'item', metric: 'fg.rw', type: PM_TYPE_U64, instance: 'sda', scale: 'instant' },
  { kind: 'item', metric: 'fg.rw', type: PM_TYPE_32, instance: 'sdd', scale: 'count/min' },
  { kind: 'indom', metric: 'fg.rw', type: PM_TYPE_DOUBLE, maxnum: 10 },
  { kind: 'item', metric: 'fg.rrate', type: PM_TYPE_DOUBLE, instance: 'sdd' },
  { kind: 'indom', metric: 'fg.rrate', type: PM_TYPE_FLOAT, maxnum: 3, scale: 'count/hour' },
  { kind: 'indom', metric: 'fg.kdelta', type: PM_TYPE_U64, maxnum: 10 },
  { kind: 'item', metric: 'fg.kdelta', type: PM_TYPE_STRING, instance: 'sdb', scale: 'byte' },
  { kind: 'item', metric: 'fg.allread', type: PM_TYPE_DOUBLE },
  { kind: 'item', metric: 'fg.allread', type: PM_TYPE_64, scale: 'instant' },
  { kind: 'indom', metric: 'fg.sdab', type: PM_TYPE_DOUBLE, maxnum: 10, scale: 'Mbyte/sec' },
  { kind: 'item', metric: 'fg.sdab', type: PM_TYPE_DOUBLE, instance: 'sdc' },
  { kind: 'indom', metric: 'fg.kperio', type: PM_TYPE_DOUBLE, maxnum: 10 },
  { kind: 'indom', metric: 'fg.kperio', type: PM_TYPE_U32, maxnum: 10 },
  { kind: 'item', metric: 'fg.busy', type: PM_TYPE_DOUBLE, instance: 'sdd' },
  { kind: 'item', metric: 'fg.rw', type: PM_TYPE_DOUBLE, instance: 'nosuchdisk' },
  { kind: 'item', metric: 'fg.bad', type: PM_TYPE_DOUBLE },
  { kind: 'item', metric: 'fg.syntax', type: PM_TYPE_DOUBLE },
];

const CPU_DERIVED: Array<[string, string]> = [
  ['fg.busy', 'kernel.all.cpu.user + kernel.all.cpu.sys'],
  ['fg.util', '100 * delta(kernel.all.cpu.user + kernel.all.cpu.sys) / delta(kernel.all.cpu.user + kernel.all.cpu.sys + kernel.all.cpu.idle)'],
  ['fg.netin', 'rate(network.interface.in.bytes)'],
  ['fg.netall', 'network.interface.in.bytes + network.interface.out.bytes'],
  ['fg.pktsize', 'delta(network.interface.in.bytes) / delta(network.interface.in.packets)'],
];

const CPU_REGS: Reg[] = [
  { kind: 'timestamp' },
  { kind: 'item', metric: 'fg.busy', type: PM_TYPE_DOUBLE },
  { kind: 'item', metric: 'fg.busy', type: PM_TYPE_DOUBLE, scale: 'sec/sec' },
  { kind: 'item', metric: 'fg.busy', type: PM_TYPE_U64, scale: 'instant' },
  { kind: 'item', metric: 'fg.util', type: PM_TYPE_DOUBLE },
  { kind: 'item', metric: 'fg.util', type: PM_TYPE_32 },
  { kind: 'indom', metric: 'fg.netin', type: PM_TYPE_DOUBLE, maxnum: 8, scale: 'Kbyte/sec' },
  { kind: 'indom', metric: 'fg.netall', type: PM_TYPE_DOUBLE, maxnum: 8 },
  { kind: 'indom', metric: 'fg.pktsize', type: PM_TYPE_DOUBLE, maxnum: 8 },
  { kind: 'item', metric: 'fg.netall', type: PM_TYPE_U64, instance: 'lo', scale: 'instant' },
];

const SCENARIOS: Scenario[] = [
  { name: 'bozo-disk FORW', archive: BOZO, derived: DISK_DERIVED, regs: DISK_REGS, fetches: 30 },
  { name: 'bozo-disk INTERP 7.3 s', archive: BOZO, mode: { mode: 'interp', origin: BOZO_START, delta: [7, 300000000] }, derived: DISK_DERIVED, regs: DISK_REGS, fetches: 30 },
  { name: '20180416.10.00 FORW', archive: PC, derived: CPU_DERIVED, regs: CPU_REGS, fetches: 40 },
  { name: '20180416.10.00 INTERP 90 s', archive: PC, mode: { mode: 'interp', origin: PC_START, delta: [90, 0] }, derived: CPU_DERIVED, regs: CPU_REGS, fetches: 40 },
];

describe('fetchgroups of derived metrics match python3-pcp', () => {
  for (const sc of SCENARIOS) {
    it(sc.name, async () => {
      // No default derived configuration: only the scenario's metrics, as in our registry.
      const [a, b] = await Promise.all([ours(sc), runOracle(sc, { PCP_DERIVED_CONFIG: '' })]);
      expect(comparable(a)).toEqual(comparable(b));
      // The comparison is not vacuous: most registrations extended, and fetches gave values.
      const t = b as { extend: number[]; fetches: { sts: number; outs: Array<{ sts?: number }> }[] };
      expect(t.extend.filter((s) => s === 0).length).toBeGreaterThan(sc.regs.length - 4);
      expect(t.fetches.filter((f) => f.sts >= 0 && f.outs.some((o) => o.sts === 0)).length).toBeGreaterThan(sc.fetches / 2);
    });
  }
});
