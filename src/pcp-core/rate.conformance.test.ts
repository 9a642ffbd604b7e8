// rate.ts against pmval itself: for each case pmval prints the raw interpolated counter
// values (-r) and, in a second run, its rates; the rates we compute from pmval's own raw
// values and the exact sample times (label start + k·interval, from libpcp) must print
// identically with -f 9, including "!" for decreases, PCP_COUNTER_WRAP, time utilisation,
// v2 (µs) and v3 (ns) archives and odd intervals. The "units:" header line is checked too.
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runPythonOracle, runTool } from '../../test/oracle';
import { decomposeDouble } from './c-numeric';
import { fetchgroupDelta, fetchgroupRate, pmvalDelta, pmvalRate, pmvalTimeScale, pmvalUnitsText } from './rate';
import { addTimestamps, timestampFromReal } from './time/timestamp';
import { PM_ERR_AGAIN } from './errors';
import { PM_SEM_COUNTER, PM_TYPE_32, PM_TYPE_DOUBLE, PM_TYPE_U32, PM_TYPE_U64 } from './types';
import type { Timestamp, Units } from './types';
import { makeUnits } from './units';

interface Case {
  archive: string;
  metric: string;
  instance?: string;
  interval: string;
  samples: number;
  type: number;
  units: Units;
  wrap?: boolean;
  /** pmval -U: every archive record instead of interpolated samples. */
  records?: boolean;
}

const ms = makeUnits({ dimTime: 1, scaleTime: 2 });
const count = makeUnits({ dimCount: 1 });
const kbyte = makeUnits({ dimSpace: 1, scaleSpace: 1 });
const CASES: Case[] = [
  { archive: 'bozo-disk', metric: 'disk.dev.avactive', instance: 'sdd', interval: '10', samples: 17, type: PM_TYPE_U32, units: ms },
  { archive: 'bozo-disk', metric: 'disk.dev.read', instance: 'sdd', interval: '7.3', samples: 24, type: PM_TYPE_U64, units: count },
  { archive: 'bozo-disk', metric: 'disk.dev.read_bytes', instance: 'sda', interval: '0.35', samples: 60, type: PM_TYPE_U32, units: kbyte },
  { archive: 'cputime', metric: 'kernel.all.cpu.user', interval: '0.35', samples: 22, type: PM_TYPE_U64, units: ms },
  { archive: '20180102', metric: 'kernel.all.cpu.user', interval: '97', samples: 60, type: PM_TYPE_U64, units: ms },
  { archive: '20041125', metric: 'kernel.all.cpu.user', interval: '97', samples: 28, type: PM_TYPE_U64, units: ms },
  { archive: 'wrap', metric: 'sample.wrap.long', interval: '1', samples: 30, type: PM_TYPE_32, units: makeUnits({}) },
  // pmval 6.0.3 crashes (double free) interpolating this archive with PCP_COUNTER_WRAP set,
  // so the wrapped 32-bit counter is checked record by record (-U), as in the doc's vector 23.
  { archive: 'wrap', metric: 'sample.wrap.long', interval: '', samples: 0, type: PM_TYPE_32, units: makeUnits({}), records: true },
  { archive: 'wrap', metric: 'sample.wrap.long', interval: '', samples: 0, type: PM_TYPE_32, units: makeUnits({}), records: true, wrap: true },
  { archive: 'uwrap', metric: 'sample.wrap.ulong', interval: '', samples: 0, type: PM_TYPE_U32, units: makeUnits({}), records: true, wrap: true },
  { archive: 'uwrap', metric: 'sample.wrap.ulong', interval: '0.7', samples: 40, type: PM_TYPE_U32, units: makeUnits({}) },
  { archive: 'uwrap', metric: 'sample.wrap.ulong', interval: '0.7', samples: 40, type: PM_TYPE_U32, units: makeUnits({}), wrap: true },
  { archive: 'omnibus_v3', metric: 'sample.proc.time', instance: '"0001 init"', interval: '0.25', samples: 30, type: PM_TYPE_U64, units: ms },
];

interface Row {
  time: string;
  value: string;
}

/** The data rows of pmval output: "HH:MM:SS.mmm value" (value "No" for "No values available"). */
function rows(stdout: string): Row[] {
  const out: Row[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^(\d\d:\d\d:\d\d\.\d\d\d)\s*(\S+)/.exec(line);
    if (m) out.push({ time: m[1] ?? '', value: m[2] ?? '' });
  }
  return out;
}

/** printf("%.Nf") exactly: the exact binary value rounded half to even, as glibc does. */
function formatFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return String(x);
  const { mant, exp } = decomposeDouble(x);
  const neg = mant < 0n;
  const m = neg ? -mant : mant;
  const scale = 10n ** BigInt(digits);
  const [num, den] = exp >= 0 ? [(m << BigInt(exp)) * scale, 1n] : [m * scale, 1n << BigInt(-exp)];
  let q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && (q & 1n) === 1n)) q += 1n;
  const s = q.toString().padStart(digits + 1, '0');
  const text = digits === 0 ? s : `${s.slice(0, -digits)}.${s.slice(-digits)}`;
  return `${neg ? '-' : ''}${text}`;
}

async function labelStart(archive: string): Promise<Timestamp> {
  const [label] = JSON.parse(await runPythonOracle('archive-label.py', [`${QA_ARCHIVES}/${archive}`])) as Array<{ start: [number, number] }>;
  if (!label) throw new Error(`no label for ${archive}`);
  return { sec: label.start[0], nsec: label.start[1] };
}

async function recordTimes(archive: string, metric: string): Promise<Timestamp[]> {
  const list = JSON.parse(await runPythonOracle('record-times.py', [`${QA_ARCHIVES}/${archive}`, metric])) as Array<[number, number] | null>;
  if (list.includes(null)) throw new Error(`${archive} has <mark> records: pick another archive`);
  return list.map((t) => ({ sec: t?.[0] ?? NaN, nsec: t?.[1] ?? NaN }));
}

describe('pmval rate conversion', () => {
  it('formats like printf %.9f', () => {
    expect(formatFixed(0.0009765625, 9)).toBe('0.000976562');
    expect(formatFixed(0.0886, 9)).toBe('0.088600000');
    expect(formatFixed(-2.5, 0)).toBe('-2');
    expect(formatFixed(-3.5, 0)).toBe('-4');
  });

  it.each(CASES)('$archive $metric $instance -t $interval wrap=$wrap', async (c) => {
    const path = `${QA_ARCHIVES}/${c.archive}`;
    const source = c.records ? ['-U', path] : ['-t', c.interval, '-s', String(c.samples), '-a', path];
    const args = ['-z', '-f', '9', ...source, ...(c.instance ? ['-i', c.instance] : []), c.metric];
    const env = c.wrap ? { PCP_COUNTER_WRAP: '1' } : {};
    const [rawRun, rateRun, start, records] = await Promise.all([
      runTool('pmval', ['-r', ...args], { env }),
      runTool('pmval', args, { env }),
      labelStart(c.archive),
      c.records ? recordTimes(c.archive, c.metric) : Promise.resolve([]),
    ]);
    expect(rawRun.status, rawRun.stderr).toBe(0);
    expect(rateRun.status, rateRun.stderr).toBe(0);

    const desc = { sem: PM_SEM_COUNTER, units: c.units };
    expect(rawRun.stdout).toContain(`\nunits:     ${pmvalUnitsText(desc, true)}\n`);
    expect(rateRun.stdout).toContain(`\nunits:     ${pmvalUnitsText(desc, false)}\n`);

    // Sample k is at start + k·interval (libpcp adds the interval as a timespec), or at the
    // k-th record holding the metric.
    const raw = rows(rawRun.stdout);
    const times: Timestamp[] = c.records ? records : [start];
    const interval = timestampFromReal(Number(c.interval));
    while (times.length < raw.length) times.push(addTimestamps(times[times.length - 1] ?? start, interval));
    const scale = pmvalTimeScale(desc);
    const expected = new Map<string, string>();
    for (let k = 1; k < raw.length; k++) {
      const prev = raw[k - 1];
      const cur = raw[k];
      const t0 = times[k - 1];
      const t1 = times[k];
      if (!prev || !cur || !t0 || !t1 || prev.value === 'No' || cur.value === 'No') continue;
      const v = pmvalRate(Number(prev.value), Number(cur.value), pmvalDelta(scale, t0, t1), c.type, c.wrap ?? false);
      expected.set(cur.time, Number.isNaN(v) ? '!' : formatFixed(v, 9));
    }
    const got = new Map(rows(rateRun.stdout).filter((r) => r.value !== 'No').map((r) => [r.time, r.value]));
    expect(expected.size).toBeGreaterThan(5);
    // Every rate pmval printed within the raw run's samples (the rate run goes one sample
    // further, having spent one priming), and only those, from consecutive raw samples.
    const rawTimes = new Set(raw.map((r) => r.time));
    const printed = Object.fromEntries([...got].filter(([t]) => rawTimes.has(t)));
    expect(printed).toEqual(Object.fromEntries(expected));
  });
});

interface FetchgroupRow {
  t: [number, number];
  raw: [number, number | string];
  rate: [number, number | string];
}

describe('fetchgroup rate conversion', () => {
  // (archive, metric, instance, type): record-by-record fetches, with and without the wrap.
  const FG_CASES: Array<[string, string, string | undefined, number]> = [
    ['uwrap', 'sample.wrap.ulong', undefined, PM_TYPE_U32],
    ['wrap', 'sample.wrap.long', undefined, PM_TYPE_32],
    ['bozo-disk', 'disk.dev.read', 'sdd', PM_TYPE_U64],
    ['bozo-disk', 'disk.dev.avactive', 'sda', PM_TYPE_U32],
    ['omnibus_v3', 'sample.proc.time', '0001 init', PM_TYPE_U64],
    ['omnibus_v3', 'sample.double.bin_ctr', 'bin-100', PM_TYPE_DOUBLE],
  ];
  it.each(FG_CASES.flatMap((c) => [[...c, false], [...c, true]] as const))('%s %s %s wrap=%s', async (archive, metric, instance, type, wrap) => {
    const out = await runPythonOracle('fetchgroup-rate.py', [`${QA_ARCHIVES}/${archive}`, metric, ...(instance ? [instance] : [])], wrap ? { PCP_COUNTER_WRAP: '1' } : {});
    const fetched = JSON.parse(out) as FetchgroupRow[];
    expect(fetched.length).toBeGreaterThan(3);
    expect(fetched[0]?.rate[0]).toBe(PM_ERR_AGAIN);
    for (let k = 1; k < fetched.length; k++) {
      const prev = fetched[k - 1];
      const cur = fetched[k];
      if (!prev || !cur || prev.raw[0] !== 0 || cur.raw[0] !== 0) continue;
      const t0 = { sec: prev.t[0], nsec: prev.t[1] };
      const t1 = { sec: cur.t[0], nsec: cur.t[1] };
      const r = fetchgroupRate(Number(prev.raw[1]), Number(cur.raw[1]), fetchgroupDelta(t0, t1), type, wrap);
      const got = typeof r === 'number' ? [0, r] : [r.code, 'NaN'];
      expect(got, `${archive} fetch ${k}`).toEqual(cur.rate);
    }
  });
});
