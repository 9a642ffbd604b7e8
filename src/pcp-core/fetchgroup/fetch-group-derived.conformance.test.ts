// Derived metrics through a fetchgroup, against python3-pcp's pmapi.fetchgroup with the same
// metrics registered by pmRegisterDerivedMetric (test/oracle/fetchgroup.py, "derived"). Ours is
// a FetchGroup over a DerivedContext over an ArchiveContext. Item and indom registrations of
// derived metrics cover: a derived counter the fetchgroup itself converts to a rate (and the
// same one "instant", unconverted), rate() and delta() computed by the expression, aggregates,
// matchinst(), a ratio with divisions by zero, instance names on derived indoms, output types
// and scales, a semantic error and an unknown instance. Every extend status and every fetch
// (statuses, values, instance codes and names, timestamps) must be identical.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DirFileSet } from '../../node/dir-file-set';
import { QA_ARCHIVES, runTool, PYTHON } from '../../../test/oracle';
import { openArchiveContext } from '../context/archive-context';
import { PM_MODE_FORW, PM_MODE_INTERP } from '../context/context';
import { DerivedContext } from '../derived/derived-context';
import { DerivedRegistry } from '../derived/registry';
import { isPmError } from '../errors';
import { PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import type { OutValue } from './cast';
import { FetchGroup, type IndomOutput, type ItemOutput, type TimestampOutput } from './fetch-group';

type Reg =
  | { kind: 'item'; metric: string; type: number; instance?: string; scale?: string }
  | { kind: 'indom'; metric: string; type: number; maxnum: number; scale?: string }
  | { kind: 'timestamp' };

interface Scenario {
  readonly name: string;
  readonly archive: string;
  readonly mode?: { mode: 'interp' | 'forw'; origin: [number, number]; delta: [number, number] };
  readonly derived: Array<[string, string]>;
  readonly regs: Reg[];
  readonly fetches: number;
}

function enc(v: OutValue, type: number): string | null {
  if (type === PM_TYPE_STRING) return v === null ? null : `s:${v as string}`;
  if (typeof v === 'number' && (type === PM_TYPE_FLOAT || type === PM_TYPE_DOUBLE)) return Number.isNaN(v) ? 'f:nan' : `f:${v}`;
  return typeof v === 'bigint' || typeof v === 'number' ? String(v) : null;
}

async function ours(sc: Scenario): Promise<unknown> {
  const registry = new DerivedRegistry();
  const register = sc.derived.map(([n, e]) => registry.registerMetric(n, e).status);
  const inner = await openArchiveContext(new DirFileSet('/'), sc.archive);
  const ctx = new DerivedContext(inner, { registry });
  const fg = new FetchGroup(ctx);
  try {
    if (sc.mode) {
      const m = sc.mode.mode === 'interp' ? PM_MODE_INTERP : PM_MODE_FORW;
      ctx.setMode(m, { sec: sc.mode.origin[0], nsec: sc.mode.origin[1] }, BigInt(sc.mode.delta[0]) * 1_000_000_000n + BigInt(sc.mode.delta[1]));
    }
    const extend: number[] = [];
    const outs: [Reg, ItemOutput | IndomOutput | TimestampOutput][] = [];
    for (const r of sc.regs) {
      try {
        let h;
        if (r.kind === 'item') h = await fg.extendItem(r.metric, r.type, { instance: r.instance, scale: r.scale });
        else if (r.kind === 'indom') h = await fg.extendIndom(r.metric, r.type, r.maxnum, { scale: r.scale });
        else h = fg.extendTimestamp();
        outs.push([r, h]);
        extend.push(0);
      } catch (e) {
        if (!isPmError(e)) throw e;
        extend.push(e.code);
      }
    }
    const fetches = [];
    for (let k = 0; k < sc.fetches; k++) {
      const sts = await fg.fetch();
      fetches.push({
        sts,
        outs: outs.map(([r, h]) => {
          if (r.kind === 'item') return { sts: (h as ItemOutput).status, value: enc((h as ItemOutput).value, r.type) };
          if (r.kind === 'indom') {
            const o = h as IndomOutput;
            return { sts: o.status, num: o.num, codes: [...o.codes], names: [...o.names], stss: [...o.statuses], values: o.values.map((v) => enc(v, r.type)) };
          }
          const t = (h as TimestampOutput).value;
          return { sec: t.sec, nsec: t.nsec };
        }),
      });
    }
    return { extend, fetches, register };
  } finally {
    await fg.destroy();
  }
}

async function theirs(sc: Scenario): Promise<unknown> {
  // No default derived configuration: only the scenario's metrics, as in our registry.
  const run = await runTool(PYTHON, [join(import.meta.dirname, '..', '..', '..', 'test', 'oracle', 'fetchgroup.py')], { input: JSON.stringify(sc), env: { PCP_DERIVED_CONFIG: '' } });
  if (run.status !== 0) throw new Error(`fetchgroup.py exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** Floats ("f:" + repr or String) as numbers, so both spellings compare as doubles. */
function canon(x: unknown): unknown {
  if (typeof x === 'string' && x.startsWith('f:')) return x === 'f:nan' ? 'NaN' : Number(x.slice(2).replace(/^inf$/, 'Infinity').replace(/^-inf$/, '-Infinity'));
  if (Array.isArray(x)) return x.map(canon);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, canon(v)]));
  return x;
}

/** A failed fetch stamps its stand-in result with the wall clock: not comparable. */
function withoutFailedTimes(x: unknown): unknown {
  const t = canon(x) as { fetches: { sts: number; outs: unknown[] }[] };
  return { ...t, fetches: t.fetches.map((f) => (f.sts < 0 ? { ...f, outs: f.outs.map((o) => (o && typeof o === 'object' && 'nsec' in o ? 'time' : o)) } : f)) };
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
      const [a, b] = await Promise.all([ours(sc), theirs(sc)]);
      expect(withoutFailedTimes(a)).toEqual(withoutFailedTimes(b));
      // The comparison is not vacuous: most registrations extended, and fetches gave values.
      const t = b as { extend: number[]; fetches: { sts: number; outs: Array<{ sts?: number }> }[] };
      expect(t.extend.filter((s) => s === 0).length).toBeGreaterThan(sc.regs.length - 4);
      expect(t.fetches.filter((f) => f.sts >= 0 && f.outs.some((o) => o.sts === 0)).length).toBeGreaterThan(sc.fetches / 2);
    });
  }
});
