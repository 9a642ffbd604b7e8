// pmdash's own statement of the derived metrics PCP installs by default (Debian's
// /etc/pcp/derived: CPU utilisation, iostat-style disk figures, process summaries, SQL Server
// ratios), for places where that directory is out of reach (the browser, a machine without
// PCP). Written from what each metric means; the formulas are built from a few families
// below rather than listed one by one. Their descriptors and values are checked against
// libpcp with the installed files (standard.conformance.test.ts), so drift from PCP shows.
// Help texts are pmdash's own words (docs/deviations.md).
import { DerivedRegistry } from './registry';

export interface StandardDerived {
  readonly name: string;
  readonly expr: string;
  readonly oneline: string;
  readonly help: string | null;
}

/** A zero of the given units, for intervals with no operations (no division by zero). */
const zero = (units: string): string => `mkconst(0, type="double", semantics="instant", units="${units}")`;

/** delta(a) == 0 ? 0 : delta(b) / delta(a), with the guard in the result's units. */
const perOperation = (count: string, amount: string, units: string): string => `${count} == 0 ? ${zero(units)} : ${amount} / ${count}`;

/**
 * The block-device families that share the iostat figures (per disk, per device-mapper
 * volume, per software RAID, per world-wide id). PCP's request sizes rescale the byte
 * counters to Kbytes for dev and wwid only (dm and md count in Kbytes already); kept so, for
 * the same descriptors and values.
 */
const DISK_FAMILIES: ReadonlyArray<{ readonly family: string; readonly what: string; readonly rescale: boolean }> = [
  { family: 'dev', what: 'disk', rescale: true },
  { family: 'dm', what: 'device-mapper volume', rescale: false },
  { family: 'md', what: 'software RAID (md) device', rescale: false },
  { family: 'wwid', what: 'multipath device (by WWID)', rescale: true },
];

/** The kinds of I/O with their own counters: [prefix, counter, adjective]. */
const IO_KINDS: ReadonlyArray<readonly [string, string, string]> = [
  ['', 'total', 'all'],
  ['r_', 'read', 'read'],
  ['w_', 'write', 'write'],
  ['d_', 'discard', 'discard'],
  ['f_', 'flush', 'flush'],
];

function diskFamily(family: string, what: string, rescale: boolean): StandardDerived[] {
  const m = (leaf: string): string => `disk.${family}.${leaf}`;
  const d = (leaf: string): string => `delta(${m(leaf)})`;
  const out: StandardDerived[] = [];
  for (const [prefix, counter, adjective] of IO_KINDS) {
    out.push({
      name: m(`${prefix}await`),
      expr: perOperation(d(counter), d(`${counter}_rawactive`), 'millisec / count'),
      oneline: `average time per ${adjective === 'all' ? '' : `${adjective} `}request on each ${what}, queueing included, over the interval`,
      help: `Milliseconds each ${adjective === 'all' ? '' : `${adjective} `}request completed in the sample interval spent from being\nqueued to being completed (iostat's ${prefix}await), per ${what}; zero when none completed.`,
    });
  }
  out.push({
    name: m('avg_qlen'),
    expr: `rate(${m('read_rawactive')}) + rate(${m('write_rawactive')})`,
    oneline: `average number of read and write requests outstanding on each ${what}`,
    help: `Mean length of the request queue (iostat's aqu-sz) per ${what}: time spent by reads and\nwrites in flight, divided by the length of the interval.`,
  });
  // The average request size of every kind counts reads and writes only.
  const sizes: ReadonlyArray<readonly [string, string, string, string]> = [
    ['', `(${d('read')} + ${d('write')})`, `${d('read_bytes')} + ${d('write_bytes')}`, 'read and write'],
    ['r_', d('read'), d('read_bytes'), 'read'],
    ['w_', d('write'), d('write_bytes'), 'write'],
    ['d_', d('discard'), d('discard_bytes'), 'discard'],
  ];
  for (const [prefix, count, bytes, adjective] of sizes) {
    out.push({
      name: m(`${prefix}avg_rqsz`),
      expr: perOperation(count, rescale ? `rescale(${bytes}, "kbyte")` : prefix === '' ? `(${bytes})` : bytes, 'kbyte / count'),
      oneline: `average size of ${adjective} requests on each ${what}, in Kbytes`,
      help: `Kbytes transferred per ${adjective} request completed in the sample interval (iostat's ${prefix}rareq-sz\nfamily), per ${what}; zero when none completed.`,
    });
  }
  out.push({
    name: m('util'),
    expr: `100 * rate(${m('avactive')})`,
    oneline: `percentage of time each ${what} was busy`,
    help: `Share of the interval, as a percentage, during which the ${what} had at least one request\nin flight (iostat's %util).`,
  });
  return out;
}

/** Percentage of all CPUs' time in one state: [leaf, counter under kernel.all.cpu, meaning]. */
const CPU_STATES: ReadonlyArray<readonly [string, string, string]> = [
  ['user', 'user', 'user mode (guest time included)'],
  ['nice', 'nice', 'user mode at lowered priority (guest nice time included)'],
  ['sys', 'sys', 'the kernel'],
  ['idle', 'idle', 'idle'],
  ['intr', 'intr', 'servicing hard and soft interrupts'],
  ['wait', 'wait.total', 'idle while waiting for I/O'],
  ['steal', 'steal', 'involuntary wait while the hypervisor ran something else'],
];

const cpuUtil = (): StandardDerived[] =>
  CPU_STATES.map(([leaf, counter, meaning]) => ({
    name: `kernel.cpu.util.${leaf}`,
    expr: `100 * rate(kernel.all.cpu.${counter}) / hinv.ncpu`,
    oneline: `percentage of time all CPUs together spent in ${meaning}`,
    help: `Time all CPUs spent in ${meaning} over the interval, as a percentage of the time\nthey had (100 is every CPU for the whole interval).`,
  }));

/** Per-process summaries; "since start" divides by the process's age in seconds. */
const age = '(kernel.all.uptime - proc.psinfo.start_time)';
const proc = (): StandardDerived[] => [
  {
    name: 'proc.psinfo.age',
    expr: 'kernel.all.uptime - proc.psinfo.start_time',
    oneline: 'seconds each process has been running',
    help: 'How long ago each process started, in seconds: system uptime less the process start time.',
  },
  {
    name: 'proc.io.total_bytes',
    expr: 'instant(proc.io.read_bytes) + instant(proc.io.write_bytes) - instant(proc.io.cancelled_write_bytes)',
    oneline: 'bytes each process has read and written',
    help: 'Bytes each process has read plus bytes written, less written bytes later cancelled.',
  },
  {
    name: 'proc.hog.cpu',
    expr: `100 * (rate(proc.psinfo.utime) + rate(proc.psinfo.stime)) / ${age}`,
    oneline: 'CPU use of each process as a percentage, relative to its age',
    help: "Each process's user plus system CPU rate, as a percentage, divided by its age in seconds.",
  },
  {
    name: 'proc.hog.mem',
    expr: 'proc.memory.vmrss + proc.memory.vmswap',
    oneline: 'resident plus swapped-out memory of each process',
    help: 'Memory each process holds, in RAM or in swap.',
  },
  {
    name: 'proc.hog.disk',
    expr: `(rate(proc.io.read_bytes) + rate(proc.io.write_bytes) - rate(proc.io.cancelled_write_bytes)) / ${age}`,
    oneline: 'I/O rate of each process relative to its age',
    help: "Each process's read plus write rate (cancelled writes taken off), divided by its age in seconds.",
  },
  {
    name: 'proc.hog.net',
    expr: ['tcp.recv', 'tcp.send', 'udp.recv', 'udp.send'].map((k) => `rate(bcc.proc.net.${k}.bytes)`).join(' + '),
    oneline: 'network traffic of each process (TCP and UDP, both directions)',
    help: 'Bytes per second each process received and sent over TCP and UDP (from the bcc PMDA).',
  },
];

/** SQL Server counters published as a raw value and its base: [name, raw stem, percent?]. */
const MSSQL_RATIOS: ReadonlyArray<readonly [string, string, boolean]> = [
  ['mssql.buffer_manager.buffer_cache_hit_ratio', 'mssql.buffer_manager.raw_buffer_cache_hit_ratio', true],
  ['mssql.databases.log_cache_hit_ratio', 'mssql.databases.raw_log_cache_hit_ratio', true],
  ['mssql.latches.average_latch_wait_time', 'mssql.latches.raw_average_latch_wait_time', false],
  ['mssql.locks.average_wait_time', 'mssql.locks.raw_average_wait_time', false],
  ['mssql.plan_cache.cache_hit_ratio', 'mssql.plan_cache.raw_cache_hit_ratio', false],
];

const mssql = (): StandardDerived[] =>
  MSSQL_RATIOS.map(([name, raw, percent]) => {
    const ratio = `(${raw} / ${raw}_base)`;
    const leaf = name.slice(name.lastIndexOf('.') + 1).replaceAll('_', ' ');
    return { name, expr: percent ? `100 * ${ratio}` : ratio, oneline: `SQL Server ${leaf}`, help: `SQL Server's ${leaf}: its raw counter divided by the counter's base.` };
  });

/**
 * Every standard definition, files in the order libpcp met them on the reference machine
 * (readdir of $PCP_VAR_DIR/config/derived: cpu-util, proc, iostat, mssql), so PMIDs come out
 * alike there; elsewhere libpcp's own order depends on the file system.
 */
export const STANDARD_DERIVED: readonly StandardDerived[] = [...cpuUtil(), ...proc(), ...DISK_FAMILIES.flatMap((f) => diskFamily(f.family, f.what, f.rescale)), ...mssql()];

/**
 * Registers the standard set (libpcp's default configuration, as pmdash ships it). A
 * definition the registry refuses (its name already registered, the registry's limit) is
 * left out, as libpcp leaves out a configuration line it cannot register, and listed.
 */
export function registerStandardDerived(registry: DerivedRegistry): { readonly registered: number; readonly refused: ReadonlyArray<{ readonly name: string; readonly message: string }> } {
  let registered = 0;
  const refused: Array<{ name: string; message: string }> = [];
  for (const s of STANDARD_DERIVED) {
    const r = registry.register(s.name, s.expr);
    if (!r.ok) {
      refused.push({ name: s.name, message: r.message ?? 'Syntax error' });
      continue;
    }
    r.definition.oneline = s.oneline;
    r.definition.helptext = s.help;
    registered++;
  }
  return { registered, refused };
}

/** A registry initialised as libpcp's would be with Debian's default configuration. */
export function standardDerivedRegistry(): DerivedRegistry {
  const registry = new DerivedRegistry();
  registry.defaultConfig = (r) => {
    const { refused } = registerStandardDerived(r);
    // A fresh registry holds only the anonymous metrics: a refusal is a defect of this file.
    if (refused.length > 0) throw new Error(`standard derived metrics refused: ${refused.map((x) => `${x.name}: ${x.message}`).join('; ')}`);
  };
  registry.initialize();
  return registry;
}
