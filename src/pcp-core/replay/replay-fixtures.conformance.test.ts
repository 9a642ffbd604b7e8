// Replay against libpcp on synthetic archives: each fixture is written to disk byte for byte
// and the same script of pmSetMode / pmFetch / pmFetchArchive / pmGetArchiveEnd calls runs
// through python3-pcp and through ReplaySession; the transcripts must be identical (times to
// the nanosecond, values exactly). Covers the cases archive-format.md §7 describes: marks,
// strings, discrete and once-seen values, missing instances, ends, directions, profiles,
// calipers, PCP_COUNTER_WRAP, PCP_IGNORE_MARK_RECORDS, index positioning and volumes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PmId } from '../types';
import { PM_TYPE_DOUBLE, PM_TYPE_FLOAT } from '../types';
import { archiveFiles, encodeArchive, type FixtureSpec } from '../../../test/fixtures/archive-writer';
import { caliperSpec, multiVolumeSpec } from '../../../test/fixtures/caliper-fixture';
import { demoSpec } from '../../../test/fixtures/demo-fixture';
import { fixtureReplaySet } from '../../../test/fixtures/replay-fixture';
import { canonical, libpcpTranscript, pmdashTranscript, type ReplayDriver, type ReplayStep } from '../../../test/replay-compare';
import type { IgnoreMarks } from './interp-bounds';
import { ReplaySession } from './replay-session';

const dir = mkdtempSync(join(tmpdir(), 'pmdash-replay-'));
let serial = 0;

function writeSpecs(specs: readonly FixtureSpec[]): string {
  const names: string[] = [];
  for (const spec of specs) {
    const base = join(dir, `fx${serial++}`);
    for (const [name, bytes] of archiveFiles(base, encodeArchive(spec))) writeFileSync(name, bytes);
    names.push(base);
  }
  return names.join(',');
}

function driver(session: ReplaySession, specs: readonly FixtureSpec[]): ReplayDriver {
  const metrics = specs.flatMap((s) => s.metrics);
  return {
    setMode: (mode, origin, deltaNs) => session.setMode(mode, origin, deltaNs),
    fetch: (pmids) => session.fetch(pmids),
    fetchArchive: () => session.fetchArchive(),
    archiveEnd: () => session.archiveEnd(),
    profile: (op, metric, insts) => {
      const m = metric === null ? undefined : metrics.find((x) => x.name === metric);
      session.changeProfile({ op: op === 'add' ? 'add' : 'delete', indom: m ? m.indom : null, instances: insts });
      return Promise.resolve();
    },
    isFloat: (pmid) => {
      const t = metrics.find((x) => x.pmid === pmid)?.type;
      return t === PM_TYPE_FLOAT || t === PM_TYPE_DOUBLE;
    },
  };
}

interface Scenario {
  readonly name: string;
  readonly specs: readonly FixtureSpec[];
  readonly metrics: readonly string[];
  readonly steps: readonly ReplayStep[];
  readonly env?: NodeJS.ProcessEnv;
  readonly options?: { counterWrap?: boolean; ignoreMarks?: IgnoreMarks };
}

async function check(sc: Scenario): Promise<void> {
  const archive = writeSpecs(sc.specs);
  const theirs = await libpcpTranscript(archive, sc.metrics, sc.steps, sc.env);
  const all = sc.specs.flatMap((s) => s.metrics);
  const pmids = sc.metrics.map((n) => (all.find((m) => m.name === n) as { pmid: PmId }).pmid);
  const session = new ReplaySession(fixtureReplaySet(sc.specs), sc.options);
  const ours = await pmdashTranscript(driver(session, sc.specs), pmids, sc.steps);
  expect(ours.pmids).toEqual(theirs.pmids);
  expect(canonical(ours)).toEqual(canonical(theirs));
}

const T0 = 1700000000;
const DEMO_ALL = ['demo.ctr', 'demo.inst', 'demo.disc', 'demo.str', 'demo.once', 'demo.i32', 'demo.pi'];
const interp = (origin: readonly [number, number] | null, delta: readonly [number, number], timeval = false): ReplayStep => ({ setMode: { mode: 'interp', origin, delta, timeval } });

function demoScenarios(version: 2 | 3): Scenario[] {
  const specs = [demoSpec(version)];
  const out: Scenario[] = [];
  const steps: [string, readonly [number, number], readonly [number, number], number][] = [
    ['4 s from 0', [T0, 0], [4, 0], 18],
    ['5 s from 0', [T0, 0], [5, 0], 14],
    ['3 s from -5', [T0 - 5, 0], [3, 0], 25],
    ['7.3 s from 1.5', [T0 + 1, 500000000], [7, 300000000], 10],
    ['0.35 s from 28', [T0 + 28, 0], [0, 350000000], 40],
    ['97 s from 0', [T0, 0], [97, 0], 3],
    ['1 s from -0.0005', [T0 - 1, 999500000], [1, 0], 64],
    ['1 ms from 59.9995', [T0 + 59, 999500000], [0, 1000000], 4],
    ['2.5 s from 60.0005', [T0 + 60, 500000], [2, 500000000], 2],
    ['-4 s from 60', [T0 + 60, 0], [-4, 0], 18],
    ['-3.3 s from 65', [T0 + 65, 0], [-3, -300000000], 24],
    ['-0.7 s from 33', [T0 + 33, 0], [0, -700000000], 20],
  ];
  for (const [name, origin, delta, n] of steps) {
    out.push({ name: `V${version} all metrics, ${name}`, specs, metrics: DEMO_ALL, steps: [interp(origin, delta), { fetch: n }] });
    for (const m of ['demo.str', 'demo.ctr', 'demo.pi', 'demo.disc']) {
      out.push({ name: `V${version} ${m} alone, ${name}`, specs, metrics: [m], steps: [interp(origin, delta), { fetch: n }] });
    }
  }
  out.push({ name: `V${version} pmval-style setMode (timeval origin, ms delta)`, specs, metrics: DEMO_ALL, steps: [interp([T0, 700000], [1, 250000000], true), { fetch: 52 }] });
  out.push({
    name: `V${version} FORW and BACK fetches`,
    specs,
    metrics: ['demo.disc', 'demo.once'],
    steps: [
      { setMode: { mode: 'forw', origin: [T0 + 5, 0] } },
      { fetch: 5 },
      { setMode: { mode: 'back', origin: [T0 + 60, 0] } },
      { fetch: 6 },
      { setMode: { mode: 'forw', origin: [T0 + 20, 0] } },
      { fetch: 2 },
    ],
  });
  out.push({
    name: `V${version} pmFetchArchive both ways and the archive end`,
    specs,
    metrics: ['demo.ctr'],
    steps: [{ fetchArchive: 9 }, { setMode: { mode: 'back', origin: [T0 + 61, 0] } }, { fetchArchive: 9 }, { end: true }, { setMode: { mode: 'interp', origin: [T0, 0], delta: [1, 0] } }, { fetchArchive: 1 }],
  });
  out.push({
    name: `V${version} profile: only instance B, then all but A`,
    specs,
    metrics: ['demo.pi', 'demo.ctr'],
    steps: [
      { profile: { op: 'del', metric: null } },
      { profile: { op: 'add', metric: 'demo.pi', insts: [1] } },
      interp([T0, 0], [4, 0]),
      { fetch: 6 },
      { profile: { op: 'add', metric: null } },
      { profile: { op: 'del', metric: 'demo.pi', insts: [0] } },
      { fetch: 12 },
      { setMode: { mode: 'forw', origin: [T0, 0] } },
      { fetch: 4 },
    ],
  });
  out.push({
    name: `V${version} mode changes mid-replay keep and reset bounds`,
    specs,
    metrics: DEMO_ALL,
    steps: [interp([T0, 0], [4, 0]), { fetch: 5 }, interp(null, [6, 0]), { fetch: 3 }, interp([T0 + 57, 0], [-2, 0]), { fetch: 4 }, { setMode: { mode: 'forw', origin: null } }, { fetch: 2 }, interp(null, [1, 0]), { fetch: 5 }],
  });
  // Without demo.i32: libpcp 6.0.3 corrupts its heap on a PM_TYPE_32 wrap (docs/deviations.md).
  out.push({ name: `V${version} PCP_COUNTER_WRAP`, specs, metrics: DEMO_ALL.filter((m) => m !== 'demo.i32'), steps: [interp([T0, 0], [2, 0]), { fetch: 32 }], env: { PCP_COUNTER_WRAP: '1' }, options: { counterWrap: true } });
  out.push({ name: `V${version} PCP_IGNORE_MARK_RECORDS empty`, specs, metrics: DEMO_ALL, steps: [interp([T0, 0], [2, 0]), { fetch: 32 }], env: { PCP_IGNORE_MARK_RECORDS: '' }, options: { ignoreMarks: { kind: 'all' } } });
  out.push({ name: `V${version} PCP_IGNORE_MARK_RECORDS=10sec`, specs, metrics: DEMO_ALL, steps: [interp([T0, 0], [2, 0]), { fetch: 32 }], env: { PCP_IGNORE_MARK_RECORDS: '10sec' }, options: { ignoreMarks: { kind: 'gap', seconds: 10 } } });
  out.push({ name: `V${version} PCP_IGNORE_MARK_RECORDS=30sec`, specs, metrics: DEMO_ALL, steps: [interp([T0, 0], [2, 0]), { fetch: 32 }, interp([T0 + 60, 0], [-2, 0]), { fetch: 31 }], env: { PCP_IGNORE_MARK_RECORDS: '30sec' }, options: { ignoreMarks: { kind: 'gap', seconds: 30 } } });
  return out;
}

function otherScenarios(): Scenario[] {
  const out: Scenario[] = [];
  for (const version of [2, 3] as const) {
    const cal = [caliperSpec(version)];
    const c0 = cal[0].start.sec;
    out.push({ name: `V${version} calipers: 20 vs 3 instances`, specs: cal, metrics: ['cal.big', 'cal.small', 'cal.tick'], steps: [interp([c0, 0], [5, 0]), { fetch: 6 }, interp([c0 + 20, 0], [-2, -500000000]), { fetch: 10 }] });
    const vol = [multiVolumeSpec(version)];
    const v0 = vol[0].start;
    for (const [name, origin, delta, n] of [
      ['0.75 s from start', [v0.sec, v0.nsec], [0, 750000000], 120],
      ['7.3 s from start', [v0.sec, v0.nsec], [7, 300000000], 14],
      ['2.2 s from 37 s', [v0.sec + 37, 0], [2, 200000000], 20],
      ['97 s', [v0.sec - 3, 0], [97, 0], 3],
      ['-1.9 s from the end', [v0.sec + 110, 0], [-1, -900000000], 60],
      ['13 ms near the mark', [v0.sec + 55, 0], [0, 13000000], 40],
    ] as const) {
      out.push({ name: `V${version} three volumes, ${name}`, specs: vol, metrics: ['vol.ctr', 'vol.gauge', 'vol.i32'], steps: [interp(origin, delta), { fetch: n }] });
    }
    out.push({
      name: `V${version} three volumes: FORW/BACK/archive reads across volumes`,
      specs: vol,
      metrics: ['vol.gauge'],
      steps: [{ setMode: { mode: 'forw', origin: [v0.sec + 40, 0] } }, { fetch: 30 }, { setMode: { mode: 'back', origin: [v0.sec + 60, 0] } }, { fetchArchive: 30 }, { end: true }],
    });
    // Multi-archive: A and B apart (join marks), then A with an overlapping D.
    const a = demoSpec(version);
    const b: FixtureSpec = { ...demoSpec(version), start: { sec: T0 + 100, nsec: 0 } };
    const d: FixtureSpec = { ...demoSpec(version), start: { sec: T0 + 30, nsec: 0 } };
    out.push({ name: `V${version} two archives joined`, specs: [a, b], metrics: DEMO_ALL, steps: [interp([T0, 0], [3, 0]), { fetch: 60 }, interp([T0 + 170, 0], [-7, -300000000]), { fetch: 30 }] });
    out.push({ name: `V${version} two archives: archive reads, FORW and BACK`, specs: [b, a], metrics: ['demo.ctr'], steps: [{ fetchArchive: 20 }, { setMode: { mode: 'back', origin: [T0 + 200, 0] } }, { fetchArchive: 20 }, { setMode: { mode: 'forw', origin: [T0 + 55, 0] } }, { fetch: 6 }, { end: true }] });
    out.push({ name: `V${version} overlapping archives`, specs: [a, d], metrics: DEMO_ALL, steps: [{ fetchArchive: 20 }, interp([T0, 0], [4, 0]), { fetch: 30 }] });
  }
  return out;
}

describe('replay matches libpcp on fixture archives', () => {
  for (const sc of [...demoScenarios(2), ...demoScenarios(3), ...otherScenarios()]) {
    it(sc.name, () => check(sc));
  }
});
